//! `baoqi board` against the real server, without hardware: black's board client
//! reads board lines on standard input (its clock button starts the clocks, 95(3)); red's
//! runs the built-in simulator (`--input sim:FILE`), whose lift and place become red's
//! `board_move`; on the second table, black's board is a serial device (`serial:DEV`, here a
//! FIFO standing in for the USB serial port) whose clock button starts that table's clocks.
//! The stored log shows every command.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
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
    let serial = dir.join("ttyUSB-board");
    let made = Command::new("mkfifo").arg(&serial).status().unwrap();
    assert!(made.success(), "mkfifo");
    let table2 = server.token("black", Some(2));
    let black2 = board(&table2, &format!("serial:{}", serial.display()));
    // The device opens when the board is there: the client waits for it, reads its lines.
    let mut port = std::fs::OpenOptions::new()
        .write(true)
        .open(&serial)
        .unwrap();
    port.write_all(b"# board 2 powered on\nC\n").unwrap();
    drop(port);
    assert!(
        finish(black2, 20),
        "the serial board's client ends at its EOF"
    );
    let log = Command::new(BIN)
        .args(["export", "--log", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    server.kill();
    let text = String::from_utf8_lossy(&log.stdout);
    let log: serde_json::Value = serde_json::from_str(&text).expect("a JSON log");
    let has = |table: u32, seat: &str, ty: &str, mv: Option<&str>| {
        log.as_array().unwrap().iter().any(|e| {
            e["table"] == table
                && e["kind"] == "command"
                && e["actor"]["seat"] == seat
                && e["command"]["type"] == ty
                && mv.is_none_or(|m| e["command"]["mv"] == m)
        })
    };
    assert!(has(1, "black", "press_clock", None), "{log}");
    assert!(has(1, "red", "board_move", Some("h2e2")), "{log}");
    assert!(has(2, "black", "press_clock", None), "{log}");
}
