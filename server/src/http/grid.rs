//! The result grid over HTTP: the organiser page's results of every board, entered,
//! corrected and cleared by a referee of the whole event (the register's gate,
//! `organiser::gate`), over the organiser's grid ([`grid`]).
//!
//! - `GET /api/events/{id}/grid` (`?round=R` for one round): every board's cell;
//! - `POST /api/events/{id}/grid/{round}/{board}`: `{"result": "red_wins" | … | null,
//!   "reason": "…", "overwrite": false}`; `null` clears the organiser's result. Signed with
//!   the token's seat name. A board whose result counts already is refused with 409,
//!   `code` `would_replace`, naming the `current` result and where it comes `from`
//!   (`played`, `verified`, `recorded`), unless `overwrite` (which needs a `reason`).
//!   The answer is the board's cell, with `moved`: the players of later rounds already
//!   paired whose score before their round the entry changed (a Swiss's, 87), and
//!   `last_round`, the last round paired, so that the page can say what may be done.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use baoqi_organiser::grid::{self, Entry, EntryError, GridBoard, Signed};
use baoqi_organiser::late::Moved;
use baoqi_organiser::standings::Named;
use baoqi_tournament::{GameResult, RoundNumber};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::access::{self, AccessError};
use crate::hub::Hub;
use baoqi_store::model::EventId;

/// The grid's routes, behind the register's gate.
pub fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/events/{id}/grid", get(cells))
        .route("/api/events/{id}/grid/{round}/{board}", post(enter))
        .route_layer(axum::middleware::from_fn_with_state(
            hub,
            super::organiser::gate,
        ))
}

/// Why a grid request was refused.
#[derive(Debug, thiserror::Error)]
pub enum GridError {
    /// Not an event-wide referee, or no such event.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// The entry was refused.
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// Replacing a result needs a reason.
    #[error("replacing a result needs a reason")]
    NoReason,
    /// A reason holding a control character or an invisible one (a bidi control, a
    /// zero-width character: [`baoqi_arbiter::bounds::is_invisible_format`]).
    #[error("the reason holds U+{0:04X}, a character that hides or reorders the text around it")]
    HiddenInReason(u32),
    /// The blocking work failed.
    #[error("the request failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl IntoResponse for GridError {
    fn into_response(self) -> Response {
        if let GridError::Access(a) = self {
            return a.into_response();
        }
        let (status, code) = match &self {
            GridError::Access(_) | GridError::Join(_) | GridError::Entry(EntryError::Store(_)) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
            GridError::Entry(EntryError::Event(_)) => (StatusCode::NOT_FOUND, "no_tournament"),
            GridError::Entry(EntryError::NoBoard { .. } | EntryError::NoTable(_)) => {
                (StatusCode::NOT_FOUND, "no_board")
            }
            GridError::Entry(EntryError::Bye { .. }) => (StatusCode::CONFLICT, "bye"),
            GridError::Entry(EntryError::NothingToClear { .. }) => {
                (StatusCode::CONFLICT, "nothing_to_clear")
            }
            GridError::Entry(EntryError::WouldReplace { current, from, .. }) => {
                let body = json!({
                    "error": self.to_string(), "code": "would_replace",
                    "current": current, "from": from,
                });
                return (StatusCode::CONFLICT, axum::Json(body)).into_response();
            }
            GridError::NoReason => (StatusCode::UNPROCESSABLE_ENTITY, "no_reason"),
            GridError::HiddenInReason(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_reason"),
        };
        let body = json!({ "error": self.to_string(), "code": code });
        (status, axum::Json(body)).into_response()
    }
}

/// `?round=R`.
#[derive(Debug, Deserialize)]
struct Round {
    round: Option<RoundNumber>,
}

async fn cells(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    Query(q): Query<Round>,
    headers: HeaderMap,
) -> Result<axum::Json<Vec<GridBoard>>, GridError> {
    access::referee_of_event(&hub, &headers, id, "the result grid").await?;
    let outcomes = crate::standing::from_tables(&hub, id);
    let store = hub.store().clone();
    let cells = tokio::task::spawn_blocking(move || grid::grid(&*store, id, q.round, &outcomes))
        .await?
        .map_err(|e| GridError::Entry(EntryError::Event(e)))?;
    Ok(axum::Json(cells))
}

/// The body of an entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryBody {
    /// The result; `null` clears the organiser's.
    result: Option<GameResult>,
    /// Why.
    #[serde(default)]
    reason: Option<String>,
    /// A result that counts already may be replaced.
    #[serde(default)]
    overwrite: bool,
}

/// The longest reason kept in the log.
const MAX_REASON: usize = 500;

async fn enter(
    State(hub): State<Arc<Hub>>,
    Path((id, round, board)): Path<(EventId, RoundNumber, u32)>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<EntryBody>,
) -> Result<axum::Json<Entered>, GridError> {
    let seat = access::referee_of_event(&hub, &headers, id, "the result grid").await?;
    if let Some(c) = body
        .reason
        .as_deref()
        .and_then(baoqi_arbiter::bounds::hidden_in_sentence)
    {
        return Err(GridError::HiddenInReason(u32::from(c)));
    }
    let reason = body
        .reason
        .map(|r| r.trim().chars().take(MAX_REASON).collect::<String>())
        .filter(|r| !r.is_empty());
    if body.overwrite && reason.is_none() {
        return Err(GridError::NoReason);
    }
    let signed = Signed {
        by: seat.name,
        reason,
        overwrite: body.overwrite,
    };
    let entry = body.result.map_or(Entry::Clear, Entry::Result);
    let outcomes = crate::standing::from_tables(&hub, id);
    let store = hub.store().clone();
    let (entered, last_round) = tokio::task::spawn_blocking(move || {
        let entered = grid::enter_board(&*store, id, (round, board), entry, &signed, &outcomes)?;
        let last = grid::last_paired(&*store, id)?;
        Ok::<_, EntryError>((entered, last))
    })
    .await??;
    Ok(axum::Json(Entered {
        cell: entered.cell,
        moved: entered.moved.iter().map(MovedBody::from).collect(),
        last_round,
    }))
}

/// The answer to an entry: the board's cell, and whom it moved to another score group.
#[derive(Debug, Serialize)]
struct Entered {
    #[serde(flatten)]
    cell: GridBoard,
    moved: Vec<MovedBody>,
    last_round: Option<RoundNumber>,
}

/// A player paired in a later round on a score the entry changed; the scores as they
/// are written (`1½`).
#[derive(Debug, Serialize)]
struct MovedBody {
    round: RoundNumber,
    player: Named,
    before: String,
    after: String,
}

impl From<&Moved> for MovedBody {
    fn from(m: &Moved) -> MovedBody {
        MovedBody {
            round: m.round,
            player: m.player.clone(),
            before: m.before.to_string(),
            after: m.after.to_string(),
        }
    }
}
