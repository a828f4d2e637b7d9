//! No one at the table, in the audience or on the network can bloat, stall or
//! expose a hall. Each test is what an adversary did, and what the person he aimed at must
//! still get.

use crate::common;

use axum::http::StatusCode;
use baoqi_arbiter::Millis;
use baoqi_store::model::Role;
use common::{Client, event_file, start};
use serde_json::{Value, json};

use common::ONE_TABLE as EVENT;

/// A started game of the one-table event, red to move, and both players joined.
async fn started() -> (common::Server, Client, Client) {
    let s = start(None, Some(&event_file(EVENT))).await;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    referee.until(|v| v["type"] == "state").await;
    referee.command("s", json!({"type": "start"})).await;
    assert_eq!(referee.answer("s").await["type"], "ack");
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    black.until(|v| v["type"] == "state").await;
    (s, red, black)
}

/// The answer to a word sent as `id`.
async fn say(c: &mut Client, id: &str, text: &str) -> Value {
    c.command(id, json!({"type": "word", "text": text})).await;
    c.answer(id).await
}

#[tokio::test]
async fn a_players_long_words_are_refused_and_his_blind_opponent_still_joins() {
    let (s, mut red, _black) = started().await;
    let table = s.created.tables[0].id;
    let log_before = s.hub.store().log(table).unwrap().len();
    // 40 KB in one "word", inside the frame limit: no word of notation is so long.
    let long = "炮".repeat(13_000);
    for _ in 0..5 {
        let answer = say(&mut red, "long", &long).await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["code"], "bad_command", "{answer}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap()
                .contains("13000 characters"),
            "{answer}"
        );
    }
    // An empty word, a blank one and one holding NUL are no words either.
    for text in ["", "  ", "炮\u{0}"] {
        let answer = say(&mut red, "bad", text).await;
        assert_eq!(answer["code"], "bad_command", "{text:?}: {answer}");
    }
    assert_eq!(
        s.hub.store().log(table).unwrap().len(),
        log_before,
        "nothing refused is stored"
    );
    // A word of notation still binds (每一字不得反悔).
    assert_eq!(say(&mut red, "ok", "炮").await["type"], "ack");
    // His opponent joins again and gets a state of the game's size, not of the words sent.
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    let state = black.until(|v| v["type"] == "state").await;
    let bytes = state.to_string().len();
    assert!(bytes < 32 * 1024, "the state is {bytes} bytes");
    s.stop().await;
}

#[tokio::test]
async fn a_message_that_is_not_an_object_is_malformed() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let mut c = Client::connect(&s.url("seat")).await;
    for text in ["[]", "3", "\"hello\"", "null"] {
        c.send_raw(text).await;
        let answer = c.next().await;
        assert_eq!(answer["code"], "malformed", "{text}: {answer}");
    }
    s.stop().await;
}

/// One table with two referees of it: the event's chief referee and a board referee.
const TWO_REFEREES: &str = r#"
name = "two referees"
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[tables.match]
kind = "part6"
red = { name = "r1", categories = ["blind"] }
black = { name = "b1", categories = ["blind"] }
[[referees]]
name = "chief"
[[referees]]
name = "board referee"
tables = [1]
"#;

#[tokio::test]
async fn a_board_referees_flood_does_not_lock_the_chief_referee_out() {
    let s = start(None, Some(&event_file(TWO_REFEREES))).await;
    let seat_of = |name: &str| {
        let seat = s.created.seats.iter().find(|x| x.seat.name == name);
        seat.expect("the referee's seat").token.secret().to_string()
    };
    let mut chief = Client::join(&s.url("monitor"), &seat_of("chief"), None).await;
    let mut board = Client::join(&s.url("monitor"), &seat_of("board referee"), None).await;
    chief.until(|v| v["type"] == "state").await;
    board.until(|v| v["type"] == "state").await;
    let mut limited = false;
    for i in 0..40 {
        let id = format!("t{i}");
        board.command(&id, json!({"type": "tick"})).await;
        limited |= board.answer(&id).await["code"] == "rate_limited";
    }
    assert!(limited, "the flooding referee is held to his own rate");
    chief.command("s", json!({"type": "start"})).await;
    let answer = chief.answer("s").await;
    assert_eq!(
        answer["type"], "ack",
        "the chief referee acts at once: {answer}"
    );
    s.stop().await;
}

