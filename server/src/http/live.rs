//! The live feed of a table's record for broadcasts: a URL that always returns the game's
//! record as it stands (PGN), with an entity tag, so that a site relaying a round polls it
//! every few seconds and gets `304 Not Modified`, without a body and without the server
//! reading its store, until a move is played or the game ends. The record is the
//! scoresheet's: a move sealed at an adjournment (第103條) is not on it until it is played,
//! and is never in the feed. The same record as server-sent events, for a viewer that wants
//! it pushed: an event `record` with the whole record each time it changes. A record sent
//! whole reads the store only for what the hub does not hold, and seldom (`headers.rs`).

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use baoqi_arbiter::View;
use baoqi_store::model::{EventId, TableId};
use futures_util::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::{AppError, event_of, export, snapshot_of};
use crate::hub::Hub;

mod headers;
use headers::Headers;

/// The feed's routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/tables/{id}/live.pgn", get(live_pgn))
        .route("/api/tables/{id}/live.dhtmlxq", get(live_dhtmlxq))
        .route("/api/tables/{id}/live.sse", get(live_sse))
        .route("/api/events/{id}/live.pgn", get(event_pgn))
        .layer(Extension(Arc::new(Headers::default())))
}

/// The version of a table's record as an entity tag: the table, the moves on its record and
/// whether the game has ended (the record changes with nothing else).
pub fn tag(table: TableId, view: &View) -> String {
    let state = if view.result.is_some() { "over" } else { "on" };
    format!("\"{table}-{}-{state}\"", view.moves.len())
}

/// Whether the request's `If-None-Match` names `tag` (or `*`).
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

async fn live_pgn(
    State(hub): State<Arc<Hub>>,
    Extension(known): Extension<Arc<Headers>>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    live(&hub, &known, id, &headers, Format::Pgn).await
}

/// The same feed as `DhtmlXQ` (the UBB text the Chinese sites embed), under the same tag.
async fn live_dhtmlxq(
    State(hub): State<Arc<Hub>>,
    Extension(known): Extension<Arc<Headers>>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    live(&hub, &known, id, &headers, Format::Dhtmlxq).await
}

/// A feed's format.
#[derive(Clone, Copy)]
enum Format {
    Pgn,
    Dhtmlxq,
}

/// A table's feed in `format`: `304` when the poller holds the current tag (the table asked
/// only for its cached snapshot), else the record under its tag.
async fn live(
    hub: &Hub,
    cache: &Headers,
    id: TableId,
    headers: &HeaderMap,
    format: Format,
) -> Result<Response, AppError> {
    let view = snapshot_of(hub, id).await?;
    let tag = tag(id, &view);
    if matches(headers, &tag) {
        return not_modified(&tag);
    }
    let known = cache.known(hub, id).await?;
    let internal = |e: export::ExportError| AppError::Internal(e.to_string());
    let (body, mime) = match format {
        Format::Pgn => (
            export::pgn(&known, &view).map_err(internal)?,
            "application/x-chess-pgn; charset=utf-8",
        ),
        Format::Dhtmlxq => (
            export::dhtmlxq(&known, &view).map_err(internal)?,
            "text/plain; charset=utf-8",
        ),
    };
    let mut resp = current(&tag, body)?;
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    Ok(resp)
}

/// `304 Not Modified` for a poller holding `tag`.
fn not_modified(tag: &str) -> Result<Response, AppError> {
    let etag = HeaderValue::from_str(tag).map_err(|e| AppError::Internal(e.to_string()))?;
    // Polled: the client asks again each time, and keeps the body between changes.
    let cache = HeaderValue::from_static("no-cache");
    Ok((
        StatusCode::NOT_MODIFIED,
        [(header::ETAG, etag), (header::CACHE_CONTROL, cache)],
    )
        .into_response())
}

/// The record `body` as it stands, under `tag`.
fn current(tag: &str, body: String) -> Result<Response, AppError> {
    let etag = HeaderValue::from_str(tag).map_err(|e| AppError::Internal(e.to_string()))?;
    let pgn = HeaderValue::from_static("application/x-chess-pgn; charset=utf-8");
    let cache = HeaderValue::from_static("no-cache");
    Ok((
        [
            (header::CONTENT_TYPE, pgn),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, cache),
        ],
        body,
    )
        .into_response())
}

/// Every running table of an event, one record after another in table order, under one tag
/// made of the tables' (so that a poll costs the snapshots, not the store, until a move).
async fn event_pgn(
    State(hub): State<Arc<Hub>>,
    Extension(cache): Extension<Arc<Headers>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let mut tables = Vec::new();
    for t in hub.table_ids(id).iter().copied() {
        if let Ok(found) = snapshot_of(&hub, t).await {
            tables.push((t, found));
        }
    }
    if tables.is_empty() {
        return Err(AppError::NotFound(format!(
            "no running table in event {id}"
        )));
    }
    let tags: String = tables.iter().map(|(t, view)| tag(*t, view)).collect();
    let tag = format!("\"e{id}-{:016x}\"", fnv(tags.as_bytes()));
    if matches(&headers, &tag) {
        return not_modified(&tag);
    }
    let mut body = String::new();
    for (t, view) in tables {
        let known = cache.known(&hub, t).await?;
        body.push_str(&export::pgn(&known, &view).map_err(|e| AppError::Internal(e.to_string()))?);
        body.push('\n');
    }
    current(&tag, body)
}

/// FNV-1a, 64 bits: a tag that stays the same across polls and restarts.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The record as server-sent events: the current one at once, then each new version (a
/// move, the end), its tag as the event's id; the stream ends with the table.
async fn live_sse(
    State(hub): State<Arc<Hub>>,
    Extension(cache): Extension<Arc<Headers>>,
    Path(id): Path<TableId>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, AppError> {
    let handle = hub
        .table(id)
        .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?;
    let joined = handle
        .join(None)
        .await
        .ok_or_else(|| AppError::Internal("the table is not running".into()))?;
    let stream = futures_util::stream::unfold(
        (hub, cache, joined.rx, None::<String>),
        move |(hub, cache, mut rx, last)| async move {
            loop {
                // After the first, each version waits for the table's next event.
                if last.is_some() {
                    match rx.recv().await {
                        Ok(_) | Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return None,
                    }
                }
                let view = snapshot_of(&hub, id).await.ok()?;
                let tag = tag(id, &view);
                if last.as_deref() == Some(tag.as_str()) {
                    continue;
                }
                let known = cache.known(&hub, id).await.ok()?;
                let pgn = export::pgn(&known, &view).ok()?;
                let sent = SseEvent::default()
                    .event("record")
                    .id(tag.clone())
                    .data(pgn);
                return Some((Ok(sent), (hub, cache, rx, Some(tag))));
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
