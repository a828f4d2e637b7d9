//! The organiser's desk over HTTP: the next round paired, and the last one taken back, from
//! the organiser page as `baoqi round pair` and `baoqi round unpair` do from the command
//! line (the same functions, the same checks), behind the register's gate (a referee of the
//! whole event):
//!
//! - `POST /api/events/{id}/rounds`: the next round paired, from the event's games as the
//!   server holds them; the answer holds its boards, its byes and its new seats' links (each
//!   token shown this once);
//! - `POST /api/events/{id}/rounds/unpair`: the last round taken back before its games
//!   start (its seats revoked, its tables set aside).
//!
//! The hub's store watch starts the new tables (and closes revoked seats) as it does after
//! the command line's.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use baoqi_organiser::rounds::{PairError, Paired, pair};
use baoqi_organiser::unpair::{UnpairError, unpair};
use baoqi_organiser::{EventError, PairingRow, admin};
use baoqi_store::model::{EventId, TableId};
use baoqi_tournament::RoundNumber;
use serde::Serialize;
use serde_json::json;

use super::access::AccessError;
use super::organiser::{IssuedSeat, authorised_as, gate};
use crate::hub::Hub;

/// The desk's routes, behind the register's gate.
pub fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/events/{id}/rounds", post(pair_next))
        .route("/api/events/{id}/rounds/unpair", post(unpair_last))
        .route_layer(axum::middleware::from_fn_with_state(hub, gate))
}

/// A round paired.
#[derive(Debug, Serialize)]
pub struct PairedView {
    /// The round.
    pub round: RoundNumber,
    /// Its boards, tables numbered.
    pub boards: Vec<PairingRow>,
    /// The players with a bye: number and name.
    pub byes: Vec<(u32, String)>,
    /// The new tables' seats (their links from the server's root).
    pub seats: Vec<IssuedSeat>,
}

impl From<Paired> for PairedView {
    fn from(p: Paired) -> PairedView {
        let seats = p
            .created
            .seats
            .iter()
            .map(|s| IssuedSeat {
                table: s.seat.tables.first().copied().unwrap_or(TableId(0)),
                role: s.seat.role,
                name: s.seat.name.clone(),
                link: admin::link_of(&p.created, s, ""),
            })
            .collect();
        PairedView {
            round: p.round,
            boards: p.boards,
            byes: p.byes.iter().map(|b| (b.id.0, b.name.clone())).collect(),
            seats,
        }
    }
}

/// Why the desk refused.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// Not an event-wide referee, or no such event.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// The round was not paired.
    #[error(transparent)]
    Pair(#[from] PairError),
    /// The round was not taken back.
    #[error(transparent)]
    Unpair(#[from] UnpairError),
    /// The blocking work failed.
    #[error("the request failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl DeskError {
    /// The answer's status and code (the page words each code).
    fn status(&self) -> (StatusCode, &'static str) {
        let conflict = |code| (StatusCode::CONFLICT, code);
        match self {
            DeskError::Pair(PairError::TooFew(_)) => conflict("too_few"),
            DeskError::Pair(PairError::TooMany { .. }) => conflict("too_many"),
            DeskError::Pair(PairError::Unfinished { .. }) => conflict("unfinished"),
            DeskError::Pair(PairError::Unverified { .. }) => conflict("unverified"),
            DeskError::Pair(PairError::TieUndecided { .. }) => conflict("tie_undecided"),
            DeskError::Pair(PairError::Lot { .. }) => conflict("lot"),
            DeskError::Unpair(UnpairError::Nothing) => conflict("nothing"),
            DeskError::Unpair(UnpairError::Started { .. }) => conflict("started"),
            DeskError::Unpair(UnpairError::Entered { .. }) => conflict("entered"),
            DeskError::Pair(PairError::Event(e)) | DeskError::Unpair(UnpairError::Event(e)) => {
                match e {
                    EventError::NoEvent(_) => (StatusCode::NOT_FOUND, "no_event"),
                    _ => conflict("not_a_tournament"),
                }
            }
            DeskError::Pair(_)
            | DeskError::Unpair(_)
            | DeskError::Access(_)
            | DeskError::Join(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    /// The tables the refusal names, for the page.
    fn tables(&self) -> Vec<TableId> {
        match self {
            DeskError::Pair(
                PairError::Unfinished { tables, .. }
                | PairError::Unverified { tables, .. }
                | PairError::TieUndecided { tables, .. },
            ) => tables.clone(),
            DeskError::Unpair(UnpairError::Started { table, .. }) => vec![*table],
            _ => Vec::new(),
        }
    }
}

impl IntoResponse for DeskError {
    fn into_response(self) -> Response {
        if let DeskError::Access(a) = self {
            return a.into_response();
        }
        let (status, code) = self.status();
        let body = json!({ "error": self.to_string(), "code": code, "tables": self.tables() });
        (status, axum::Json(body)).into_response()
    }
}

async fn pair_next(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<axum::Json<PairedView>, DeskError> {
    // The event's games as the server holds them, as `round pair` reads them from the store.
    let outcomes = crate::standing::from_tables(&hub, id);
    let paired: Paired =
        authorised_as::<_, _, DeskError>(&hub, &headers, id, move |s| pair(s, id, &outcomes))
            .await?;
    Ok(axum::Json(paired.into()))
}

async fn unpair_last(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<axum::Json<serde_json::Value>, DeskError> {
    let done = authorised_as::<_, _, DeskError>(&hub, &headers, id, move |s| unpair(s, id)).await?;
    Ok(axum::Json(
        json!({ "round": done.round, "tables": done.tables }),
    ))
}
