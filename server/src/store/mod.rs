//! Durable storage behind a trait: events, tables, seats (token hashes only), and each
//! table's log of accepted commands with the events they caused. `SQLite` is the default
//! backend ([`SqliteStore`]); [`Writer`] batches appends from every match task into group
//! commits on a thread of its own.

mod sqlite;
mod writer;

pub use sqlite::SqliteStore;
pub(crate) use sqlite::connect;
pub use writer::{TIMELINE_MARK, WriteItem, Writer};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{Actor, Millis};
use crate::model::{EventId, EventRow, SeatRow, TableId, TableRow};

/// A storage failure, in words.
#[derive(Debug, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// What a log entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// The match was created (no command; `events` are its opening events).
    Create,
    /// A command accepted by the engine.
    Command,
    /// Time passed to `at` and produced events (clock alerts, timeouts).
    Advance,
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
    /// The command as the engine received it (`null` for `Create` and `Advance`).
    pub command: Value,
    /// Sequence number of the first event caused (events of a table are numbered 1, 2, …).
    pub first_seq: u64,
    /// The events caused, in order.
    pub events: Vec<Value>,
}

/// A storage backend. Every method is blocking; async callers go through [`Writer`] or
/// `spawn_blocking`.
pub trait Store: Send + Sync + 'static {
    /// Creates an event and returns its number.
    fn create_event(&self, name: &str, settings: &Value) -> Result<EventId, StoreError>;
    /// Every event.
    fn events(&self) -> Result<Vec<EventRow>, StoreError>;
    /// Adds a table to an event and returns its number.
    fn add_table(&self, table: &TableRow) -> Result<TableId, StoreError>;
    /// The tables of an event, or of every event.
    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError>;
    /// Stores a seat.
    fn add_seat(&self, seat: &SeatRow) -> Result<(), StoreError>;
    /// The seat whose token has this hash.
    fn seat(&self, token_hash: &str) -> Result<Option<SeatRow>, StoreError>;
    /// The seats of an event (hashes only).
    fn seats(&self, event: EventId) -> Result<Vec<SeatRow>, StoreError>;
    /// Revokes a seat; false when no seat has this hash.
    fn revoke(&self, token_hash: &str) -> Result<bool, StoreError>;
    /// Appends log entries and a timeline mark in one transaction: all or nothing.
    fn append(&self, entries: &[LogEntry], timeline: Option<Millis>) -> Result<(), StoreError>;
    /// A table's log, in order.
    fn log(&self, table: TableId) -> Result<Vec<LogEntry>, StoreError>;
    /// The last timeline instant recorded (0 on a new store).
    fn timeline(&self) -> Result<Millis, StoreError>;
    /// The database file, when the store is one: recordings are kept beside it.
    fn location(&self) -> Option<std::path::PathBuf> {
        None
    }
}
