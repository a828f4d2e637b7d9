//! A backup of one event from the organiser page, for a second laptop: `GET
//! /api/events/{id}/backup`, behind the register's gate (a referee of the whole event),
//! answers a hall's `SQLite` file holding that event alone: its settings, register, rounds,
//! tables with every game's log, seats (their token hashes: the links printed go on working)
//! and change log, copied through the store trait ([`copy::copy_event`]) from either store.
//! The games' recordings are not in it (`baoqi db backup` and the recordings' folder are).
//!
//! On the second laptop: `baoqi serve --db FILE`, or `baoqi db copy` into its own hall's file.

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use baoqi_store::backup::{self, BackupError};
use baoqi_store::copy::{self, CopyError};
use baoqi_store::model::{EventId, Token};
use baoqi_store::{SqliteStore, Store, StoreError};
use serde_json::json;

use super::access::AccessError;
use super::organiser::{authorised_as, gate};
use crate::hub::Hub;

/// The backup's route, behind the register's gate.
pub fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/events/{id}/backup", get(download))
        .route_layer(axum::middleware::from_fn_with_state(hub, gate))
}

/// Why no backup was made.
#[derive(Debug, thiserror::Error)]
pub enum EventBackupError {
    /// Not an event-wide referee, or no such event.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// The event could not be copied.
    #[error(transparent)]
    Copy(#[from] CopyError),
    /// The file to hold it could not be made or read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The copy could not be made one consistent file.
    #[error(transparent)]
    File(#[from] BackupError),
    /// The file could not be read back.
    #[error("reading the backup: {0}")]
    Read(#[from] std::io::Error),
    /// The blocking work failed.
    #[error("the request failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl IntoResponse for EventBackupError {
    fn into_response(self) -> Response {
        if let EventBackupError::Access(a) = self {
            return a.into_response();
        }
        let (status, code) = match &self {
            EventBackupError::Copy(CopyError::NoEvent(_)) => (StatusCode::NOT_FOUND, "no_event"),
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        (
            status,
            axum::Json(json!({ "error": self.to_string(), "code": code })),
        )
            .into_response()
    }
}

async fn download(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<Response, EventBackupError> {
    let bytes: Vec<u8> =
        authorised_as::<_, _, EventBackupError>(&hub, &headers, id, move |s| event_file(s, id))
            .await?;
    let name = format!("attachment; filename=\"baoqi-event-{id}.db\"");
    let mut resp = bytes.into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/vnd.sqlite3"),
    );
    if let Ok(v) = HeaderValue::from_str(&name) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// The bytes of a hall's `SQLite` file holding event `id` of `store` alone.
fn event_file(store: &dyn Store, id: EventId) -> Result<Vec<u8>, EventBackupError> {
    let scratch = Scratch::new(id);
    {
        let target = SqliteStore::open(&scratch.copy, false)?;
        copy::copy_event(store, &target, id)?;
    }
    // One consistent file (the copy's write-ahead log folded in), checked as `baoqi db
    // backup` checks its own.
    backup::backup(&scratch.copy, &scratch.file)?;
    Ok(std::fs::read(&scratch.file)?)
}

/// The files a backup is made in, removed when it is done, whatever happens.
struct Scratch {
    copy: PathBuf,
    file: PathBuf,
}

impl Scratch {
    fn new(id: EventId) -> Scratch {
        let dir = std::env::temp_dir();
        let tag = format!("baoqi-event-{id}-{}", &Token::generate().secret()[..12]);
        Scratch {
            copy: dir.join(format!("{tag}.copy.db")),
            file: dir.join(format!("{tag}.db")),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for base in [&self.copy, &self.file] {
            for suffix in ["", "-wal", "-shm"] {
                let mut name = base.clone().into_os_string();
                name.push(suffix);
                let _ = std::fs::remove_file(FsPath::new(&name));
            }
        }
        // Where `backup` writes before it gives the file its name.
        let _ = std::fs::remove_file(self.file.with_extension("partial"));
    }
}
