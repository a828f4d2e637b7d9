//! Who may read what over HTTP. The event logs and the recordings of a table hold what the
//! referee alone may know during a game (the sealed move of an adjournment, 103(1)(b); the
//! words said at the table), so they are read with a referee's token, sent as
//! `Authorization: Bearer <token>` (never in the URL, which servers and proxies log). The
//! results, scoresheets and PGN stay public: they hold nothing of that.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::hub::{AuthError, Hub};
use baoqi_store::model::{EventId, Role, SeatRow, TableId, TableRow};

/// Why a request for a referee's read was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    /// No `Authorization: Bearer` header, or a token that opens no seat (401).
    #[error("{0}")]
    Unauthorized(String),
    /// A seat that may not read this (403).
    #[error("{0}")]
    Forbidden(String),
    /// No such table or event (404).
    #[error("{0}")]
    NotFound(String),
    /// The seat could not be looked up (500).
    #[error("the token could not be checked: {0}")]
    Internal(String),
}

impl AccessError {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            AccessError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AccessError::Forbidden(_) => StatusCode::FORBIDDEN,
            AccessError::NotFound(_) => StatusCode::NOT_FOUND,
            AccessError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The refusal's code in the JSON body.
    pub fn code(&self) -> &'static str {
        match self {
            AccessError::Unauthorized(_) => "unauthorized",
            AccessError::Forbidden(_) => "forbidden",
            AccessError::NotFound(_) => "not_found",
            AccessError::Internal(_) => "internal",
        }
    }
}

impl IntoResponse for AccessError {
    /// `{"error": "<sentence>", "code": "unauthorized"}`; a 401 also says
    /// `WWW-Authenticate: Bearer`.
    fn into_response(self) -> Response {
        let status = self.status();
        let body = json!({ "error": self.to_string(), "code": self.code() });
        let mut response = (status, axum::Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// The token of an `Authorization: Bearer <token>` header (the scheme's name in any case,
/// RFC 7235 §2.1).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Whether the bearer token is a seat of `row`'s table that may act there (a player, a
/// proxy or a referee of it; not a spectator).
pub async fn seat_of_table(hub: &Hub, headers: &HeaderMap, row: &TableRow) -> bool {
    let Some(token) = bearer(headers) else {
        return false;
    };
    hub.authenticate(token)
        .await
        .is_ok_and(|seat| seat.event == row.event && seat.covers(row.id) && seat.role.may_act())
}

/// The referee seat of the bearer token, of any table (the checks of scope follow).
async fn referee(hub: &Hub, headers: &HeaderMap, what: &str) -> Result<SeatRow, AccessError> {
    let token = bearer(headers).ok_or_else(|| {
        AccessError::Unauthorized(format!(
            "{what} needs a referee's token: Authorization: Bearer <token>"
        ))
    })?;
    let seat = hub.authenticate(token).await.map_err(|e| match e {
        AuthError::BadToken | AuthError::Revoked => AccessError::Unauthorized(e.to_string()),
        AuthError::Store(_) | AuthError::Join(_) => AccessError::Internal(e.to_string()),
    })?;
    if seat.role != Role::Referee {
        return Err(AccessError::Forbidden(format!(
            "{what} is for the referees only, not for a {} seat",
            seat.role
        )));
    }
    Ok(seat)
}

/// The bearer's referee seat when it supervises `table` (a referee of that table, or of
/// every table of its event), with the table's row.
pub async fn referee_of_table(
    hub: &Hub,
    headers: &HeaderMap,
    table: TableId,
    what: &str,
) -> Result<(SeatRow, TableRow), AccessError> {
    let seat = referee(hub, headers, what).await?;
    let row = hub
        .table_row(table)
        .ok_or_else(|| AccessError::NotFound(format!("no table {table}")))?;
    if seat.event != row.event || !seat.covers(table) {
        return Err(AccessError::Forbidden(format!(
            "this referee does not supervise table {table}"
        )));
    }
    Ok((seat, row))
}

/// The bearer's referee seat when it supervises every table of `event` (an event-wide
/// referee: its seat lists no tables).
pub async fn referee_of_event(
    hub: &Hub,
    headers: &HeaderMap,
    event: EventId,
    what: &str,
) -> Result<SeatRow, AccessError> {
    let seat = referee(hub, headers, what).await?;
    if !hub.events().iter().any(|e| e.id == event) {
        return Err(AccessError::NotFound(format!("no event {event}")));
    }
    if seat.event != event || !seat.tables.is_empty() {
        return Err(AccessError::Forbidden(format!(
            "{what} is for a referee of every table of event {event}; \
             a referee of some tables reads /api/tables/{{id}}/log.json"
        )));
    }
    Ok(seat)
}
