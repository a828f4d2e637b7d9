//! The whole process died with SIGBUS when the store's `-shm` file was cut short under it
//! (another program truncating or overwriting it: an organiser copying a backup over the
//! hall's files while the server runs). `SQLite` keeps its WAL index in that file, mapped
//! in memory; once cut, the next touch of the mapping faults, and nothing the library does
//! afterwards with a zeroed index can be trusted. The server now stops at that fault,
//! before `SQLite` acts on what it read, says why, and starts itself again in the same
//! process, at the same address, from what the store holds: every acknowledged command is
//! kept, the games resume as after any restart, and the clients join again by themselves.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::ws::{Ws, join};
use common::{BIN, Scratch, Server, seat_lines, started, token_of};

/// Sends a command; a connection the restart has closed is no error here.
async fn send(ws: &mut Ws, id: &str, command: Value) {
    let _ = common::ws::send(ws, id, command).await;
}

const EVENT: &str = r#"
name = "shm"
[[tables]]
name = "t1"
red = "紅"
black = "黑"
[tables.match]
kind = "regular"
time.default = { base_ms = 600_000, mode = "plain" }
[[referees]]
name = "裁判"
"#;

/// The next message `pred` accepts; `None` when the socket closes first.
async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(15), ws.next())
            .await
            .expect("a message within 15 s")?;
        match msg {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if pred(&v) {
                    return Some(v);
                }
            }
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// `baoqi serve` over `db` (with `--demo` when asked) with its standard error in `log`,
/// having restarted in place `restarts` times already.
fn serve_logging(db: &std::path::Path, log: &std::path::Path, restarts: u32, demo: bool) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.env("BAOQI_RESTARTS_IN_PLACE", restarts.to_string())
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db);
    if demo {
        cmd.arg("--demo");
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("baoqi serve");
    let s = started(&mut child);
    Server {
        child,
        url: s.url,
        seats: seat_lines(&s.lines.concat()),
    }
}

/// Polls `path` until the server answers it, for up to 20 s.
fn answers(addr: &str, path: &str) -> Option<Vec<u8>> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Some(body) = try_get(addr, path) {
            return Some(body);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}

/// A GET that gives nothing, rather than failing, while the server is away: the body of a
/// 200 answer.
fn try_get(addr: &str, path: &str) -> Option<Vec<u8>> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    raw.starts_with(b"HTTP/1.1 200")
        .then(|| raw[split + 4..].to_vec())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_wal_index_restarts_the_server_in_place_and_loses_nothing() {
    let dir = Scratch::new("shm");
    let (db, seats) = common::create_event(&dir, EVENT);
    let log = dir.join("serve.log");
    let mut server = serve_logging(&db, &log, 0, false);
    let addr = server.addr().to_string();
    let mut referee = join(&addr, "monitor", &token_of(&seats, "referee", None)).await;
    let mut red = join(&addr, "seat", &token_of(&seats, "red", None)).await;
    until(&mut referee, |v| v["type"] == "state").await.unwrap();
    until(&mut red, |v| v["type"] == "state").await.unwrap();
    send(&mut referee, "s", json!({"type": "start"})).await;
    until(&mut referee, |v| v["id"] == "s").await.unwrap();
    send(&mut red, "m", json!({"type": "board_move", "mv": "h2e2"})).await;
    let acked = until(&mut red, |v| v["id"] == "m").await.unwrap();
    assert_eq!(acked["type"], "ack", "{acked}");
    send(&mut red, "p", json!({"type": "press_clock"})).await;
    let acked = until(&mut red, |v| v["id"] == "p").await.unwrap();
    assert_eq!(acked["type"], "ack", "{acked}");
    let mut black = join(&addr, "seat", &token_of(&seats, "black", None)).await;
    until(&mut black, |v| v["type"] == "state").await.unwrap();

    // Another program cuts the WAL index short; black's move touches the store.
    let shm = dir.join("event.db-shm");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&shm)
        .expect("the server's -shm file")
        .set_len(0)
        .unwrap();
    send(&mut black, "b", json!({"type": "board_move", "mv": "h9g7"})).await;
    let _ = until(&mut black, |v| v["id"] == "b").await;

    let pgn = answers(&addr, "/api/tables/1/game.pgn");
    let status = server.child.try_wait().expect("wait");
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status.is_none(),
        "the server process is still there (it died: {status:?}); it said:\n{said}"
    );
    let pgn = String::from_utf8(pgn.expect("the server answers again at its address")).unwrap();
    assert!(
        pgn.contains("炮二平五"),
        "the acknowledged move is kept:\n{pgn}"
    );
    assert!(
        said.contains("event.db-shm") && said.contains("starting again"),
        "the server said what happened:\n{said}"
    );

    // The players join again and the game goes on from where the store had it.
    let mut black = join(&addr, "seat", &token_of(&seats, "black", None)).await;
    let state = until(&mut black, |v| v["type"] == "state").await.unwrap();
    assert!(state.to_string().contains("h2e2"), "{state}");
    let mut referee = join(&addr, "monitor", &token_of(&seats, "referee", None)).await;
    until(&mut referee, |v| v["type"] == "state").await.unwrap();
    send(&mut referee, "r", json!({"type": "resume"})).await;
    let resumed = until(&mut referee, |v| v["id"] == "r").await.unwrap();
    assert_eq!(resumed["type"], "ack", "{resumed}");
    send(
        &mut black,
        "b2",
        json!({"type": "board_move", "mv": "h9g7"}),
    )
    .await;
    let moved = until(&mut black, |v| v["id"] == "b2").await.unwrap();
    assert_eq!(moved["type"], "ack", "black moves on: {moved}");
    server.kill();
}

