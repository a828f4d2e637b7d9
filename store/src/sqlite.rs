//! The `SQLite` backend: one file, WAL journal, `synchronous=NORMAL` by default (a committed
//! transaction survives the process being killed; `FULL` also survives a power cut).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baoqi_tournament::RoundNumber;
use rusqlite::{Connection, OptionalExtension, params};
use serde::de::DeserializeOwned;

use super::pages::RawEntry;
use super::{LOG_FORMAT, LogEntry, Snapshot, Store, StoreError};
use crate::config::EventSettings;
use crate::game::Actor;
use crate::model::{EventId, EventRow, Role, SeatRow, TableId, TableRow};
use crate::timeline::Millis;
use crate::wallclock::UnixMillis;

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
pub fn connect(path: &Path) -> rusqlite::Result<Connection> {
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
        .map_err(StoreError::Thread)?;
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
        let mut write = write;
        super::schema::sqlite(&mut write)?;
        let read = connect(path)?;
        let closed = Arc::new(AtomicBool::new(false));
        checkpointer(path, closed.clone())?;
        let store = SqliteStore {
            path: path.to_path_buf(),
            write: Mutex::new(write),
            read: Mutex::new(read),
            closed,
        };
        match store.format()? {
            LOG_FORMAT => {}
            1 => super::migrate::from_v1(&store)?,
            found => return Err(StoreError::NewerFormat { found }),
        }
        Ok(store)
    }

    /// `SQLite`'s `quick_check`: `Ok` when the file is sound, else what it found.
    pub fn check_integrity(&self) -> Result<(), StoreError> {
        let c = self.w();
        let mut stmt = c.prepare("PRAGMA quick_check")?;
        let found: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<_, _>>()?;
        match found.as_slice() {
            [ok] if ok == "ok" => Ok(()),
            _ => Err(StoreError::Damaged(found.join("; "))),
        }
    }

    /// The format of the stored log: as recorded, else 1 when a log exists (a store of
    /// the first protocol, which did not record it), else none yet: the current one.
    pub(crate) fn format(&self) -> Result<i64, StoreError> {
        let c = self.w();
        let recorded: Option<i64> = c
            .query_row("SELECT value FROM meta WHERE key = 'log_format'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(f) = recorded {
            return Ok(f);
        }
        let any: Option<i64> = c
            .query_row("SELECT 1 FROM log LIMIT 1", [], |r| r.get(0))
            .optional()?;
        if any.is_some() {
            return Ok(1);
        }
        c.execute(
            "INSERT INTO meta (key, value) VALUES ('log_format', ?1)",
            params![LOG_FORMAT],
        )?;
        Ok(LOG_FORMAT)
    }

    /// A table's log as stored: the command and events columns as JSON text.
    pub(crate) fn raw_log(&self, table: TableId) -> Result<Vec<RawEntry>, StoreError> {
        self.raw_log_from(table, 0)
    }

    /// [`SqliteStore::raw_log`] from entry `from` on.
    fn raw_log_from(&self, table: TableId, from: u64) -> Result<Vec<RawEntry>, StoreError> {
        super::pages::raw_page(&self.r(), table, from, None)
    }

    /// Replaces every table's log with `logs` and records the current format, in one
    /// transaction; `backup` first receives a copy of the database as it was.
    pub(crate) fn rewrite(&self, logs: &[Vec<LogEntry>], backup: &Path) -> Result<(), StoreError> {
        let mut c = self.w();
        let _ = std::fs::remove_file(backup);
        c.execute("VACUUM INTO ?1", params![backup.to_string_lossy()])?;
        let tx = c.transaction()?;
        tx.execute("DELETE FROM log", [])?;
        super::snapshots::clear(&tx)?;
        for log in logs {
            insert(&tx, log)?;
        }
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('log_format', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![LOG_FORMAT],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A private in-memory-like store in a temporary file (tests). The file outlives the
    /// store (a test may open it again, as after a restart); the files of test processes
    /// that have ended are removed here instead, so that test runs do not fill the disk.
    pub fn open_temp() -> Result<(SqliteStore, std::path::PathBuf), StoreError> {
        super::sweep::ended_tests(&std::env::temp_dir());
        let path = std::env::temp_dir().join(format!(
            "baoqi-test-{}-{}.db",
            std::process::id(),
            &crate::model::Token::generate().secret()[..12]
        ));
        Ok((SqliteStore::open(&path, false)?, path))
    }

    pub(super) fn w(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.write
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn r(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn json_text(v: &impl serde::Serialize, what: &'static str) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|source| StoreError::Encode { what, source })
}

/// A JSON column of a row that is not a log entry.
fn column<T: DeserializeOwned>(text: &str, what: &'static str, id: i64) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|source| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            Box::new(StoreError::BadRow { what, id, source }),
        )
    })
}

/// The stored error inside a conversion failure, or the database error itself.
fn unwrap_row_error(e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::FromSqlConversionFailure(_, _, inner) => {
            match inner.downcast::<StoreError>() {
                Ok(store) => *store,
                Err(other) => StoreError::Database(rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Text,
                    other,
                )),
            }
        }
        other => StoreError::Database(other),
    }
}

