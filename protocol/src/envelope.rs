//! The WebSocket messages, version [`VERSION`] (`docs/protocol.md`): every message is a
//! JSON object with `"v"` and a `"type"`. Commands, events and the snapshot are the
//! arbiter's own types, so a move is a `Move` and a ruling an enum from the arbiter to the
//! last client.

use baoqi_arbiter::{Command, Event, Millis, Rejection, View};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::recording::{RecorderState, TableRecording};
use crate::seat::{EventId, Role, TableId};
pub use baoqi_tournament::GameResult;

/// The organiser's result of one table (its board's), in [`ServerMsg::Recorded`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedResult {
    /// The table.
    pub table: TableId,
    /// The result that stands over the table's own.
    pub result: GameResult,
}
use crate::standing::StandingAnswer;

/// The protocol version spoken. 2: events, views and refusals carry typed values (words,
/// moves, articles, reasons) instead of Chinese text.
pub const VERSION: u32 = 2;

/// The largest text frame accepted, in bytes.
pub const MAX_FRAME: usize = 64 * 1024;

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
        command: Command,
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
    /// A seat client's report about its game recorder, on the seat endpoint only; the
    /// table's `recording` status follows to the seat and the monitors.
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
    /// Asks for the seat's player's place in the event's standings (a player's or proxy's
    /// seat); answered with `standing`.
    QueryStanding {
        /// Echoed in the `standing` answer.
        #[serde(default)]
        id: Option<String>,
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
    /// The tables this connection follows changed (a round paired, a board replayed): the
    /// whole list, in order; the `state` of each new one follows. Sent to a seat
    /// that follows an event's tables (a referee, a spectator), never to a player.
    Tables {
        /// The event.
        event: EventId,
        /// Every table the connection follows now.
        tables: Vec<TableId>,
        /// The tables of its event set aside by a 108 replay (作廢): closed, their clocks
        /// stopped where they stood, their games no longer counted; never sent again.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        set_aside: Vec<TableId>,
    },
    /// The organiser's results of the tables this connection follows: each stands over its
    /// table's own result in the standings (an absence, 第87條; a correction). The whole
    /// list each time it changes, and after the `welcome` when it is not empty. Sent to a
    /// referee or a spectator that follows an event's tables.
    Recorded {
        /// The event.
        event: EventId,
        /// Every table followed that has one.
        results: Vec<RecordedResult>,
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
        snapshot: Box<View>,
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
        event: Box<Event>,
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
        /// Why, typed (`reason` and its parameters).
        rejection: Rejection,
    },
    /// A malformed, unauthorised or impossible message; nothing changed.
    Error {
        /// The offending message's `id`, when it had one.
        id: Option<String>,
        /// A stable code, for clients to say in their reader's language.
        code: ErrorCode,
        /// Details in English, for logs.
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
    /// The answer to `query_standing`: the player's place, or why there is none.
    Standing {
        /// The query's `id`.
        id: Option<String>,
        /// The place, typed (`answer` and its values).
        standing: StandingAnswer,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    Malformed,
    /// `v` missing or not a version this server speaks.
    Version,
    /// A `command` whose command is not one the arbiter knows, or has a bad value (a move,
    /// a point, an article).
    BadCommand,
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
    /// The seat may not do this (spectators send no commands; a table not the seat's own;
    /// a command only the server gives).
    Forbidden,
    /// No such table.
    UnknownTable,
    /// The command could not be stored; nothing changed.
    Storage,
    /// The table's task is not running.
    Unavailable,
    /// What was missed could not be read back: the client must resynchronise from the
    /// state it is sent (or reconnect).
    Resync,
    /// Too many commands from this seat in a short time; nothing changed.
    RateLimited,
    /// A frame larger than [`MAX_FRAME`].
    TooLarge,
}

/// Why a text frame is not a client message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct DecodeError {
    /// The message's `id`, when it could be read.
    pub id: Option<String>,
    /// What is wrong.
    pub code: ErrorCode,
    /// In English.
    pub message: String,
}

impl DecodeError {
    /// The `error` message that answers it.
    pub fn answer(self) -> ServerMsg {
        ServerMsg::Error {
            id: self.id,
            code: self.code,
            message: self.message,
        }
    }
}

/// Wraps a message with the version field: `{"v":2, "type": …, …}`.
pub fn encode(msg: &ServerMsg) -> String {
    versioned_json(msg)
}

/// Writes a client message with the version field.
pub fn encode_client(msg: &ClientMsg) -> String {
    versioned_json(msg)
}

/// A message as JSON with `"v"` added.
fn versioned_json<T: Serialize>(msg: &T) -> String {
    let mut value = serde_json::to_value(msg).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("v".into(), Value::from(VERSION));
    }
    value.to_string()
}

