//! Game recordings (建議每局對賽設錄音設備, 附表七 第六部分): the WAV each table client
//! uploads after a game, kept by the store beside the tables' logs. The `SQLite` store keeps
//! them as files beside its database ([`FileRecordings`]); the PostgreSQL store keeps them
//! in the database, in chunks, so that every node of a federation plays back what any node
//! received ([`crate::PgStore`]). Both promise the same: once [`Recordings::commit`] returns,
//! the recording survives a crash; uploads are versioned, never overwritten (a re-upload of
//! the same game from the same seat gets the next number and becomes the current one).

mod files;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use baoqi_arbiter::Side;
pub use files::FileRecordings;

use crate::model::{Role, TableId};

/// A failure to keep or read a recording.
#[derive(Debug, thiserror::Error)]
pub enum RecordingsError {
    /// A file could not be written, synced, renamed or read.
    #[error("recording file: {0}")]
    Io(#[from] std::io::Error),
    /// The `SQLite` database refused.
    #[error("recordings table: {0}")]
    Sql(#[from] rusqlite::Error),
    /// PostgreSQL refused or could not be reached.
    #[error("recordings on PostgreSQL: {0}")]
    Pg(#[from] postgres::Error),
    /// No connection to PostgreSQL could be had (it is away).
    #[error("recordings on PostgreSQL: unreachable: {0}")]
    Unreachable(#[from] r2d2::Error),
}

/// What the uploader says about a recording (its request headers), checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The table.
    pub table: TableId,
    /// The side whose seat (player or proxy) uploaded it.
    pub side: Side,
    /// The uploading seat's role.
    pub role: Role,
    /// The game, as the recorder named it (`X-Baoqi-Game`).
    pub game: String,
    /// Event-log time of the first sample, ms on the game timeline.
    pub event_log_offset_ms: u64,
    /// Wall-clock time of the first sample, ms since the Unix epoch.
    pub started_unix_ms: u64,
    /// Samples per second (checked against the WAV).
    pub sample_rate: u32,
    /// Channels (from the WAV).
    pub channels: u16,
    /// Length of the audio (from the WAV).
    pub duration_ms: u64,
    /// Size of the file.
    pub bytes: u64,
    /// When the server received it, ms since the Unix epoch.
    pub received_unix_ms: u64,
}

/// A stored recording, as the recordings list shows it: the upload's facts, its number and
/// whether it is current.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordingRow {
    /// 1, 2, 3, … within the table: `/api/tables/{table}/recordings/{n}.wav`.
    pub n: u64,
    /// What the uploader said about it, checked (an event logged at `at` is heard at
    /// `at - event_log_offset_ms` into the recording).
    #[serde(flatten)]
    pub upload: Upload,
    /// Whether this is the latest upload of its game from its side (earlier uploads are
    /// kept, not current).
    pub current: bool,
}

/// Where a store keeps its recordings. Every call blocks (files, a database).
pub trait Recordings: Send + Sync {
    /// A fresh path where an upload being received is written (its directory created),
    /// before [`Recordings::commit`] takes it.
    fn incoming(&self) -> std::io::Result<PathBuf>;
    /// Keeps the received and synced file at `received` under the next number of its table
    /// and returns its row; the file is taken (moved or read and removed). Two uploads at
    /// once never share a number.
    fn commit(&self, received: &Path, upload: &Upload) -> Result<RecordingRow, RecordingsError>;
    /// The bytes of a table's recordings, every upload counted.
    fn table_bytes(&self, table: TableId) -> Result<u64, RecordingsError>;
    /// The space left where the recordings are written, when this server's disk holds them
    /// (`None`: a database server's, not this server's to watch).
    fn free_bytes(&self) -> Option<std::io::Result<u64>>;
    /// The recordings of a table, by number.
    fn list(&self, table: TableId) -> Result<Vec<RecordingRow>, RecordingsError>;
    /// Every recording of every table, by table and number.
    fn all(&self) -> Result<Vec<RecordingRow>, RecordingsError>;
    /// Recording `n` of `table`, if there is one.
    fn get(&self, table: TableId, n: u64) -> Result<Option<RecordingRow>, RecordingsError>;
    /// Up to `len` bytes of recording `n` of `table` from byte `start` (fewer at its end).
    fn read(
        &self,
        table: TableId,
        n: u64,
        start: u64,
        len: usize,
    ) -> Result<Vec<u8>, RecordingsError>;
}

/// A side's storage name.
pub(crate) fn side_str(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

/// A side from its storage name.
pub(crate) fn side_of(name: &str) -> Side {
    if name == "black" {
        Side::Black
    } else {
        Side::Red
    }
}
