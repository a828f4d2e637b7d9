//! [`Rejection`]: why a command changed nothing, in words a referee can read.

use serde::{Deserialize, Serialize};

use crate::command::Seat;

/// Why [`crate::Match::apply`] refused a command. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Rejection {
    /// The game has not started (95(3)).
    #[error("the game has not started")]
    NotStarted,
    /// The game is over.
    #[error("the game is over: {result}")]
    GameOver {
        /// The result in words.
        result: String,
    },
    /// The game is paused (103); only the sealed move and referee actions are possible.
    #[error("the game is paused (103)")]
    Paused,
    /// This seat may not send this command.
    #[error("{seat:?} may not {what}")]
    NotAllowed {
        /// Who asked.
        seat: Seat,
        /// What it may not do, and the article.
        what: String,
    },
    /// The proxy seat is not named in the configuration.
    #[error("{seat:?} is not a named proxy")]
    NoProxy {
        /// The seat.
        seat: Seat,
    },
    /// Not this side's turn.
    #[error("it is not {side}'s turn")]
    NotYourTurn {
        /// The side (紅 / 黑).
        side: String,
    },
    /// The text is not valid input (a move, a point, a FEN placement).
    #[error("bad input {text:?}: {why}")]
    BadInput {
        /// The text.
        text: String,
        /// Why.
        why: String,
    },
    /// A word after the announcement is complete and binding (每一字不得反悔, 後兩字落子無悔).
    #[error("the announcement {words} is complete and binding (6.3(6)(a), 7.4(2)(f)(i))")]
    AnnouncementBound {
        /// The binding words.
        words: String,
    },
    /// A new attempt names another piece than the one the first two words touched.
    #[error("{touched} was touched by the first two words and must be named (頭兩字摸子走子)")]
    TouchedPiece {
        /// The touched piece and its point.
        touched: String,
    },
    /// The announcement must wait for something (the move first, 7.4(2)(c)-(d); the
    /// referee first, 6.3(7)).
    #[error("out of order: {why}")]
    OutOfOrder {
        /// What must come first.
        why: String,
    },
    /// No repeat is due from this side.
    #[error("nothing to repeat")]
    NothingToRepeat,
    /// This board is not at the table.
    #[error("board {board:?} is not at this table")]
    NoSuchBoard {
        /// The board.
        board: String,
    },
    /// A board step that cannot be done (no piece to lift, nothing in hand).
    #[error("board step refused: {why}")]
    BoardStep {
        /// Why.
        why: String,
    },
    /// No draw offer to answer.
    #[error("there is no draw offer to answer")]
    NoOffer,
    /// Cards are not used at this table, or the card is not in the seat's hand.
    #[error("card refused: {why}")]
    Card {
        /// Why.
        why: String,
    },
    /// No check is pending for the referee to confirm or override.
    #[error("no check is pending")]
    NoPendingCheck,
    /// The move given is not legal.
    #[error("{mv} is not legal: {why}")]
    IllegalMove {
        /// The move.
        mv: String,
        /// Why.
        why: String,
    },
    /// 官和 was not agreed before the game (64(2)).
    #[error("官和 needs both players' agreement before the game (64(2))")]
    OfficialDrawNotAgreed,
    /// Nothing to take back.
    #[error("no {kind} to rescind")]
    NothingToRescind {
        /// The record.
        kind: String,
    },
    /// The command does not fit the current state.
    #[error("{0}")]
    Invalid(String),
}
