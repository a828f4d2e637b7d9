//! A PostgreSQL store rides through the server closing its connections (what a restart of
//! PostgreSQL, a fail-over or a cut does to a client): the call that meets the closing fails
//! (a storage error: refused, never acknowledged), and the next ones open the connections
//! again; a lookup, which may be made twice, is made again at once on a new connection;
//! everything stored before is there. Here the store's own server processes are
//! ended (`pg_terminate_backend`, by the store's application name) rather than the whole
//! server, which other tests share. Skipped (with a note) when no PostgreSQL is configured.

use baoqi_store::config::EventSettings;
use baoqi_store::testing::PgSchema;
use baoqi_store::{PgStore, Store};

/// Ends every server process whose connection carries `app` as its application name; how
/// many.
fn close_connections(url: &str, app: &str) -> i64 {
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
            &[&app],
        )
        .unwrap()
        .get(0)
}

/// Calls `f` until it succeeds, at most `tries` times; the failures on the way.
fn until_ok<T>(
    tries: usize,
    mut f: impl FnMut() -> Result<T, baoqi_store::StoreError>,
) -> (T, Vec<String>) {
    let mut failed = Vec::new();
    loop {
        match f() {
            Ok(v) => return (v, failed),
            Err(e) => {
                failed.push(e.to_string());
                assert!(failed.len() < tries, "still failing: {failed:?}");
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        }
    }
}

#[test]
fn a_store_opens_its_connections_again_after_the_server_closed_them() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let app = format!("baoqi_reconnect_{}", std::process::id());
    let url = format!(
        "{}{}application_name={app}",
        schema.url,
        if schema.url.contains('?') { '&' } else { '?' }
    );
    let store = PgStore::open_in(&url, Some(&schema.name)).unwrap();
    let first = store.create_event("甲", &EventSettings::default()).unwrap();
    assert!(store.events().unwrap().iter().any(|e| e.id == first));

    assert!(
        close_connections(&schema.url, &app) >= 2,
        "the writer's and the reader's"
    );
    // The writer's and the reader's connections were both closed: each may fail once.
    let (second, failed) = until_ok(5, || store.create_event("乙", &EventSettings::default()));
    assert!(
        failed.len() <= 1,
        "writes failed before the writer reconnected: {failed:?}"
    );
    // A lookup is made again on a new connection: it does not fail at all.
    let (events, failed) = until_ok(5, || store.events());
    assert_eq!(
        failed,
        Vec::<String>::new(),
        "lookups failed after the server closed their connection"
    );
    let ids: Vec<_> = events.iter().map(|e| e.id).collect();
    assert!(ids.contains(&first) && ids.contains(&second), "{ids:?}");

    // Closed again, twice over: the store keeps coming back.
    for _ in 0..2 {
        close_connections(&schema.url, &app);
        let (_, failed) = until_ok(5, || store.events());
        assert_eq!(failed, Vec::<String>::new(), "lookups failed");
    }
}
