//! The WebSocket protocol, version 1 (documented with an example of every message in
//! `docs/protocol.md`). Every message is a JSON object with `"v": 1` and a `"type"`.
//! The payload of a command and of an event is the arbiter's own serde form, carried
//! verbatim.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{Millis, Refusal};
use crate::model::{EventId, Role, TableId};
use crate::recording::status::{RecorderState, TableRecording};

/// The protocol version this server speaks.
pub const VERSION: u32 = 1;

/// A message from a client (every endpoint).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message: authenticates with the seat's token; `since` is the last event
    /// sequence number seen (per table), to receive only what was missed.
    Hello {
        /// The seat's secret.
        token: String,
        /// Last sequence number seen; for a monitor it applies to every table.
        #[serde(default)]
        since: Option<u64>,
    },
    /// A game command for the arbiter. `table` is required on the monitor endpoint and must
    /// be the seat's own table (or omitted) on the seat endpoint.
    Command {
        /// Echoed in the `ack`, `rejected` or `error` answer.
        #[serde(default)]
        id: Option<String>,
        /// The table, for a referee supervising several.
        #[serde(default)]
        table: Option<TableId>,
        /// The arbiter command.
        command: Value,
    },
    /// Asks for the current state and the events after `since` again.
    Sync {
        /// The table (optional on the seat and spectator endpoints).
        #[serde(default)]
        table: Option<TableId>,
        /// Last sequence number seen.
        #[serde(default)]
        since: Option<u64>,
    },
    /// A seat client's report about its game recorder (建議每局對賽設錄音設備), on the seat
    /// endpoint only; the table's `recording` status follows to the seat and the monitors.
    Recording {
        /// Echoed in an `error` answer.
        #[serde(default)]
        id: Option<String>,
        /// `on`, `off` or `failed`.
        state: RecorderState,
        /// Whether the table's microphone is recorded too.
        #[serde(default)]
        microphone: bool,
        /// Why it failed (with `failed`).
        #[serde(default)]
        reason: Option<String>,
    },
    /// Liveness check; answered with `pong`.
    Ping {
        /// Echoed.
        #[serde(default)]
        id: Option<String>,
    },
}

/// A message from the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The token was accepted.
    Welcome {
        /// The seat's role.
        role: Role,
        /// The seat holder's name.
        name: String,
        /// The event.
        event: EventId,
        /// The tables this connection follows.
        tables: Vec<TableId>,
    },
    /// The whole state of a table; events with `seq` up to this one are included in it.
    State {
        /// The table.
        table: TableId,
        /// The last event sequence number the snapshot reflects.
        seq: u64,
        /// The instant on the game timeline.
        at: Millis,
        /// The arbiter's snapshot.
        snapshot: Value,
        /// Each side's game-recording status.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recording: Option<Box<TableRecording>>,
    },
    /// One event of a table.
    Event {
        /// The table.
        table: TableId,
        /// 1, 2, 3, … per table, without gaps.
        seq: u64,
        /// The instant on the game timeline.
        at: Millis,
        /// The arbiter's event.
        event: Value,
    },
    /// A command was accepted and durably stored; its events follow (or preceded) as `event`s.
    Ack {
        /// The command's `id`.
        id: Option<String>,
        /// The table.
        table: TableId,
        /// The sequence number of the last event the command caused.
        seq: u64,
    },
    /// The arbiter refused a command; nothing changed.
    Rejected {
        /// The command's `id`.
        id: Option<String>,
        /// The table.
        table: TableId,
        /// Why.
        rejection: Refusal,
    },
    /// A malformed, unauthorised or impossible message; nothing changed.
    Error {
        /// The offending message's `id`, when it had one.
        id: Option<String>,
        /// A stable code (see [`ErrorCode`]).
        code: ErrorCode,
        /// A sentence to show or speak.
        message: String,
    },
    /// The recording status of a table's seats changed (sent to the table's seats and its
    /// monitors).
    Recording {
        /// The table.
        table: TableId,
        /// Each side's status.
        seats: TableRecording,
    },
    /// The answer to `ping`.
    Pong {
        /// The ping's `id`.
        id: Option<String>,
        /// The instant on the game timeline.
        at: Millis,
    },
}

/// Why a message was refused by the server (before reaching the arbiter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    Malformed,
    /// `v` missing or not a version this server speaks.
    Version,
    /// A message other than `hello` before authenticating.
    NotAuthenticated,
    /// A second `hello` on the same connection.
    AlreadyAuthenticated,
    /// The token matches no seat.
    BadToken,
    /// The seat's token was revoked.
    Revoked,
    /// The seat does not fit this endpoint (e.g. a spectator on the seat endpoint).
    WrongEndpoint,
    /// The seat may not do this (spectators send no commands; a table not the seat's own).
    Forbidden,
    /// No such table.
    UnknownTable,
    /// The command could not be stored; nothing changed.
    Storage,
    /// The table's task is not running.
    Unavailable,
}

/// Wraps a message with the version field: `{"v":1, "type": …, …}`.
pub fn encode(msg: &ServerMsg) -> String {
    let mut value = serde_json::to_value(msg).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("v".into(), Value::from(VERSION));
    }
    value.to_string()
}

/// Reads a client message, checking the version first so that the error is precise.
pub fn decode(text: &str) -> Result<ClientMsg, ServerMsg> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| error(None, ErrorCode::Malformed, format!("not JSON: {e}")))?;
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    match value.get("v").and_then(Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(error(
                id,
                ErrorCode::Version,
                format!("protocol version {v} is not spoken here; use \"v\":{VERSION}"),
            ));
        }
        None => {
            return Err(error(
                id,
                ErrorCode::Version,
                format!("every message needs \"v\":{VERSION}"),
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| {
        error(
            id,
            ErrorCode::Malformed,
            format!("not a valid message: {e}"),
        )
    })
}

/// An `error` message.
pub fn error(id: Option<String>, code: ErrorCode, message: impl Into<String>) -> ServerMsg {
    ServerMsg::Error {
        id,
        code,
        message: message.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_carry_the_version() {
        let text = encode(&ServerMsg::Pong { id: None, at: 3 });
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v, json!({"v": 1, "type": "pong", "id": null, "at": 3}));
    }

    #[test]
    fn bad_messages_get_precise_errors() {
        let code = |t: &str| match decode(t) {
            Err(ServerMsg::Error { code, .. }) => Some(code),
            _ => None,
        };
        assert_eq!(code("{"), Some(ErrorCode::Malformed));
        assert_eq!(code(r#"{"type":"ping"}"#), Some(ErrorCode::Version));
        assert_eq!(code(r#"{"v":2,"type":"ping"}"#), Some(ErrorCode::Version));
        assert_eq!(code(r#"{"v":1,"type":"fly"}"#), Some(ErrorCode::Malformed));
        assert_eq!(
            decode(r#"{"v":1,"type":"hello","token":"ab"}"#).unwrap(),
            ClientMsg::Hello {
                token: "ab".into(),
                since: None
            }
        );
    }
}
