//! Crash recovery of the real binary: `baoqi serve --demo` is started, a game is played
//! over WebSocket connections, the process is killed with SIGKILL at random instants
//! several times and restarted on the same database. After every crash: every acknowledged
//! command is in the store, the match resumes (the referee restarts the clocks paused by
//! the restart policy), and the clocks are within 1 s of their value at the crash.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

use crate::common;
use common::ws::{next, play, referee_command, script, stored_player_commands, until};
use common::{Scratch, Server};

async fn join(addr: &str, endpoint: &str, token: &str) -> Ws {
    let url = format!("ws://{addr}/ws/{endpoint}");
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
        .await
        .expect("connect");
    let hello = json!({"v": 2, "type": "hello", "token": token});
    ws.send(Message::text(hello.to_string())).await.unwrap();
    ws
}

fn remaining(clock: &Value, side: &str, now: u64) -> i64 {
    let ms = clock[format!("{side}_ms")].as_i64().unwrap();
    if clock["running"] == side {
        ms - (now as i64 - clock["since"].as_i64().unwrap())
    } else {
        ms
    }
}

/// The increment of the demo's time control, the default (附表三 3(3)), added after each press.
fn increment_ms() -> i64 {
    i64::try_from(baoqi_arbiter::TimeControl::default().extra_ms).unwrap()
}

/// What the referee's monitor showed just before the kill.
struct Seen {
    /// Both clocks at the pong's instant (red, black).
    clocks: (i64, i64),
    /// Moves made as of the last turn event.
    moves: usize,
}

impl Seen {
    /// The clocks the restarted server must show, given the moves it stored: the players
    /// go on playing between the pong and the kill, so a move pressed in that window is
    /// stored (and its increment added) though the monitor never saw it.
    fn expected(&self, stored_moves: usize) -> (i64, i64) {
        assert!(
            stored_moves <= self.moves + 1,
            "{stored_moves} moves stored, the monitor saw {}: at most one can slip in",
            self.moves
        );
        let (mut red, mut black) = self.clocks;
        if stored_moves > self.moves {
            let presser = if self.moves.is_multiple_of(2) {
                &mut red
            } else {
                &mut black
            };
            *presser += increment_ms();
        }
        (red, black)
    }
}

/// Follows the referee's feed for `wait` ms, then pings: what the monitor shows at the pong.
async fn seen_after(referee: &mut Ws, state: &Value, wait: u64) -> Seen {
    let mut clock = state["snapshot"]["clock"].clone();
    let mut moves = state["snapshot"]["moves"].as_array().unwrap().len();
    let mut follow = |v: &Value| {
        if let Some(c) = v["event"].get("clock") {
            clock = c.clone();
        }
        if v["event"]["type"] == "turn" {
            moves = v["event"]["ply"].as_u64().unwrap() as usize - 1;
        }
    };
    let deadline = Instant::now() + Duration::from_millis(wait);
    while Instant::now() < deadline {
        if let Ok(Some(v)) = tokio::time::timeout(Duration::from_millis(20), next(referee)).await {
            follow(&v);
        }
    }
    let ping = json!({"v": 2, "type": "ping", "id": "p"});
    referee.send(Message::text(ping.to_string())).await.unwrap();
    loop {
        let v = next(referee).await.expect("pong");
        follow(&v);
        if v["type"] == "pong" {
            let at = v["at"].as_u64().unwrap();
            let clocks = (remaining(&clock, "red", at), remaining(&clock, "black", at));
            return Seen { clocks, moves };
        }
    }
}

/// Every acknowledged command is stored, in order, and only the script's commands are.
fn check_stored(db: &std::path::Path, acked: &[usize], steps: &[(usize, Value)]) -> Vec<Value> {
    let stored = stored_player_commands(db);
    if let Some(&last) = acked.last() {
        assert!(
            stored.len() > last,
            "command {last} was acknowledged but is not stored"
        );
    }
    for (k, c) in stored.iter().enumerate() {
        let typed =
            |v: &Value| -> baoqi_arbiter::Command { serde_json::from_value(v.clone()).unwrap() };
        assert_eq!(typed(c), typed(&steps[k].1), "stored command {k}");
    }
    stored
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_random_instants_loses_nothing_acknowledged() {
    let dir = Scratch::new("crash");
    let db = dir.join("crash.db");
    let steps = script(60);
    let mut server = Server::start(&db, true);
    let (red_t, black_t, ref_t) = (
        server.token("red", Some(1)),
        server.token("black", Some(1)),
        server.token("referee", None),
    );
    let mut acked_total = 0;
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ u64::from(std::process::id());
    for round in 0..5 {
        let mut referee = join(server.addr(), "monitor", &ref_t).await;
        let state = until(&mut referee, |v| v["type"] == "state" && v["table"] == 1).await;
        if round == 0 {
            referee_command(&mut referee, json!({"type": "start"})).await;
        } else {
            assert_eq!(
                state["snapshot"]["phase"], "paused",
                "the restart policy pauses"
            );
            referee_command(&mut referee, json!({"type": "resume"})).await;
        }
        let red = join(server.addr(), "seat", &red_t).await;
        let black = join(server.addr(), "seat", &black_t).await;
        let acked = Arc::new(Mutex::new(Vec::new()));
        let from = stored_player_commands(&db).len();
        let bot = tokio::spawn(play([red, black], steps.clone(), from, acked.clone()));
        // A random instant, the clocks as the referee sees them, then SIGKILL.
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let wait = 300 + (seed >> 33) % 900;
        let seen = seen_after(&mut referee, &state, wait).await;
        server.kill();
        bot.abort();
        let acked = acked.lock().unwrap().clone();
        let stored = check_stored(&db, &acked, &steps);
        acked_total += acked.len();

        // Restart: the match is rebuilt, paused, and the clocks stand where they stood.
        server = Server::start(&db, false);
        let mut referee = join(server.addr(), "monitor", &ref_t).await;
        let state = until(&mut referee, |v| v["type"] == "state" && v["table"] == 1).await;
        let now = state["at"].as_u64().unwrap();
        let clock = &state["snapshot"]["clock"];
        let after = (remaining(clock, "red", now), remaining(clock, "black", now));
        let presses = stored.iter().filter(|c| c["type"] == "press_clock").count();
        assert_eq!(
            state["snapshot"]["moves"].as_array().unwrap().len(),
            presses
        );
        let before = seen.expected(presses);
        println!(
            "round {round}: killed after {wait} ms, {} acked, {presses} moves stored ({} seen), \
             clocks {before:?} -> {after:?}",
            acked.len(),
            seen.moves
        );
        assert!(
            (before.0 - after.0).abs() <= 1000 && (before.1 - after.1).abs() <= 1000,
            "clocks {before:?} -> {after:?}"
        );
    }
    assert!(
        acked_total > 20,
        "the game progressed: {acked_total} commands acknowledged"
    );
}

#[test]
fn a_move_pressed_between_the_pong_and_the_kill_adds_its_increment_to_the_mover() {
    let seen = Seen {
        clocks: (1_000, 2_000),
        moves: 4,
    };
    assert_eq!(seen.expected(4), (1_000, 2_000));
    assert_eq!(seen.expected(5), (1_000 + increment_ms(), 2_000));
    let black_to_move = Seen { moves: 5, ..seen };
    assert_eq!(black_to_move.expected(6), (1_000, 2_000 + increment_ms()));
}
