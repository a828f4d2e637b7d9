//! A recording survives a crash of the real binary (附表七 part 6 建議每局對賽設錄音設備;
//! SPEC §11 nothing acknowledged is ever lost): `baoqi serve --demo` receives a game's
//! recording from the table client's own uploader, is killed with SIGKILL the moment the
//! upload is answered, restarts on the same database, and lists and serves the recording
//! byte for byte.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use baoqi_audio::recording::{RATE, Recorder};
use baoqi_audio::upload::{HttpUploader, Uploader};

const BIN: &str = env!("CARGO_BIN_EXE_baoqi");

/// Starts `baoqi serve`; returns the process, its address and the red seat of table 1.
fn serve(db: &std::path::Path, demo: bool) -> (Child, String, Option<String>) {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db);
    if demo {
        cmd.arg("--demo");
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("baoqi serve");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut addr, mut red) = (String::new(), None);
    let mut line = String::new();
    while out.read_line(&mut line).expect("read") > 0 {
        if let Some(a) = line.trim().strip_prefix("listening on http://") {
            addr = a.to_string();
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"red") && line.contains("table 1 ") {
            red = line
                .split_once("#token=")
                .map(|(_, t)| t.trim().to_string());
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
    (child, addr, red)
}

/// A plain HTTP/1.1 GET: the status line and the body.
fn get(addr: &str, path: &str) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("read");
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header");
    let head = String::from_utf8_lossy(&all[..split]).to_string();
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, all[split + 4..].to_vec())
}

#[test]
fn s7p6_an_acknowledged_recording_survives_sigkill() {
    let dir = std::env::temp_dir().join(format!("baoqi-rec-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("crash.db");
    let (mut child, addr, red) = serve(&db, true);
    let red = red.expect("the demo prints table 1's red seat");

    let wav = dir.join("game.wav");
    let rec = Recorder::start(&wav, "視障賽", Duration::from_millis(500), None).unwrap();
    let tone: Vec<f32> = (0..RATE).map(|i| ((i % 50) as f32 / 50.0) - 0.5).collect();
    rec.tap().push(Instant::now(), RATE, &tone, false);
    let meta = rec.finish().unwrap();
    let url = format!("http://{addr}/api/tables/1/recording");
    HttpUploader::new(&url, Some(&red))
        .unwrap()
        .upload(&meta)
        .expect("the upload is accepted");
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let (mut child, addr, _) = serve(&db, false);
    let (status, body) = get(&addr, "/api/tables/1/recordings");
    assert!(status.contains("200"), "{status}");
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(list["recordings"][0]["game"], "視障賽");
    assert_eq!(list["recordings"][0]["event_log_offset_ms"], 500);
    assert_eq!(list["status"]["red"]["state"], "uploaded");
    let (status, body) = get(&addr, "/api/tables/1/recordings/1.wav");
    assert!(status.contains("200"), "{status}");
    assert!(
        body == std::fs::read(&meta.wav).unwrap(),
        "the recording is the one uploaded"
    );
    child.kill().expect("stop");
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
