//! The `SQLite` backend: one file, WAL journal, `synchronous=NORMAL` by default (a committed
//! transaction survives the process being killed; `FULL` also survives a power cut).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::{EntryKind, LogEntry, Store, StoreError};
use crate::engine::{Actor, Millis};
use crate::model::{EventId, EventRow, Role, SeatRow, TableId, TableRow};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, event INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL, name TEXT NOT NULL, red TEXT NOT NULL, black TEXT NOT NULL,
    config TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    token_hash TEXT PRIMARY KEY, event INTEGER NOT NULL REFERENCES events(id),
    role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS log (
    tbl INTEGER NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, at INTEGER NOT NULL,
    kind TEXT NOT NULL, actor TEXT NOT NULL, command TEXT NOT NULL,
    first_seq INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (tbl, idx));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
";

/// A store in one `SQLite` file. Writes and reads use separate connections so that lookups
/// (a seat joining, an export) never wait for a group commit.
pub struct SqliteStore {
    path: std::path::PathBuf,
    write: Mutex<Connection>,
    read: Mutex<Connection>,
    closed: Arc<AtomicBool>,
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}

/// A connection to the database file that waits up to 5 s for another connection's lock
/// (the store's writer, reader and checkpointer, and the recordings archive share the file).
pub(crate) fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

/// How often the checkpointer moves the WAL into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Checkpoints run on a thread and a connection of their own: a checkpoint copies pages
/// and syncs the file, which would otherwise stall a group commit for tens of ms. A
/// passive checkpoint never blocks the writer.
fn checkpointer(path: &Path, closed: Arc<AtomicBool>) -> Result<(), StoreError> {
    let conn = connect(path)?;
    std::thread::Builder::new()
        .name("baoqi-store-checkpoint".into())
        .spawn(move || {
            while !closed.load(Ordering::Relaxed) {
                std::thread::sleep(CHECKPOINT_EVERY);
                if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                    tracing::warn!("checkpoint: {e}");
                }
            }
        })
        .map_err(|e| StoreError(e.to_string()))?;
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if needed) the database file. `durable_power_loss` selects
    /// `synchronous=FULL`.
    pub fn open(path: &Path, durable_power_loss: bool) -> Result<SqliteStore, StoreError> {
        let write = connect(path)?;
        write.pragma_update(None, "journal_mode", "WAL")?;
        let sync = if durable_power_loss { "FULL" } else { "NORMAL" };
        write.pragma_update(None, "synchronous", sync)?;
        write.pragma_update(None, "foreign_keys", "ON")?;
        write.pragma_update(None, "wal_autocheckpoint", 0)?;
        write.execute_batch(SCHEMA)?;
        let read = connect(path)?;
        let closed = Arc::new(AtomicBool::new(false));
        checkpointer(path, closed.clone())?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            write: Mutex::new(write),
            read: Mutex::new(read),
            closed,
        })
    }

    /// A private in-memory-like store in a temporary file (tests).
    pub fn open_temp() -> Result<(SqliteStore, std::path::PathBuf), StoreError> {
        let path = std::env::temp_dir().join(format!(
            "baoqi-test-{}-{}.db",
            std::process::id(),
            &crate::model::Token::generate().secret()[..12]
        ));
        Ok((SqliteStore::open(&path, false)?, path))
    }

    fn w(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.write
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn r(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn json_text(v: &impl serde::Serialize) -> Result<String, StoreError> {
    Ok(serde_json::to_string(v)?)
}

fn actor_text(a: Actor) -> &'static str {
    match a {
        Actor::Seat(r) => r.as_str(),
        Actor::Server => "server",
    }
}

fn actor_parse(s: &str) -> Actor {
    Role::parse(s).map_or(Actor::Server, Actor::Seat)
}

fn kind_text(k: EntryKind) -> &'static str {
    match k {
        EntryKind::Create => "create",
        EntryKind::Command => "command",
        EntryKind::Advance => "advance",
    }
}

fn kind_parse(s: &str) -> EntryKind {
    match s {
        "create" => EntryKind::Create,
        "advance" => EntryKind::Advance,
        _ => EntryKind::Command,
    }
}

