//! The server's own behaviour, on a small deterministic engine (the rules are the arbiter's
//! business and are tested through it in `game.rs`): authentication and authorisation,
//! errors that change nothing, timers, reconnect resync, slow clients, restart.

mod common;

use std::sync::Arc;
use std::time::Duration;

use baoqi_server::model::Role;
use common::{Client, CountdownFactory, event_file, is_event, start};
use serde_json::json;

const EVENT: &str = r#"
name = "plumbing"
spectators = 1
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[[tables]]
name = "t2"
red = "r2"
black = "b2"
[[referees]]
name = "ref of t1"
tables = [1]
"#;

async fn server() -> common::Server {
    start(Arc::new(CountdownFactory), None, Some(&event_file(EVENT))).await
}

#[tokio::test]
async fn s11_forged_tokens_and_bad_messages_get_errors_and_change_nothing() {
    let s = server().await;
    let mut c = Client::connect(&s.url("seat")).await;
    // Before hello: a command is refused.
    c.command("x", json!({"type": "say", "text": "hi"})).await;
    let e = c.next().await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("not_authenticated"))
    );
    // A forged token.
    c.send(json!({"v": 1, "type": "hello", "token": "00".repeat(32)}))
        .await;
    assert_eq!(c.next().await["code"], "bad_token");
    // Malformed JSON, a wrong version, an unknown type.
    c.send_raw("{not json").await;
    assert_eq!(c.next().await["code"], "malformed");
    c.send_raw(r#"{"v":9,"type":"ping"}"#).await;
    assert_eq!(c.next().await["code"], "version");
    c.send_raw(r#"{"v":1,"type":"teleport"}"#).await;
    assert_eq!(c.next().await["code"], "malformed");
    // A spectator token on the seat endpoint.
    c.send(json!({"v": 1, "type": "hello", "token": s.token(Role::Spectator, 0)}))
        .await;
    assert_eq!(c.next().await["code"], "wrong_endpoint");
    // The connection still works: a real hello succeeds.
    c.send(json!({"v": 1, "type": "hello", "token": s.token(Role::Red, 0)}))
        .await;
    assert_eq!(c.next().await["type"], "welcome");
    let st = c.until(|v| v["type"] == "state").await;
    assert_eq!(st["snapshot"]["said"], json!([]), "nothing changed");
    s.stop().await;
}

#[tokio::test]
async fn s11_a_seat_acts_only_for_itself_and_spectators_only_read() {
    let s = server().await;
    let t1 = s.created.tables[0].id;
    let t2 = s.created.tables[1].id;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    // Red of table 1 names table 2: forbidden, nothing changes there.
    red.send(
        json!({"v":1,"type":"command","id":"x","table":t2,"command":{"type":"say","text":"hack"}}),
    )
    .await;
    let e = red.answer("x").await;
    assert_eq!(e["code"], "forbidden", "{e}");
    // The engine sees who sent the command: red cannot resume as a referee would.
    red.command("y", json!({"type": "resume"})).await;
    assert_eq!(red.answer("y").await["type"], "rejected");
    // A spectator may not command.
    let mut watch = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), None).await;
    watch.until(|v| v["type"] == "state").await;
    watch
        .send(
            json!({"v":1,"type":"command","id":"w","table":t1,"command":{"type":"say","text":"x"}}),
        )
        .await;
    assert_eq!(watch.answer("w").await["code"], "forbidden");
    // The referee of table 1 may not act on table 2 and does not follow it.
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    assert!(
        referee.seen[0]["tables"] == json!([t1]),
        "{:?}",
        referee.seen
    );
    referee
        .send(
            json!({"v":1,"type":"command","id":"r","table":t2,"command":{"type":"say","text":"x"}}),
        )
        .await;
    assert_eq!(referee.answer("r").await["code"], "forbidden");
    // Table 2 is untouched.
    let mut black2 = Client::join(&s.url("seat"), &s.token(Role::Black, 1), None).await;
    let st = black2.until(|v| v["type"] == "state").await;
    assert_eq!(st["seq"], 0, "{st}");
    // A referee-only event reaches the referee, not the players or spectators.
    referee
        .send(json!({"v":1,"type":"command","id":"s","table":t1,"command":{"type":"secret"}}))
        .await;
    referee.until(|v| is_event(v, "secret")).await;
    red.command("z", json!({"type": "say", "text": "after"}))
        .await;
    let next = red.until(|v| v["type"] == "event").await;
    assert_eq!(
        next["event"]["type"], "said",
        "red must not see the secret: {next}"
    );
    watch.until(|v| is_event(v, "said")).await;
    assert!(!watch.seen.iter().any(|v| is_event(v, "secret")));
    s.stop().await;
}

