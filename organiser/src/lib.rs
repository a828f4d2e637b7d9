//! baoqi-organiser (報棋): the organiser's service, called alike by the command line and by
//! the server's HTTP edge. It creates events, tables and seats from the organiser's event
//! file ([`admin`], the demo event of [`demo`]), and runs a tournament on top of
//! the pure core (`baoqi_tournament`): the event's register and settings, its rounds paired
//! into tables with seats and tokens, results read from the tables' games (over and
//! verified, 附表七 7.9) or recorded by the organiser (absence, 87), changes (108, 89(2)),
//! and the standings. Everything is kept in the store ([`baoqi_store::TournamentStore`]);
//! nothing is written by the table tasks, and nothing here knows of sockets or the server.
//!
//! - [`admin`]: `baoqi event create`, `baoqi table add`, seats and their links.
//! - [`demo`]: the demo event of `baoqi serve --demo`.
//! - [`offline`]: `baoqi event create|revoke`, `baoqi table add` on a database file.
//! - [`register`]: `baoqi players import|list`.
//! - [`edits`]: `baoqi players add|edit|withdraw` (late entrants, corrections, 89(2)).
//! - [`Amendment`]: an organiser's change written in one transaction (108 replays, 89(2)).
//! - [`overrides`]: `baoqi round override` (108).
//! - [`changelog`]: `baoqi changes`, the change log as text.
//! - [`rounds`]: `baoqi round pair|result`.
//! - [`preview`]: `baoqi round pair --dry-run`, and who was absent last round (87).
//! - [`unpair`]: `baoqi round unpair`, a round taken back before its games start.
//! - [`lot`]: `baoqi round lot`, the lot (抽籤) of a knock-out tie still level.
//! - [`grid`]: `baoqi round results|result`: the result grid, entered, corrected, cleared.
//! - [`results`]: a table's game as a pairing's result.
//! - [`standings`]: `baoqi standings`, `/api/events/{id}/standings.json|csv`.
//! - [`place`]: a player's own place, asked from his seat (`query_standing`).
//! - [`crosstable`]: the crosstable of the standings page and its CSV.
//! - [`spreadsheet`]: the CSV files, written for a spreadsheet (BOM, numbers, no formula).
//! - [`report`]: `baoqi standings --format text`: standings, pairings and crosstable.

pub mod admin;
pub mod changelog;
mod columns;
pub mod crosstable;
pub mod demo;
mod draft;
pub mod edits;
pub mod grid;
mod knockout;
pub mod late;
pub mod links;
pub mod listing;
pub mod lot;
pub mod offline;
pub mod overrides;
pub mod place;
pub mod preview;
pub mod prizes;
pub mod register;
pub mod report;
pub mod results;
pub mod rounds;
pub mod spreadsheet;
pub mod standings;
pub mod unpair;
mod withdrawal;

use baoqi_store::model::{EventId, EventRow};
use baoqi_store::{Store, StoreError, TournamentStore};
use baoqi_tournament::RoundNumber;

// The organiser's records and settings are kept by the store (which knows rows, not
// services); they are this crate's vocabulary too.
pub use baoqi_store::amendment::Amendment;
pub use baoqi_store::config::tournament::{PairingSystem, TournamentSettings};
pub use baoqi_store::records::{ChangeLine, Logged, PairingRow, Registered};

/// Why an event's tournament cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store keeps no tournaments.
    #[error("this store keeps no tournaments")]
    Unsupported,
    /// No such event.
    #[error("there is no event {0}")]
    NoEvent(EventId),
    /// The event has no `[tournament]` section.
    #[error(
        "event {0} is not a tournament: its event file has no [tournament] section (see docs/tournament.toml)"
    )]
    NotATournament(EventId),
}

/// An event's tournament, opened: the store, the event and its settings.
pub struct Opened<'a> {
    /// The whole store (tables, seats, logs).
    pub store: &'a dyn Store,
    /// Its tournament records.
    pub records: &'a dyn TournamentStore,
    /// The event.
    pub event: EventRow,
    /// Its tournament settings.
    pub settings: TournamentSettings,
}

/// The last round paired in `rows`; `None` before the first.
pub fn last_round(rows: &[PairingRow]) -> Option<RoundNumber> {
    rows.iter().map(|r| r.round).max()
}

impl<'a> Opened<'a> {
    /// Opens the tournament of `event`.
    pub fn open(store: &'a dyn Store, event: EventId) -> Result<Opened<'a>, EventError> {
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
    pub fn log(&self, change: Logged) -> Result<(), StoreError> {
        self.records.log_change(
            self.event.id,
            &ChangeLine {
                at: baoqi_store::wallclock::now(),
                change,
            },
        )
    }
}