/// Something that keeps cutting the store's files needs a person: after three restarts in
/// place the server stops, says so, and keeps what it acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fourth_cut_stops_the_server_with_its_reason() {
    let dir = Scratch::new("shm-stop");
    let (db, seats) = common::create_event(&dir, EVENT);
    let log = dir.join("serve.log");
    let mut server = serve_logging(&db, &log, 3, false);
    let addr = server.addr().to_string();
    let mut referee = join(&addr, "monitor", &token_of(&seats, "referee", None)).await;
    until(&mut referee, |v| v["type"] == "state").await.unwrap();
    send(&mut referee, "s", json!({"type": "start"})).await;
    until(&mut referee, |v| v["id"] == "s").await.unwrap();

    std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("event.db-shm"))
        .unwrap()
        .set_len(0)
        .unwrap();
    send(&mut referee, "q", json!({"type": "pause"})).await;
    let _ = until(&mut referee, |v| v["id"] == "q").await;
    let waited = tokio::task::spawn_blocking(move || server.child.wait());
    let status = tokio::time::timeout(Duration::from_secs(20), waited)
        .await
        .expect("the server stops within 20 s")
        .unwrap()
        .unwrap();
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(status.code(), Some(75), "{status:?}; it said:\n{said}");
    assert!(
        said.contains("after 3 restarts in place: stopping"),
        "{said}"
    );
    let out = common::baoqi(&["export", "--table", "1", "--db", db.to_str().unwrap()]);
    assert!(!out.is_empty(), "the store opens afterwards");
}

/// The demo's start re-issues its tokens; a restart in place is not a start of the demo: the
/// links the players hold still open their seats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_place_keeps_the_demos_links() {
    let dir = Scratch::new("shm-demo");
    let db = dir.join("hall.db");
    let log = dir.join("serve.log");
    let server = serve_logging(&db, &log, 0, true);
    let addr = server.addr().to_string();
    let red = server.token("red", Some(1));
    std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("hall.db-shm"))
        .unwrap()
        .set_len(0)
        .unwrap();
    // The store's checkpointer touches the index within half a second.
    std::thread::sleep(Duration::from_secs(2));
    assert!(answers(&addr, "/").is_some(), "the server is back");
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("starting again in place"),
        "it restarted:\n{said}"
    );
    let mut seat = join(&addr, "seat", &red).await;
    let first = until(&mut seat, |v| v["type"] == "state" || v["type"] == "error").await;
    assert_eq!(
        first.unwrap()["type"],
        "state",
        "the old link still opens the seat"
    );
}
