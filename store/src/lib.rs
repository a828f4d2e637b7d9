//! baoqi-store (報棋): what a hall or a federation keeps on disk, and the vocabulary every
//! crate above shares. Events, tables and seats (token hashes only) as rows ([`model`]);
//! the organiser's event file ([`config`]); each table's log of accepted commands with the
//! events they caused, typed, written before anything is acknowledged; snapshots of the
//! match so that rebuilding replays only the entries after one ([`snapshot`], [`replay`]);
//! the game timeline that keeps downtime off the clocks ([`timeline`]); the tournament
//! records the organiser writes ([`records`]); and the leases of a federation's tables
//! ([`lease`]). `SQLite` is the default backend ([`SqliteStore`]), PostgreSQL the
//! federation's ([`PgStore`]); [`Writer`] batches appends from every match task into group
//! commits on a thread of its own; [`migrate`] brings a log written by an earlier protocol
//! version to the current one. The store knows rows, not sockets, services or nodes.

pub mod amendment;
pub mod config;
pub mod game;
pub mod model;
pub mod recordings;
pub mod records;
pub mod replay;
pub mod snapshot;
pub mod testing;
pub mod timeline;
pub mod wallclock;

pub mod backup;
mod batch;
pub mod copy;
mod database;
pub mod lease;
pub mod migrate;
mod pages;
mod pg;
pub mod schema;
mod snapshots;
mod sqlite;
mod sweep;
mod tournament;
mod wall;
mod writer;

pub use batch::{NewBoard, NewRound, NewSeat, NewTables};
pub use database::{Database, DatabaseError};
pub use pages::LogPages;
pub use pg::PgStore;
pub use sqlite::SqliteStore;
pub use sqlite::connect;
pub use tournament::TournamentStore;
pub use writer::{TIMELINE_MARK, WriteItem, Writer};

use baoqi_arbiter::{Command, Event};
use serde::{Deserialize, Serialize};

use crate::game::Actor;
use crate::model::{EventId, EventRow, SeatRow, TableId, TableRow};
use crate::timeline::Millis;
use crate::wallclock::UnixMillis;

/// The format of the log this code writes: 2 since the typed protocol (events with typed
/// words, moves, articles and reasons). A store of format 1 is migrated ([`migrate`]).
pub const LOG_FORMAT: i64 = 2;

/// Why a storage operation failed, with its cause.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed (or could not be reached).
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] ::postgres::Error),
    /// No connection to PostgreSQL could be had in time (it is away, or restarting).
    #[error("PostgreSQL unreachable: {0}")]
    Unreachable(#[from] r2d2::Error),
    /// The database's schema could not be brought to this code's ([`schema`]).
    #[error("schema migration: {0}")]
    Schema(Box<refinery::Error>),
    /// The integrity check found damage (what it reported).
    #[error("integrity check: {0}")]
    Damaged(String),
    /// A value could not be written as JSON.
    #[error("cannot encode {what}: {source}")]
    Encode {
        /// What was being written.
        what: &'static str,
        /// Why.
        source: serde_json::Error,
    },
    /// A stored value cannot be read: the database is damaged or was written by another
    /// program.
    #[error("table {table}, log entry {index}: {what} cannot be read: {source}")]
    Corrupt {
        /// The table.
        table: TableId,
        /// The log entry.
        index: u64,
        /// The column.
        what: &'static str,
        /// Why.
        source: serde_json::Error,
    },
    /// A stored row of another kind (event, table, seat) cannot be read.
    #[error("{what} {id} cannot be read: {source}")]
    BadRow {
        /// What kind of row.
        what: &'static str,
        /// Its id.
        id: i64,
        /// Why.
        source: serde_json::Error,
    },
    /// The log was written by a newer version of baoqi.
    #[error("the log format is {found}; this baoqi reads up to {LOG_FORMAT}: upgrade baoqi")]
    NewerFormat {
        /// The format found.
        found: i64,
    },
    /// A thread of the store could not be started.
    #[error("store thread: {0}")]
    Thread(std::io::Error),
    /// The writer thread has stopped (the server is shutting down).
    #[error("the store writer has stopped")]
    WriterStopped,
    /// A seat or board of a batch names a table the batch does not hold ([`NewTables`]).
    #[error("a seat or board names table {index} of a batch of {count}")]
    NoSuchTable {
        /// The index named.
        index: usize,
        /// The tables in the batch.
        count: usize,
    },
    /// The backend cannot make this write in one transaction, so it makes none of it.
    #[error("this store cannot {0} in one transaction")]
    Unsupported(&'static str),
    /// An append of a node that no longer holds the table's lease (or never did, or whose
    /// lease ran out): nothing of it was written ([`lease`]).
    #[error(
        "table {table}: this node's lease is gone (it held {held:?}); another node owns the table"
    )]
    Fenced {
        /// The table.
        table: TableId,
        /// The fence the append carried, if any.
        held: Option<lease::Fence>,
    },
    /// The node holding the table could not store the command (the cause as that node
    /// told it).
    #[error("the node holding the table: {0}")]
    Remote(String),
    /// A log of an earlier format could not be migrated; nothing was changed.
    #[error("migration failed, nothing changed: {0}")]
    Migration(Box<migrate::MigrationError>),
}

