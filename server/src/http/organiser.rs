//! The organiser's register over HTTP: the organiser page's JSON API. Every
//! request, reads included (the register holds the players' disabilities), carries the
//! token of a referee of the whole event (`Authorization: Bearer <token>`, as the event's
//! logs, [`access::referee_of_event`]); nothing is written without it.
//!
//! - `GET /api/events/{id}/players`: the register, each player's derived settings (7.2) and
//!   the change log;
//! - `POST /api/events/{id}/players`: a late entrant ([`baoqi_organiser::edits::Patch`] as JSON, `name` required;
//!   `"allow_same_name": true` takes a second player of a name and club);
//! - `PATCH /api/events/{id}/players/{n}`: a corrected line (`allow_same_name` as above);
//! - `POST /api/events/{id}/players/import`: the register, the CSV file's bytes as the body
//!   (UTF-8, UTF-16 or Big5; `?allow_same_name=true` as above), before round 1;
//! - `POST /api/events/{id}/players/{n}/withdraw`: a withdrawal (89(2)), `{"reason": …}`;
//! - `POST /api/events/{id}/players/{n}/delete`: a line entered by mistake struck before
//!   the player is paired (not a withdrawal), `{"reason": …}`;
//! - `POST /api/events/{id}/tables/{t}/override`: a board of the current round corrected
//!   (108, [`overrides`]): `{"round": r, "correction": "colours_reversed"}` (108(1)) or
//!   `{"round": r, "correction": {"exchange": {"with": <table>, "side": "black"}}}` (108(2));
//!   the answer lists the boards as they now stand and, for a replay, the new seats' links
//!   (each token shown this once);
//! - `GET /organiser#event=N`: the page.
//!
//! A refusal is `{"error": "<sentence>", "code": "<name>"}` with its status (401, 403, 404,
//! 409 for a change the event's state refuses — 108's window past, the round over —, 422 for
//! bad fields).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use baoqi_rules::Color;
use baoqi_tournament::changes::{Change, Remedy};
use baoqi_tournament::{PlayerId, PlayerSettings, RoundNumber};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::access::{self, AccessError};
use super::page;
use super::register_api;
use crate::hub::Hub;
use baoqi_organiser::admin;
use baoqi_organiser::edits::{self, EditError};
use baoqi_organiser::overrides::{self, Corrected, Correction, OverrideError};
use baoqi_organiser::register::{DeleteError, ImportError};
use baoqi_organiser::{
    ChangeLine, EventError, Opened, PairingRow, PairingSystem, Registered, changelog,
};
use baoqi_store::Store;
use baoqi_store::model::{EventId, Role, TableId};

/// The routes of this module: the page, and the API behind a gate that checks the token
/// before any body is read and reads a body within its time (`gate`).
pub fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    let api = Router::new()
        .route(
            "/api/events/{id}/players",
            get(list).post(register_api::add),
        )
        .route(
            "/api/events/{id}/players/import",
            post(register_api::import),
        )
        .route(
            "/api/events/{id}/players/{player}",
            patch(register_api::edit),
        )
        .route(
            "/api/events/{id}/players/{player}/delete",
            post(register_api::delete),
        )
        .route("/api/events/{id}/players/{player}/withdraw", post(withdraw))
        .route("/api/events/{id}/tables/{table}/override", post(correct))
        .route_layer(axum::middleware::from_fn_with_state(hub, gate));
    Router::new()
        .route("/organiser", get(|| async { page("organiser.html") }))
        .merge(api)
}

/// The largest organiser's request body: a player's line or a correction is a few hundred
/// bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The largest register file sent to `…/players/import`: a register of the most players in
/// UTF-16, which takes up to twice its text's bytes.
pub const MAX_IMPORT_BODY: usize = 2 * baoqi_tournament::MAX_REGISTER_BYTES;

/// The most bytes the body of `path` may have.
fn body_limit(path: &str) -> usize {
    if path.ends_with("/players/import") {
        MAX_IMPORT_BODY
    } else {
        MAX_BODY
    }
}

