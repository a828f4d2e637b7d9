//! `baoqi board` against the real server, without hardware (issue 7): black's board client
//! reads board lines on standard input (its clock button starts the clocks, 95(3)); red's
//! runs the built-in simulator (`--input sim:FILE`), whose lift and place become red's
//! `board_move`. The stored log shows both commands.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_baoqi");

fn serve(db: &Path) -> (Child, String, Vec<(String, String)>) {
    let mut child = Command::new(BIN)
        .args(["serve", "--demo", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("baoqi serve");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut addr, mut seats) = (String::new(), Vec::new());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(a) = line.trim().strip_prefix("listening on ") {
            a.clone_into(&mut addr);
        }
        if let Some((head, token)) = line.split_once("#token=") {
            let role = head
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
            seats.push((role, token.trim().to_owned()));
        }
        if line.contains("tables running") {
            break;
        }
        line.clear();
    }
    std::thread::spawn(move || {
        let mut sink = String::new();
        while out.read_line(&mut sink).unwrap_or(0) > 0 {
            sink.clear();
        }
    });
    (child, addr, seats)
}

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
    let dir = std::env::temp_dir().join(format!("baoqi-cli-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("b.db");
    let (mut server, addr, seats) = serve(&db);
    // Table 1 of the demo (視障賽): its red and black seats are printed first.
    let token = |role: &str| seats.iter().find(|(r, _)| r == role).unwrap().1.clone();
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
    let _ = server.kill();
    let _ = server.wait();
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
    let _ = std::fs::remove_dir_all(&dir);
}