/// What a log entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// The match was created (no command; `events` are its opening events).
    Create,
    /// A command accepted by the arbiter.
    Command,
    /// Time passed to `at` and produced events (clock alerts, timeouts).
    Advance,
}

impl EntryKind {
    /// The storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Create => "create",
            EntryKind::Command => "command",
            EntryKind::Advance => "advance",
        }
    }
}

/// One accepted step of a table, in order: replaying the entries rebuilds the match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// The table.
    pub table: TableId,
    /// 0, 1, 2, … within the table.
    pub index: u64,
    /// The instant on the game timeline.
    pub at: Millis,
    /// What happened.
    pub kind: EntryKind,
    /// Who issued the command (`Server` for creation and time passing).
    pub actor: Actor,
    /// The command (`None` for `Create` and `Advance`).
    pub command: Option<Command>,
    /// Sequence number of the first event caused (events of a table are numbered 1, 2, …).
    pub first_seq: u64,
    /// The events caused, in order.
    pub events: Vec<Event>,
}

impl LogEntry {
    /// The entry's events with their sequence numbers.
    pub fn numbered(&self) -> impl Iterator<Item = (u64, &Event)> {
        (self.first_seq..).zip(&self.events)
    }
}

/// A match written out whole ([`crate::snapshot`]) after the first `index` entries of its
/// table's log: rebuilding it replays only the entries from `index` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The table.
    pub table: TableId,
    /// How many entries of the log it covers: the index of the first entry after it.
    pub index: u64,
    /// The arbiter's checkpoint format it is written in ([`baoqi_arbiter::CHECKPOINT_FORMAT`]).
    pub format: u32,
    /// The match, as the arbiter writes it (JSON).
    pub state: String,
}

