//! Game records: reading PGN (Chinese, ICCS or WXF moves; Big5, GBK or UTF-8), replaying it,
//! and writing PGN and a plain scoresheet.

mod read;
mod replay;
mod write;

pub use read::{Game, PgnError, decode, read_game, read_games};
pub use replay::{ReplayError, ReplayFailure, Replayed, replay, replay_bytes};
pub use write::{Row, format_tag, numbered, write_pgn, write_pgn_commented, write_scoresheet};
