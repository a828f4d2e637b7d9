//! The JSON event logs over HTTP:
//! - `GET /api/tables/{id}/log.json`: the table's log, for a referee of that table;
//! - `GET /api/events/{id}/log.json`: every table's, for a referee of the whole event.
//!
//! An export is streamed: a task reads the log a page at a time on a read-only connection of
//! its own ([`LogPages`]), writes each page as JSON on a blocking thread, and hands the bytes
//! to the response through a small channel, so memory stays flat whatever the log's size and
//! neither the tables' async workers nor the store's own connections (the writer, the reader
//! that seats join through) wait on it. At most [`EXPORT_LIMIT`] exports run at once; one
//! more is answered `503` with `Retry-After` at once (not queued: a queue would hold
//! connections for an unknown time, and the one who asks can retry). A reader that takes
//! nothing for [`STALL`] loses its export, which frees its place.
//!
//! The bytes are those the routes wrote before they streamed: the entries as
//! [`export::log_json`] writes them, each through a `serde_json::Value` (keys in order).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::access::{self, AccessError};
use crate::export;
use crate::hub::Hub;
use baoqi_store::model::{EventId, TableId};
use baoqi_store::{LogEntry, LogPages, Store, StoreError};

/// How many exports may run at once.
pub const EXPORT_LIMIT: usize = 2;
/// The seconds a refused export is told to wait (`Retry-After`).
pub const RETRY_AFTER_S: u64 = 2;
/// How long an export waits for its reader to take the next bytes before it gives up.
pub const STALL: Duration = Duration::from_secs(30);
/// Log entries read and written per step.
const PAGE: u64 = 256;

