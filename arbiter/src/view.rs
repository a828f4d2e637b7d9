//! [`View`]: the whole visible state of a match, for a reconnecting client or the referee
//! monitor. Built by [`crate::Match::snapshot`]; serialisable.

use serde::{Deserialize, Serialize};

use crate::command::{Card, Millis, Side};
use crate::config::BoardId;
use crate::event::{ClockView, MoveView, Outcome, Speaker};

/// The phase of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Created; the clocks have not started.
    #[default]
    NotStarted,
    /// Being played.
    Playing,
    /// Paused (103): the side to move seals a move, then the clock stops.
    Paused,
    /// Over.
    Over,
}

/// One word in the announcement log (nothing is ever deleted, SPEC §5).
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
    /// The text.
    pub text: String,
    /// Whether the prefix was still possible after it.
    pub possible: bool,
    /// Whether it was a repeat word.
    pub repeat: bool,
}

/// One board's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// Which board.
    pub board: BoardId,
    /// FEN placement.
    pub placement: String,
    /// Pieces in hand with the point they came from (`C@h2`).
    pub hand: Vec<String>,
    /// Whether it differs from the game (an open divergence).
    pub diverging: bool,
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

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The outcome.
    pub outcome: Outcome,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0`.
    pub result: String,
    /// Why.
    pub reason: String,
    /// The article.
    pub article: String,
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

/// What the side to move still owes before the turn can end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Check (a): the board must be corrected to this move (ICCS).
    pub correction: Option<String>,
    /// Check (b): the move stands and must be announced again (ICCS).
    pub reannounce: Option<String>,
    /// Check (c) or 125: the board must be restored (the move taken back, ICCS).
    pub restore: Option<String>,
    /// Words the side must repeat (mirroring or after the referee).
    pub repeat: Option<String>,
    /// Whether that repeat mirrors the opponent's move (7.4(2)(g)(ii)), which a card UI may
    /// confirm; else it repeats the referee's announcement of the side's own move (6.3(7)).
    #[serde(default)]
    pub repeat_mirror: bool,
    /// The move must be announced by the referee or proxy (7.4(2)(c)-(d)).
    pub announce_for: bool,
}

/// The whole visible state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The phase.
    pub phase: Phase,
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
    pub attempt: Vec<String>,
    /// The touched piece (point, piece) of the current turn.
    pub touched: Option<(String, String)>,
    /// The complete, binding announcement of this turn.
    pub announced: Option<String>,
    /// What the side to move still owes.
    pub pending: Pending,
    /// Every word of every announcement.
    pub log: Vec<LoggedWord>,
    /// The boards.
    pub boards: Vec<BoardView>,
    /// Red's and black's tallies.
    pub tallies: [TallyView; 2],
    /// The limits the tallies count towards (127(2); 0 = none).
    pub limits: crate::config::Limits,
    /// The event kind.
    pub kind: crate::config::EventKind,
    /// The players' names, red then black.
    pub names: [String; 2],
    /// The standing or pending draw offer: the side and whether it stands.
    pub offer: Option<(Side, bool)>,
    /// Who holds each card: `(owner, card, holder)`.
    pub cards: Vec<(Side, Card, Side)>,
    /// Repetition warnings given (article, words).
    pub warnings: Vec<(String, String)>,
    /// The result, when over.
    pub result: Option<ResultView>,
    /// The oral verification, when recorded.
    pub verified: Option<String>,
    /// What the referee must attend to now ([`crate::Match::open_calls`]).
    #[serde(default)]
    pub calls: Vec<crate::calls::OpenCall>,
}