/// Inserts log entries within a transaction.
fn insert(tx: &rusqlite::Transaction<'_>, entries: &[LogEntry]) -> Result<(), StoreError> {
    let mut st = tx.prepare_cached(
        "INSERT INTO log (tbl, idx, at, kind, actor, command, first_seq, events)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for e in entries {
        st.execute(params![
            e.table.0,
            e.index as i64,
            e.at.0 as i64,
            e.kind.as_str(),
            actor_text(e.actor),
            json_text(&e.command, "a command")?,
            e.first_seq as i64,
            json_text(&e.events, "events")?
        ])?;
    }
    Ok(())
}

pub(super) fn actor_text(a: Actor) -> &'static str {
    match a {
        Actor::Seat(r) => r.as_str(),
        Actor::Server => "server",
    }
}

fn seat_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<SeatRow> {
    let role: String = row.get(2)?;
    let tables: String = row.get(4)?;
    let event = EventId(row.get(1)?);
    Ok(SeatRow {
        token_hash: row.get(0)?,
        event,
        role: Role::parse(&role).unwrap_or(Role::Spectator),
        name: row.get(3)?,
        tables: column(&tables, "the tables of a seat of event", event.0)?,
        revoked: row.get::<_, i64>(5)? != 0,
    })
}

fn table_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<TableRow> {
    let config: String = row.get(6)?;
    let id = TableId(row.get(0)?);
    Ok(TableRow {
        id,
        event: EventId(row.get(1)?),
        round: RoundNumber(row.get(2)?),
        name: row.get(3)?,
        red: row.get(4)?,
        black: row.get(5)?,
        config: column(&config, "the match configuration of table", id.0)?,
    })
}

/// Inserts an event (on a connection or within a transaction); returns its number.
pub(super) fn insert_event(
    c: &Connection,
    name: &str,
    settings: &EventSettings,
) -> Result<EventId, StoreError> {
    c.execute(
        "INSERT INTO events (name, settings) VALUES (?1, ?2)",
        params![name, json_text(settings, "event settings")?],
    )?;
    Ok(EventId(c.last_insert_rowid()))
}

/// Inserts a table (its `id` is ignored); returns its number.
pub(super) fn insert_table(c: &Connection, t: &TableRow) -> Result<TableId, StoreError> {
    c.execute(
        "INSERT INTO tables (event, round, name, red, black, config)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            t.event.0,
            t.round.0,
            t.name,
            t.red,
            t.black,
            json_text(&t.config, "a match configuration")?
        ],
    )?;
    Ok(TableId(c.last_insert_rowid()))
}

/// Inserts a seat.
pub(super) fn insert_seat(c: &Connection, s: &SeatRow) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO seats (token_hash, event, role, name, tables, revoked)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            s.token_hash,
            s.event.0,
            s.role.as_str(),
            s.name,
            json_text(&s.tables, "a seat's tables")?,
            i64::from(s.revoked)
        ],
    )?;
    Ok(())
}

impl Store for SqliteStore {
    fn create_event(&self, name: &str, settings: &EventSettings) -> Result<EventId, StoreError> {
        insert_event(&self.w(), name, settings)
    }

    fn events(&self) -> Result<Vec<EventRow>, StoreError> {
        let c = self.r();
        let mut st = c.prepare("SELECT id, name, settings FROM events ORDER BY id")?;
        let rows = st.query_map([], |row| {
            let s: String = row.get(2)?;
            let id = EventId(row.get(0)?);
            Ok(EventRow {
                id,
                name: row.get(1)?,
                settings: column(&s, "the settings of event", id.0)?,
            })
        })?;
        rows.collect::<Result<_, _>>().map_err(unwrap_row_error)
    }

