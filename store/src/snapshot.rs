//! Snapshots of the matches: every [`EVERY`] log entries a table's task has its match
//! written out whole, off the task, as the table's [`Snapshot`]; a rebuild starts from the
//! latest usable snapshot and replays only the entries after it
//! ([`crate::replay::rebuild`]).
//!
//! The log stays the record; a snapshot is a shortcut that must prove itself. It is the
//! arbiter's own serialisation of the match (exact: `baoqi_arbiter`'s `checkpoint` module),
//! and it is stored only after it has been read back and found equal to the match it was
//! taken from. One that cannot be read (another checkpoint format, a damaged row) or whose
//! tail does not replay is passed over with a warning, and the whole log is replayed.

use std::sync::Arc;

use baoqi_arbiter::CHECKPOINT_FORMAT;

use crate::game::Game;
use crate::model::TableId;
use crate::{Snapshot, Store, StoreError};

/// Log entries between two snapshots of a match.
///
/// Why 1024 (figures of `server/tests/restart.rs`, a 10,262-entry game, this 2-core machine):
/// reading an entry costs about 7 µs and replaying it about 2.5 µs, so a rebuild from a
/// snapshot (the snapshot, at most 1,023 entries after it and the history's 1,024 before
/// it) takes 10–20 ms, against about 100 ms for the whole log and 2–3 s before the replay
/// was made linear. Taking a snapshot costs, off the table's task, writing the match out,
/// reading it back and comparing (14 ms at 10,000 entries: the match keeps every word ever
/// said, 550 kB) and storing it (1.3 ms under the store's write lock); every 1024 entries
/// that is some 15 µs and 540 bytes an entry, about what storing the entry costs. Closer
/// snapshots would mostly rewrite the same words; farther ones would lengthen the rebuild
/// for little saving.
pub const EVERY: u64 = 1024;

/// Why a snapshot was not taken or cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// The match could not be written.
    #[error("table {table}: the match cannot be written out: {source}")]
    Encode {
        /// The table.
        table: TableId,
        /// Why.
        source: serde_json::Error,
    },
    /// The snapshot cannot be read.
    #[error("table {table}: the snapshot after entry {index} cannot be read: {source}")]
    Decode {
        /// The table.
        table: TableId,
        /// The entries it covers.
        index: u64,
        /// Why.
        source: serde_json::Error,
    },
    /// The snapshot was written in another checkpoint format.
    #[error(
        "table {table}: the snapshot after entry {index} is of checkpoint format {found}; \
         this server reads {CHECKPOINT_FORMAT}"
    )]
    Format {
        /// The table.
        table: TableId,
        /// The entries it covers.
        index: u64,
        /// Its format.
        found: u32,
    },
    /// Read back, the match is not the one it was taken from: not stored.
    #[error("table {table}: the snapshot after entry {index} does not read back as the match")]
    NotExact {
        /// The table.
        table: TableId,
        /// The entries it covers.
        index: u64,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Whether a snapshot is due once a table's log holds `next_index` entries.
pub fn due(next_index: u64) -> bool {
    next_index > 0 && next_index.is_multiple_of(EVERY)
}

/// The snapshot of `game` as it stands after the first `index` entries of `table`'s log,
/// once it has read back as `game`.
pub fn take(table: TableId, index: u64, game: &Game) -> Result<Snapshot, SnapshotError> {
    let state =
        serde_json::to_string(game).map_err(|source| SnapshotError::Encode { table, source })?;
    let snapshot = Snapshot {
        table,
        index,
        format: CHECKPOINT_FORMAT,
        state,
    };
    if read(&snapshot)? != *game {
        return Err(SnapshotError::NotExact { table, index });
    }
    Ok(snapshot)
}

/// The match a snapshot holds.
pub fn read(snapshot: &Snapshot) -> Result<Game, SnapshotError> {
    let (table, index) = (snapshot.table, snapshot.index);
    if snapshot.format != CHECKPOINT_FORMAT {
        return Err(SnapshotError::Format {
            table,
            index,
            found: snapshot.format,
        });
    }
    serde_json::from_str(&snapshot.state).map_err(|source| SnapshotError::Decode {
        table,
        index,
        source,
    })
}

/// Takes and stores the snapshot of `game` (after `index` entries) on a blocking thread, so
/// the table's task goes on at once. A failure is logged: the log stays the record.
pub fn save(store: Arc<dyn Store>, table: TableId, index: u64, game: Game) {
    tokio::task::spawn_blocking(move || {
        let stored = take(table, index, &game)
            .and_then(|s| store.put_snapshot(&s).map_err(SnapshotError::from));
        if let Err(e) = stored {
            tracing::warn!("no snapshot: {e}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::Millis;

    #[test]
    fn snapshots_fall_every_1024_entries() {
        let due: Vec<u64> = (0..=3000).filter(|&i| due(i)).collect();
        assert_eq!(due, [1024, 2048]);
    }

    #[test]
    fn a_snapshot_of_another_format_or_damaged_is_not_read() {
        let game = Game::create(baoqi_arbiter::MatchConfig::default(), Millis(0)).unwrap();
        let s = take(TableId(1), 1, &game).unwrap();
        assert_eq!(read(&s).unwrap(), game);
        let other = Snapshot {
            format: CHECKPOINT_FORMAT + 1,
            ..s.clone()
        };
        assert!(matches!(read(&other), Err(SnapshotError::Format { .. })));
        let damaged = Snapshot {
            state: s.state[..s.state.len() / 2].to_string(),
            ..s
        };
        assert!(matches!(read(&damaged), Err(SnapshotError::Decode { .. })));
    }
}