/// The organiser API's gate: the bearer must be a referee of the whole event (checked from
/// the headers alone, nothing of the body read), then the body is read whole within
/// [`crate::limits::Limits::body_within`] and at most [`MAX_BODY`] bytes, or refused (408,
/// 413): bodies sent a byte every 10 s before any token was checked held every connection
/// of the server.
pub(super) async fn gate(
    State(hub): State<Arc<Hub>>,
    Path(params): Path<std::collections::HashMap<String, String>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let Some(event) = params.get("id").and_then(|id| id.parse::<EventId>().ok()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if let Err(e) = access::referee_of_event(&hub, request.headers(), event, "the register").await {
        return e.into_response();
    }
    let (parts, body) = request.into_parts();
    let within = hub.limits().body_within;
    let max = body_limit(parts.uri.path());
    let read = tokio::time::timeout(within, axum::body::to_bytes(body, max)).await;
    let refused = |status: StatusCode, why: String| {
        (status, axum::Json(json!({ "error": why, "code": "body" }))).into_response()
    };
    match read {
        Err(_) => refused(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} s",
                within.as_secs()
            ),
        ),
        Ok(Err(e)) => refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request's body could not be read (at most {max} bytes): {e}"),
        ),
        Ok(Ok(bytes)) => {
            let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            next.run(request).await
        }
    }
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
    /// The correction (108) was refused.
    #[error(transparent)]
    Override(#[from] OverrideError),
    /// The register's import was refused.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// The line was not struck.
    #[error(transparent)]
    Delete(#[from] DeleteError),
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
            OrganiserError::Override(e) => override_status(e),
            OrganiserError::Import(e) => register_api::import_status(e),
            OrganiserError::Delete(e) => (register_api::delete_status(e), e.code()),
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
        | EditError::DuplicateSeed { .. }
        | EditError::SameName { .. }
        | EditError::Change(_) => StatusCode::CONFLICT,
        EditError::EmptyName
        | EditError::ZeroSeed
        | EditError::Nothing
        | EditError::Text { .. }
        | EditError::Full => StatusCode::UNPROCESSABLE_ENTITY,
        EditError::Event(_) | EditError::Store(_) | EditError::Read(_) | EditError::Berger(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// A refused correction's status and code (the page words each code itself).
fn override_status(e: &OverrideError) -> (StatusCode, &'static str) {
    match e {
        OverrideError::Event(EventError::NoEvent(_)) => (StatusCode::NOT_FOUND, "no_event"),
        OverrideError::Event(EventError::NotATournament(_)) => {
            (StatusCode::CONFLICT, "not_a_tournament")
        }
        OverrideError::NoBoard { .. } => (StatusCode::NOT_FOUND, "no_board"),
        OverrideError::WrongRound { .. } => (StatusCode::CONFLICT, "wrong_round"),
        OverrideError::NotCurrent { .. } => (StatusCode::CONFLICT, "round_over"),
        OverrideError::SameTable(_) => (StatusCode::UNPROCESSABLE_ENTITY, "same_table"),
        OverrideError::OutsideWindow { .. } => (StatusCode::CONFLICT, "outside_window"),
        OverrideError::Change(_) => (StatusCode::CONFLICT, "refused"),
        OverrideError::Event(_) | OverrideError::Store(_) | OverrideError::Admin(_) => {
            (StatusCode::INTERNAL_SERVER_ERROR, "internal")
        }
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
    /// The games of the current round (the last paired), board 1 first: the boards 108
    /// corrects. Byes are not boards.
    pub boards: Vec<PairingRow>,
    /// The change log, oldest first, each with its text (English, as `baoqi changes`).
    pub changes: Vec<ChangeView>,
}

/// One change of the log.
#[derive(Debug, Serialize)]
pub struct ChangeView {
    /// When and what.
    #[serde(flatten)]
    pub line: ChangeLine,
    /// In words.
    pub text: String,
}

fn view(store: &dyn Store, event: EventId) -> Result<RegisterView, EditError> {
    let t = Opened::open(store, event)?;
    let rules = t.settings.rules(&t.event.name);
    let registered = t.records.players(event)?;
    let rows = t.records.pairings(event)?;
    let last = baoqi_organiser::last_round(&rows);
    let mut boards: Vec<PairingRow> = rows
        .into_iter()
        .filter(|r| Some(r.round) == last && !r.is_bye())
        .collect();
    boards.sort_by_key(|r| r.board);
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
        rounds: last.map_or(0, RoundNumber::rounds_through),
        players: registered
            .into_iter()
            .map(|r| PlayerView {
                settings: rules.settings(&r.player),
                registered: r,
            })
            .collect(),
        changes,
        boards,
    })
}

/// Checks the bearer, then runs `work` on the store on a blocking thread.
pub(super) async fn authorised<T, E>(
    hub: &Arc<Hub>,
    headers: &HeaderMap,
    event: EventId,
    work: impl FnOnce(&dyn Store) -> Result<T, E> + Send + 'static,
) -> Result<T, OrganiserError>
where
    T: Send + 'static,
    E: Into<OrganiserError> + Send + 'static,
{
    authorised_as(hub, headers, event, work).await
}

/// [`authorised`], its error and the checks' as `R` (the desk's).
pub(super) async fn authorised_as<T, E, R>(
    hub: &Arc<Hub>,
    headers: &HeaderMap,
    event: EventId,
    work: impl FnOnce(&dyn Store) -> Result<T, E> + Send + 'static,
) -> Result<T, R>
where
    T: Send + 'static,
    E: Into<R> + Send + 'static,
    R: From<AccessError> + From<tokio::task::JoinError>,
{
    access::referee_of_event(hub, headers, event, "the register").await?;
    let store = hub.store().clone();
    tokio::task::spawn_blocking(move || work(&*store))
        .await?
        .map_err(Into::into)
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

/// The body of a withdrawal or a deletion.
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
    // The board he will not play gets its absence (缺席); the page's grid shows it.
    let done = authorised(&hub, &headers, id, move |s| {
        edits::withdraw(s, id, PlayerId(player), w.reason.as_deref())
    })
    .await?;
    Ok(axum::Json(done.change))
}

/// The body of a correction (108): the round the page shows, and what is corrected.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverrideBody {
    /// The round of the board (refused unless it is the current one).
    pub round: RoundNumber,
    /// What the organiser corrects.
    pub correction: CorrectionBody,
}

/// A correction as the page sends it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CorrectionBody {
    /// 108(1): the players sat with the colours reversed.
    ColoursReversed,
    /// 108(2): a wrong pairing; the `side` players of this board and of the board at table
    /// `with` are exchanged.
    Exchange {
        /// The other board's table.
        with: TableId,
        /// Which players change boards.
        side: Color,
    },
}

