//! A tournament's standings over HTTP (issue 18), public like the results table:
//! - `GET /api/events/{id}/standings.json`: the standings and every round's pairings;
//! - `GET /api/events/{id}/standings.csv`: the standings, one line per player;
//! - `GET /standings#event=N`: the page that reads the JSON (tables a screen reader reads,
//!   printable).
//!
//! The results are read from the running tables' games at each request (a game over counts;
//! its verification, 7.9, makes it final), so the table tasks write nothing for them.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;

use super::{AppError, download, page};
use crate::export::FileName;
use crate::hub::Hub;
use crate::model::EventId;
use crate::organiser::EventError;
use crate::organiser::results::{self, Outcomes};
use crate::organiser::standings::{self, Standings};

/// The routes of this module.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/standings", get(|| async { page("standings.html") }))
        .route("/api/events/{id}/standings.json", get(json))
        .route("/api/events/{id}/standings.csv", get(csv))
}

/// Every running table's outcome in the event.
async fn outcomes(hub: &Hub, event: EventId) -> Outcomes {
    let mut out = Outcomes::new();
    for row in hub.tables_of(Some(event)) {
        let Some(handle) = hub.table(row.id) else {
            continue;
        };
        if let Some((_, view)) = handle.record().await {
            out.insert(row.id, results::outcome(&view));
        }
    }
    out
}

async fn compute(hub: &Arc<Hub>, event: EventId) -> Result<Standings, AppError> {
    let outcomes = outcomes(hub, event).await;
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

async fn csv(State(hub): State<Arc<Hub>>, Path(id): Path<EventId>) -> Result<Response, AppError> {
    let s = compute(&hub, id).await?;
    let name = FileName::of_event(&s.name, s.event, "standings", "csv");
    Ok(download(
        standings::csv(&s),
        "text/csv; charset=utf-8",
        &name,
        true,
    ))
}
