//! [`Rejection`]: why a command changed nothing, typed, so that every client can say it in
//! its reader's language; `Display` is an English sentence for logs and the command line.

use baoqi_grammar::Word;
use baoqi_rules::{Kind, Move, Point};
use serde::{Deserialize, Serialize};

use crate::command::{Card, Seat, Side, ViolationKind};
use crate::config::BoardId;
use crate::physical_board::{BoardError, PlacementError};
use crate::reasons::Illegality;

/// What a seat asked to do that its role does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Start the clocks: the side not to move presses (95(3)).
    StartClocks,
    /// Announce as a proxy: a proxy announces only for a player who cannot (7.4(2)(d)(ii)).
    AnnounceAsProxy,
    /// Announce for a deaf player: the referee or the proxy does, after the signal (7.4(2)(d)).
    AnnounceForDeaf,
    /// Repeat: the players repeat (6.3(7), 7.4(2)(g)(ii)).
    Repeat,
    /// Confirm a repeat: the referee's words are repeated aloud (6.3(7)).
    ConfirmRepeat,
    /// Operate the other side's board (7.4(2)(g)(i)).
    OperateOtherBoard,
    /// Act as the referee.
    Referee,
    /// Offer, accept or decline a draw, or resign: only the player himself (69).
    Offer,
}

/// What must come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wait {
    /// The referee announces, then the player repeats (6.3(7), 7.4(2)(c)).
    RefereeFirst,
    /// The announcement is binding: the board must be corrected (6.4(a)).
    CorrectBoard,
    /// The player moves first, then the move is announced (7.4(2)(c)-(d)).
    MoveFirst,
    /// A draw is offered in one's own turn (69(2)(b)).
    OwnTurn,
    /// The offer is valid only once the offering turn ends (69(2)(b)).
    OfferNotValidYet,
}

/// Why a card action is refused (7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum CardProblem {
    /// No deaf player at this table: cards are not used.
    NotUsed,
    /// The card is not in the seat's hand.
    NotInHand {
        /// Which card.
        card: Card,
    },
    /// The offer was not made with a card, so there is none to return.
    NotByCard,
}

/// Why [`crate::Match::apply`] refused a command. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Rejection {
    /// The game has not started (95(3)).
    #[error("the game has not started")]
    NotStarted,
    /// The game has already started.
    #[error("the game has already started")]
    AlreadyStarted,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The game is paused; only the sealed move and referee actions are possible.
    #[error("the game is paused")]
    Paused,
    /// The game is not paused.
    #[error("the game is not paused")]
    NotPaused,
    /// The game is not over.
    #[error("the game is not over")]
    NotOver,
    /// This seat may not do this.
    #[error("{seat:?} may not {act:?}")]
    NotAllowed {
        /// Who asked.
        seat: Seat,
        /// What it may not do.
        act: Act,
    },
    /// The proxy seat is not named in the configuration.
    #[error("{seat:?} is not a named proxy")]
    NoProxy {
        /// The seat.
        seat: Seat,
    },
    /// Not this seat's turn.
    #[error("it is not {}'s turn", side.map_or("the referee", |s| if s == Side::Red { "red" } else { "black" }))]
    NotYourTurn {
        /// The seat's side (`None`: the referee).
        side: Option<Side>,
    },
    /// The placement given is not a board.
    #[error("bad placement {text:?}: {why}")]
    BadPlacement {
        /// The text.
        text: String,
        /// Why.
        why: PlacementError,
    },
    /// A word after the announcement is complete and binding (每一字不得反悔, 後兩字落子無悔).
    #[error("the announcement is complete and binding (6.3(6)(a), 7.4(2)(f)(i))")]
    AnnouncementBound {
        /// The binding words.
        words: [Word; 4],
    },
    /// A new attempt names another piece than the one the first two words touched.
    #[error(
        "the {kind:?} on {point} was touched by the first two words and must be named (頭兩字摸子走子)"
    )]
    TouchedPiece {
        /// Where the touched piece stands.
        point: Point,
        /// Its kind.
        kind: Kind,
    },
    /// Something else must come first.
    #[error("out of order: {wait:?}")]
    OutOfOrder {
        /// What must come first.
        wait: Wait,
    },
    /// No repeat is due from this side.
    #[error("nothing to repeat")]
    NothingToRepeat,
    /// This board is not at the table (or none was named where several are).
    #[error("board {board:?} is not at this table")]
    NoSuchBoard {
        /// The board named, if any.
        board: Option<BoardId>,
    },
    /// A board step that cannot be done.
    #[error("board step refused: {why}")]
    BoardStep {
        /// Why.
        why: BoardError,
    },
    /// No draw offer to answer.
    #[error("there is no draw offer to answer")]
    NoOffer,
    /// A draw offer is already pending.
    #[error("a draw offer is already pending")]
    OfferPending,
    /// A card action that cannot be done.
    #[error("card refused: {why:?}")]
    Card {
        /// Why.
        why: CardProblem,
    },
    /// No check is pending for the referee to confirm.
    #[error("no check is pending")]
    NoPendingCheck,
    /// The move already stands (check (b)): it must be announced again, not overridden.
    #[error("the move already stands; it must be announced again (6.4(b))")]
    MoveStands,
    /// The move given is not legal.
    #[error("{mv} is not legal: {why:?}")]
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why.
        why: Illegality,
    },
    /// 官和 was not agreed before the game (64(2)).
    #[error("官和 needs both players' agreement before the game (64(2))")]
    OfficialDrawNotAgreed,
    /// Nothing to take back.
    #[error("no {kind:?} to rescind")]
    NothingToRescind {
        /// The record.
        kind: ViolationKind,
    },
    /// Moves are not announced in this game (7.4(2)(a), 7.4(3)(a)).
    #[error("moves are not announced in this game (7.4(2)(a), 7.4(3)(a))")]
    NotAnnouncing,
    /// No board and no announcement: nothing to press for.
    #[error("no board and no announcement: nothing to press for")]
    NothingToPress,
    /// The move is already sealed.
    #[error("the move is already sealed")]
    AlreadySealed,
    /// Not a command of the referee.
    #[error("not a referee command")]
    NotARefereeCommand,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_is_typed_json_tagged_by_its_reason() {
        let r = Rejection::Card {
            why: CardProblem::NotInHand { card: Card::Draw },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"reason":"card","why":{"problem":"not_in_hand","card":"draw"}}"#
        );
        assert_eq!(serde_json::from_str::<Rejection>(&json).unwrap(), r);
    }
}
