//! The server's own behaviour with the real arbiter: authentication and authorisation,
//! errors that change nothing, timers, reconnect resync, slow clients, restart, and events
//! routed to their audience only.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use baoqi_store::model::{Role, TableId};
use common::{Client, event_file, is_event, start};
use serde_json::{Value, json};

/// Two 視障賽 tables (the first with an alert every 70 ms of red's first second, for the
/// timer test) and a referee of table 1.
const EVENT: &str = r#"
name = "plumbing"
spectators = 1
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[tables.match]
kind = "part6"
red = { name = "r1", categories = ["blind"] }
black = { name = "b1", categories = ["blind"] }
time = { default = { base_ms = 60_000, mode = "plain" } }
alerts = { set = "custom", thresholds_ms = [59_950, 59_880, 59_810, 59_740, 59_670, 59_600, 59_530, 59_460, 59_390, 59_320] }
[[tables]]
name = "t2"
red = "r2"
black = "b2"
[tables.match]
kind = "part6"
red = { name = "r2", categories = ["blind"] }
black = { name = "b2", categories = ["blind"] }
[[referees]]
name = "ref of t1"
tables = [1]
"#;

async fn server() -> common::Server {
    start(None, Some(&event_file(EVENT))).await
}

/// A word that is no word of the notation: always accepted, always impossible, stored.
fn noise(text: &str) -> Value {
    json!({"type": "word", "text": text})
}

/// The texts of the announcement log in a `state`.
fn logged(state: &Value) -> Vec<String> {
    state["snapshot"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["text"].as_str().unwrap().to_owned())
        .collect()
}

/// Starts table `t` from the referee's monitor.
async fn start_table(referee: &mut Client, t: TableId) {
    referee
        .send(json!({"v":2,"type":"command","id":"start","table":t,"command":{"type":"start"}}))
        .await;
    assert_eq!(referee.answer("start").await["type"], "ack");
}

#[tokio::test]
async fn s11_forged_tokens_and_bad_messages_get_errors_and_change_nothing() {
    let s = server().await;
    let mut c = Client::connect(&s.url("seat")).await;
    // Before hello: a command is refused.
    c.command("x", json!({"type": "query_time"})).await;
    let e = c.next().await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("not_authenticated"))
    );
    // A forged token.
    c.send(json!({"v": 2, "type": "hello", "token": "00".repeat(32)}))
        .await;
    assert_eq!(c.next().await["code"], "bad_token");
    // Malformed JSON, a wrong version, an unknown type.
    c.send_raw("{not json").await;
    assert_eq!(c.next().await["code"], "malformed");
    c.send_raw(r#"{"v":1,"type":"ping"}"#).await;
    assert_eq!(c.next().await["code"], "version");
    c.send_raw(r#"{"v":2,"type":"teleport"}"#).await;
    assert_eq!(c.next().await["code"], "malformed");
    // A spectator token on the seat endpoint.
    c.send(json!({"v": 2, "type": "hello", "token": s.token(Role::Spectator, 0)}))
        .await;
    assert_eq!(c.next().await["code"], "wrong_endpoint");
    // The connection still works: a real hello succeeds.
    c.send(json!({"v": 2, "type": "hello", "token": s.token(Role::Red, 0)}))
        .await;
    assert_eq!(c.next().await["type"], "welcome");
    let st = c.until(|v| v["type"] == "state").await;
    assert_eq!(st["seq"], 0, "nothing changed");
    // A command with a bad value is answered precisely, with its id.
    c.command("bad", json!({"type": "board_move", "mv": "h2h2"}))
        .await;
    let e = c.answer("bad").await;
    assert_eq!(e["code"], "bad_command", "{e}");
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
    red.send(json!({"v":2,"type":"command","id":"x","table":t2,"command":{"type":"start"}}))
        .await;
    assert_eq!(red.answer("x").await["code"], "forbidden");
    // The arbiter sees who sent the command: red cannot act as the referee.
    red.command("y", json!({"type": "pause"})).await;
    let r = red.answer("y").await;
    assert_eq!(
        (r["type"].as_str(), r["rejection"]["reason"].as_str()),
        (Some("rejected"), Some("not_allowed")),
        "{r}"
    );
    // Only the server pauses for a restart.
    red.command("z", json!({"type": "pause", "reason": "server_restart"}))
        .await;
    assert_eq!(red.answer("z").await["code"], "forbidden");
    // A spectator may not command.
    let mut watch = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), None).await;
    watch.until(|v| v["type"] == "state").await;
    watch
        .send(json!({"v":2,"type":"command","id":"w","table":t1,"command":{"type":"start"}}))
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
        .send(json!({"v":2,"type":"command","id":"r","table":t2,"command":{"type":"start"}}))
        .await;
    assert_eq!(referee.answer("r").await["code"], "forbidden");
    // Table 2 is untouched.
    let mut black2 = Client::join(&s.url("seat"), &s.token(Role::Black, 1), None).await;
    let st = black2.until(|v| v["type"] == "state").await;
    assert_eq!(st["seq"], 0, "{st}");
    s.stop().await;
}