/// A GET through the server's router: status and JSON body.
async fn get_json(s: &common::Server, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let (status, _, body) = s.get(path, token).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A 共融賽 table: a blind player with a proxy and a blindfold against a deaf player.
const INCLUSIVE: &str = r#"
name = "inclusive"
spectators = 1
[[tables]]
name = "t1"
red = "王芳"
black = "趙強"
red_proxy = "陳代"
[tables.match]
kind = "part7"
red = { name = "王芳", categories = ["partially_sighted"], blindfold = true, board = "vi", proxy = "陳代" }
black = { name = "趙強", categories = ["deaf"], board = "regular" }
"#;

#[tokio::test]
async fn the_public_sees_who_plays_not_the_players_disabilities() {
    let s = start(None, Some(&event_file(INCLUSIVE))).await;
    let table = s.created.tables[0].id;
    let private = [
        "partially_sighted",
        "deaf",
        "blindfold",
        "陳代",
        "categories",
    ];
    let (status, events) = get_json(&s, "/api/events", None).await;
    assert_eq!(status, StatusCode::OK);
    let text = events.to_string();
    assert!(text.contains("王芳") && text.contains("趙強"), "{text}");
    for word in private {
        assert!(!text.contains(word), "/api/events shows {word}: {text}");
    }
    let path = format!("/api/tables/{table}");
    for token in [None, Some(s.token(Role::Spectator, 0))] {
        let (status, body) = get_json(&s, &path, token.as_deref()).await;
        assert_eq!(status, StatusCode::OK);
        let text = body.to_string();
        for word in private {
            assert!(!text.contains(word), "{path} shows {word}: {text}");
        }
    }
    // The seats of the table read the configuration their pages need.
    for role in [Role::Red, Role::Black, Role::RedProxy] {
        let (_, body) = get_json(&s, &path, Some(&s.token(role, 0))).await;
        assert_eq!(
            body["table"]["config"]["black"]["categories"],
            json!(["deaf"]),
            "{role}"
        );
    }
    s.stop().await;
}

/// A table whose log holds a long game (over 5,000 entries, more than 4,096 events), stored before the server
/// starts, and the server on it. Its syncs refill at one a second, not five: each sync of
/// the long table costs the server a state, and the budget's count must not depend on how
/// fast it builds one (an unoptimised build under the whole suite's load took about 150 ms
/// a sync, and the default refill let 16 of 20 through).
async fn long_table() -> common::Server {
    use baoqi_arbiter::Command;
    use baoqi_store::{SqliteStore, Store};
    let (store, db) = SqliteStore::open_temp().unwrap();
    let created = baoqi_organiser::admin::create_event(&store, &event_file(EVENT)).unwrap();
    let table = created.tables[0].clone();
    let start = std::iter::once((Role::Referee, Command::Start));
    let script = baoqi_store::testing::walk::quiet_game(40, 120, 7).unwrap();
    let steps = start.chain(script).zip(1u64..);
    let steps = steps.map(|((role, command), k)| (Millis(1_000 + k * 5), role, command));
    let (_, log) = common::played_log(&table, steps);
    let at = log.last().unwrap().at;
    store.append(&log, Some(Millis(at.0 + 10))).unwrap();
    let mut limits = baoqi_server::limits::Limits::default();
    limits.syncs.per_second = 1;
    common::serve_created(std::sync::Arc::new(store), db, created, limits).await
}

#[tokio::test]
async fn a_spectator_syncing_from_the_start_gets_the_state_not_the_whole_log() {
    let s = long_table().await;
    let table = s.created.tables[0].id;
    let spectator = s.token(Role::Spectator, 0);
    let mut c = Client::join(&s.url("watch"), &spectator, Some(0)).await;
    let told = c
        .until(|v| v["type"] == "error" || v["type"] == "state")
        .await;
    assert_eq!(told["code"], "resync", "too far behind, he is told: {told}");
    assert!(
        told["message"]
            .as_str()
            .unwrap()
            .contains("more than the 4096"),
        "{told}"
    );
    c.until(|v| v["type"] == "state").await;
    // Syncing from the start again and again is held to the table's budget of syncs.
    let mut limited = 0;
    for _ in 0..20 {
        c.send(json!({"v": 2, "type": "sync", "table": table, "since": 0}))
            .await;
        let v = c
            .until(|v| v["type"] == "state" || v["code"] == "rate_limited")
            .await;
        limited += usize::from(v["code"] == "rate_limited");
    }
    assert!(limited >= 5, "{limited} of 20 syncs held back");
    s.stop().await;
}

/// A raw HTTP/1.1 exchange: writes `head` (and the body's first bytes), then reads what the
/// server answers within `wait`: the status line's code, or `None` for no answer yet.
async fn raw_status(
    addr: std::net::SocketAddr,
    head: &str,
    body_start: &[u8],
    wait: std::time::Duration,
) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(head.as_bytes()).await.unwrap();
    tcp.write_all(body_start).await.unwrap();
    let mut buf = vec![0u8; 512];
    let n = tokio::time::timeout(wait, tcp.read(&mut buf))
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&buf[..n]);
    text.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::test]
