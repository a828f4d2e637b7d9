//! The protocol of baoqi (報棋): one definition of the wire, used by the server, the keypad
//! and board clients, the load bot and (through the generated constants) the web pages.
//!
//! - [`ClientMsg`] / [`ServerMsg`]: the versioned envelope ([`VERSION`]); commands, events
//!   and snapshots are the arbiter's own types, typed end to end.
//! - [`Role`] and [`Audience`]: who is at the table and who sees an event.
//! - [`StandingAnswer`]: a player's place in the event's standings, asked from his seat.
//! - [`samples`]: one sample of every variant, [`js`]: the pages' constants.
//! - [`text`]: the bounds of a command's free text (words, notes), checked by [`decode`].
//!
//! Pure: no I/O, no clock.

mod envelope;
pub mod js;
mod recording;
pub mod samples;
mod seat;
mod standing;
pub mod text;
pub mod variants;

/// A standing's round, numbered as the tournament numbers its rounds.
pub use baoqi_tournament::RoundNumber;
pub use envelope::{
    ClientMsg, DecodeError, ErrorCode, GameResult, MAX_FRAME, MAX_ID_CHARS, RecordedResult,
    ServerMsg, VERSION, decode, decode_server, encode, encode_client, error, server_only,
};
pub use recording::{RecorderState, SeatStatus, TableRecording};
pub use seat::{Audience, EventId, Role, TableId};
pub use standing::{Place, StandingAnswer};
