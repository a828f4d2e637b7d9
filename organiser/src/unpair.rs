//! `baoqi round unpair`: the last round taken back before any of its games started, to be
//! paired again (a late withdrawal, an absentee withdrawn, an entry put right). Its boards
//! are removed, its seats revoked (their links stop working) and its tables set aside
//! (作廢), all in one transaction, and the change is logged.

use baoqi_arbiter::Command;
use baoqi_tournament::RoundNumber;

use super::{Amendment, EventError, Logged, Opened, last_round};
use baoqi_store::model::{EventId, TableId};
use baoqi_store::{Store, StoreError};

/// A round taken back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpaired {
    /// The round.
    pub round: RoundNumber,
    /// Its tables, set aside.
    pub tables: Vec<TableId>,
}

/// Why a round cannot be taken back; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum UnpairError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No round is paired.
    #[error("no round is paired yet")]
    Nothing,
    /// A game of the round has started: its record stands.
    #[error(
        "round {round}: the game at table {table} has started; a round is un-paired only before its games start (put results right with `baoqi round result`)"
    )]
    Started {
        /// The round.
        round: RoundNumber,
        /// The table.
        table: TableId,
    },
    /// A board of the round has a result entered.
    #[error(
        "round {round} board {board} has a result entered; clear it first (`baoqi round result --clear`)"
    )]
    Entered {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
    },
}

/// Takes back the last round of `event`, none of whose games has started.
pub fn unpair(store: &dyn Store, event: EventId) -> Result<Unpaired, UnpairError> {
    let t = Opened::open(store, event)?;
    let rows = t.records.pairings(event)?;
    let Some(round) = last_round(&rows) else {
        return Err(UnpairError::Nothing);
    };
    let boards: Vec<_> = rows.iter().filter(|r| r.round == round).collect();
    if let Some(b) = boards.iter().find(|b| b.result.is_some() && !b.is_bye()) {
        return Err(UnpairError::Entered {
            round,
            board: b.board,
        });
    }
    let tables: Vec<TableId> = boards.iter().filter_map(|b| b.table).collect();
    for &table in &tables {
        let started = store
            .log(table)?
            .iter()
            .any(|e| matches!(e.command, Some(Command::Start)));
        if started {
            return Err(UnpairError::Started { round, table });
        }
    }
    let revoke = store
        .seats(event)?
        .into_iter()
        .filter(|s| !s.revoked && !s.tables.is_empty())
        .filter(|s| s.tables.iter().all(|x| tables.contains(x)))
        .map(|s| s.token_hash)
        .collect();
    let amendment = Amendment {
        revoke,
        removed: boards.iter().map(|b| (b.round, b.board)).collect(),
        log: vec![Logged::Unpaired {
            round,
            tables: tables.clone(),
        }],
        at: baoqi_store::wallclock::now(),
        ..Amendment::default()
    };
    t.records.amend(event, &amendment)?;
    Ok(Unpaired { round, tables })
}
