//! Rebuilding a match from its stored log: the `Create` entry makes the match, every
//! `Command` and `Advance` entry is applied again at its stored instant. The arbiter is
//! deterministic, so the events come out as they were stored; a difference (an arbiter of
//! another version) is logged and the stored events stay the record.

use baoqi_arbiter::{ConfigError, Event};

use crate::game::Game;
use crate::model::{TableId, TableRow};
use crate::store::{EntryKind, LogEntry};
use crate::table::{HISTORY, Resumed};
use crate::timeline::Millis;

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
    for (i, entry) in log.iter().enumerate() {
        if entry.index != i as u64 {
            return Err(ReplayError::Gap {
                table: table.id,
                index: i as u64,
            });
        }
        let events = step(&mut game, entry).map_err(|why| ReplayError::Refused {
            table: table.id,
            index: entry.index,
            why,
        })?;
        if events != entry.events {
            tracing::warn!(
                table = table.id,
                index = entry.index,
                "replayed events differ from the stored ones; the stored ones are kept"
            );
        }
    }
    let recent: Vec<(u64, Millis, Event)> = log
        .iter()
        .flat_map(|e| e.numbered().map(move |(seq, ev)| (seq, e.at, ev.clone())))
        .collect();
    let seq = recent.last().map_or(0, |r| r.0);
    let skip = recent.len().saturating_sub(HISTORY);
    let resumed = Resumed {
        game,
        next_index: log.len() as u64,
        seq,
        recent: recent.into_iter().skip(skip).collect(),
    };
    Ok((resumed, Vec::new()))
}

/// Applies one stored entry again.
fn step(game: &mut Game, entry: &LogEntry) -> Result<Vec<Event>, crate::game::Refusal> {
    match (&entry.kind, &entry.command) {
        (EntryKind::Create, _) => Ok(entry.events.clone()),
        (EntryKind::Command, Some(command)) => game.apply(entry.actor, command, entry.at),
        (EntryKind::Command, None) => Ok(Vec::new()),
        (EntryKind::Advance, _) => Ok(game.advance(entry.at)),
    }
}
