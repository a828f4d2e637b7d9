//! `baoqi board` against the real server, without hardware (issue 7): black's board client
//! reads board lines on standard input (its clock button starts the clocks, 95(3)); red's
//! runs the built-in simulator (`--input sim:FILE`), whose lift and place become red's
//! `board_move`. The stored log shows both commands.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{BIN, Scratch, Server};

fn finish(mut child: Child, secs: u64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    false
}

#[test]
fn board_clients_report_sensed_moves_from_stdin_and_the_simulator() {
    let dir = Scratch::new("cli-board");
    let db = dir.join("b.db");
    let mut server = Server::start(&db, true);
    // Table 1 of the demo (視障賽).
    let token = |role: &str| server.token(role, Some(1));
    let addr = server.url.clone();
    let board = |token: &str, input: &str| {
        Command::new(BIN)
            .args(["board", "--url", &addr, "--token", token, "--input", input])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("baoqi board")
    };
    let mut black = board(&token("black"), "stdin");
    black
        .stdin
        .take()
        .unwrap()
        .write_all(b"# black's clock button\nC\n")
        .unwrap();
    assert!(
        finish(black, 20),
        "black's board client ends with its input"
    );
    let sim = dir.join("red.txt");
    std::fs::write(&sim, "await my_turn\nL h2\nP e2\nsleep 700\n").unwrap();
    let red = board(&token("red"), &format!("sim:{}", sim.display()));
    assert!(
        finish(red, 20),
        "red's simulated board ends after its script"
    );
    let log = Command::new(BIN)
        .args(["export", "--log", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    server.kill();
    let text = String::from_utf8_lossy(&log.stdout);
    let commands: Vec<serde_json::Value> = serde_json::from_str::<serde_json::Value>(&text)
        .expect("a JSON log")
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["table"] == 1 && e["kind"] == "command")
        .map(|e| (e["actor"]["seat"].clone(), e["command"].clone()))
        .map(|(seat, c)| serde_json::json!({"seat": seat, "command": c}))
        .collect();
    let has = |seat: &str, ty: &str, mv: Option<&str>| {
        commands.iter().any(|c| {
            c["seat"] == seat
                && c["command"]["type"] == ty
                && mv.is_none_or(|m| c["command"]["mv"] == m)
        })
    };
    assert!(has("black", "press_clock", None), "{commands:?}");
    assert!(has("red", "board_move", Some("h2e2")), "{commands:?}");
}