/// Why a log could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The reader may not read it (401, 403) or it does not exist (404).
    #[error(transparent)]
    Access(#[from] AccessError),
    /// [`EXPORT_LIMIT`] exports are running (503).
    #[error("{EXPORT_LIMIT} exports are running: try again in {RETRY_AFTER_S} s")]
    Busy,
    /// The store could not be read (500).
    #[error("the log cannot be read: {0}")]
    Store(#[from] StoreError),
    /// The blocking work panicked or was cancelled (500).
    #[error("the export failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl IntoResponse for LogError {
    /// `{"error": "<sentence>", "code": "busy"}` (a refusal of access as [`AccessError`]
    /// writes it); a 503 also says `Retry-After`.
    fn into_response(self) -> Response {
        let (status, code) = match self {
            LogError::Access(a) => return a.into_response(),
            LogError::Busy => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            LogError::Store(_) | LogError::Join(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        let body = json!({ "error": self.to_string(), "code": code });
        let mut response = (status, axum::Json(body)).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
        }
        response
    }
}

/// A JSON encoding failure of `what`.
fn encoding(what: &'static str) -> impl Fn(serde_json::Error) -> StoreError {
    move |source| StoreError::Encode { what, source }
}

/// The places of the running exports.
#[derive(Clone)]
struct Exports(Arc<Semaphore>);

/// The log routes, with their own [`EXPORT_LIMIT`] (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/tables/{id}/log.json", get(table_log))
        .route("/api/events/{id}/log.json", get(event_log))
        .layer(Extension(Exports(Arc::new(Semaphore::new(EXPORT_LIMIT)))))
}

async fn table_log(
    State(hub): State<Arc<Hub>>,
    Extension(exports): Extension<Exports>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
) -> Result<Response, LogError> {
    access::referee_of_table(&hub, &headers, id, "a table's event log").await?;
    stream(&hub, &exports, vec![id], Vec::new(), b"]").await
}

async fn event_log(
    State(hub): State<Arc<Hub>>,
    Extension(exports): Extension<Exports>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<Response, LogError> {
    access::referee_of_event(&hub, &headers, id, "the event's log").await?;
    let event = hub
        .events()
        .into_iter()
        .find(|e| e.id == id)
        .ok_or_else(|| AccessError::NotFound(format!("no event {id}")))?;
    let tables = hub.table_ids(id).to_vec();
    // `{"event":…,"log":[…]}`: the keys in the order a `serde_json::Value` writes them.
    let mut open = b"{\"event\":".to_vec();
    let event = serde_json::to_value(&event).map_err(encoding("the event"))?;
    serde_json::to_writer(&mut open, &event).map_err(encoding("the event"))?;
    open.extend_from_slice(b",\"log\":");
    stream(&hub, &exports, tables, open, b"]}").await
}

/// Where an export reads the logs: its own read-only connection to the database file, or,
/// for a store without one, the store's [`Store::log`] one table at a time.
enum Source {
    Pages(LogPages),
    Store(Arc<dyn Store>, std::vec::IntoIter<TableId>),
}

impl Source {
    fn next_page(&mut self) -> Result<Option<Vec<LogEntry>>, StoreError> {
        match self {
            Source::Pages(p) => p.next_page(),
            Source::Store(store, tables) => tables.next().map(|t| store.log(t)).transpose(),
        }
    }
}

/// An export under way: its source and whether an entry was written yet.
struct Export {
    source: Source,
    started: bool,
}

impl Export {
    /// The next page as JSON (entries separated by commas), `None` at the end.
    fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, StoreError> {
        let Some(entries) = self.source.next_page()? else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(entries.len() * 256);
        for line in export::log_json(&entries) {
            if self.started {
                out.push(b',');
            }
            self.started = true;
            let value = serde_json::to_value(&line).map_err(encoding("a log"))?;
            serde_json::to_writer(&mut out, &value).map_err(encoding("a log"))?;
        }
        Ok(Some(out))
    }
}

/// Takes a place, opens the source and answers `200` with a body that streams `open`, the
/// logs of `tables` as a JSON array, and `close`.
async fn stream(
    hub: &Hub,
    exports: &Exports,
    tables: Vec<TableId>,
    mut open: Vec<u8>,
    close: &'static [u8],
) -> Result<Response, LogError> {
    let permit = exports
        .0
        .clone()
        .try_acquire_owned()
        .map_err(|_| LogError::Busy)?;
    let store = hub.store().clone();
    let source = tokio::task::spawn_blocking(move || match store.location() {
        Some(path) => LogPages::open(&path, tables, PAGE).map(Source::Pages),
        None => Ok(Source::Store(store, tables.into_iter())),
    })
    .await??;
    open.push(b'[');
    let (tx, mut rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(1);
    let export = Export {
        source,
        started: false,
    };
    tokio::spawn(produce(export, tx, Bytes::from(open), close, permit));
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// Feeds the body: `open`, every page, `close`; stops when the reader has gone or stalls
/// for [`STALL`], or the log cannot be read (the body then breaks off: a reader never gets
/// a log that looks whole and is not). Holds the export's place until it ends.
async fn produce(
    mut export: Export,
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
    open: Bytes,
    close: &'static [u8],
    permit: OwnedSemaphorePermit,
) {
    let _place = permit;
    let send = |chunk: Result<Bytes, std::io::Error>| {
        let tx = tx.clone();
        async move {
            matches!(
                tokio::time::timeout(STALL, tx.send(chunk)).await,
                Ok(Ok(()))
            )
        }
    };
    if !send(Ok(open)).await {
        return;
    }
    loop {
        let step = tokio::task::spawn_blocking(move || {
            let chunk = export.next_chunk();
            (export, chunk)
        })
        .await;
        let chunk = match step {
            Ok((back, chunk)) => {
                export = back;
                chunk.map_err(|e| e.to_string())
            }
            Err(e) => {
                tracing::error!("log export broken off: {e}");
                send(Err(std::io::Error::other(e.to_string()))).await;
                return;
            }
        };
        let sent = match chunk {
            Ok(Some(bytes)) => send(Ok(Bytes::from(bytes))).await,
            Ok(None) => {
                send(Ok(Bytes::from_static(close))).await;
                return;
            }
            Err(e) => {
                tracing::error!("log export broken off: {e}");
                send(Err(std::io::Error::other(e))).await;
                return;
            }
        };
        if !sent {
            return;
        }
    }
}
