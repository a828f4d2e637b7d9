//! The client's side of the WebSocket protocol, version 1 (`docs/protocol.md`): the messages
//! a seat client reads, with the arbiter's events and snapshot decoded, and the messages it
//! writes. Unknown message types (a newer server) are read as [`FromServer::Other`] and
//! ignored, never an error.

use baoqi_arbiter::{Command, Event, View};
use serde_json::{Value, json};

/// The protocol version spoken.
pub const VERSION: u64 = 1;

/// A message from the server, as the seat client needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum FromServer {
    /// The token was accepted.
    Welcome {
        /// `red`, `black`, `red_proxy` or `black_proxy`.
        role: String,
        /// The seat holder's name.
        name: String,
        /// The tables followed (a seat follows one).
        tables: Vec<i64>,
    },
    /// The whole state of the table, up to event `seq`.
    State {
        /// The table.
        table: i64,
        /// The last event reflected.
        seq: u64,
        /// The instant on the game timeline (ms).
        at: u64,
        /// The arbiter's snapshot (boxed: it is large).
        view: Box<View>,
    },
    /// One event of the table.
    Event {
        /// Its number.
        seq: u64,
        /// The instant on the game timeline (ms).
        at: u64,
        /// The arbiter's event (boxed: it is large).
        event: Box<Event>,
    },
    /// A command was accepted.
    Ack {
        /// The command's id.
        id: Option<String>,
    },
    /// The arbiter refused a command.
    Rejected {
        /// The command's id.
        id: Option<String>,
        /// The rejection's code (`not_your_turn`, …).
        code: String,
        /// Its sentence.
        message: String,
    },
    /// The server refused a message.
    Error {
        /// The message's id.
        id: Option<String>,
        /// The code (`bad_token`, `forbidden`, …).
        code: String,
        /// Its sentence.
        message: String,
    },
    /// The answer to a ping.
    Pong {
        /// The server's instant on the game timeline.
        at: u64,
    },
    /// A message this client does not use.
    Other(String),
}

/// Why a server message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// Not JSON, or a known message with a wrong shape.
    #[error("unreadable server message: {0}")]
    Json(#[from] serde_json::Error),
    /// Not the version this client speaks.
    #[error("server speaks protocol version {0:?}, this client {VERSION}")]
    Version(Option<u64>),
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn id(v: &Value) -> Option<String> {
    v.get("id").and_then(Value::as_str).map(str::to_owned)
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or_default()
}

/// Reads one text frame from the server.
pub fn decode(frame: &str) -> Result<FromServer, WireError> {
    let v: Value = serde_json::from_str(frame)?;
    match v.get("v").and_then(Value::as_u64) {
        Some(VERSION) => {}
        other => return Err(WireError::Version(other)),
    }
    Ok(
        match v.get("type").and_then(Value::as_str).unwrap_or_default() {
            "welcome" => FromServer::Welcome {
                role: text(&v, "role"),
                name: text(&v, "name"),
                tables: v
                    .get("tables")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default(),
            },
            "state" => FromServer::State {
                table: v.get("table").and_then(Value::as_i64).unwrap_or_default(),
                seq: num(&v, "seq"),
                at: num(&v, "at"),
                view: Box::new(serde_json::from_value(
                    v.get("snapshot").cloned().unwrap_or_default(),
                )?),
            },
            "event" => FromServer::Event {
                seq: num(&v, "seq"),
                at: num(&v, "at"),
                event: Box::new(serde_json::from_value(
                    v.get("event").cloned().unwrap_or_default(),
                )?),
            },
            "ack" => FromServer::Ack { id: id(&v) },
            "rejected" => {
                let r = v.get("rejection").cloned().unwrap_or_default();
                FromServer::Rejected {
                    id: id(&v),
                    code: text(&r, "code"),
                    message: text(&r, "message"),
                }
            }
            "error" => FromServer::Error {
                id: id(&v),
                code: text(&v, "code"),
                message: text(&v, "message"),
            },
            "pong" => FromServer::Pong { at: num(&v, "at") },
            other => FromServer::Other(other.to_owned()),
        },
    )
}

/// A message to the server.
#[derive(Clone, Debug, PartialEq)]
pub enum ToServer {
    /// Authenticates; `since` asks for the events missed after it.
    Hello {
        /// The seat's secret.
        token: String,
        /// The last event seen.
        since: Option<u64>,
    },
    /// A game command with an id (echoed in the answer).
    Command {
        /// The id.
        id: String,
        /// The arbiter command.
        command: Command,
    },
    /// What this seat's game recorder is doing (建議每局對賽設錄音設備, 附表七 6.1(4)).
    Recording(RecorderReport),
    /// Liveness check.
    Ping,
}

/// What the seat's game recorder is doing, as the client reports it to the server (the
/// referee's monitor shows each side's recorder, and a recording missing after the game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecorderReport {
    /// Recording; whether the table's microphone is recorded too.
    On {
        /// The microphone is part of the recording.
        microphone: bool,
    },
    /// Stopped, the recording uploaded.
    Off,
    /// Recording or its upload failed.
    Failed {
        /// Why, in words.
        reason: String,
    },
}