fn parse_json(s: &str) -> rusqlite::Result<Value> {
    serde_json::from_str(s).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn seat_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<SeatRow> {
    let role: String = row.get(2)?;
    let tables: String = row.get(4)?;
    Ok(SeatRow {
        token_hash: row.get(0)?,
        event: row.get(1)?,
        role: Role::parse(&role).unwrap_or(Role::Spectator),
        name: row.get(3)?,
        tables: serde_json::from_value(parse_json(&tables)?).unwrap_or_default(),
        revoked: row.get::<_, i64>(5)? != 0,
    })
}

fn table_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<TableRow> {
    let config: String = row.get(6)?;
    Ok(TableRow {
        id: row.get(0)?,
        event: row.get(1)?,
        round: row.get(2)?,
        name: row.get(3)?,
        red: row.get(4)?,
        black: row.get(5)?,
        config: parse_json(&config)?,
    })
}

impl Store for SqliteStore {
    fn create_event(&self, name: &str, settings: &Value) -> Result<EventId, StoreError> {
        let c = self.w();
        c.execute(
            "INSERT INTO events (name, settings) VALUES (?1, ?2)",
            params![name, json_text(settings)?],
        )?;
        Ok(c.last_insert_rowid())
    }

    fn events(&self) -> Result<Vec<EventRow>, StoreError> {
        let c = self.r();
        let mut st = c.prepare("SELECT id, name, settings FROM events ORDER BY id")?;
        let rows = st.query_map([], |row| {
            let s: String = row.get(2)?;
            Ok(EventRow {
                id: row.get(0)?,
                name: row.get(1)?,
                settings: parse_json(&s)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn add_table(&self, t: &TableRow) -> Result<TableId, StoreError> {
        let c = self.w();
        c.execute(
            "INSERT INTO tables (event, round, name, red, black, config)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                t.event,
                t.round,
                t.name,
                t.red,
                t.black,
                json_text(&t.config)?
            ],
        )?;
        Ok(c.last_insert_rowid())
    }

    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT id, event, round, name, red, black, config FROM tables
                   WHERE ?1 IS NULL OR event = ?1 ORDER BY id";
        let mut st = c.prepare(sql)?;
        let rows = st.query_map(params![event], table_from)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn add_seat(&self, s: &SeatRow) -> Result<(), StoreError> {
        self.w().execute(
            "INSERT INTO seats (token_hash, event, role, name, tables, revoked)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                s.token_hash,
                s.event,
                s.role.as_str(),
                s.name,
                json_text(&s.tables)?,
                i64::from(s.revoked)
            ],
        )?;
        Ok(())
    }

    fn seat(&self, token_hash: &str) -> Result<Option<SeatRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT token_hash, event, role, name, tables, revoked FROM seats
                   WHERE token_hash = ?1";
        Ok(c.query_row(sql, params![token_hash], seat_from)
            .optional()?)
    }

    fn seats(&self, event: EventId) -> Result<Vec<SeatRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT token_hash, event, role, name, tables, revoked FROM seats
                   WHERE event = ?1 ORDER BY rowid";
        let mut st = c.prepare(sql)?;
        let rows = st.query_map(params![event], seat_from)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn revoke(&self, token_hash: &str) -> Result<bool, StoreError> {
        let n = self.w().execute(
            "UPDATE seats SET revoked = 1 WHERE token_hash = ?1",
            params![token_hash],
        )?;
        Ok(n > 0)
    }

    fn append(&self, entries: &[LogEntry], timeline: Option<Millis>) -> Result<(), StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO log (tbl, idx, at, kind, actor, command, first_seq, events)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            for e in entries {
                st.execute(params![
                    e.table,
                    e.index as i64,
                    e.at as i64,
                    kind_text(e.kind),
                    actor_text(e.actor),
                    json_text(&e.command)?,
                    e.first_seq as i64,
                    json_text(&e.events)?
                ])?;
            }
            if let Some(t) = timeline {
                tx.execute(
                    "INSERT INTO meta (key, value) VALUES ('timeline', ?1)
                     ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
                    params![t as i64],
                )?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn log(&self, table: TableId) -> Result<Vec<LogEntry>, StoreError> {
        let c = self.r();
        let mut st = c.prepare(
            "SELECT idx, at, kind, actor, command, first_seq, events FROM log
             WHERE tbl = ?1 ORDER BY idx",
        )?;
        let rows = st.query_map(params![table], |row| {
            let kind: String = row.get(2)?;
            let actor: String = row.get(3)?;
            let command: String = row.get(4)?;
            let events: String = row.get(6)?;
            let events = match parse_json(&events)? {
                Value::Array(v) => v,
                other => vec![other],
            };
            Ok(LogEntry {
                table,
                index: row.get::<_, i64>(0)? as u64,
                at: row.get::<_, i64>(1)? as u64,
                kind: kind_parse(&kind),
                actor: actor_parse(&actor),
                command: parse_json(&command)?,
                first_seq: row.get::<_, i64>(5)? as u64,
                events,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn timeline(&self) -> Result<Millis, StoreError> {
        let c = self.r();
        let v: Option<i64> = c
            .query_row("SELECT value FROM meta WHERE key = 'timeline'", [], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(v.unwrap_or(0) as u64)
    }

    fn location(&self) -> Option<std::path::PathBuf> {
        Some(self.path.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_log_survives_reopening_and_keeps_its_order() {
        let (store, path) = SqliteStore::open_temp().unwrap();
        let ev = store.create_event("e", &json!({})).unwrap();
        let t = TableRow {
            id: 0,
            event: ev,
            round: 1,
            name: "t".into(),
            red: "r".into(),
            black: "b".into(),
            config: json!({"x": 1}),
        };
        let tid = store.add_table(&t).unwrap();
        let entries: Vec<LogEntry> = (0..3)
            .map(|i| LogEntry {
                table: tid,
                index: i,
                at: 100 * i,
                kind: EntryKind::Command,
                actor: Actor::Seat(Role::Red),
                command: json!({"n": i}),
                first_seq: i + 1,
                events: vec![json!({"e": i})],
            })
            .collect();
        store.append(&entries, Some(250)).unwrap();
        drop(store);
        let store = SqliteStore::open(&path, false).unwrap();
        assert_eq!(store.log(tid).unwrap(), entries);
        assert_eq!(store.timeline().unwrap(), 250);
        assert_eq!(store.tables(Some(ev)).unwrap()[0].config, json!({"x": 1}));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_duplicate_index_fails_the_whole_batch() {
        let (store, path) = SqliteStore::open_temp().unwrap();
        let ev = store.create_event("e", &json!({})).unwrap();
        let t = TableRow {
            id: 0,
            event: ev,
            round: 1,
            name: "t".into(),
            red: "r".into(),
            black: "b".into(),
            config: json!({}),
        };
        let tid = store.add_table(&t).unwrap();
        let e = LogEntry {
            table: tid,
            index: 0,
            at: 0,
            kind: EntryKind::Create,
            actor: Actor::Server,
            command: Value::Null,
            first_seq: 1,
            events: vec![],
        };
        assert!(store.append(&[e.clone(), e.clone()], None).is_err());
        assert!(store.log(tid).unwrap().is_empty());
        let _ = std::fs::remove_file(&path);
    }
}
