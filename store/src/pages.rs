//! A table's log read a page at a time. The store's own reads ([`super::SqliteStore`]) and the
//! exports ([`LogPages`]) share these queries; an export reads on a read-only connection of
//! its own, each page in a transaction of its own, so that a long export neither holds the
//! store's one read connection (a seat joining waits on it) nor keeps a read transaction
//! open for the whole export (the WAL could not be checkpointed).

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, params};

use super::{EntryKind, LogEntry, StoreError};
use crate::game::Actor;
use crate::model::{Role, TableId};
use crate::timeline::Millis;

/// A log entry as stored, its JSON columns unread (for migrations).
#[derive(Debug, Clone)]
pub(crate) struct RawEntry {
    pub(crate) index: u64,
    pub(crate) at: Millis,
    pub(crate) kind: EntryKind,
    pub(crate) actor: Actor,
    pub(crate) command: String,
    pub(crate) first_seq: u64,
    pub(crate) events: String,
}

impl RawEntry {
    /// The entry of `table` typed; a column that cannot be read is [`StoreError::Corrupt`].
    pub(crate) fn typed(self, table: TableId) -> Result<LogEntry, StoreError> {
        let corrupt = |what, source| StoreError::Corrupt {
            table,
            index: self.index,
            what,
            source,
        };
        Ok(LogEntry {
            table,
            index: self.index,
            at: self.at,
            kind: self.kind,
            actor: self.actor,
            command: serde_json::from_str(&self.command).map_err(|e| corrupt("the command", e))?,
            first_seq: self.first_seq,
            events: serde_json::from_str(&self.events).map_err(|e| corrupt("the events", e))?,
        })
    }
}

/// At most `limit` entries of `table` from index `from` on, in order (`None`: to the end).
pub(super) fn raw_page(
    c: &Connection,
    table: TableId,
    from: u64,
    limit: Option<u64>,
) -> Result<Vec<RawEntry>, StoreError> {
    let mut st = c.prepare_cached(
        "SELECT idx, at, kind, actor, command, first_seq, events FROM log
         WHERE tbl = ?1 AND idx >= ?2 ORDER BY idx LIMIT ?3",
    )?;
    // SQLite reads a negative LIMIT as no limit.
    let limit = limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
    let rows = st.query_map(params![table.0, from as i64, limit], |row| {
        Ok(RawEntry {
            index: row.get::<_, i64>(0)? as u64,
            at: Millis(row.get::<_, i64>(1)? as u64),
            kind: kind_parse(&row.get::<_, String>(2)?),
            actor: actor_parse(&row.get::<_, String>(3)?),
            command: row.get(4)?,
            first_seq: row.get::<_, i64>(5)? as u64,
            events: row.get(6)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn actor_parse(s: &str) -> Actor {
    Role::parse(s).map_or(Actor::Server, Actor::Seat)
}

pub(super) fn kind_parse(s: &str) -> EntryKind {
    match s {
        "create" => EntryKind::Create,
        "advance" => EntryKind::Advance,
        _ => EntryKind::Command,
    }
}

/// The logs of some tables, one after the other, read a page at a time on a read-only
/// connection of its own (an export's).
pub struct LogPages {
    conn: Connection,
    tables: std::vec::IntoIter<TableId>,
    current: Option<(TableId, u64)>,
    page: u64,
}

impl LogPages {
    /// Opens the database file read-only, to read the logs of `tables` in that order,
    /// `page` entries at a time.
    pub fn open(path: &Path, tables: Vec<TableId>, page: u64) -> Result<LogPages, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let mut tables = tables.into_iter();
        let current = tables.next().map(|t| (t, 0));
        Ok(LogPages {
            conn,
            tables,
            current,
            page: page.max(1),
        })
    }

    /// The next entries, in order (possibly of two tables); `None` once every log is read.
    /// An entry that cannot be read is [`StoreError::Corrupt`], as [`super::Store::log`]
    /// says.
    pub fn next_page(&mut self) -> Result<Option<Vec<LogEntry>>, StoreError> {
        let mut out = Vec::new();
        while let Some((table, from)) = self.current {
            let want = self.page - out.len() as u64;
            let raw = raw_page(&self.conn, table, from, Some(want))?;
            let got = raw.len() as u64;
            let next = raw.last().map_or(from, |r| r.index + 1);
            for r in raw {
                out.push(r.typed(table)?);
            }
            if got < want {
                self.current = self.tables.next().map(|t| (t, 0));
            } else {
                self.current = Some((table, next));
                break;
            }
        }
        Ok((!out.is_empty()).then_some(out))
    }
}
