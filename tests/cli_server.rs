//! The organiser's commands on a database file: `baoqi event create` from the sample event
//! file, `baoqi table add`, `baoqi export`, `baoqi event revoke`.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_baoqi");

fn baoqi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn an_event_is_created_extended_exported_and_a_seat_revoked() {
    let db = std::env::temp_dir().join(format!("baoqi-cli-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/event.toml");
    let (ok, out, err) = baoqi(&["event", "create", "--config", sample, "--db", db]);
    assert!(ok, "{err}");
    assert!(
        out.contains("視障賽 1") && out.contains("共融賽 1"),
        "{out}"
    );
    // The deaf player's link opens the card UI; the proxy named in the file has a seat.
    assert!(
        out.lines()
            .any(|l| l.contains("趙強") && l.contains("/card#token=")),
        "{out}"
    );
    assert!(out.contains("black_proxy"), "{out}");
    let token = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("token "))
        .expect("a token")
        .to_string();
    let (ok, out, err) = baoqi(&[
        "table",
        "add",
        "--event",
        "1",
        "--name",
        "視障賽 2",
        "--red",
        "甲",
        "--black",
        "乙",
        "--round",
        "2",
        "--db",
        db,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("table 3 (round 2) 視障賽 2"), "{out}");
    let (ok, out, err) = baoqi(&["export", "--results", "1", "--db", db]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    let (ok, out, _) = baoqi(&["export", "--pgn", "3", "--db", db]);
    assert!(ok && out.contains("[Round \"2\"]"), "{out}");
    let (ok, _, err) = baoqi(&["export", "--pgn", "99", "--db", db]);
    assert!(!ok && err.contains("no table 99"), "{err}");
    assert!(baoqi(&["event", "revoke", "--token", &token, "--db", db]).0);
    let (ok, _, err) = baoqi(&["event", "revoke", "--token", "nope", "--db", db]);
    assert!(!ok && err.contains("no seat"), "{err}");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{db}{suffix}"));
    }
}

/// Starts `baoqi serve` on a free port over `db` and returns it with its address, once its
/// tables run.
fn serve(db: &str) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--db", db])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("baoqi serve");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut addr = String::new();
    let mut line = String::new();
    while out.read_line(&mut line).expect("read") > 0 {
        if let Some(a) = line.trim().strip_prefix("listening on ") {
            addr = a.to_string();
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
    assert!(
        addr.starts_with("http://"),
        "the server printed its address"
    );
    (child, addr)
}

#[test]
fn the_load_benchmark_runs_against_an_external_server() {
    // `baoqi bench load --url URL --db FILE`: the bench event goes into the running server's
    // store, which starts its tables; the bots play over real sockets and lose nothing.
    let db = std::env::temp_dir().join(format!("baoqi-bench-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    let (mut server, url) = serve(db);
    let (ok, out, err) = baoqi(&[
        "bench",
        "load",
        "--games",
        "4",
        "--seconds",
        "2",
        "--rate",
        "4",
        "--url",
        &url,
        "--db",
        db,
    ]);
    let _ = server.kill();
    let _ = server.wait();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{db}{suffix}"));
    }
    assert!(ok, "{err}");
    assert!(out.contains("games 4 (8 player sockets"), "{out}");
    assert!(out.contains("lost 0, reordered 0"), "{out}");
    let commands: u64 = out
        .split_once("commands ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a command count");
    assert!(commands > 0, "the bots played: {out}");
    assert!(
        !out.contains("server: command handling"),
        "an external server's own figures are not claimed: {out}"
    );
}