#[tokio::test]
async fn s7_alerts_fire_within_20ms_of_their_deadline() {
    let s = server().await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let mut worst = 0;
    for i in 0..10 {
        red.command(
            &format!("a{i}"),
            json!({"type": "arm", "in_ms": 50 + 7 * i}),
        )
        .await;
        let alarm = red.until(|v| is_event(v, "alarm")).await;
        let late = alarm["event"]["at"].as_u64().unwrap() - alarm["event"]["due"].as_u64().unwrap();
        worst = worst.max(late);
    }
    assert!(worst <= 20, "an alarm fired {worst} ms late");
    let stats = s.hub.metrics().stats().timer_lateness;
    assert!(stats.count >= 10 && stats.max_ms <= 20.0, "{stats:?}");
    println!("timer lateness: {stats:?}");
    s.stop().await;
}

#[tokio::test]
async fn s11_a_reconnecting_client_gets_what_it_missed_then_the_state() {
    let s = server().await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    red.command("1", json!({"type": "say", "text": "one"}))
        .await;
    let first = red.until(|v| is_event(v, "said")).await;
    let seen = first["seq"].as_u64().unwrap();
    red.close().await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    black.until(|v| v["type"] == "state").await;
    for w in ["two", "three"] {
        black.command(w, json!({"type": "say", "text": w})).await;
        assert_eq!(black.answer(w).await["type"], "ack");
    }
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), Some(seen)).await;
    let a = red.next().await;
    let b = red.next().await;
    let st = red.next().await;
    assert_eq!(
        (a["event"]["text"].as_str(), b["event"]["text"].as_str()),
        (Some("two"), Some("three"))
    );
    assert_eq!(st["type"], "state");
    assert_eq!(st["seq"], b["seq"]);
    assert_eq!(st["snapshot"]["said"], json!(["one", "two", "three"]));
    s.stop().await;
}

#[tokio::test]
async fn s11_a_client_that_never_reads_does_not_delay_the_game() {
    let s = server().await;
    // A client that joins and then never reads its socket.
    let mut stalled = Client::connect_small(&s.url("seat")).await;
    let hello = json!({"v": 1, "type": "hello", "token": s.token(Role::Black, 0)});
    stalled.send(hello).await;
    stalled.until(|v| v["type"] == "state").await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let text = "字".repeat(2000);
    let started = std::time::Instant::now();
    let mut worst = Duration::ZERO;
    for i in 0..2000 {
        let t0 = std::time::Instant::now();
        red.command(&format!("c{i}"), json!({"type": "say", "text": text}))
            .await;
        red.until(|v| v["id"] == format!("c{i}")).await;
        worst = worst.max(t0.elapsed());
    }
    assert!(
        worst < Duration::from_millis(250),
        "a command took {worst:?}"
    );
    println!(
        "2000 commands with a stalled peer: {:?}, worst {worst:?}",
        started.elapsed()
    );
    // When it reads again it catches up: every event in order, possibly through a resync
    // (missed events then a fresh state), up to the last one, nothing lost.
    let mut last = 0;
    loop {
        let v = stalled.next().await;
        let seq = v["seq"].as_u64().unwrap_or(0);
        match v["type"].as_str() {
            Some("state") => {
                assert!(seq >= last, "a state never goes back: {seq} < {last}");
                last = seq;
            }
            Some("event") if seq <= last => {}
            Some("event") => {
                assert_eq!(seq, last + 1, "no event is skipped");
                last = seq;
            }
            _ => {}
        }
        if last >= 2000 {
            break;
        }
    }
    while !stalled.quiet(300).await {}
    // Every state after the one of the join is a resync.
    let resyncs = stalled.seen.iter().filter(|v| v["type"] == "state").count() - 1;
    println!("the stalled client caught up through {resyncs} resyncs");
    assert!(
        resyncs >= 1,
        "the stalled client was never dropped to resync"
    );
    s.stop().await;
}

