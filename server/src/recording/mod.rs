//! Game recordings (建議每局對賽設錄音設備, 附表七 part 6): the table clients upload the WAV
//! of each game ([`endpoints`], the contract of `baoqi_audio::upload::HttpUploader`), the
//! server's store keeps it durably ([`baoqi_store::recordings`]: files beside a `SQLite`
//! database, chunks in PostgreSQL), the referee lists and plays it back with seeking
//! ([`range`]), and every seat's recorder status is followed live ([`status`]).

pub mod endpoints;
pub mod range;
pub mod status;
pub mod wav;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use baoqi_store::Store;
use baoqi_store::recordings::Recordings as Kept;
use status::RecordingBoard;

/// The largest recording accepted by default: 512 MiB (about 3 h 20 min of the audio
/// crate's 22 050 Hz 16-bit mono; a game with long time controls fits).
pub const DEFAULT_LIMIT: u64 = 512 * 1024 * 1024;

/// A table keeps at most this many recordings' worth of bytes (each side's recording and a
/// second upload of each): one player's uploads cannot take the hall's disk.
pub const TABLE_QUOTA_RECORDINGS: u64 = 4;

/// The disk space an upload must leave free for the store, by default: 1 GiB. A full disk
/// fails every table's commands (132 of 150 once failed with `storage`).
pub const DEFAULT_RESERVE: u64 = 1024 * 1024 * 1024;

/// A side of the table, as recordings are kept: a proxy's recording is its side's.
pub use baoqi_arbiter::Side;

/// The recordings of a running server: where its store keeps them (absent when it keeps
/// none), the live status board and the size limit.
pub struct Recordings {
    archive: Result<Arc<dyn Kept>, String>,
    board: Arc<RecordingBoard>,
    limit: AtomicU64,
    reserve: AtomicU64,
}

impl Recordings {
    /// Opens where `store` keeps recordings (none: recordings are refused with a reason)
    /// and loads the uploads already stored into the board.
    pub fn open(store: &dyn Store) -> Recordings {
        let archive = store.recordings().map_err(|e| e.to_string());
        if let Err(e) = &archive {
            tracing::warn!("recordings are not available: {e}");
        }
        let stored = archive
            .as_ref()
            .ok()
            .and_then(|a| a.all().map_err(|e| tracing::error!("{e}")).ok())
            .unwrap_or_default();
        Recordings {
            archive,
            board: Arc::new(RecordingBoard::with_uploads(stored)),
            limit: AtomicU64::new(DEFAULT_LIMIT),
            reserve: AtomicU64::new(DEFAULT_RESERVE),
        }
    }

    /// Where the store keeps recordings, or why it keeps none.
    pub fn archive(&self) -> Result<&Arc<dyn Kept>, &str> {
        self.archive.as_ref().map_err(String::as_str)
    }

    /// The live status board.
    pub fn board(&self) -> &Arc<RecordingBoard> {
        &self.board
    }

    /// The largest recording accepted, bytes.
    pub fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Sets the largest recording accepted (`baoqi serve --max-recording-mb`).
    pub fn set_limit(&self, bytes: u64) {
        self.limit.store(bytes, Ordering::Relaxed);
    }

    /// The most bytes of recordings one table keeps: [`TABLE_QUOTA_RECORDINGS`] recordings
    /// of the largest size.
    pub fn table_quota(&self) -> u64 {
        self.limit().saturating_mul(TABLE_QUOTA_RECORDINGS)
    }

    /// The disk space an upload must leave free for the store, bytes.
    pub fn reserve(&self) -> u64 {
        self.reserve.load(Ordering::Relaxed)
    }

    /// Sets the space kept free for the store (`baoqi serve --disk-reserve-mb`).
    pub fn set_reserve(&self, bytes: u64) {
        self.reserve.store(bytes, Ordering::Relaxed);
    }
}
