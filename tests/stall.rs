//! A stall of the server was charged to the player on move. After a 20 s SIGSTOP, a 30 s
//! game ended on red's time at SIGCONT although his move and press had arrived 12.7 s
//! before his flag; both were then refused. A frozen server is down to everyone at the
//! table (the principle of a restart): the freeze is left out of the game timeline, and
//! what arrived during it is taken at the instant it began.

use std::process::Command;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::ws::{Ws, join};
use common::{Scratch, Server, token_of};

/// Sends a command; the connection must be there.
async fn send(ws: &mut Ws, id: &str, command: Value) {
    common::ws::send(ws, id, command).await.unwrap();
}

/// A regular game of 6 s a side, without increment: a freeze of 8 s would end it.
const EVENT: &str = r#"
name = "freeze"
[[tables]]
name = "t1"
red = "紅"
black = "黑"
[tables.match]
kind = "regular"
time.default = { base_ms = 6_000, mode = "plain" }
[[referees]]
name = "裁判"
"#;

async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(15), ws.next())
            .await
            .expect("a message within 15 s")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if pred(&v) {
                return v;
            }
        }
    }
}

fn signal(pid: u32, which: &str) {
    let ok = Command::new("kill")
        .args([which, &pid.to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "kill {which} {pid}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_freeze_of_the_server_is_charged_to_nobody() {
    let dir = Scratch::new("stall");
    let (db, seats) = common::create_event(&dir, EVENT);
    let server = Server::start(&db, false);
    let addr = server.addr().to_string();
    let mut referee = join(&addr, "monitor", &token_of(&seats, "referee", None)).await;
    let mut red = join(&addr, "seat", &token_of(&seats, "red", None)).await;
    until(&mut referee, |v| v["type"] == "state").await;
    until(&mut red, |v| v["type"] == "state").await;
    send(&mut referee, "s", json!({"type": "start"})).await;
    until(&mut referee, |v| v["id"] == "s").await;
    tokio::time::sleep(Duration::from_secs(1)).await;

    // Frozen for 8 s, more than the 5 s red has left; his move and press arrive meanwhile.
    let pid = server.child.id();
    signal(pid, "-STOP");
    send(&mut red, "m", json!({"type": "board_move", "mv": "h2e2"})).await;
    send(&mut red, "p", json!({"type": "press_clock"})).await;
    tokio::time::sleep(Duration::from_secs(8)).await;
    signal(pid, "-CONT");

    let moved = until(&mut red, |v| v["id"] == "m").await;
    assert_eq!(
        moved["type"], "ack",
        "the move made during the freeze stands: {moved}"
    );
    let pressed = until(&mut red, |v| v["id"] == "p").await;
    assert_eq!(pressed["type"], "ack", "and the press: {pressed}");
    // Red's clock after the press: about the 5 s he had when the server froze.
    send(&mut red, "q", json!({"type": "query_time"})).await;
    let time = until(&mut red, |v| {
        v["type"] == "event" && v["event"]["type"] == "time_report" || v["type"] == "error"
    })
    .await;
    let times = time["event"]["times"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let red_ms = times
        .iter()
        .find(|t| t["side"] == "red")
        .and_then(|t| t["ms"].as_i64())
        .unwrap_or(-1);
    assert!(
        (4_000..=6_000).contains(&red_ms),
        "red keeps his time: {red_ms} ms ({time})"
    );
    let (_, stats) = common::get(&addr, "/api/stats");
    let stats: Value = serde_json::from_slice(&stats).unwrap();
    assert!(stats["stalls"]["count"].as_u64().unwrap() >= 1, "{stats}");
    assert!(
        stats["stalls"]["left_out_ms"].as_u64().unwrap() >= 7_000,
        "{stats}"
    );
}
