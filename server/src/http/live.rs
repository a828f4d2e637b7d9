//! The live feed of a table's record for broadcasts (issue 33, item 3): a URL that always
//! returns the game's record as it stands (PGN), with an entity tag, so that a site relaying
//! a round polls it every few seconds and gets `304 Not Modified`, without a body and
//! without the server reading its store, until a move is played or the game ends. The
//! record is the scoresheet's: a move sealed at an adjournment (第103條) is not on it until
//! it is played, and is never in the feed.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use baoqi_arbiter::View;
use baoqi_store::model::TableId;

use super::{AppError, export, gather, record_of};
use crate::hub::Hub;

/// The feed's routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new().route("/api/tables/{id}/live.pgn", get(live_pgn))
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
    Path(id): Path<TableId>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let (event, row, _, view) = record_of(&hub, id).await?;
    let tag = tag(id, &view);
    let etag = HeaderValue::from_str(&tag).map_err(|e| AppError::Internal(e.to_string()))?;
    // Polled: the client asks again each time, and keeps the body between changes.
    let cache = HeaderValue::from_static("no-cache");
    if matches(&headers, &tag) {
        return Ok((
            StatusCode::NOT_MODIFIED,
            [(header::ETAG, etag), (header::CACHE_CONTROL, cache)],
        )
            .into_response());
    }
    let known = gather(&hub, event, row).await?;
    let body = export::pgn(&known, &view).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
            ),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, cache),
        ],
        body,
    )
        .into_response())
}