/// A storage backend. Every method is blocking; async callers go through [`Writer`] or
/// `spawn_blocking`.
pub trait Store: Send + Sync + 'static {
    /// Creates an event and returns its number.
    fn create_event(
        &self,
        name: &str,
        settings: &crate::config::EventSettings,
    ) -> Result<EventId, StoreError>;
    /// Every event.
    fn events(&self) -> Result<Vec<EventRow>, StoreError>;
    /// Adds a table to an event and returns its number.
    fn add_table(&self, table: &TableRow) -> Result<TableId, StoreError>;
    /// The tables of an event, or of every event.
    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError>;
    /// The tables numbered above `after`, of every event: what the running server's scan
    /// looks for (tables another process added), without reading every table's settings
    /// again every 2 s.
    fn tables_after(&self, after: TableId) -> Result<Vec<TableRow>, StoreError> {
        let all = self.tables(None)?;
        Ok(all.into_iter().filter(|t| t.id > after).collect())
    }
    /// Stores a seat.
    fn add_seat(&self, seat: &SeatRow) -> Result<(), StoreError>;
    /// The seat whose token has this hash.
    fn seat(&self, token_hash: &str) -> Result<Option<SeatRow>, StoreError>;
    /// The seats of an event (hashes only).
    fn seats(&self, event: EventId) -> Result<Vec<SeatRow>, StoreError>;
    /// The token hashes of every revoked seat.
    fn revoked(&self) -> Result<std::collections::HashSet<String>, StoreError> {
        let mut all = std::collections::HashSet::new();
        for e in self.events()? {
            let seats = self.seats(e.id)?;
            all.extend(
                seats
                    .into_iter()
                    .filter(|s| s.revoked)
                    .map(|s| s.token_hash),
            );
        }
        Ok(all)
    }
    /// Revokes a seat; false when no seat has this hash.
    fn revoke(&self, token_hash: &str) -> Result<bool, StoreError>;
    /// Appends log entries and a timeline mark in one transaction: all or nothing.
    fn append(&self, entries: &[LogEntry], timeline: Option<Millis>) -> Result<(), StoreError>;
    /// [`Store::append`] by a node of a federation: every table of `entries` must be held
    /// with the fence `holdings` gives it, its lease unexpired, checked in the same
    /// transaction as the write; else nothing is written ([`StoreError::Fenced`]). A store
    /// that keeps no leases (one hall, one server) writes as `append` does.
    fn append_fenced(
        &self,
        entries: &[LogEntry],
        holdings: &[lease::Holding],
        timeline: Option<Millis>,
    ) -> Result<(), StoreError> {
        let _ = holdings;
        self.append(entries, timeline)
    }
    /// The store's table leases, when it keeps them (several nodes on one database).
    fn leases(&self) -> Option<&dyn lease::Leases> {
        None
    }
    /// A table's log, in order.
    fn log(&self, table: TableId) -> Result<Vec<LogEntry>, StoreError>;
    /// The last timeline instant recorded (0 on a new store).
    fn timeline(&self) -> Result<Millis, StoreError>;
    /// The database file, when the store is one: recordings are kept beside it.
    fn location(&self) -> Option<std::path::PathBuf> {
        None
    }
    /// Opens where this store keeps the games' recordings (once per server), or says why
    /// it keeps none.
    fn recordings(
        &self,
    ) -> Result<std::sync::Arc<dyn recordings::Recordings>, recordings::RecordingsError> {
        Err(recordings::RecordingsError::Io(std::io::Error::other(
            "this store keeps no recordings",
        )))
    }
    /// Records that the timeline instant `at` is the wall-clock time `wall` (once per server
    /// start), so that the exports can date a game ([`crate::wallclock`]). A store that keeps
    /// no marks leaves games undated.
    fn mark_wall_clock(&self, at: Millis, wall: UnixMillis) -> Result<(), StoreError> {
        let _ = (at, wall);
        Ok(())
    }
    /// Every wall-clock mark, in timeline order.
    fn wall_clock_marks(&self) -> Result<Vec<(Millis, UnixMillis)>, StoreError> {
        Ok(Vec::new())
    }
    /// A table's log from entry `from` on, in order.
    fn log_from(&self, table: TableId, from: u64) -> Result<Vec<LogEntry>, StoreError> {
        let mut log = self.log(table)?;
        log.retain(|e| e.index >= from);
        Ok(log)
    }
    /// The index of the entry of a table's log that holds event `seq` (the last entry
    /// numbering its events from `seq` or before): a client that missed the events from
    /// `seq` on reads the log from there, not from its start.
    fn entry_of_seq(&self, table: TableId, seq: u64) -> Result<u64, StoreError> {
        let log = self.log(table)?;
        Ok(log
            .iter()
            .take_while(|e| e.first_seq <= seq)
            .last()
            .map_or(0, |e| e.index))
    }
    /// Keeps `snapshot` as its table's latest (older ones may be dropped). A store that keeps
    /// no snapshots ignores it: its matches are rebuilt from their whole logs.
    fn put_snapshot(&self, snapshot: &Snapshot) -> Result<(), StoreError> {
        let _ = snapshot;
        Ok(())
    }
    /// A table's latest snapshot, if any.
    fn snapshot(&self, table: TableId) -> Result<Option<Snapshot>, StoreError> {
        let _ = table;
        Ok(None)
    }
    /// The organiser's records of tournaments, when the backend keeps them.
    fn tournaments(&self) -> Option<&dyn TournamentStore> {
        None
    }
}
