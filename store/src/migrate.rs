//! Bringing a log written by an earlier protocol to the current one. The commands are the
//! record of what was done (each was stored before it was acknowledged); the events of a
//! format-1 log were Chinese text, so they are made again, typed, by replaying the commands
//! at their stored instants with the current arbiter. A copy of the database as it was is
//! kept beside it (`<file>.v1.bak`) before anything is written, and the new log is written in
//! one transaction: a failed migration changes nothing.

use std::path::PathBuf;

use baoqi_arbiter::Command;

use super::pages::RawEntry;
use super::{EntryKind, LogEntry, SqliteStore, Store, StoreError};
use crate::game::Game;
use crate::model::{TableId, TableRow};

/// Why a format-1 log cannot be brought to the current format.
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    /// The store could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored command is not a command of the arbiter.
    #[error("table {table}, log entry {index}: the stored command cannot be read: {source}")]
    Command {
        /// The table.
        table: TableId,
        /// The log entry.
        index: u64,
        /// Why.
        source: serde_json::Error,
    },
    /// A stored command is refused by the current arbiter.
    #[error("table {table}, log entry {index}: the stored command is now refused: {why}")]
    Refused {
        /// The table.
        table: TableId,
        /// The log entry.
        index: u64,
        /// Why.
        why: String,
    },
    /// The table's configuration cannot make a match.
    #[error("table {table}: {why}")]
    Config {
        /// The table.
        table: TableId,
        /// Why.
        why: String,
    },
    /// The log does not start with the table's creation, or has a gap.
    #[error("table {table}: the log is not complete from its creation")]
    Incomplete {
        /// The table.
        table: TableId,
    },
}

impl From<MigrationError> for StoreError {
    fn from(e: MigrationError) -> StoreError {
        match e {
            MigrationError::Store(s) => s,
            other => StoreError::Migration(Box::new(other)),
        }
    }
}

/// Where the copy of a database is kept before its migration.
pub fn backup_path(store: &SqliteStore) -> PathBuf {
    let mut name = store.path().as_os_str().to_owned();
    name.push(".v1.bak");
    PathBuf::from(name)
}

/// Migrates a store of format 1 to the current format (see the module documentation).
pub(crate) fn from_v1(store: &SqliteStore) -> Result<(), StoreError> {
    let mut logs = Vec::new();
    for table in store.tables(None)? {
        let raw = store.raw_log(table.id)?;
        logs.push(replay_v1(&table, &raw)?);
    }
    store.rewrite(&logs, &backup_path(store))?;
    tracing::info!(
        tables = logs.len(),
        backup = %backup_path(store).display(),
        "the log was migrated to format {}",
        super::LOG_FORMAT
    );
    Ok(())
}

/// One table's format-1 log, its events made again by the current arbiter.
fn replay_v1(table: &TableRow, raw: &[RawEntry]) -> Result<Vec<LogEntry>, MigrationError> {
    let id = table.id;
    let Some(first) = raw.first().filter(|f| f.kind == EntryKind::Create) else {
        return if raw.is_empty() {
            Ok(Vec::new())
        } else {
            Err(MigrationError::Incomplete { table: id })
        };
    };
    let mut game =
        Game::create(table.config.clone(), first.at).map_err(|e| MigrationError::Config {
            table: id,
            why: e.to_string(),
        })?;
    let mut seq = 0;
    let mut out = Vec::with_capacity(raw.len());
    for (i, r) in raw.iter().enumerate() {
        if r.index != i as u64 {
            return Err(MigrationError::Incomplete { table: id });
        }
        let (command, events) = match r.kind {
            EntryKind::Create => (None, Vec::new()),
            EntryKind::Advance => (None, game.advance(r.at)),
            EntryKind::Command => {
                let command: Command =
                    serde_json::from_str(&r.command).map_err(|source| MigrationError::Command {
                        table: id,
                        index: r.index,
                        source,
                    })?;
                let events =
                    game.apply(r.actor, &command, r.at)
                        .map_err(|why| MigrationError::Refused {
                            table: id,
                            index: r.index,
                            why: why.to_string(),
                        })?;
                (Some(command), events)
            }
        };
        out.push(LogEntry {
            table: id,
            index: r.index,
            at: r.at,
            kind: r.kind,
            actor: r.actor,
            command,
            first_seq: seq + 1,
            events,
        });
        seq += out.last().map_or(0, |e| e.events.len() as u64);
    }
    Ok(out)
}
