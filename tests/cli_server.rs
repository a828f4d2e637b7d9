//! The organiser's commands on a database file: `baoqi event create` from the sample event
//! file, `baoqi table add`, `baoqi export`, `baoqi event revoke`.

use std::process::Command;

use crate::common;
use common::{BIN, Scratch, Server, get};

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
    // The event's name, then each round's heading and its tables.
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(
        out.contains("第2輪 round 2\n  桌3 視障賽 2 甲 — 乙  *"),
        "{out}"
    );
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

#[test]
fn table_add_refuses_the_names_the_event_file_refuses() {
    let db = std::env::temp_dir().join(format!("baoqi-cli-names-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/event.toml");
    assert!(baoqi(&["event", "create", "--config", sample, "--db", db]).0);
    let long = "長".repeat(2_000);
    let cases = [
        (
            "--name",
            long.as_str(),
            "table.name: 2000 is more than the 100 allowed",
        ),
        (
            "--red",
            "R\u{1b}[31m紅",
            "table.red: holds a control character",
        ),
        (
            "--black",
            "乙\u{7}",
            "table.black: holds a control character",
        ),
        ("--name", "視障\u{202E}賽", "table.name: holds U+202E"),
        ("--red", "甲\u{200B}", "table.red: holds U+200B"),
    ];
    for (flag, value, why) in cases {
        let mut args = vec!["table", "add", "--event", "1", "--db", db];
        for (f, v) in [("--name", "t"), ("--red", "甲"), ("--black", "乙")] {
            args.extend([f, if f == flag { value } else { v }]);
        }
        let (ok, out, err) = baoqi(&args);
        let shown: String = value.chars().take(20).collect();
        assert!(!ok, "{flag} {shown:?}… accepted: {out}");
        assert!(err.contains(why), "{flag}: expected «{why}», got «{err}»");
    }
    let (ok, out, err) = baoqi(&["export", "--results", "1", "--db", db]);
    assert!(ok, "{err}");
    assert!(
        !out.contains('\u{1b}') && !out.contains("長長"),
        "nothing was added: {out}"
    );
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{db}{suffix}"));
    }
}

#[test]
fn the_load_benchmark_runs_against_an_external_server() {
    // `baoqi bench load --url URL --db FILE`: the bench event goes into the running server's
    // store, which starts its tables; the bots play over real sockets and lose nothing.
    let db = std::env::temp_dir().join(format!("baoqi-bench-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    let mut server = Server::start(std::path::Path::new(db), false);
    let url = server.url.clone();
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
    server.kill();
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

#[test]
fn web_client_files_come_from_baoqi_assets_dir_when_it_is_set() {
    // For whoever works on the web clients: edit a copy of server/assets/ and reload the
    // page, no rebuild; a file not in the copy is still served from the binary; a name that
    // is not one of the web clients' files is not served from the folder either.
    let dir = Scratch::new("assets-dir");
    let assets = dir.join("assets");
    std::fs::create_dir_all(assets.join("app")).unwrap();
    std::fs::write(assets.join("player.html"), "<p>edited page</p>").unwrap();
    std::fs::write(assets.join("app/common.js"), "// edited script").unwrap();
    std::fs::write(assets.join("secret.txt"), "not a web client file").unwrap();
    let server = Server::start_with(&dir.join("a.db"), false, &[("BAOQI_ASSETS_DIR", &assets)]);
    let body = |path: &str| {
        let (status, body) = get(server.addr(), path);
        (status, String::from_utf8_lossy(&body).into_owned())
    };
    assert_eq!(body("/seat").1, "<p>edited page</p>");
    assert_eq!(body("/assets/app/common.js").1, "// edited script");
    assert!(
        body("/card").1.contains("<meta charset=\"utf-8\">"),
        "embedded"
    );
    assert!(body("/assets/secret.txt").0.contains("404"));
    let plain = Server::start(&dir.join("b.db"), false);
    let (_, embedded) = get(plain.addr(), "/seat");
    assert!(String::from_utf8_lossy(&embedded).contains("<meta charset=\"utf-8\">"));
}

/// A deleted or zero-length database started silently empty ("0 tables running"), and a
/// damaged one printed "listening" before an unclear error. Now a missing or empty file is
/// refused unless `--init` asks for a new store, and a damaged one is refused before
/// anything is served, each with a clear message.
/// A store named `name` in `dir` holding the sample event (`docs/event.toml`).
fn sample_store(dir: &Scratch, name: &str) -> std::path::PathBuf {
    let db = dir.join(name);
    common::baoqi(&[
        "event",
        "create",
        "--config",
        concat!(env!("CARGO_MANIFEST_DIR"), "/docs/event.toml"),
        "--db",
        db.to_str().unwrap(),
    ]);
    db
}

#[test]
fn serve_refuses_a_missing_or_damaged_database_with_a_clear_message() {
    let dir = Scratch::new("serve-refuses");
    let run = |db: &std::path::Path, extra: &[&str]| {
        std::process::Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("baoqi serve")
    };
    let missing = run(&dir.join("typo.db"), &[]);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success(), "refused");
    assert!(
        err.contains("no database here") && err.contains("--init"),
        "{err}"
    );
    assert!(
        !String::from_utf8_lossy(&missing.stdout).contains("listening"),
        "nothing served"
    );
    let empty = dir.join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    assert!(!run(&empty, &[]).status.success());
    // A real store (an event made by `baoqi event create`) with its pages overwritten
    // past the first.
    let db = sample_store(&dir, "damaged.db");
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 8192, "a store of several pages");
    for b in &mut bytes[4096..] {
        *b = 0xA5;
    }
    std::fs::write(&db, &bytes).unwrap();
    let damaged = run(&db, &[]);
    let err = String::from_utf8_lossy(&damaged.stderr);
    assert!(!damaged.status.success(), "refused");
    assert!(err.contains("damaged"), "{err}");
    assert!(!String::from_utf8_lossy(&damaged.stdout).contains("listening"));
}

/// `serve` said "listening" before it failed to write a read-only store. The file is made
/// immutable (`chattr +i`: read-only even for root, who runs the tests); the server refuses
/// it before it says it listens.
#[test]
fn serve_refuses_a_store_it_cannot_write_before_it_says_it_listens() {
    let dir = Scratch::new("serve-read-only");
    let db = sample_store(&dir, "ro.db");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .args([flag, db.to_str().unwrap()])
            .status()
            .is_ok_and(|s| s.success())
    };
    assert!(
        chattr("+i"),
        "chattr +i must work here (root on a file system with attributes)"
    );
    let out = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("baoqi serve");
    chattr("-i");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success(), "refused: {stdout}");
    assert!(!stdout.contains("listening"), "{stdout}");
    assert!(
        stderr.contains("readonly") || stderr.contains("read-only"),
        "{stderr}"
    );
}