    fn add_table(&self, t: &TableRow) -> Result<TableId, StoreError> {
        insert_table(&self.w(), t)
    }

    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT id, event, round, name, red, black, config FROM tables
                   WHERE ?1 IS NULL OR event = ?1 ORDER BY id";
        let mut st = c.prepare(sql)?;
        let rows = st.query_map(params![event.map(|e| e.0)], table_from)?;
        rows.collect::<Result<_, _>>().map_err(unwrap_row_error)
    }

    fn tables_after(&self, after: TableId) -> Result<Vec<TableRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT id, event, round, name, red, black, config FROM tables
                   WHERE id > ?1 ORDER BY id";
        let mut st = c.prepare(sql)?;
        let rows = st.query_map(params![after.0], table_from)?;
        rows.collect::<Result<_, _>>().map_err(unwrap_row_error)
    }

    fn revoked(&self) -> Result<std::collections::HashSet<String>, StoreError> {
        let c = self.r();
        let mut st = c.prepare("SELECT token_hash FROM seats WHERE revoked = 1")?;
        let rows = st.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn add_seat(&self, s: &SeatRow) -> Result<(), StoreError> {
        insert_seat(&self.w(), s)
    }

    fn seat(&self, token_hash: &str) -> Result<Option<SeatRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT token_hash, event, role, name, tables, revoked FROM seats
                   WHERE token_hash = ?1";
        c.query_row(sql, params![token_hash], seat_from)
            .optional()
            .map_err(unwrap_row_error)
    }

    fn seats(&self, event: EventId) -> Result<Vec<SeatRow>, StoreError> {
        let c = self.r();
        let sql = "SELECT token_hash, event, role, name, tables, revoked FROM seats
                   WHERE event = ?1 ORDER BY rowid";
        let mut st = c.prepare(sql)?;
        let rows = st.query_map(params![event.0], seat_from)?;
        rows.collect::<Result<_, _>>().map_err(unwrap_row_error)
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
        insert(&tx, entries)?;
        if let Some(t) = timeline {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('timeline', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
                params![t.0 as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn log(&self, table: TableId) -> Result<Vec<LogEntry>, StoreError> {
        self.log_from(table, 0)
    }

    fn log_from(&self, table: TableId, from: u64) -> Result<Vec<LogEntry>, StoreError> {
        self.raw_log_from(table, from)?
            .into_iter()
            .map(|r| r.typed(table))
            .collect()
    }

    fn entry_of_seq(&self, table: TableId, seq: u64) -> Result<u64, StoreError> {
        let index: i64 = self.r().query_row(
            "SELECT COALESCE(MAX(idx), 0) FROM log WHERE tbl = ?1 AND first_seq <= ?2",
            params![table.0, seq as i64],
            |r| r.get(0),
        )?;
        Ok(index as u64)
    }

    fn timeline(&self) -> Result<Millis, StoreError> {
        let c = self.r();
        let v: Option<i64> = c
            .query_row("SELECT value FROM meta WHERE key = 'timeline'", [], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(Millis(v.unwrap_or(0) as u64))
    }

    fn location(&self) -> Option<std::path::PathBuf> {
        Some(self.path.clone())
    }

    fn recordings(
        &self,
    ) -> Result<std::sync::Arc<dyn crate::recordings::Recordings>, crate::recordings::RecordingsError>
    {
        let files = crate::recordings::FileRecordings::open(&self.path)?;
        Ok(std::sync::Arc::new(files))
    }

    fn mark_wall_clock(&self, at: Millis, wall: UnixMillis) -> Result<(), StoreError> {
        super::wall::mark(&self.w(), at, wall)
    }

    fn wall_clock_marks(&self) -> Result<Vec<(Millis, UnixMillis)>, StoreError> {
        super::wall::marks(&self.r())
    }

    fn put_snapshot(&self, snapshot: &Snapshot) -> Result<(), StoreError> {
        super::snapshots::put(&mut self.w(), snapshot)
    }

    fn snapshot(&self, table: TableId) -> Result<Option<Snapshot>, StoreError> {
        super::snapshots::latest(&self.r(), table)
    }

    fn tournaments(&self) -> Option<&dyn super::TournamentStore> {
        Some(self)
    }
}
