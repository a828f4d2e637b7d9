//! The PostgreSQL store's connections are pooled by role: a lookup held up in the database
//! (a table locked by someone else, a long rebuild) does not hold up a seat's lookup, and
//! another write held up does not hold up the appends of the tables' commands. Skipped
//! (with a note) when no PostgreSQL is configured.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use baoqi_arbiter::Millis;
use baoqi_store::config::EventSettings;
use baoqi_store::model::TableId;
use baoqi_store::testing::PgSchema;
use baoqi_store::{PgStore, Snapshot, Store};

use super::leases::{entry, table_row};

/// How long a call that is not held up may take, at most, here.
const PROMPT: Duration = Duration::from_secs(3);

/// A connection of its own holding `table` of `schema` locked (every read and write of it
/// waits) until it is dropped or rolled back.
fn lock(schema: &PgSchema, table: &str) -> postgres::Client {
    let mut admin = postgres::Client::connect(&schema.url, postgres::NoTls).unwrap();
    let sql = format!(
        "BEGIN; LOCK TABLE {}.{table} IN ACCESS EXCLUSIVE MODE",
        schema.name
    );
    admin.batch_execute(&sql).unwrap();
    admin
}

/// A store on a schema of its own, with one event and one table.
fn store(schema: &PgSchema) -> (Arc<PgStore>, TableId) {
    let store = Arc::new(schema.open());
    let event = store
        .create_event("聯賽", &EventSettings::default())
        .unwrap();
    let table = store.add_table(&table_row(event)).unwrap();
    (store, table)
}

/// Runs `f` on a thread of its own; what it returns arrives on the receiver.
fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> mpsc::Receiver<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

#[test]
fn a_lookup_held_up_in_the_database_does_not_hold_up_a_seats_lookup() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let (store, table) = store(&schema);
    let locked = lock(&schema, "log");
    // A rebuild reads the table's log, and waits on the lock.
    let s = store.clone();
    let rebuild = spawn(move || s.log(table).map(|l| l.len()));
    assert!(
        rebuild.recv_timeout(Duration::from_millis(300)).is_err(),
        "the log is locked: the rebuild waits"
    );
    // Meanwhile a seat joins: its lookup is answered.
    let s = store.clone();
    let seat = spawn(move || s.seat("no such token").map(|s| s.is_none()));
    assert_eq!(
        seat.recv_timeout(PROMPT).ok().map(Result::unwrap),
        Some(true),
        "a seat's lookup answered while the rebuild waits"
    );
    drop(locked);
    assert_eq!(rebuild.recv_timeout(PROMPT).unwrap().unwrap(), 0);
}

#[test]
fn another_write_held_up_in_the_database_does_not_hold_up_the_appends() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let (store, table) = store(&schema);
    let locked = lock(&schema, "snapshots");
    // A table's snapshot is being written, and waits on the lock.
    let s = store.clone();
    let snapshot = spawn(move || {
        s.put_snapshot(&Snapshot {
            table,
            index: 1,
            format: 1,
            state: "{}".into(),
        })
    });
    assert!(
        snapshot.recv_timeout(Duration::from_millis(300)).is_err(),
        "the snapshots are locked: the write waits"
    );
    // Meanwhile the tables' commands are appended and committed.
    let s = store.clone();
    let append = spawn(move || s.append(&[entry(table, 0), entry(table, 1)], Some(Millis(10))));
    assert!(
        append.recv_timeout(PROMPT).is_ok_and(|r| r.is_ok()),
        "the appends committed while the snapshot waits"
    );
    drop(locked);
    snapshot.recv_timeout(PROMPT).unwrap().unwrap();
    assert_eq!(store.log(table).unwrap().len(), 2);
}
