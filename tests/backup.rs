//! `baoqi db backup` while the hall's server runs and a game is played through it: the copy
//! opens, passes the database's integrity check, and holds every command acknowledged before the
//! backup began; `baoqi db restore` makes a hall from it that the server serves again. A
//! backup never overwrites a file, and a federation's database is sent to its own tools.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use crate::common;
use common::ws::{join, play, referee_command, script, stored_player_commands, until};
use common::{BIN, Scratch, Server};

fn baoqi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_play_holds_every_command_acknowledged_before_it_began() {
    let dir = Scratch::new("backup");
    let db = dir.join("hall.db");
    let server = Server::start(&db, true);
    let referee_token = server.token("referee", None);
    let mut referee = join(server.addr(), "monitor", &referee_token).await;
    until(&mut referee, |v| v["type"] == "state" && v["table"] == 1).await;
    referee_command(&mut referee, json!({"type": "start"})).await;
    let seats = [
        join(server.addr(), "seat", &server.token("red", Some(1))).await,
        join(server.addr(), "seat", &server.token("black", Some(1))).await,
    ];
    let acked = Arc::new(Mutex::new(Vec::new()));
    let bot = tokio::spawn(play(seats, script(80), 0, acked.clone()));
    let mut copies = Vec::new();
    for i in 0..3 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let before = acked.lock().unwrap().len();
        let copy = dir.join(format!("copy{i}.db"));
        let (code, out, err) = baoqi(&[
            "db",
            "backup",
            "--db",
            db.to_str().unwrap(),
            "--to",
            copy.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("integrity ok"), "{out}");
        copies.push((copy, before));
    }
    // The players stop here, within the server's budget of commands a second.
    bot.abort();
    for (copy, before) in &copies {
        let stored = stored_player_commands(copy);
        assert!(
            stored.len() >= *before,
            "{}: {} commands stored, {before} acknowledged before the backup began",
            copy.display(),
            stored.len()
        );
    }
    assert!(copies.last().unwrap().1 > 0, "the game was under way");
    drop(server);

    // Restored to a new file: the server serves it again, the game where the copy left it.
    let (copy, _) = &copies[2];
    let restored = dir.join("restored.db");
    let (code, out, err) = baoqi(&[
        "db",
        "restore",
        "--from",
        copy.to_str().unwrap(),
        "--db",
        restored.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("restored from"), "{out}");
    assert_eq!(
        stored_player_commands(&restored),
        stored_player_commands(copy)
    );
    let again = Server::start(&restored, false);
    let mut referee = join(again.addr(), "monitor", &referee_token).await;
    let state = until(&mut referee, |v| v["type"] == "state" && v["table"] == 1).await;
    let moves = state["snapshot"]["moves"].as_array().unwrap().len();
    let presses = stored_player_commands(copy)
        .iter()
        .filter(|c| c["type"] == "press_clock")
        .count();
    assert_eq!(
        moves, presses,
        "the restored hall's game stands where the copy left it"
    );
}

#[test]
fn a_backup_never_overwrites_and_a_federation_is_sent_to_its_own_tools() {
    let dir = Scratch::new("backup-refusals");
    let db = dir.join("hall.db");
    common::baoqi(&["db", "migrate", "--db", db.to_str().unwrap()]);
    let taken = dir.join("taken.db");
    std::fs::write(&taken, b"precious").unwrap();
    let (code, _, err) = baoqi(&[
        "db",
        "backup",
        "--db",
        db.to_str().unwrap(),
        "--to",
        taken.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("exists already"), "{err}");
    assert_eq!(std::fs::read(&taken).unwrap(), b"precious");
    let (code, _, err) = baoqi(&[
        "db",
        "backup",
        "--db",
        dir.join("none.db").to_str().unwrap(),
        "--to",
        dir.join("x.db").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no such store"), "{err}");
    let (code, _, err) = baoqi(&[
        "db",
        "backup",
        "--db",
        "postgres://baoqi@127.0.0.1:1/baoqi",
        "--to",
        "x.db",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("pg_dump"), "{err}");
    // A damaged backup is not restored.
    let bad = dir.join("bad.db");
    std::fs::write(&bad, vec![0x53; 8192]).unwrap();
    let (code, _, err) = baoqi(&[
        "db",
        "restore",
        "--from",
        bad.to_str().unwrap(),
        "--db",
        dir.join("new.db").to_str().unwrap(),
    ]);
    assert_ne!(code, Some(0), "{err}");
    assert!(!dir.join("new.db").exists());
}
