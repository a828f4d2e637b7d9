//! Writes the protocol-v1 log fixture (`server/tests/fixtures/v1/`): one table per arbiter
//! example script, stored exactly as a v1 server stores a table's log (a `create` entry,
//! then each accepted command with the events it caused, `advance` entries for ticks that
//! produced events), plus the v1 snapshot of each table. Run once with the v1 code:
//! `cargo run -p baoqi-server --example v1_fixture -- OUT_DIR`.

use std::path::{Path, PathBuf};

use baoqi_arbiter::script::parse_script;
use baoqi_arbiter::{Command, MatchConfig, Seat};
use baoqi_server::arbiter_engine::ArbiterFactory;
use baoqi_server::engine::{Actor, EngineFactory};
use baoqi_server::model::{Role, TableRow};
use baoqi_server::store::{EntryKind, LogEntry, SqliteStore, Store};
use serde_json::{Value, json};

fn role(seat: Seat) -> Role {
    match seat {
        Seat::Red => Role::Red,
        Seat::Black => Role::Black,
        Seat::RedProxy => Role::RedProxy,
        Seat::BlackProxy => Role::BlackProxy,
        Seat::Referee => Role::Referee,
    }
}

fn main() {
    let out = PathBuf::from(std::env::args().nth(1).expect("OUT_DIR"));
    std::fs::create_dir_all(&out).unwrap();
    let db = out.join("log.db");
    let _ = std::fs::remove_file(&db);
    let store = SqliteStore::open(&db, true).unwrap();
    let event = store.create_event("v1 fixture", &json!({})).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../arbiter/examples");
    let mut names: Vec<_> = std::fs::read_dir(root.join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut expected = serde_json::Map::new();
    for path in names {
        let text = std::fs::read_to_string(&path).unwrap();
        let config_name = text
            .lines()
            .find_map(|l| l.strip_prefix("# config: "))
            .unwrap()
            .trim();
        let config: MatchConfig =
            toml::from_str(&std::fs::read_to_string(root.join("configs").join(config_name)).unwrap())
                .unwrap();
        let config = serde_json::to_value(&config).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let table = store
            .add_table(&TableRow {
                id: 0,
                event,
                round: 1,
                name: name.clone(),
                red: "red".into(),
                black: "black".into(),
                config: config.clone(),
            })
            .unwrap();
        let mut engine = ArbiterFactory.create(&config, 0).unwrap();
        let mut entries = vec![LogEntry {
            table,
            index: 0,
            at: 0,
            kind: EntryKind::Create,
            actor: Actor::Server,
            command: Value::Null,
            first_seq: 1,
            events: Vec::new(),
        }];
        let mut seq = 0;
        for s in parse_script(&text).unwrap() {
            let at = s.at.0;
            // Deadlines up to the command's instant, as the table task's timer would.
            while let Some(d) = engine.next_deadline().filter(|d| *d <= at) {
                let events = engine.advance(d);
                if events.is_empty() {
                    break;
                }
                entries.push(LogEntry {
                    table,
                    index: entries.len() as u64,
                    at: d,
                    kind: EntryKind::Advance,
                    actor: Actor::Server,
                    command: Value::Null,
                    first_seq: seq + 1,
                    events: events.clone(),
                });
                seq += events.len() as u64;
            }
            if s.command == Command::Tick {
                continue;
            }
            let command = serde_json::to_value(&s.command).unwrap();
            let actor = Actor::Seat(role(s.seat));
            if let Ok(events) = engine.apply(actor, &command, at) {
                entries.push(LogEntry {
                    table,
                    index: entries.len() as u64,
                    at,
                    kind: EntryKind::Command,
                    actor,
                    command,
                    first_seq: seq + 1,
                    events: events.clone(),
                });
                seq += events.len() as u64;
            }
        }
        store.append(&entries, Some(1_000_000_000)).unwrap();
        expected.insert(
            table.to_string(),
            json!({"name": name, "seq": seq, "snapshot": engine.snapshot(0)}),
        );
    }
    drop(store);
    std::fs::write(
        out.join("expected.json"),
        serde_json::to_string_pretty(&Value::Object(expected)).unwrap(),
    )
    .unwrap();
    // One file: fold the WAL into the database.
    let c = rusqlite_free_checkpoint(&db);
    println!("wrote {} ({c})", db.display());
}

fn rusqlite_free_checkpoint(db: &Path) -> String {
    let s = SqliteStore::open(db, true).unwrap();
    drop(s);
    std::thread::sleep(std::time::Duration::from_millis(700));
    "checkpointed".into()
}
