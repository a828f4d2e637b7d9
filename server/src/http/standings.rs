//! A tournament's standings over HTTP, public like the results table:
//! - `GET /api/events/{id}/standings.json`: the standings, every round's pairings and the
//!   crosstable;
//! - `GET /api/events/{id}/standings.csv`: the standings, one line per player;
//! - `GET /api/events/{id}/pairings.csv`: every round's boards, one line per board;
//! - `GET /api/events/{id}/crosstable.csv`: the crosstable, one line per player;
//! - `GET /standings#event=N`: the page that reads the JSON (pairings by round, standings,
//!   crosstable; a text view a screen reader reads line by line; a hall view; printable).
//!
//! The results are read from the running tables' games at each request (a game over counts;
//! its verification, 7.9, makes it final), so the table tasks write nothing for them. Each
//! table publishes the snapshot of its game once over ([`crate::table::TableHandle::over`]):
//! a request reads it without asking the table's task, and no game record is built.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;

use super::{AppError, download, page};
use crate::export::FileName;
use crate::hub::Hub;
use baoqi_organiser::EventError;
use baoqi_organiser::standings::{self, Standings};
use baoqi_store::model::EventId;

/// The routes of this module.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/standings", get(|| async { page("standings.html") }))
        .route("/api/events/{id}/standings.json", get(json))
        .route("/api/events/{id}/standings.csv", get(csv))
        .route("/api/events/{id}/pairings.csv", get(pairings_csv))
        .route("/api/events/{id}/crosstable.csv", get(crosstable_csv))
}

async fn compute(hub: &Arc<Hub>, event: EventId) -> Result<Standings, AppError> {
    let outcomes = crate::standing::from_tables(hub, event);
    let store = hub.store().clone();
    tokio::task::spawn_blocking(move || standings::compute(&*store, event, &outcomes))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .map_err(|e| match e {
            EventError::Store(s) => AppError::Internal(s.to_string()),
            EventError::Unsupported => AppError::Internal(EventError::Unsupported.to_string()),
            other => AppError::NotFound(other.to_string()),
        })
}

async fn json(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<axum::Json<Standings>, AppError> {
    Ok(axum::Json(compute(&hub, id).await?))
}

/// A CSV download of the event's standings written by `write`, named after `what`.
async fn csv_of(
    hub: &Arc<Hub>,
    id: EventId,
    what: &str,
    write: fn(&Standings) -> String,
) -> Result<Response, AppError> {
    let s = compute(hub, id).await?;
    let name = FileName::of_event(&s.name, s.event, what, "csv");
    Ok(download(write(&s), "text/csv; charset=utf-8", &name, true))
}

async fn csv(State(hub): State<Arc<Hub>>, Path(id): Path<EventId>) -> Result<Response, AppError> {
    csv_of(&hub, id, "standings", standings::csv).await
}

async fn pairings_csv(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<Response, AppError> {
    csv_of(&hub, id, "pairings", standings::pairings_csv).await
}

async fn crosstable_csv(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<Response, AppError> {
    csv_of(&hub, id, "crosstable", standings::crosstable_csv).await
}
