//! A table's game in the formats Xiangqi players open (XQF, CBF, `DhtmlXQ`, beside
//! `game.pgn`), and an event's games as one ZIP. Public, as the PGN is: names, results and
//! moves; a sealed move (第103條) is not on the record until it is played.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

use super::{AppError, download, event_of, known_of};
use crate::export::{self, FileName, RecordFormat};
use crate::hub::Hub;
use baoqi_store::model::{EventId, TableId};

/// How many archives are built at once; more are answered `503` (each reads every table).
const ARCHIVES_AT_ONCE: usize = 2;

/// The routes: `/api/tables/T/game.{xqf,cbf,dhtmlxq}` and `/api/events/E/games.zip`.
pub(super) fn routes() -> Router<Arc<Hub>> {
    let permits = Arc::new(Semaphore::new(ARCHIVES_AT_ONCE));
    Router::new()
        .route(
            "/api/tables/{id}/game.xqf",
            get(|s, p| game(s, p, RecordFormat::Xqf)),
        )
        .route(
            "/api/tables/{id}/game.cbf",
            get(|s, p| game(s, p, RecordFormat::Cbf)),
        )
        .route(
            "/api/tables/{id}/game.dhtmlxq",
            get(|s, p| game(s, p, RecordFormat::Dhtmlxq)),
        )
        .route(
            "/api/events/{id}/games.zip",
            get(move |s, p, q| games(s, p, q, permits.clone())),
        )
}

/// A table's game in `format`.
async fn game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<TableId>,
    format: RecordFormat,
) -> Result<Response, AppError> {
    let (known, view) = known_of(&hub, id).await?;
    let body = format
        .render(&known, &view)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let name = FileName::of_table(&known.header(), known.event.id, format.extension());
    Ok(download(body, format.mime(), &name, true))
}

/// `?format=pgn,xqf`: the formats an archive holds (all four when absent).
#[derive(Debug, Deserialize)]
struct Formats {
    format: Option<String>,
}

/// The event's games that have begun (a move played or a result), in every format asked.
async fn games(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    Query(q): Query<Formats>,
    permits: Arc<Semaphore>,
) -> Result<Response, AppError> {
    let formats = match q.format.as_deref() {
        None | Some("") => RecordFormat::ALL.to_vec(),
        Some(list) => match list
            .split(',')
            .map(RecordFormat::named)
            .collect::<Option<Vec<_>>>()
        {
            Some(f) => f,
            None => return Ok(bad_format(list)),
        },
    };
    let event = event_of(&hub, id)?;
    let Ok(_permit) = permits.try_acquire() else {
        return Ok(busy());
    };
    let mut played = Vec::new();
    // A table set aside by a 108 replay (作廢) is no game of the event's: its replay is.
    for t in hub
        .tables_of(id)
        .into_iter()
        .filter(|t| !hub.is_set_aside(t.id))
    {
        let (known, view) = known_of(&hub, t.id).await?;
        if export::archive::began(&view) {
            played.push((known, (*view).clone()));
        }
    }
    if played.is_empty() {
        return Err(AppError::NotFound(format!(
            "no game of event {id} has begun yet: nothing to archive"
        )));
    }
    let body = tokio::task::spawn_blocking(move || export::archive(&played, &formats))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let name = FileName::of_event(&event.name, id, "games", "zip");
    Ok(download(body, "application/zip", &name, true))
}

fn bad_format(list: &str) -> Response {
    let message = format!("unknown format in {list:?}: say pgn, xqf, cbf or dhtmlxq");
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "error": message })),
    )
        .into_response()
}

fn busy() -> Response {
    let message = format!("{ARCHIVES_AT_ONCE} archives are being built: try again in 2 s");
    let mut r = (
        StatusCode::SERVICE_UNAVAILABLE,
        axum::Json(json!({ "error": message, "code": "busy" })),
    )
        .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(2));
    r
}
