//! [`View`]: the whole visible state of a match, for a reconnecting client or the referee
//! monitor. Built by [`crate::Match::snapshot`]; serialisable; typed like the events.

use baoqi_grammar::Word;
use baoqi_rules::{Kind, Move, Piece, Point, WarningKind};
use serde::{Deserialize, Serialize};

use crate::article::Article;
use crate::command::{Card, Millis, Side};
use crate::config::BoardId;
use crate::event::{ClockView, MoveView, Outcome, Speaker};
use crate::reasons::{EndCause, PauseReason};

/// The phase of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Created; the clocks have not started.
    #[default]
    NotStarted,
    /// Being played.
    Playing,
    /// Paused: an adjournment (103), or a server restart (both clocks stand).
    Paused,
    /// Over.
    Over,
}

/// One word in the announcement log (nothing is ever deleted, 附表七 6.3, 7.4(2)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedWord {
    /// The ply the word belongs to (the move being announced, 1 for the first).
    pub ply: usize,
    /// Whose announcement.
    pub side: Side,
    /// Who spoke.
    pub by: Speaker,
    /// When.
    pub at: Millis,
    /// The text as given.
    pub text: String,
    /// The word it is, if any.
    pub word: Option<Word>,
    /// Whether the prefix was still possible after it.
    pub possible: bool,
    /// Whether it was a repeat word.
    pub repeat: bool,
}

/// A piece lifted from a board and not yet placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InHand {
    /// The piece.
    pub piece: Piece,
    /// Where it was lifted from.
    pub from: Point,
}

/// One board's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// Which board.
    pub board: BoardId,
    /// FEN placement.
    pub placement: String,
    /// Pieces in hand.
    pub hand: Vec<InHand>,
    /// Whether it differs from the game (an open divergence).
    pub diverging: bool,
    /// The points where it differs from the game.
    pub differs: Vec<Point>,
}

/// A side's tallies (126) and limits (127).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyView {
    /// 技術犯規.
    pub technical: u32,
    /// 違反記錄規則.
    pub recording: u32,
    /// 違反按棋鐘規則.
    pub clock: u32,
}

/// Red's and black's tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tallies {
    /// 紅方.
    pub red: TallyView,
    /// 黑方.
    pub black: TallyView,
}

impl Tallies {
    /// Whether no side has any violation recorded.
    pub fn is_clear(&self) -> bool {
        *self == Tallies::default()
    }
}

/// The players' names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// 紅方.
    pub red: String,
    /// 黑方.
    pub black: String,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The outcome.
    pub outcome: Outcome,
    /// Why.
    #[serde(flatten)]
    pub cause: EndCause,
    /// The articles.
    pub articles: Vec<Article>,
    /// When.
    pub at: Millis,
}

/// One scoresheet row: a move with its marks and the clock after it (附表四 3(8)-(12)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetMove {
    /// The ply.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move.
    pub mv: MoveView,
    /// A draw offered in this turn (＝).
    pub draw_offer: bool,
    /// The mover's clock after the move, ms.
    pub clock_ms: u64,
}

/// A repeat owed by the side to act.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepeatOwed {
    /// The words to repeat.
    pub words: [Word; 4],
    /// Whose move they are.
    pub mover: Side,
    /// Whether the repeat mirrors the opponent's move (7.4(2)(g)(ii)), which a card UI may
    /// confirm; else it repeats the referee's announcement of the side's own move (6.3(7)).
    pub mirror: bool,
}

/// What the side to move still owes before the turn can end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Check (a): the board must be corrected to this move.
    pub correction: Option<Move>,
    /// Check (b): this move stands and must be announced again, with these words.
    pub reannounce: Option<(Move, [Word; 4])>,
    /// Check (c) or 125: the board must be restored (this move taken back).
    pub restore: Option<Move>,
    /// Words the side must repeat (mirroring or after the referee).
    pub repeat: Option<RepeatOwed>,
    /// The move must be announced by the referee or proxy (7.4(2)(c)-(d)).
    pub announce_for: bool,
}

/// The touched piece of the turn (頭兩字摸子走子, 31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Touch {
    /// Where it stands.
    pub point: Point,
    /// Its kind.
    pub kind: Kind,
}

/// The standing or pending draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferView {
    /// The offering side.
    pub side: Side,
    /// Whether it stands (the offering turn ended, 69(2)(b)).
    pub stands: bool,
    /// Made with the draw card (7.1(2)).
    pub card: bool,
}

/// Who holds a card (7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// Whose card.
    pub owner: Side,
    /// Which card.
    pub card: Card,
    /// In whose hand it is.
    pub holder: Side,
}

/// A repetition warning of 第61條 (or 62) given by the rules crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenWarning {
    /// The ply of the 警誡盤面.
    pub ply: usize,
    /// Which warning.
    pub warning: WarningKind,
}

/// The whole visible state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The phase.
    pub phase: Phase,
    /// Why the game is paused, when it is.
    pub paused: Option<PauseReason>,
    /// The start position (FEN).
    pub start_fen: String,
    /// The current position (FEN).
    pub fen: String,
    /// The side to move.
    pub to_move: Side,
    /// The clock.
    pub clock: ClockView,
    /// The moves so far.
    pub moves: Vec<SheetMove>,
    /// The words of the current attempt.
    pub attempt: Vec<Word>,
    /// The touched piece of the current turn.
    pub touched: Option<Touch>,
    /// The complete, binding announcement of this turn.
    pub announced: Option<[Word; 4]>,
    /// What the side to move still owes.
    pub pending: Pending,
    /// Every word of every announcement.
    pub log: Vec<LoggedWord>,
    /// The boards.
    pub boards: Vec<BoardView>,
    /// The tallies.
    pub tallies: Tallies,
    /// The limits the tallies count towards (127(2); 0 = none).
    pub limits: crate::config::Limits,
    /// The event kind.
    pub kind: crate::config::EventKind,
    /// The players' names.
    pub names: Names,
    /// The standing or pending draw offer.
    pub offer: Option<OfferView>,
    /// The sides for whom a draw offer now would be 連續提和 (69(2)(c)(ii)): a foul, not an
    /// offer. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw_barred: Vec<Side>,
    /// Who holds each card (empty when cards are not used).
    pub cards: Vec<CardView>,
    /// Repetition warnings given by the rules (61, 62).
    pub warnings: Vec<GivenWarning>,
    /// The result, when over.
    pub result: Option<ResultView>,
    /// The oral verification, when recorded.
    pub verified: Option<String>,
    /// What the referee must attend to now ([`crate::Match::open_calls`]).
    pub calls: Vec<crate::calls::OpenCall>,
    /// When the clocks were started (95(3)), once they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Millis>,
    /// How long after the start a player may still arrive (109(2),
    /// [`crate::MatchConfig::latest_arrival`]).
    #[serde(default)]
    pub latest_arrival: Millis,
}
