//! The networked seat client shared by `baoqi keypad` and `baoqi board`.
//!
//! - [`machine`]: the session as a pure state machine: server messages, keys, sensed board
//!   events and time in; messages to send, what to say and what changed out.
//! - [`frontend`]: speech, earcons, spoken-text log, status line and recording.
//! - `keys`: what each keypad key does (words echoed and sent, commands, local queries).
//! - [`table`]: the table as the client keeps it from `state` and `event` messages.
//! - [`wire`]: the client's side of the WebSocket protocol (`docs/protocol.md`).
//! - [`net`]: the thin tokio loop around the session (WebSocket, reconnect with `since`).
//! - `sensing`: the attached tactile board as the session sees it.
//! - [`script`]: scripted keys and board lines with delays and waits (`--script`, `sim:`).
//! - [`status`]: the large-font status line for low-vision players.

pub mod frontend;
mod keys;
pub mod machine;
pub mod net;
pub mod script;
mod sensing;
pub mod status;
pub mod table;
pub mod tls;
pub mod wire;

pub use machine::{Input, Output, Session, SessionOptions};
pub use script::{Action, Condition, Runner, ScriptError, Step, parse_script};
pub use status::{StatusInfo, render as render_status};
pub use table::{RepeatOwed, TableState};
pub use wire::{ClientMsg, RecorderReport, ServerMsg, decode};
