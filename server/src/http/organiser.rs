//! The organiser's register over HTTP (issue 18): the organiser page's JSON API. Every
//! request, reads included (the register holds the players' disabilities), carries the
//! token of a referee of the whole event (`Authorization: Bearer <token>`, as the event's
//! logs, [`access::referee_of_event`]); nothing is written without it.
//!
//! - `GET /api/events/{id}/players`: the register, each player's derived settings (7.2) and
//!   the change log;
//! - `POST /api/events/{id}/players`: a late entrant ([`Patch`] as JSON, `name` required);
//! - `PATCH /api/events/{id}/players/{n}`: a corrected line;
//! - `POST /api/events/{id}/players/{n}/withdraw`: a withdrawal (89(2)), `{"reason": …}`;
//! - `GET /organiser#event=N`: the page.
//!
//! A refusal is `{"error": "<sentence>", "code": "<name>"}` with its status (401, 403, 404,
//! 409 for a change the event's state refuses, 422 for bad fields).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use baoqi_tournament::changes::Change;
use baoqi_tournament::{PlayerId, PlayerSettings};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::access::{self, AccessError};
use super::page;
use crate::hub::Hub;
use crate::model::EventId;
use crate::organiser::edits::{self, EditError, Patch};
use crate::organiser::{EventError, LogLine, Opened, PairingSystem, Registered, changelog};
use crate::store::Store;

/// The routes of this module.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/organiser", get(|| async { page("organiser.html") }))
        .route("/api/events/{id}/players", get(list).post(add))
        .route("/api/events/{id}/players/{player}", patch(edit))
        .route("/api/events/{id}/players/{player}/withdraw", post(withdraw))
}

/// Why an organiser's request was refused.
#[derive(Debug, thiserror::Error)]
pub enum OrganiserError {
    /// Not an event-wide referee, or no such event.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// The edit was refused.
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The blocking work failed.
    #[error("the request failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl IntoResponse for OrganiserError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            OrganiserError::Access(_) | OrganiserError::Join(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
            OrganiserError::Edit(e) => (edit_status(e), e.code()),
        };
        if let OrganiserError::Access(a) = self {
            return a.into_response();
        }
        (
            status,
            axum::Json(json!({ "error": self.to_string(), "code": code })),
        )
            .into_response()
    }
}

fn edit_status(e: &EditError) -> StatusCode {
    match e {
        EditError::Event(EventError::NoEvent(_)) | EditError::UnknownPlayer { .. } => {
            StatusCode::NOT_FOUND
        }
        EditError::Event(EventError::NotATournament(_))
        | EditError::AlreadyWithdrawn(_)
        | EditError::DrawFixed
        | EditError::RoundRobinWithdrawal
        | EditError::DuplicateSeed { .. }
        | EditError::Change(_) => StatusCode::CONFLICT,
        EditError::EmptyName | EditError::ZeroSeed | EditError::Nothing => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        EditError::Event(_) | EditError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// One player of the register as the page shows him.
#[derive(Debug, Serialize)]
pub struct PlayerView {
    /// The register's line and whether he is still paired.
    #[serde(flatten)]
    pub registered: Registered,
    /// The settings the event's rules derive for him (7.2).
    pub settings: PlayerSettings,
}

/// The register of an event with its change log.
#[derive(Debug, Serialize)]
pub struct RegisterView {
    /// The event.
    pub event: EventId,
    /// Its name.
    pub name: String,
    /// The pairing system.
    pub system: PairingSystem,
    /// Rounds paired so far.
    pub rounds: u32,
    /// The players, by number.
    pub players: Vec<PlayerView>,
    /// The change log, oldest first, each with its text (English, as `baoqi changes`).
    pub changes: Vec<ChangeView>,
}

/// One change of the log.
#[derive(Debug, Serialize)]
pub struct ChangeView {
    /// When and what.
    #[serde(flatten)]
    pub line: LogLine,
    /// In words.
    pub text: String,
}

fn view(store: &dyn Store, event: EventId) -> Result<RegisterView, EditError> {
    let t = Opened::open(store, event)?;
    let rules = t.settings.rules(&t.event.name);
    let registered = t.records.players(event)?;
    let rounds = crate::organiser::last_round(&t.records.pairings(event)?);
    let changes = t
        .records
        .changes(event)?
        .into_iter()
        .map(|line| ChangeView {
            text: changelog::entry(&registered, &line.change),
            line,
        })
        .collect();
    Ok(RegisterView {
        event,
        name: t.event.name.clone(),
        system: t.settings.system,
        rounds,
        players: registered
            .into_iter()
            .map(|r| PlayerView {
                settings: rules.settings(&r.player),
                registered: r,
            })
            .collect(),
        changes,
    })
}

/// Checks the bearer, then runs `work` on the store on a blocking thread.
async fn authorised<T: Send + 'static>(
    hub: &Arc<Hub>,
    headers: &HeaderMap,
    event: EventId,
    work: impl FnOnce(&dyn Store) -> Result<T, EditError> + Send + 'static,
) -> Result<T, OrganiserError> {
    access::referee_of_event(hub, headers, event, "the register").await?;
    let store = hub.store().clone();
    Ok(tokio::task::spawn_blocking(move || work(&*store)).await??)
}

async fn list(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Result<axum::Json<RegisterView>, OrganiserError> {
    Ok(axum::Json(
        authorised(&hub, &headers, id, move |s| view(s, id)).await?,
    ))
}

async fn add(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    axum::Json(p): axum::Json<Patch>,
) -> Result<(StatusCode, axum::Json<Registered>), OrganiserError> {
    let added = authorised(&hub, &headers, id, move |s| edits::add(s, id, &p)).await?;
    Ok((StatusCode::CREATED, axum::Json(added)))
}

async fn edit(
    State(hub): State<Arc<Hub>>,
    Path((id, player)): Path<(EventId, u32)>,
    headers: HeaderMap,
    axum::Json(p): axum::Json<Patch>,
) -> Result<axum::Json<Registered>, OrganiserError> {
    let edited = authorised(&hub, &headers, id, move |s| {
        edits::edit(s, id, PlayerId(player), &p)
    })
    .await?;
    Ok(axum::Json(edited))
}

/// The body of a withdrawal.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    /// Why (logged).
    #[serde(default)]
    pub reason: Option<String>,
}

async fn withdraw(
    State(hub): State<Arc<Hub>>,
    Path((id, player)): Path<(EventId, u32)>,
    headers: HeaderMap,
    axum::Json(w): axum::Json<Withdrawal>,
) -> Result<axum::Json<Change>, OrganiserError> {
    let change = authorised(&hub, &headers, id, move |s| {
        edits::withdraw(s, id, PlayerId(player), w.reason.as_deref())
    })
    .await?;
    Ok(axum::Json(change))
}