#[tokio::test]
async fn s11_a_restart_rebuilds_the_match_and_pauses_it() {
    let s = server().await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    for w in ["a", "b"] {
        red.command(w, json!({"type": "say", "text": w})).await;
        assert_eq!(red.answer(w).await["type"], "ack");
    }
    let created = s.created.clone();
    red.close().await;
    let db = s.stop().await;
    let mut s2 = start(Arc::new(CountdownFactory), Some(db), None).await;
    s2.created = created;
    let mut red = Client::join(&s2.url("seat"), &s2.token(Role::Red, 0), None).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(st["snapshot"]["said"], json!(["a", "b"]));
    assert_eq!(
        st["snapshot"]["paused"], true,
        "the restart policy paused the match"
    );
    let mut referee = Client::join(&s2.url("monitor"), &s2.token(Role::Referee, 0), None).await;
    let t1 = s2.created.tables[0].id;
    referee
        .send(json!({"v":1,"type":"command","id":"go","table":t1,"command":{"type":"resume"}}))
        .await;
    assert_eq!(referee.answer("go").await["type"], "ack");
    s2.stop().await;
}

#[tokio::test]
async fn s11_under_the_auto_policy_the_server_restarts_the_clocks_itself() {
    // docs/event.toml: resume = { mode = "auto", after_secs = N } restarts the paused
    // clocks N seconds after a server restart, with no referee action.
    let auto = EVENT.replace(
        "spectators = 1\n",
        "spectators = 1\n[settings]\nresume = { mode = \"auto\", after_secs = 1 }\n",
    );
    let s = start(Arc::new(CountdownFactory), None, Some(&event_file(&auto))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    red.command("a", json!({"type": "say", "text": "a"})).await;
    assert_eq!(red.answer("a").await["type"], "ack", "the game has begun");
    red.close().await;
    let created = s.created.clone();
    let db = s.stop().await;
    let restarted = std::time::Instant::now();
    let mut s2 = start(Arc::new(CountdownFactory), Some(db), None).await;
    s2.created = created;
    let mut red = Client::join(&s2.url("seat"), &s2.token(Role::Red, 0), None).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(st["snapshot"]["paused"], true, "paused by the restart");
    red.until(|v| is_event(v, "resumed")).await;
    let waited = restarted.elapsed();
    assert!(
        waited >= Duration::from_millis(900),
        "resumed only after the policy's delay, not at once: {waited:?}"
    );
    assert!(
        waited < Duration::from_secs(5),
        "resumed in time: {waited:?}"
    );
    s2.stop().await;
}

#[tokio::test]
async fn s11_a_revoked_token_no_longer_joins() {
    let s = server().await;
    let token = s.token(Role::Red, 0);
    let mut red = Client::join(&s.url("seat"), &token, None).await;
    red.until(|v| v["type"] == "state").await;
    assert!(baoqi_server::admin::revoke(&**s.hub.store(), &token).unwrap());
    let mut again = Client::connect(&s.url("seat")).await;
    again
        .send(json!({"v": 1, "type": "hello", "token": token}))
        .await;
    assert_eq!(again.next().await["code"], "revoked");
    s.stop().await;
}

#[tokio::test]
async fn unknown_tables_and_events_are_404_over_http() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;
    let s = server().await;
    for path in [
        "/api/tables/999/scoresheet.txt",
        "/api/events/999/results.txt",
        "/assets/nothing.js",
    ] {
        let router = baoqi_server::http::router(s.hub.clone());
        let resp = router
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let router = baoqi_server::http::router(s.hub.clone());
    let resp = router
        .oneshot(Request::get("/api/stats").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    s.stop().await;
}

/// A store whose appends can be made to fail.
struct Flaky {
    inner: baoqi_server::store::SqliteStore,
    fail: std::sync::atomic::AtomicBool,
}

impl baoqi_server::store::Store for Flaky {
    fn create_event(
        &self,
        name: &str,
        settings: &serde_json::Value,
    ) -> Result<i64, baoqi_server::store::StoreError> {
        self.inner.create_event(name, settings)
    }
    fn events(
        &self,
    ) -> Result<Vec<baoqi_server::model::EventRow>, baoqi_server::store::StoreError> {
        self.inner.events()
    }
    fn add_table(
        &self,
        t: &baoqi_server::model::TableRow,
    ) -> Result<i64, baoqi_server::store::StoreError> {
        self.inner.add_table(t)
    }
    fn tables(
        &self,
        event: Option<i64>,
    ) -> Result<Vec<baoqi_server::model::TableRow>, baoqi_server::store::StoreError> {
        self.inner.tables(event)
    }
    fn add_seat(
        &self,
        s: &baoqi_server::model::SeatRow,
    ) -> Result<(), baoqi_server::store::StoreError> {
        self.inner.add_seat(s)
    }
    fn seat(
        &self,
        h: &str,
    ) -> Result<Option<baoqi_server::model::SeatRow>, baoqi_server::store::StoreError> {
        self.inner.seat(h)
    }
    fn seats(
        &self,
        e: i64,
    ) -> Result<Vec<baoqi_server::model::SeatRow>, baoqi_server::store::StoreError> {
        self.inner.seats(e)
    }
    fn revoke(&self, h: &str) -> Result<bool, baoqi_server::store::StoreError> {
        self.inner.revoke(h)
    }
    fn append(
        &self,
        entries: &[baoqi_server::store::LogEntry],
        timeline: Option<u64>,
    ) -> Result<(), baoqi_server::store::StoreError> {
        if !entries.is_empty() && self.fail.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(baoqi_server::store::StoreError("disk full".into()));
        }
        self.inner.append(entries, timeline)
    }
    fn log(
        &self,
        t: i64,
    ) -> Result<Vec<baoqi_server::store::LogEntry>, baoqi_server::store::StoreError> {
        self.inner.log(t)
    }
    fn timeline(&self) -> Result<u64, baoqi_server::store::StoreError> {
        self.inner.timeline()
    }
}

#[tokio::test]
async fn s11_a_command_that_cannot_be_stored_changes_nothing() {
    use std::sync::atomic::Ordering;
    let (inner, _path) = baoqi_server::store::SqliteStore::open_temp().unwrap();
    let flaky = Arc::new(Flaky {
        inner,
        fail: std::sync::atomic::AtomicBool::new(false),
    });
    let factory = Arc::new(CountdownFactory);
    let created =
        baoqi_server::admin::create_event(&*flaky, &*factory, &event_file(EVENT)).unwrap();
    let hub = baoqi_server::Hub::open(flaky.clone(), factory).unwrap();
    hub.start_tables(true).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws/seat", listener.local_addr().unwrap());
    tokio::spawn(baoqi_server::run(
        listener,
        hub.clone(),
        std::future::pending(),
    ));
    let token = created
        .seats
        .iter()
        .find(|s| s.seat.role == Role::Red && s.seat.tables == [created.tables[0].id])
        .unwrap()
        .token
        .secret()
        .to_string();
    let mut red = Client::join(&url, &token, None).await;
    red.until(|v| v["type"] == "state").await;
    red.command("a", json!({"type": "say", "text": "kept"}))
        .await;
    assert_eq!(red.answer("a").await["type"], "ack");
    flaky.fail.store(true, Ordering::Relaxed);
    red.command("b", json!({"type": "say", "text": "lost"}))
        .await;
    let e = red.answer("b").await;
    assert_eq!(e["code"], "storage", "{e}");
    flaky.fail.store(false, Ordering::Relaxed);
    red.command("c", json!({"type": "say", "text": "after"}))
        .await;
    assert_eq!(red.answer("c").await["type"], "ack");
    red.send(json!({"v": 1, "type": "sync"})).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(st["snapshot"]["said"], json!(["kept", "after"]), "{st}");
    assert!(
        !red.seen.iter().any(|v| v["event"]["text"] == "lost"),
        "never published"
    );
    hub.shutdown();
}
