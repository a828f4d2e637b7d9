//! Pure Xiangqi rules for baoqi (報棋), following the 通用象棋規則 第2篇.
//!
//! - Vocabulary: [`Color`], [`Kind`], [`Piece`], [`Point`], [`Move`] (ICCS text form).
//! - [`Setup`] may be illegal and reads/writes FEN; [`Position`] is always legal.
//! - Legal moves per 第5章 including 第30條 ([`Position::legal_moves`]), check, attack ranges.
//! - Game end per 第11章 ([`Position::ending`], [`NaturalLimit`]) and [`perft`].
//!
//! No I/O, no clock, no allocation on the move-generation hot path.

mod end;
mod movegen;
mod perft;
mod position;
mod repetition;
mod serde_text;
mod setup;
mod tables;
mod types;

pub use end::{EndReason, Ending, NATURAL_LIMIT_CHECKS, NATURAL_LIMIT_PLIES, NaturalLimit};
pub use movegen::MoveList;
pub use perft::{divide, perft};
pub use position::{IllegalMove, Position, PositionError, Undo};
pub use repetition::*; // Game, Review, Warning, Ruling, …: see repetition/mod.rs
pub use serde_text::ParsePieceError;
pub use setup::{ParseFenError, START_FEN, Setup};
pub use types::{Color, Kind, Move, ParseIccsError, Piece, Point};

/// Why a FEN cannot be turned into a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error("bad FEN: {0}")]
    Parse(#[from] ParseFenError),
    /// The FEN describes an illegal position.
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
}

impl Position {
    /// Reads a FEN and checks that it is a legal position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(&fen.parse::<Setup>()?)?)
    }
}
