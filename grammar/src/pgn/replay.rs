//! Replaying a game record move by move: every move text is parsed and resolved in the
//! position it was played in (lenient reading, as real records are written), then played.

use baoqi_rules::{FenError, Move, Position};

use super::read::{Game, PgnError, decode, read_game};
use crate::resolve::{Mode, NotationError, parse_move};

/// A game that replayed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The position after the last move.
    pub end: Position,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record holds no game.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// The start position (`[FEN]`) is not a legal position.
    #[error("bad [FEN] start position: {0}")]
    Fen(#[from] FenError),
    /// A move text gives no legal move in its position.
    #[error("move {number}{dots} {text}: {error}")]
    Move {
        /// The move number as a scoresheet counts it.
        number: u32,
        /// `.` for red, `...` for black.
        dots: &'static str,
        /// The move text as written.
        text: String,
        /// Why it could not be played.
        error: NotationError,
    },
}

/// Where and why a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {reason}")]
pub struct ReplayFailure {
    /// The 0-based index of the first move that could not be played (0 for a bad start).
    pub ply: usize,
    /// Why.
    pub reason: ReplayError,
}

/// Replays the main line of a game.
pub fn replay(game: &Game, mode: Mode) -> Result<Replayed, ReplayFailure> {
    let start = Position::from_fen(game.fen()).map_err(|e| ReplayFailure {
        ply: 0,
        reason: e.into(),
    })?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    for (ply, text) in game.moves.iter().enumerate() {
        let mv = parse_move(&pos, text, mode).map_err(|error| ReplayFailure {
            ply,
            reason: ReplayError::Move {
                number: pos.fullmoves(),
                dots: if pos.turn() == baoqi_rules::Color::Red {
                    "."
                } else {
                    "..."
                },
                text: text.clone(),
                error,
            },
        })?;
        pos.make(mv);
        moves.push(mv);
    }
    Ok(Replayed {
        start,
        moves,
        end: pos,
    })
}

/// Decodes, reads and replays a record file's bytes (first game, lenient reading).
pub fn replay_bytes(bytes: &[u8]) -> Result<Replayed, ReplayFailure> {
    let (text, _) = decode(bytes);
    let game = read_game(&text).map_err(|e| ReplayFailure {
        ply: 0,
        reason: e.into(),
    })?;
    replay(&game, Mode::Lenient)
}
