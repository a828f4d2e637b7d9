//! What the game-record formats share (issue 33): the header a record carries besides the
//! moves, and the result as they can say it.

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
