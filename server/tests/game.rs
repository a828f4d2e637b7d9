//! A whole game through real WebSocket connections with the real arbiter: two seats and a referee,
//! an announcement that check (b) corrects, a clock alert, and a card resignation.

use crate::common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use baoqi_store::model::{EventId, Role, TableId};
use common::{Client, event_file, is_event, start};
use serde_json::{Value, json};
use tower::ServiceExt;

/// 共融賽: blind red on the VI board, deaf black on the regular board (mirrored boards);
/// red's clock is short so that a custom alert threshold is crossed during the test.
const EVENT: &str = r#"
name = "game"
[[tables]]
name = "共融賽 1"
red = "王芳"
black = "趙強"
[tables.match]
kind = "part7"
red = { name = "王芳", categories = ["blind"], board = "vi", time = { base_ms = 9_000, mode = "plain" } }
black = { name = "趙強", categories = ["deaf"], board = "regular", time = { base_ms = 600_000, mode = "plain" } }
alerts = { set = "custom", thresholds_ms = [8_000] }
"#;

async fn act(c: &mut Client, id: &str, command: Value) -> Value {
    c.command(id, command).await;
    let a = c.answer(id).await;
    println!("{id}: {a}");
    a
}

async fn ok(c: &mut Client, id: &str, command: Value) {
    let a = act(c, id, command).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

async fn say(c: &mut Client, id: &str, words: &str) {
    for (i, w) in words.chars().enumerate() {
        ok(
            c,
            &format!("{id}.{i}"),
            json!({"type": "word", "text": w.to_string()}),
        )
        .await;
    }
}

/// The three seats of the table, connected.
struct Table {
    id: TableId,
    red: Client,
    black: Client,
    referee: Client,
}

impl Table {
    /// A referee command on this table; returns the answer.
    async fn rule(&mut self, id: &str, command: Value) -> Value {
        let msg =
            json!({"v": 2, "type": "command", "id": id, "table": self.id, "command": command});
        self.referee.send(msg).await;
        self.referee.answer(id).await
    }
}

/// Start, then 炮二平五 by red (VI board) and 馬8進7 by black (deaf, regular board): the
/// mirrored boards, the deaf player's signal and the referee announcing for him.
async fn opening(t: &mut Table) {
    // A player may not start the game for the referee; the referee may.
    let refused = act(&mut t.red, "r0", json!({"type": "start"})).await;
    assert_eq!(refused["type"], "rejected", "{refused}");
    assert_eq!(
        t.rule("start", json!({"type": "start"})).await["type"],
        "ack"
    );
    say(&mut t.red, "r1", "炮二平五").await;
    ok(
        &mut t.red,
        "r1.b",
        json!({"type": "board_move", "mv": "h2e2"}),
    )
    .await;
    ok(&mut t.red, "r1.p", json!({"type": "press_clock"})).await;
    let moved = t.black.until(|v| is_event(v, "moved")).await;
    assert_eq!(moved["event"]["mv"]["iccs"], "h2e2");
    assert_eq!(
        moved["event"]["mv"]["words"],
        json!(["cannon", "2", "across", "5"])
    );
    t.black.until(|v| is_event(v, "repeat_due")).await;
    // Black may not speak for red: his seat is black's.
    let cross = act(&mut t.black, "x1", json!({"type": "word", "text": "炮"})).await;
    assert_eq!(cross["type"], "rejected", "{cross}");
    // Black mirrors red's move on the regular board and confirms it on his cards.
    ok(
        &mut t.black,
        "b0.m",
        json!({"type": "board_move", "mv": "h2e2"}),
    )
    .await;
    ok(&mut t.black, "b0.c", json!({"type": "confirm_repeat"})).await;
    // Black moves on his board and signals; the referee announces for him (7.4(2)(d)).
    ok(
        &mut t.black,
        "b1.b",
        json!({"type": "board_move", "mv": "h9g7"}),
    )
    .await;
    ok(&mut t.black, "b1.s", json!({"type": "signal"})).await;
    let call = |v: &Value| is_event(v, "referee_needed") && v["event"]["call"] == "announce_for";
    t.referee.until(call).await;
    for (i, w) in "馬8進7".chars().enumerate() {
        let a = t
            .rule(
                &format!("rw{i}"),
                json!({"type": "word", "text": w.to_string()}),
            )
            .await;
        assert_eq!(a["type"], "ack", "{a}");
    }
    ok(&mut t.black, "b1.p", json!({"type": "press_clock"})).await;
    t.red.until(|v| is_event(v, "repeat_due")).await;
}

/// Red drops off and comes back with the last sequence number it saw: it gets exactly the
/// events it missed, then the state.
async fn reconnect_red(t: &mut Table, url: &str, token: &str) {
    let last_seen = t
        .red
        .seen
        .iter()
        .filter_map(|v| v["seq"].as_u64())
        .max()
        .unwrap();
    let old = std::mem::replace(&mut t.red, Client::join(url, token, Some(last_seen)).await);
    old.close().await;
    let state = t.red.until(|v| v["type"] == "state").await;
    assert_eq!(
        state["snapshot"]["moves"].as_array().unwrap().len(),
        2,
        "{state}"
    );
    let replayed: Vec<u64> = t
        .red
        .seen
        .iter()
        .filter(|v| v["type"] == "event")
        .filter_map(|v| v["seq"].as_u64())
        .collect();
    assert!(replayed.iter().all(|&q| q > last_seen), "{replayed:?}");
    assert_eq!(
        replayed.len() as u64,
        state["seq"].as_u64().unwrap() - last_seen,
        "{replayed:?}"
    );
}

/// Red mirrors black's move, then announces 馬二進四: a horse move on an empty board, but
/// its leg is blocked by the elephant on g0, so illegal; on the board he plays 馬二進三
/// (h0g2), a legal move of the announced piece: check (b) — the board move stands, one
/// recording violation, announce again.
async fn check_b(t: &mut Table) {
    for (i, w) in "馬8進7".chars().enumerate() {
        ok(
            &mut t.red,
            &format!("r2.{i}"),
            json!({"type": "repeat_word", "text": w.to_string()}),
        )
        .await;
    }
    ok(
        &mut t.red,
        "r2.m",
        json!({"type": "board_move", "mv": "h9g7"}),
    )
    .await;
    say(&mut t.red, "r3", "馬二進四").await;
    ok(
        &mut t.red,
        "r3.b",
        json!({"type": "board_move", "mv": "h0g2"}),
    )
    .await;
    ok(&mut t.red, "r3.p", json!({"type": "press_clock"})).await;
    let not_agreed = |v: &Value| {
        is_event(v, "checked") && v["event"]["side"] == "red" && v["event"]["outcome"] != "agree"
    };
    let checked = t.referee.until(not_agreed).await;
    assert_eq!(checked["event"]["outcome"], "b", "{checked}");
    let violation = t.referee.until(|v| is_event(v, "violation")).await;
    assert_eq!(violation["event"]["kind"], "recording", "{violation}");
    t.red.until(|v| is_event(v, "reannounce_required")).await;
    say(&mut t.red, "r4", "馬二進三").await;
}

/// Red's clock runs until its threshold (8 s left) is crossed: the table's timer fires the
/// alert within 20 ms of its instant, to both sides.
async fn clock_alert(t: &mut Table) {
    let alert = t.red.until(|v| is_event(v, "time_alert")).await;
    let late = alert["at"].as_u64().unwrap() - alert["event"]["at"].as_u64().unwrap();
    println!("clock alert {late} ms after its instant");
    assert!(late <= 20, "the alert came {late} ms late");
    t.black.until(|v| is_event(v, "time_alert")).await;
    ok(&mut t.red, "r4.p", json!({"type": "press_clock"})).await;
}

/// Black mirrors, then resigns by handing over his resignation card: final at once.
async fn card_resignation(t: &mut Table) {
    ok(
        &mut t.black,
        "b2.m",
        json!({"type": "board_move", "mv": "h0g2"}),
    )
    .await;
    ok(&mut t.black, "b2.c", json!({"type": "confirm_repeat"})).await;
    ok(
        &mut t.black,
        "b3",
        json!({"type": "hand_card", "card": "resign"}),
    )
    .await;
    let card = t.red.until(|v| is_event(v, "card_moved")).await;
    let which = (
        card["event"]["owner"].as_str(),
        card["event"]["card"].as_str(),
    );
    assert_eq!(which, (Some("black"), Some("resign")));
    let over = t.red.until(|v| is_event(v, "game_over")).await;
    assert_eq!(
        (
            over["event"]["outcome"].as_str(),
            over["event"]["cause"].as_str()
        ),
        (Some("red_wins"), Some("resigned")),
        "{over}"
    );
    let late = act(&mut t.black, "b4", json!({"type": "offer_draw"})).await;
    assert_eq!(late["type"], "rejected", "the game is over: {late}");
    let verified = t
        .rule(
            "v",
            json!({"type": "verify_result", "note": "雙方口頭確認"}),
        )
        .await;
    assert_eq!(verified["type"], "ack");
}

/// A GET through the router, with a bearer token when given (the logs are a referee's).
async fn get_as(hub: &Arc<baoqi_server::Hub>, path: String, token: Option<&str>) -> String {
    let router = baoqi_server::http::router(hub.clone());
    let mut request = Request::get(path);
    if let Some(t) = token {
        request = request.header(axum::http::header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let request = request.body(Body::empty()).unwrap();
    let resp = router.oneshot(request).await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

async fn get(hub: &Arc<baoqi_server::Hub>, path: String) -> String {
    get_as(hub, path, None).await
}

/// The exports over HTTP: scoresheet, PGN, results table, JSON event log (the referee's),
/// index page.
async fn exports(hub: &Arc<baoqi_server::Hub>, event: EventId, table: TableId, referee: &str) {
    let sheet = get(hub, format!("/api/tables/{table}/scoresheet.txt")).await;
    assert!(
        sheet.contains("炮二平五") && sheet.contains("1-0"),
        "{sheet}"
    );
    let pgn = get(hub, format!("/api/tables/{table}/game.pgn")).await;
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("傌二進三"),
        "{pgn}"
    );
    let results = get(hub, format!("/api/events/{event}/results.txt")).await;
    assert!(results.contains("王芳 — 趙強  1-0"), "{results}");
    let log: Value = serde_json::from_str(
        &get_as(hub, format!("/api/events/{event}/log.json"), Some(referee)).await,
    )
    .unwrap();
    let commands = log["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "command")
        .count();
    assert!(commands >= 30, "{commands} commands in the log");
    let index = get(hub, "/".into()).await;
    assert!(index.contains("共融賽 1"), "{index}");
}

#[tokio::test]
async fn s7p7_a_whole_game_through_websockets() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let mut t = Table {
        id: s.created.tables[0].id,
        red: Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await,
        black: Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await,
        referee: Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await,
    };
    for c in [&mut t.red, &mut t.black, &mut t.referee] {
        c.until(|v| v["type"] == "state").await;
    }
    opening(&mut t).await;
    reconnect_red(&mut t, &s.url("seat"), &s.token(Role::Red, 0)).await;
    check_b(&mut t).await;
    clock_alert(&mut t).await;
    card_resignation(&mut t).await;
    exports(&s.hub, s.created.event, t.id, &s.token(Role::Referee, 0)).await;
    s.stop().await;
}
