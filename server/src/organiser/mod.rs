//! The organiser's side of a tournament (issue 18) on top of the pure core
//! (`baoqi_tournament`): the event's register and settings, its rounds paired into tables
//! with seats and tokens ([`crate::admin::add_table`]), results read from the tables' games
//! (over and verified, 附表七 7.9) or recorded by the organiser (absence, 87), and the
//! standings. Everything is kept in the store ([`crate::store::TournamentStore`]); nothing is
//! written by the table tasks.
//!
//! - [`settings`]: the `[tournament]` section of the event file.
//! - [`register`]: `baoqi players import|list`.
//! - [`edits`]: `baoqi players add|edit|withdraw` (late entrants, corrections, 89(2)).
//! - [`amend`]: an organiser's change written in one transaction (108 replays, 89(2)).
//! - [`overrides`]: `baoqi round override` (108).
//! - [`changelog`]: `baoqi changes`, the change log as text.
//! - [`rounds`]: `baoqi round pair|result`.
//! - [`lot`]: `baoqi round lot`, the lot (抽籤) of a knock-out tie still level.
//! - [`results`]: a table's game as a pairing's result.
//! - [`standings`]: `baoqi standings`, `/api/events/{id}/standings.json|csv`.
//! - [`place`]: a player's own place, asked from his seat (`query_standing`).
//! - [`crosstable`]: the crosstable of the standings page and its CSV.
//! - [`report`]: `baoqi standings --format text`: standings, pairings and crosstable.

pub mod amend;
pub mod changelog;
pub mod crosstable;
mod draft;
pub mod edits;
mod knockout;
pub mod lot;
pub mod overrides;
pub mod place;
pub mod register;
pub mod report;
pub mod results;
pub mod rounds;
pub mod settings;
pub mod standings;
mod withdrawal;

use baoqi_tournament::changes::Change;
use baoqi_tournament::swiss::Relaxation;
use baoqi_tournament::{GameResult, Player, PlayerId};
use serde::{Deserialize, Serialize};

use crate::model::TableId;
use crate::wallclock::UnixMillis;

pub use amend::Amendment;
pub use settings::{PairingSystem, TournamentSettings};

/// A player of the register as stored: the register's line and whether he is still paired
/// (a withdrawn player, 89(2), is not).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registered {
    /// The register's line.
    pub player: Player,
    /// Still paired.
    pub active: bool,
}

/// One board of a round as stored: a game with its table, or a bye (no black, no table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingRow {
    /// The round (1-based).
    pub round: u32,
    /// The board (1-based; byes are numbered after the games).
    pub board: u32,
    /// 紅方, or the player with the bye.
    pub red: PlayerId,
    /// 黑方; `None` for a bye.
    pub black: Option<PlayerId>,
    /// The table the game is played at; `None` for a bye.
    pub table: Option<TableId>,
    /// A result the organiser recorded (an absence, 87), which stands over the table's.
    pub result: Option<GameResult>,
}

impl PairingRow {
    /// Whether this board is a bye.
    pub fn is_bye(&self) -> bool {
        self.black.is_none()
    }
}

/// One entry of the event's change log: what the organiser did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Logged {
    /// The register was imported.
    Registered {
        /// How many players.
        players: u32,
    },
    /// A round was paired.
    Paired {
        /// The round.
        round: u32,
        /// Games.
        games: u32,
        /// Players with a bye.
        byes: Vec<PlayerId>,
        /// The rules the Swiss pairer had to break.
        relaxed: Vec<Relaxation>,
    },
    /// The organiser recorded a board's result (an absence, 87).
    Result {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: GameResult,
    },
    /// A change of the tournament core (108, 89(2), late entrants).
    Change(Change),
    /// The organiser corrected a player's line of the register.
    Edited {
        /// The line before.
        before: Player,
        /// The line after.
        after: Player,
    },
    /// 89(2): a withdrawal ([`Change::Withdrawn`]) with the reason the organiser gave.
    Withdrawal {
        /// The core's change: the player and what was done to the event.
        change: Change,
        /// Why, as the organiser wrote it.
        reason: Option<String>,
    },
    /// 108: a board replayed at a new table (the old table's player seats revoked).
    Retabled {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The table of the game set aside.
        from: Option<TableId>,
        /// The new table.
        to: TableId,
    },
    /// 附表二 第一部份 1(1), 3(a): the lot (抽籤) of a knock-out tie level after its tie-break
    /// games, drawn by the server at the organiser's word. The first lot logged for a tie
    /// is the one that counts.
    Lot {
        /// The round of the tie.
        round: u32,
        /// The higher seed.
        first: PlayerId,
        /// The other.
        second: PlayerId,
        /// Who the lot sent through.
        winner: PlayerId,
    },
}

/// A change log entry with its wall-clock time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// When (Unix ms, UTC).
    pub at: UnixMillis,
    /// What.
    pub change: Logged,
}

/// Why an event's tournament cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The store keeps no tournaments.
    #[error("this store keeps no tournaments")]
    Unsupported,
    /// No such event.
    #[error("there is no event {0}")]
    NoEvent(crate::model::EventId),
    /// The event has no `[tournament]` section.
    #[error(
        "event {0} is not a tournament: its event file has no [tournament] section (see docs/tournament.toml)"
    )]
    NotATournament(crate::model::EventId),
}

/// An event's tournament, opened: the store, the event and its settings.
pub struct Opened<'a> {
    /// The whole store (tables, seats, logs).
    pub store: &'a dyn crate::store::Store,
    /// Its tournament records.
    pub records: &'a dyn crate::store::TournamentStore,
    /// The event.
    pub event: crate::model::EventRow,
    /// Its tournament settings.
    pub settings: TournamentSettings,
}

/// The last round paired in `rows` (0 before the first).
pub fn last_round(rows: &[PairingRow]) -> u32 {
    rows.iter().map(|r| r.round).max().unwrap_or(0)
}

impl<'a> Opened<'a> {
    /// Opens the tournament of `event`.
    pub fn open(
        store: &'a dyn crate::store::Store,
        event: crate::model::EventId,
    ) -> Result<Opened<'a>, EventError> {
        let records = store.tournaments().ok_or(EventError::Unsupported)?;
        let row = store
            .events()?
            .into_iter()
            .find(|e| e.id == event)
            .ok_or(EventError::NoEvent(event))?;
        let settings = records
            .tournament(event)?
            .ok_or(EventError::NotATournament(event))?;
        Ok(Opened {
            store,
            records,
            event: row,
            settings,
        })
    }

    /// Appends `change` to the event's change log, dated now.
    pub fn log(&self, change: Logged) -> Result<(), crate::store::StoreError> {
        self.records.log_change(
            self.event.id,
            &LogLine {
                at: crate::wallclock::now(),
                change,
            },
        )
    }
}