/// The longest `id` a client may give a message (it is echoed in the answer).
pub const MAX_ID_CHARS: usize = 64;

/// Checks the version of a decoded frame; the frame's `id` goes with any error.
fn versioned(value: &Value) -> Result<Option<String>, DecodeError> {
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    if id
        .as_ref()
        .is_some_and(|id| id.chars().count() > MAX_ID_CHARS)
    {
        return Err(DecodeError {
            id: None,
            code: ErrorCode::Malformed,
            message: format!("an id is at most {MAX_ID_CHARS} characters"),
        });
    }
    let wrong = |message: String| DecodeError {
        id: id.clone(),
        code: ErrorCode::Version,
        message,
    };
    match value.get("v").and_then(Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => Ok(id),
        Some(v) => Err(wrong(format!(
            "protocol version {v} is not spoken here; use \"v\":{VERSION}"
        ))),
        None => Err(wrong(format!("every message needs \"v\":{VERSION}"))),
    }
}

/// Reads a client message, checking the version first and then, for a `command`, the
/// command itself and the bounds of its text ([`crate::text`]), so that the error is precise.
pub fn decode(text: &str) -> Result<ClientMsg, DecodeError> {
    let value = object(text)?;
    let id = versioned(&value)?;
    let bad_command = |message: String| DecodeError {
        id: id.clone(),
        code: ErrorCode::BadCommand,
        message,
    };
    if value.get("type").and_then(Value::as_str) == Some("command")
        && let Some(command) = value.get("command")
    {
        let command = Command::deserialize(command)
            .map_err(|e| bad_command(format!("not a command of the arbiter: {e}")))?;
        crate::text::check(&command).map_err(|e| bad_command(e.to_string()))?;
    }
    serde_json::from_value(value).map_err(|e| DecodeError {
        id,
        code: ErrorCode::Malformed,
        message: format!("not a valid message: {e}"),
    })
}

/// A frame's JSON, which must be an object (a message): anything else is malformed before
/// its version is asked.
fn object(text: &str) -> Result<Value, DecodeError> {
    let malformed = |message: String| DecodeError {
        id: None,
        code: ErrorCode::Malformed,
        message,
    };
    let value: Value =
        serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}")))?;
    if !value.is_object() {
        return Err(malformed(
            "a message is a JSON object: {\"v\":2, \"type\": …}".into(),
        ));
    }
    Ok(value)
}

/// Reads a server message, checking the version.
pub fn decode_server(text: &str) -> Result<ServerMsg, DecodeError> {
    let value: Value = serde_json::from_str(text).map_err(|e| DecodeError {
        id: None,
        code: ErrorCode::Malformed,
        message: format!("not JSON: {e}"),
    })?;
    let id = versioned(&value)?;
    serde_json::from_value(value).map_err(|e| DecodeError {
        id,
        code: ErrorCode::Malformed,
        message: format!("not a valid message: {e}"),
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

/// Whether a command is one only the server gives (the pause after a restart): a seat that
/// sends it is refused.
pub fn server_only(command: &Command) -> bool {
    matches!(
        command,
        Command::Pause {
            reason: baoqi_arbiter::PauseReason::ServerRestart
        }
    )
}
