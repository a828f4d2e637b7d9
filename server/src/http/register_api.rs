//! The register's lines over HTTP, behind the organiser API's gate ([`super::organiser`]):
//! a late entrant, a corrected line, the register imported from a file, a line struck. A
//! second player of a name and club is refused unless the request carries the organiser's
//! word (`allow_same_name`), as on the command line.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use baoqi_organiser::edits::{self, Patch};
use baoqi_organiser::register::{self, DeleteError, ImportError};
use baoqi_organiser::{EventError, Registered};
use baoqi_store::model::EventId;
use baoqi_tournament::changes::Missed;
use baoqi_tournament::{PlayerId, SameName};
use serde::{Deserialize, Serialize};

use super::organiser::{OrganiserError, Withdrawal, authorised};
use crate::hub::Hub;

/// A player's line as the page sends it: the fields, the organiser's word that a player of
/// a name and club already registered is another person (`"allow_same_name": true`), and,
/// for a late entrant, what each round he missed scores (`"missed": "half_point"`; nothing
/// by default). Any other key is refused, as by [`Patch`] alone.
#[derive(Debug)]
pub struct PlayerBody {
    /// The fields.
    pub patch: Patch,
    /// Takes a second player of a name and club (refused otherwise).
    pub allow_same_name: bool,
    /// What a late entrant's missed rounds score (only when he is added).
    pub missed: Option<Missed>,
}

/// A correction of a player's line: a [`PlayerBody`] without `missed`, which is chosen once,
/// when a late entrant is added.
#[derive(Debug)]
pub struct EditBody(PlayerBody);

impl<'de> Deserialize<'de> for EditBody {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EditBody, D::Error> {
        use serde::de::Error as _;
        let body = PlayerBody::deserialize(d)?;
        if body.missed.is_some() {
            return Err(D::Error::custom(
                "`missed` is chosen when a late entrant is added, not in a correction",
            ));
        }
        Ok(EditBody(body))
    }
}

impl<'de> Deserialize<'de> for PlayerBody {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PlayerBody, D::Error> {
        use serde::de::Error as _;
        // Not `#[serde(flatten)]`: it would let unknown keys through the patch.
        let mut fields = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let allow_same_name = fields
            .remove("allow_same_name")
            .map(bool::deserialize)
            .transpose()
            .map_err(D::Error::custom)?
            .unwrap_or(false);
        let missed = fields
            .remove("missed")
            .map(Missed::deserialize)
            .transpose()
            .map_err(D::Error::custom)?;
        let patch =
            Patch::deserialize(serde_json::Value::Object(fields)).map_err(D::Error::custom)?;
        Ok(PlayerBody {
            patch,
            allow_same_name,
            missed,
        })
    }
}

fn same_name(allow: bool) -> SameName {
    if allow {
        SameName::Allow
    } else {
        SameName::Refuse
    }
}

pub(super) async fn add(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    axum::Json(p): axum::Json<PlayerBody>,
) -> Result<(StatusCode, axum::Json<Registered>), OrganiserError> {
    let confirmed = same_name(p.allow_same_name);
    let added = authorised(&hub, &headers, id, move |s| {
        edits::add_with(s, id, &p.patch, (confirmed, p.missed.unwrap_or_default()))
    })
    .await?;
    Ok((StatusCode::CREATED, axum::Json(added)))
}

pub(super) async fn edit(
    State(hub): State<Arc<Hub>>,
    Path((id, player)): Path<(EventId, u32)>,
    headers: HeaderMap,
    axum::Json(EditBody(p)): axum::Json<EditBody>,
) -> Result<axum::Json<Registered>, OrganiserError> {
    let confirmed = same_name(p.allow_same_name);
    let edited = authorised(&hub, &headers, id, move |s| {
        edits::edit_with(s, id, PlayerId(player), &p.patch, confirmed)
    })
    .await?;
    Ok(axum::Json(edited))
}

/// The options of an import, in its query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// Takes players of one name and club as different people.
    #[serde(default)]
    pub allow_same_name: bool,
}

/// A register imported: how many players, and the encoding the file was read in.
#[derive(Debug, Serialize)]
pub struct ImportedView {
    /// Players registered.
    pub players: usize,
    /// The encoding read (`UTF-8`, `Big5 (繁體中文 Windows)`…).
    pub encoding: String,
    /// The file's columns the register does not read.
    pub unread: Vec<String>,
}

pub(super) async fn import(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
    axum::extract::Query(q): axum::extract::Query<ImportQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<(StatusCode, axum::Json<ImportedView>), OrganiserError> {
    let confirmed = same_name(q.allow_same_name);
    let done = authorised(&hub, &headers, id, move |s| {
        register::import_file(s, id, &body, confirmed)
    })
    .await?;
    let view = ImportedView {
        players: done.players.len(),
        encoding: done.encoding.to_string(),
        unread: done.unread,
    };
    Ok((StatusCode::CREATED, axum::Json(view)))
}

pub(super) async fn delete(
    State(hub): State<Arc<Hub>>,
    Path((id, player)): Path<(EventId, u32)>,
    headers: HeaderMap,
    axum::Json(w): axum::Json<Withdrawal>,
) -> Result<axum::Json<baoqi_tournament::Player>, OrganiserError> {
    let struck = authorised(&hub, &headers, id, move |s| {
        register::delete(s, id, PlayerId(player), w.reason.as_deref())
    })
    .await?;
    Ok(axum::Json(struck))
}

/// A refused import's status and code: a file that is no register is 422 (its every bad
/// line in the sentence), a register already paired on 409.
pub(super) fn import_status(e: &ImportError) -> (StatusCode, &'static str) {
    match e {
        ImportError::Event(EventError::NoEvent(_)) => (StatusCode::NOT_FOUND, "no_event"),
        ImportError::Event(EventError::NotATournament(_)) => {
            (StatusCode::CONFLICT, "not_a_tournament")
        }
        ImportError::Started { .. } => (StatusCode::CONFLICT, "started"),
        ImportError::Decode(_) => (StatusCode::UNPROCESSABLE_ENTITY, "encoding"),
        ImportError::Register(_) | ImportError::Empty => {
            (StatusCode::UNPROCESSABLE_ENTITY, "bad_register")
        }
        ImportError::Event(_) | ImportError::Store(_) => {
            (StatusCode::INTERNAL_SERVER_ERROR, "internal")
        }
    }
}

pub(super) fn delete_status(e: &DeleteError) -> StatusCode {
    match e {
        DeleteError::Event(EventError::NoEvent(_)) | DeleteError::UnknownPlayer { .. } => {
            StatusCode::NOT_FOUND
        }
        DeleteError::Event(EventError::NotATournament(_))
        | DeleteError::Paired { .. }
        | DeleteError::Withdrawn(_) => StatusCode::CONFLICT,
        DeleteError::Event(_) | DeleteError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        DeleteError::HiddenInReason(_) => StatusCode::UNPROCESSABLE_ENTITY,
    }
}
