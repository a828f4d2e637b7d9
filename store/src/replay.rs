//! Rebuilding a match from its stored log: the `Create` entry makes the match, every
//! `Command` and `Advance` entry is applied again at its stored instant. The arbiter is
//! deterministic, so the events come out as they were stored; a difference (an arbiter of
//! another version) is logged and the stored events stay the record. With a snapshot
//! ([`crate::snapshot`]) only the entries after it are applied ([`rebuild`]); each entry is
//! applied in place, so a log replays in time linear in its length.

use baoqi_arbiter::{ConfigError, Event};

use crate::game::Game;
use crate::model::{TableId, TableRow};
use crate::snapshot::SnapshotError;
use crate::timeline::Millis;
use crate::{EntryKind, LogEntry, Store, StoreError};

/// Events kept in memory for reconnecting clients; older ones are read from the store.
pub const HISTORY: usize = 1024;

/// Why a match could not be rebuilt from the store.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    /// The log could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log does not rebuild the match.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Where a rebuilt match stands.
pub struct Resumed {
    /// The game after replaying the log.
    pub game: Game,
    /// The next log index.
    pub next_index: u64,
    /// The last event sequence number.
    pub seq: u64,
    /// The last events, for the history.
    pub recent: Vec<(u64, Millis, Event)>,
}

/// Why a table's log does not rebuild its match.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The table's configuration cannot make a match.
    #[error("table {table}: {source}")]
    Config {
        /// The table.
        table: TableId,
        /// Why.
        source: ConfigError,
    },
    /// The log does not start with the table's creation.
    #[error("table {table}: the log does not start with its creation")]
    NoCreation {
        /// The table.
        table: TableId,
    },
    /// An entry is missing.
    #[error("table {table}: log entry {index} is missing")]
    Gap {
        /// The table.
        table: TableId,
        /// The missing entry.
        index: u64,
    },
    /// A stored command is refused by this arbiter.
    #[error("table {table}: stored command {index} is now refused: {why}")]
    Refused {
        /// The table.
        table: TableId,
        /// The entry.
        index: u64,
        /// Why.
        why: crate::game::Refusal,
    },
}

/// Why a table's snapshot was not used (its whole log is replayed instead).
#[derive(Debug, thiserror::Error)]
pub enum ShortcutError {
    /// The snapshot cannot be read.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// The entries after it cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The entries after it do not replay on it.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The snapshot covers entries the log does not hold.
    #[error("table {table}: the snapshot covers {covers} entries, the log holds {holds}")]
    BeyondLog {
        /// The table.
        table: TableId,
        /// The entries the snapshot covers.
        covers: u64,
        /// The entries of the log.
        holds: u64,
    },
}

/// Rebuilds a table's match from the store: from its latest snapshot and the entries after
/// it when it has a usable one, else from its whole log ([`replay`]). Returns the entries
/// to store for a new match, as [`replay`] does.
pub fn rebuild(
    store: &dyn Store,
    table: &TableRow,
    now: Millis,
) -> Result<(Resumed, Vec<LogEntry>), RebuildError> {
    match from_snapshot(store, table) {
        Ok(Some(resumed)) => return Ok((resumed, Vec::new())),
        Ok(None) => {}
        Err(e) => tracing::warn!(table = %table.id, "replaying the whole log: {e}"),
    }
    let log = store.log(table.id)?;
    Ok(replay(table, &log, now)?)
}

/// The match from the table's latest snapshot and the entries after it (and the
/// [`HISTORY`] entries before it, for the history); `None` when it has no snapshot.
fn from_snapshot(store: &dyn Store, table: &TableRow) -> Result<Option<Resumed>, ShortcutError> {
    let Some(snapshot) = store.snapshot(table.id)? else {
        return Ok(None);
    };
    let mut game = crate::snapshot::read(&snapshot)?;
    let start = snapshot.index.saturating_sub(HISTORY as u64);
    let window = store.log_from(table.id, start)?;
    let holds = start + window.len() as u64;
    if holds < snapshot.index || window.is_empty() {
        return Err(ShortcutError::BeyondLog {
            table: table.id,
            covers: snapshot.index,
            holds,
        });
    }
    apply_entries(table.id, &mut game, &window, start, snapshot.index)?;
    Ok(Some(resumed(game, &window)))
}

/// Replays `log` (empty: a new match created at `now`). Returns the rebuilt match and the
/// entries to store for a new match (its creation).
pub fn replay(
    table: &TableRow,
    log: &[LogEntry],
    now: Millis,
) -> Result<(Resumed, Vec<LogEntry>), ReplayError> {
    let create = |at| {
        Game::create(table.config.clone(), at).map_err(|source| ReplayError::Config {
            table: table.id,
            source,
        })
    };
    let Some(first) = log.first() else {
        let entry = LogEntry {
            table: table.id,
            index: 0,
            at: now,
            kind: EntryKind::Create,
            actor: crate::game::Actor::Server,
            command: None,
            first_seq: 1,
            events: Vec::new(),
        };
        let resumed = Resumed {
            game: create(now)?,
            next_index: 1,
            seq: 0,
            recent: Vec::new(),
        };
        return Ok((resumed, vec![entry]));
    };
    if first.kind != EntryKind::Create {
        return Err(ReplayError::NoCreation { table: table.id });
    }
    let mut game = create(first.at)?;
    apply_entries(table.id, &mut game, log, 0, 0)?;
    Ok((resumed(game, log), Vec::new()))
}

/// Applies again the entries of `window` (the log from entry `start` on) from entry `from`
/// on, to the match as it stood after the first `from` entries.
fn apply_entries(
    table: TableId,
    game: &mut Game,
    window: &[LogEntry],
    start: u64,
    from: u64,
) -> Result<(), ReplayError> {
    for (index, entry) in (start..).zip(window) {
        if entry.index != index {
            return Err(ReplayError::Gap { table, index });
        }
        if index < from {
            continue;
        }
        let events = step(game, entry).map_err(|why| ReplayError::Refused { table, index, why })?;
        if events != entry.events {
            tracing::warn!(
                %table,
                index,
                "replayed events differ from the stored ones; the stored ones are kept"
            );
        }
    }
    Ok(())
}

/// Where the match stands after the last entry of `window` (not empty), with the last
/// [`HISTORY`] events of the window.
fn resumed(game: Game, window: &[LogEntry]) -> Resumed {
    let recent: Vec<(u64, Millis, Event)> = window
        .iter()
        .flat_map(|e| e.numbered().map(move |(seq, ev)| (seq, e.at, ev.clone())))
        .collect();
    // Every entry numbers its events from the sequence number after the one before it: a
    // window without events still knows where the numbering stands.
    let last = window.last();
    let seq = recent.last().map_or_else(
        || last.map_or(0, |e| e.first_seq.saturating_sub(1)),
        |r| r.0,
    );
    let skip = recent.len().saturating_sub(HISTORY);
    Resumed {
        game,
        next_index: last.map_or(0, |e| e.index + 1),
        seq,
        recent: recent.into_iter().skip(skip).collect(),
    }
}

/// Applies one stored entry again, in place: a refusal fails the whole replay, so the
/// half-changed game is dropped.
fn step(game: &mut Game, entry: &LogEntry) -> Result<Vec<Event>, crate::game::Refusal> {
    match (&entry.kind, &entry.command) {
        (EntryKind::Create, _) => Ok(entry.events.clone()),
        (EntryKind::Command, Some(command)) => game.reapply(entry.actor, command, entry.at),
        (EntryKind::Command, None) => Ok(Vec::new()),
        (EntryKind::Advance, _) => Ok(game.readvance(entry.at)),
    }
}