async fn an_organiser_body_needs_a_token_first_and_arrives_in_its_time() {
    use std::time::{Duration, Instant};
    let limits = baoqi_server::limits::Limits {
        body_within: Duration::from_millis(800),
        ..baoqi_server::limits::Limits::default()
    };
    let s = common::start_with(None, Some(&event_file(TWO_REFEREES)), limits).await;
    let event = s.created.event;
    let chief = s
        .created
        .seats
        .iter()
        .find(|x| x.seat.name == "chief")
        .unwrap()
        .token
        .secret()
        .to_string();
    let head = |auth: &str| {
        format!(
            "POST /api/events/{event}/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: 1000\r\n{auth}\r\n"
        )
    };
    // Without a token: refused at once, not after a body that never comes.
    let started = Instant::now();
    let status = raw_status(s.addr, &head(""), b"{", Duration::from_secs(3)).await;
    assert_eq!(status, Some(401));
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // With the chief referee's token: a body that trickles is cut off in its time.
    let auth = format!("Authorization: Bearer {chief}\r\n");
    let started = Instant::now();
    let status = raw_status(s.addr, &head(&auth), b"{", Duration::from_secs(5)).await;
    assert_eq!(status, Some(408));
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_secs(3),
        "{took:?}"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_revoked_seat_and_a_bad_close_code_each_end_with_a_close_frame() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let referee_token = s.token(Role::Referee, 0);
    let mut referee = Client::join(&s.url("monitor"), &referee_token, None).await;
    referee.until(|v| v["type"] == "state").await;
    assert!(baoqi_organiser::admin::revoke(&**s.hub.store(), &referee_token).unwrap());
    s.hub.check_revocations().await.unwrap();
    // 1008: policy violation, the seat may no longer be here (RFC 6455 §7.4.1).
    assert_eq!(referee.close_code(3_000).await, Some(1008));
    // A close frame whose code may not be sent (999): answered 1002, not a dropped socket.
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    red.write_raw(&[0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE7]).await;
    assert_eq!(red.close_code(3_000).await, Some(1002));
    s.stop().await;
}

#[tokio::test]
async fn a_client_that_sends_on_past_its_budget_is_closed() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let table = s.created.tables[0].id;
    let mut c = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), None).await;
    c.until(|v| v["type"] == "state").await;
    for _ in 0..400 {
        c.send(json!({"v": 2, "type": "sync", "table": table, "since": 0}))
            .await;
    }
    assert_eq!(c.close_code(5_000).await, Some(1008));
    s.stop().await;
}

#[tokio::test]
async fn the_index_isolates_every_name_so_none_reorders_its_line() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let (_, _, index) = s.get("/", None).await;
    let table = &s.created.tables[0];
    for name in [&s.created.name, &table.red, &table.black] {
        assert!(
            index.contains(&format!("<bdi>{name}</bdi>")),
            "{name}: {index}"
        );
    }
    s.stop().await;
}

/// One table whose red player's name is markup.
const MARKUP: &str = r#"
name = "<b>open</b>"
[[tables]]
name = "t1"
red = "<img src=x onerror=alert(1)>"
black = "b1"
[tables.match]
kind = "part6"
"#;

#[tokio::test]
async fn the_live_dhtmlxq_feed_carries_a_name_of_markup_as_text() {
    let s = start(None, Some(&event_file(MARKUP))).await;
    let table = s.created.tables[0].id;
    let (status, _, body) = s
        .get(&format!("/api/tables/{table}/live.dhtmlxq"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(!body.contains("<img") && !body.contains("<b>"), "{body}");
    assert!(
        body.contains("[DhtmlXQ_red]&lt;img src=x onerror=alert(1)&gt;[/DhtmlXQ_red]"),
        "{body}"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_recorders_reason_with_a_bidi_control_is_refused() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.send(json!({"v": 2, "type": "recording", "id": "r", "state": "off", "microphone": false, "reason": "無\u{202E}咪"}))
        .await;
    let answer = red
        .until(|v| v["id"] == "r" || v["type"] == "recording")
        .await;
    assert_eq!(answer["code"], "bad_command", "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("U+202E"),
        "{answer}"
    );
    s.stop().await;
}
