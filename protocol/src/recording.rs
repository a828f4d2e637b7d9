//! The game recording status on the wire (建議每局對賽設錄音設備): what a seat's client says
//! about its recorder, and what the referee's monitor is shown for each side.

use baoqi_arbiter::Millis;
use serde::{Deserialize, Serialize};

/// What a client says about its recorder (`state` of the `recording` message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecorderState {
    /// Recording.
    On,
    /// Not recording (never started, or stopped).
    Off,
    /// The recorder or its upload failed.
    Failed,
}

/// A seat's recording status as the monitor shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SeatStatus {
    /// No recorder reported, nothing uploaded.
    Off,
    /// The seat's client is recording.
    Recording {
        /// Since when (game timeline).
        since: Millis,
        /// Whether the table's microphone is recorded too.
        microphone: bool,
    },
    /// A recording was received (the latest one).
    Uploaded {
        /// Its number: `/api/tables/{table}/recordings/{n}.wav`.
        n: u64,
        /// Length, ms.
        duration_ms: u64,
        /// Size of the file.
        bytes: u64,
        /// Event-log time of its first sample (ms), to align it with the log.
        event_log_offset_ms: u64,
    },
    /// The client reported that recording or uploading failed, and nothing was received.
    Failed {
        /// The client's reason.
        reason: String,
    },
    /// The game is over, the seat recorded, its recorder stopped and no recording arrived.
    Missing,
}

/// The recording status of both sides of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRecording {
    /// Red's seat (player or proxy).
    pub red: SeatStatus,
    /// Black's seat.
    pub black: SeatStatus,
}
