//! A store written by the first protocol (`tests/fixtures/v1`: one table per arbiter example
//! script, stored by the v1 server code) opens with the current code: its log is migrated to
//! the typed format (a copy of the old database kept beside it), and every table replays to
//! the state the v1 code reached, read field by field from the v1 snapshots.

use std::path::PathBuf;

use baoqi_arbiter::View;
use baoqi_grammar::words_text;
use baoqi_store::replay::replay;
use baoqi_store::{SqliteStore, Store, migrate};
use serde_json::Value;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1")
}

/// A private copy of the v1 database.
fn copy() -> PathBuf {
    let to = std::env::temp_dir().join(format!("baoqi-v1-{}.db", std::process::id()));
    std::fs::copy(fixture().join("log.db"), &to).unwrap();
    to
}

/// The v1 snapshot's fields, compared with the typed view of the same table.
fn same_state(name: &str, v1: &Value, now: &View) {
    assert_eq!(
        v1["phase"],
        serde_json::to_value(now.phase).unwrap(),
        "{name}: phase"
    );
    assert_eq!(v1["fen"], now.fen, "{name}: position");
    let clock = serde_json::to_value(now.clock).unwrap();
    assert_eq!(v1["clock"], clock, "{name}: clock");
    let moves: Vec<(String, u64)> = v1["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["mv"]["iccs"].as_str().unwrap().to_owned(),
                m["clock_ms"].as_u64().unwrap(),
            )
        })
        .collect();
    let typed: Vec<(String, u64)> = now
        .moves
        .iter()
        .map(|m| (m.mv.iccs.to_string(), m.clock_ms))
        .collect();
    assert_eq!(moves, typed, "{name}: moves and clock times");
    let tallies = serde_json::to_value([now.tallies.red, now.tallies.black]).unwrap();
    assert_eq!(v1["tallies"], tallies, "{name}: tallies");
    let offer = now.offer.map(|o| serde_json::json!([o.side, o.stands]));
    assert_eq!(v1["offer"], offer.unwrap_or(Value::Null), "{name}: offer");
    same_turn(name, v1, now);
}

/// The turn in progress: what was touched, announced, owed; the words, boards and calls.
fn same_turn(name: &str, v1: &Value, now: &View) {
    assert_eq!(
        v1["touched"][0].as_str(),
        now.touched.map(|t| t.point.to_string()).as_deref(),
        "{name}: touched piece"
    );
    let announced = now.announced.map(|w| words_text(&w, now.to_move));
    assert_eq!(
        v1["announced"].as_str(),
        announced.as_deref(),
        "{name}: announcement"
    );
    let p = &v1["pending"];
    let iccs = |m: Option<baoqi_rules::Move>| m.map(|m| m.to_string());
    assert_eq!(
        p["correction"].as_str(),
        iccs(now.pending.correction).as_deref(),
        "{name}"
    );
    assert_eq!(
        p["restore"].as_str(),
        iccs(now.pending.restore).as_deref(),
        "{name}"
    );
    assert_eq!(
        p["reannounce"].as_str(),
        iccs(now.pending.reannounce.map(|r| r.0)).as_deref(),
        "{name}: move to announce again"
    );
    let repeat = now.pending.repeat.as_ref();
    assert_eq!(
        p["repeat"].as_str(),
        repeat.map(|r| words_text(&r.words, r.mover)).as_deref(),
        "{name}: repeat owed"
    );
    assert_eq!(
        p["repeat_mirror"],
        repeat.is_some_and(|r| r.mirror),
        "{name}"
    );
    assert_eq!(p["announce_for"], now.pending.announce_for, "{name}");
    assert_eq!(
        v1["result"]["outcome"],
        now.result
            .as_ref()
            .map_or(Value::Null, |r| serde_json::to_value(r.outcome).unwrap()),
        "{name}: result"
    );
    let cards: Vec<Value> = now
        .cards
        .iter()
        .map(|c| serde_json::json!([c.owner, c.card, c.holder]))
        .collect();
    assert_eq!(v1["cards"], Value::Array(cards), "{name}: cards");
    let log: Vec<&str> = v1["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["text"].as_str().unwrap())
        .collect();
    let typed: Vec<&str> = now.log.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(log, typed, "{name}: announcement log");
    let boards: Vec<(String, bool)> = v1["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["placement"].as_str().unwrap().to_owned(),
                b["diverging"].as_bool().unwrap(),
            )
        })
        .collect();
    let typed: Vec<(String, bool)> = now
        .boards
        .iter()
        .map(|b| (b.placement.clone(), b.diverging))
        .collect();
    assert_eq!(boards, typed, "{name}: boards");
    assert_eq!(
        v1["calls"].as_array().unwrap().len(),
        now.calls.len(),
        "{name}: calls"
    );
}

#[test]
fn logs_of_the_first_protocol_load_and_replay_to_the_same_state() {
    let db = copy();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture().join("expected.json")).unwrap())
            .unwrap();
    let store = SqliteStore::open(&db, false).expect("the v1 store opens");
    assert!(
        migrate::backup_path(&store).exists(),
        "the v1 database is kept"
    );
    let tables = store.tables(None).unwrap();
    assert_eq!(tables.len(), expected.as_object().unwrap().len());
    for row in &tables {
        let v1 = &expected[row.id.to_string()];
        let log = store.log(row.id).expect("the migrated log reads typed");
        let last = log.last().unwrap();
        let seq = last.first_seq + last.events.len() as u64 - 1;
        assert_eq!(v1["seq"].as_u64().unwrap(), seq, "{}: events", row.name);
        let (resumed, _) = replay(row, &log, last.at).expect("the log replays");
        same_state(&row.name, &v1["snapshot"], &resumed.game.snapshot());
    }
    drop(store);
    // Opened again, the store is of the current format: nothing more to migrate.
    let store = SqliteStore::open(&db, false).unwrap();
    assert_eq!(store.tables(None).unwrap().len(), tables.len());
    let _ = std::fs::remove_file(migrate::backup_path(&store));
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let mut file = db.clone().into_os_string();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}