#[tokio::test]
async fn a103_1_b_the_sealed_move_reaches_the_referee_only() {
    let s = server().await;
    let t1 = s.created.tables[0].id;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let mut watch = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), None).await;
    watch.until(|v| v["type"] == "state").await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    referee.until(|v| v["type"] == "state").await;
    start_table(&mut referee, t1).await;
    for (id, command) in [
        ("p", json!({"type": "pause"})),
        ("s", json!({"type": "seal_move", "mv": "h2e2"})),
    ] {
        referee
            .send(json!({"v":2,"type":"command","id":id,"table":t1,"command":command}))
            .await;
        assert_eq!(referee.answer(id).await["type"], "ack");
    }
    referee.until(|v| is_event(v, "sealed")).await;
    referee
        .send(json!({"v":2,"type":"command","id":"g","table":t1,"command":{"type":"resume"}}))
        .await;
    assert_eq!(referee.answer("g").await["type"], "ack");
    for c in [&mut red, &mut watch] {
        c.until(|v| is_event(v, "resumed")).await;
        assert!(!c.seen.iter().any(|v| is_event(v, "sealed")), "103(1)(b)");
    }
    s.stop().await;
}

#[tokio::test]
async fn s7_alerts_fire_within_20ms_of_their_deadline() {
    let s = server().await;
    let t1 = s.created.tables[0].id;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    start_table(&mut referee, t1).await;
    let mut worst = 0;
    for _ in 0..10 {
        let alert = red.until(|v| is_event(v, "time_alert")).await;
        // The message's instant is when the table's timer published it; the event's is
        // the true instant the threshold was crossed.
        let late = alert["at"].as_u64().unwrap() - alert["event"]["at"].as_u64().unwrap();
        worst = worst.max(late);
    }
    assert!(worst <= 20, "an alert was published {worst} ms late");
    let stats = s.hub.metrics().stats().timer_lateness;
    assert!(stats.count >= 10 && stats.max_ms <= 20.0, "{stats:?}");
    println!("timer lateness: {stats:?}");
    s.stop().await;
}

#[tokio::test]
async fn s11_a_reconnecting_client_gets_what_it_missed_then_the_state() {
    let s = server().await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    start_table(&mut referee, s.created.tables[0].id).await;
    red.command("1", noise("one")).await;
    assert_eq!(red.answer("1").await["type"], "ack");
    let seen = red.until(|v| is_event(v, "impossible")).await["seq"]
        .as_u64()
        .unwrap();
    red.close().await;
    for w in ["two", "three"] {
        referee
            .send(json!({"v":2,"type":"command","id":w,"table":s.created.tables[0].id,"command":noise(w)}))
            .await;
        assert_eq!(referee.answer(w).await["type"], "ack");
    }
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), Some(seen)).await;
    let mut missed = Vec::new();
    let st = loop {
        let v = red.next().await;
        if v["type"] == "state" {
            break v;
        }
        missed.push(v);
    };
    let texts: Vec<&str> = missed
        .iter()
        .filter(|v| is_event(v, "word"))
        .map(|v| v["event"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["two", "three"]);
    assert_eq!(st["seq"], missed.last().unwrap()["seq"]);
    assert_eq!(logged(&st), ["one", "two", "three"]);
    s.stop().await;
}