impl From<CorrectionBody> for Correction {
    fn from(c: CorrectionBody) -> Correction {
        match c {
            CorrectionBody::ColoursReversed => Correction::SwapColours,
            CorrectionBody::Exchange { with, side } => Correction::Exchange { with, side },
        }
    }
}

/// A seat of a new table, for the organiser to hand over (its token shown this once).
#[derive(Debug, Serialize)]
pub struct IssuedSeat {
    /// The new table.
    pub table: TableId,
    /// The seat's role.
    pub role: Role,
    /// Who sits there.
    pub name: String,
    /// The page it opens, from the server's root (`/seat#token=…`).
    pub link: String,
}

/// A correction made (108).
#[derive(Debug, Serialize)]
pub struct CorrectedView {
    /// The round.
    pub round: RoundNumber,
    /// Replayed at new tables, or the game stands and the record is changed.
    pub remedy: Remedy,
    /// The boards corrected, as they now stand.
    pub boards: Vec<PairingRow>,
    /// The new tables' seats of a replay (none when the game stands).
    pub seats: Vec<IssuedSeat>,
}

impl From<Corrected> for CorrectedView {
    fn from(c: Corrected) -> CorrectedView {
        let seats = c.created.as_ref().map_or_else(Vec::new, |created| {
            created
                .seats
                .iter()
                .map(|s| IssuedSeat {
                    table: s.seat.tables.first().copied().unwrap_or(TableId(0)),
                    role: s.seat.role,
                    name: s.seat.name.clone(),
                    link: admin::link_of(created, s, ""),
                })
                .collect()
        });
        CorrectedView {
            round: c.round,
            remedy: c.remedy,
            boards: c.boards,
            seats,
        }
    }
}

async fn correct(
    State(hub): State<Arc<Hub>>,
    Path((id, table)): Path<(EventId, TableId)>,
    headers: HeaderMap,
    axum::Json(body): axum::Json<OverrideBody>,
) -> Result<axum::Json<CorrectedView>, OrganiserError> {
    // The hub's store watch starts the new tables and closes the revoked seats' sessions.
    let done = authorised(&hub, &headers, id, move |s| {
        overrides::correct(s, id, body.round, table, body.correction.into())
    })
    .await?;
    Ok(axum::Json(done.into()))
}