impl ToServer {
    /// The JSON text frame.
    pub fn encode(&self) -> String {
        match self {
            ToServer::Hello { token, since } => {
                let mut v = json!({"v": VERSION, "type": "hello", "token": token});
                if let Some(s) = since {
                    v["since"] = json!(s);
                }
                v.to_string()
            }
            ToServer::Command { id, command } => {
                json!({"v": VERSION, "type": "command", "id": id, "command": command}).to_string()
            }
            ToServer::Recording(RecorderReport::On { microphone }) => {
                json!({"v": VERSION, "type": "recording", "state": "on", "microphone": microphone})
                    .to_string()
            }
            ToServer::Recording(RecorderReport::Off) => {
                json!({"v": VERSION, "type": "recording", "state": "off"}).to_string()
            }
            ToServer::Recording(RecorderReport::Failed { reason }) => {
                json!({"v": VERSION, "type": "recording", "state": "failed", "reason": reason})
                    .to_string()
            }
            ToServer::Ping => json!({"v": VERSION, "type": "ping"}).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_carry_the_version_and_the_arbiter_form() {
        let c = ToServer::Command {
            id: "k1".into(),
            command: Command::Word { text: "炮".into() },
        };
        let v: Value = serde_json::from_str(&c.encode()).unwrap();
        assert_eq!(
            v,
            json!({"v": 1, "type": "command", "id": "k1",
                   "command": {"type": "word", "text": "炮"}})
        );
        let h = ToServer::Hello {
            token: "ab".into(),
            since: Some(41),
        };
        assert!(h.encode().contains("\"since\":41"));
    }

    #[test]
    fn recorder_reports_are_the_protocols_recording_messages() {
        let on = ToServer::Recording(RecorderReport::On { microphone: true });
        assert_eq!(
            serde_json::from_str::<Value>(&on.encode()).unwrap(),
            json!({"v": 1, "type": "recording", "state": "on", "microphone": true})
        );
        let failed = ToServer::Recording(RecorderReport::Failed {
            reason: "disk full".into(),
        });
        assert_eq!(
            serde_json::from_str::<Value>(&failed.encode()).unwrap(),
            json!({"v": 1, "type": "recording", "state": "failed", "reason": "disk full"})
        );
        let off = ToServer::Recording(RecorderReport::Off).encode();
        assert_eq!(
            serde_json::from_str::<Value>(&off).unwrap(),
            json!({"v": 1, "type": "recording", "state": "off"})
        );
    }

    #[test]
    fn server_messages_are_read_and_unknown_ones_kept_apart() {
        let m =
            decode(r#"{"v":1,"type":"welcome","role":"red","name":"李明","event":1,"tables":[1]}"#)
                .unwrap();
        assert_eq!(
            m,
            FromServer::Welcome {
                role: "red".into(),
                name: "李明".into(),
                tables: vec![1]
            }
        );
        let r = decode(r#"{"v":1,"type":"rejected","id":"c1","table":1,"rejection":{"code":"not_your_turn","message":"no"}}"#).unwrap();
        assert!(matches!(r, FromServer::Rejected { code, .. } if code == "not_your_turn"));
        assert_eq!(
            decode(r#"{"v":1,"type":"recording_status"}"#).unwrap(),
            FromServer::Other("recording_status".into())
        );
        assert!(matches!(
            decode(r#"{"v":2,"type":"pong"}"#),
            Err(WireError::Version(Some(2)))
        ));
        assert!(decode("{").is_err());
    }
}