#[tokio::test]
async fn s11_a_client_that_never_reads_does_not_delay_the_game() {
    // 6,000 commands as fast as the server answers (far beyond a seat's rate limit), of
    // the longest word a seat may send: enough to fill a peer's socket.
    let limits = baoqi_server::limits::Limits::unmetered();
    let s = common::start_with(None, Some(&event_file(EVENT)), limits).await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    start_table(&mut referee, s.created.tables[0].id).await;
    // A client that joins and then never reads its socket.
    let mut stalled = Client::connect_small(&s.url("seat")).await;
    let hello = json!({"v": 2, "type": "hello", "token": s.token(Role::Black, 0)});
    stalled.send(hello).await;
    let joined = stalled.until(|v| v["type"] == "state").await["seq"]
        .as_u64()
        .unwrap();
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    // The longest word a seat may send.
    let text = "字".repeat(baoqi_protocol::text::MAX_WORD_CHARS);
    let started = std::time::Instant::now();
    let mut worst = Duration::ZERO;
    let mut last_seq = 0;
    for i in 0..6_000 {
        let t0 = std::time::Instant::now();
        red.command(&format!("c{i}"), noise(&text)).await;
        let a = red.answer(&format!("c{i}")).await;
        last_seq = a["seq"].as_u64().unwrap();
        worst = worst.max(t0.elapsed());
    }
    assert!(
        worst < Duration::from_millis(250),
        "a command took {worst:?}"
    );
    println!(
        "6,000 commands with a stalled peer: {:?}, worst {worst:?}",
        started.elapsed()
    );
    // When it reads again it catches up: every event in order, possibly through a resync
    // (missed events then a fresh state), up to the last one, nothing lost.
    let mut last = joined;
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
        if last >= last_seq {
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
async fn s11_a_restart_rebuilds_the_match_and_pauses_both_clocks() {
    let s = server().await;
    let t1 = s.created.tables[0].id;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    start_table(&mut referee, t1).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    for w in ["a", "b"] {
        red.command(w, noise(w)).await;
        assert_eq!(red.answer(w).await["type"], "ack");
    }
    let created = s.created.clone();
    red.close().await;
    let db = s.stop().await;
    let mut s2 = start(Some(db), None).await;
    s2.created = created;
    let mut red = Client::join(&s2.url("seat"), &s2.token(Role::Red, 0), None).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(logged(&st), ["a", "b"]);
    let snap = &st["snapshot"];
    assert_eq!(
        (snap["phase"].as_str(), snap["paused"].as_str()),
        (Some("paused"), Some("server_restart")),
        "the restart policy paused the match"
    );
    assert!(snap["clock"]["running"].is_null(), "no clock runs: {snap}");
    let mut referee = Client::join(&s2.url("monitor"), &s2.token(Role::Referee, 0), None).await;
    referee
        .send(json!({"v":2,"type":"command","id":"go","table":t1,"command":{"type":"resume"}}))
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
    let s = start(None, Some(&event_file(&auto))).await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    start_table(&mut referee, s.created.tables[0].id).await;
    let created = s.created.clone();
    let db = s.stop().await;
    let restarted = std::time::Instant::now();
    let mut s2 = start(Some(db), None).await;
    s2.created = created;
    let mut red = Client::join(&s2.url("seat"), &s2.token(Role::Red, 0), None).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(st["snapshot"]["phase"], "paused", "paused by the restart");
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
    assert!(baoqi_organiser::admin::revoke(&**s.hub.store(), &token).unwrap());
    let mut again = Client::connect(&s.url("seat")).await;
    again
        .send(json!({"v": 2, "type": "hello", "token": token}))
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

#[tokio::test]
async fn s11_a_command_that_cannot_be_stored_changes_nothing() {
    use std::sync::atomic::Ordering;
    let (inner, _path) = baoqi_store::SqliteStore::open_temp().unwrap();
    let flaky = Arc::new(common::flaky::Flaky {
        inner,
        fail: std::sync::atomic::AtomicBool::new(false),
    });
    let created = baoqi_organiser::admin::create_event(&*flaky, &event_file(EVENT)).unwrap();
    let hub = baoqi_server::Hub::open(flaky.clone()).unwrap();
    hub.start_tables(true).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws/seat", listener.local_addr().unwrap());
    tokio::spawn(baoqi_server::run(
        listener,
        hub.clone(),
        std::future::pending(),
    ));
    let token = |role: Role| {
        created
            .seats
            .iter()
            .find(|s| s.seat.role == role && s.seat.tables == [created.tables[0].id])
            .unwrap()
            .token
            .secret()
            .to_string()
    };
    let mut black = Client::join(&url, &token(Role::Black), None).await;
    black.until(|v| v["type"] == "state").await;
    black.command("go", json!({"type": "press_clock"})).await;
    assert_eq!(
        black.answer("go").await["type"],
        "ack",
        "black starts the clocks"
    );
    let mut red = Client::join(&url, &token(Role::Red), None).await;
    red.until(|v| v["type"] == "state").await;
    red.command("a", noise("kept")).await;
    assert_eq!(red.answer("a").await["type"], "ack");
    flaky.fail.store(true, Ordering::Relaxed);
    red.command("b", noise("lost")).await;
    let e = red.answer("b").await;
    assert_eq!(e["code"], "storage", "{e}");
    flaky.fail.store(false, Ordering::Relaxed);
    red.command("c", noise("after")).await;
    assert_eq!(red.answer("c").await["type"], "ack");
    red.send(json!({"v": 2, "type": "sync"})).await;
    let st = red.until(|v| v["type"] == "state").await;
    assert_eq!(logged(&st), ["kept", "after"], "{st}");
    assert!(
        !red.seen.iter().any(|v| v["event"]["text"] == "lost"),
        "never published"
    );
    hub.shutdown();
}

/// A table run here, reached as another node's would be, whose first `unanswered` joins
/// get no answer (a holder late or gone, before another takes the table over).
struct LateHolder {
    here: baoqi_server::table::TableHandle,
    unanswered: std::sync::atomic::AtomicU32,
}

impl baoqi_server::federated::RemoteMatch for LateHolder {
    fn id(&self) -> TableId {
        self.here.id
    }
    fn command(
        &self,
        seat: baoqi_server::table::SeatKey,
        command: baoqi_arbiter::Command,
    ) -> baoqi_server::federated::BoxFuture<'_, Option<baoqi_server::table::Handled>> {
        Box::pin(self.here.command(seat, command))
    }
    fn join(
        &self,
        since: Option<u64>,
    ) -> baoqi_server::federated::BoxFuture<'_, Option<baoqi_server::table::Joined>> {
        use std::sync::atomic::Ordering;
        let late = self
            .unanswered
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        Box::pin(async move {
            if late {
                None
            } else {
                self.here.join(since).await
            }
        })
    }
    fn over(&self) -> Option<Arc<baoqi_arbiter::View>> {
        None
    }
    fn record(
        &self,
    ) -> baoqi_server::federated::BoxFuture<
        '_,
        Option<(baoqi_store::game::GameRecord, Arc<baoqi_arbiter::View>)>,
    > {
        Box::pin(self.here.record())
    }
}

#[tokio::test]
async fn a_join_the_holder_does_not_answer_is_asked_again_and_the_seat_gets_the_game() {
    let s = server().await;
    let id = s.created.tables[0].id;
    let row = s.hub.table_row(id).expect("the table's row");
    let here = s.hub.table(id).expect("the table runs here");
    let late = LateHolder {
        here,
        unanswered: std::sync::atomic::AtomicU32::new(2),
    };
    s.hub.put(
        row,
        baoqi_server::table::TableHandle::remote(Arc::new(late)),
    );
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    // Told at once that the table does not answer, and when it is asked again.
    let told = red.next().await;
    assert_eq!(
        (told["type"].as_str(), told["code"].as_str()),
        (Some("error"), Some("unavailable")),
        "{told}"
    );
    assert!(
        told["message"]
            .as_str()
            .unwrap_or_default()
            .contains("again in 1 s"),
        "{told}"
    );
    // Asked again after 1 s, then 2 s: the third join is answered with the game's state.
    let state = tokio::time::timeout(Duration::from_secs(6), red.until(|v| v["type"] == "state"))
        .await
        .expect("the seat gets the game's state once the holder answers");
    assert_eq!(state["table"], json!(id.0), "{state}");
}
