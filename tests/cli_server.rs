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
