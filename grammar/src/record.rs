//! What the game-record formats share (issue 33): the header a record carries besides the
//! moves, the result as they can say it, and the order of the pieces they list.

use baoqi_rules::Kind;

/// The 16 pieces of a side in the order XQF and `DhtmlXQ` list them (red's, then black's):
/// 車 馬 相 仕 帥 仕 相 馬 車 炮 炮 兵×5 (`docs/record-formats.md` §1.1, §3).
pub const PIECE_ORDER: [Kind; 16] = [
    Kind::Rook,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::General,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Horse,
    Kind::Rook,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];

/// A game's result as the record formats say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// Not known, or the game goes on (or both lost: no format says it).
    Unknown,
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

/// What a record says of the game besides the position and the moves.
#[derive(Clone, Copy, Debug)]
pub struct RecordHeader<'a> {
    /// The title.
    pub title: &'a str,
    /// The event.
    pub event: &'a str,
    /// The date, as text.
    pub date: &'a str,
    /// The place.
    pub site: &'a str,
    /// Red's player.
    pub red: &'a str,
    /// Black's player.
    pub black: &'a str,
    /// The result.
    pub result: RecordResult,
}
