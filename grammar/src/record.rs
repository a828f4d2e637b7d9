//! What the game-record formats share: the header a record carries besides the
//! moves, the result as they can say it, and the order of the pieces they list.

use baoqi_rules::{Color, Kind, Move, Piece, Position};

/// The most moves a record may hold when read (a game of 第11章 ends long before): any
/// format's reader stops there rather than grow without bound.
pub const MAX_PLIES: usize = 2_000;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordResult {
    /// Not known, or the game goes on (or both lost: no format says it).
    #[default]
    Unknown,
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

/// What a record says of the game besides the position and the moves (the default: all
/// empty, the result unknown, no comments).
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordHeader<'a> {
    /// The title.
    pub title: &'a str,
    /// The event.
    pub event: &'a str,
    /// The round, as text (empty when none).
    pub round: &'a str,
    /// The table or board, as text (empty when none).
    pub table: &'a str,
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
    /// A comment after each move (the clock, a draw offered), by ply from 0; empty for none,
    /// and none for the moves past its end.
    pub comments: &'a [String],
}

impl RecordHeader<'_> {
    /// The comment after move `ply` (0 = the first), empty when none.
    #[must_use]
    pub fn comment(&self, ply: usize) -> &str {
        self.comments.get(ply).map_or("", String::as_str)
    }
}

/// A game read from a record: its start, main line, result and players.
#[derive(Clone, Debug)]
pub struct RecordGame {
    /// The start position.
    pub start: Position,
    /// The main line, every move checked legal where it is played.
    pub moves: Vec<Move>,
    /// The result, when the record says it.
    pub result: RecordResult,
    /// Red's and black's names, as written.
    pub players: [String; 2],
}

impl RecordGame {
    /// The position after the main line.
    #[must_use]
    pub fn end(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.make(*m);
        }
        pos
    }
}

/// The first move of a line that is not legal where it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalAt {
    /// The ply (1 = the first move).
    pub ply: usize,
    /// The move.
    pub mv: Move,
}

/// `moves` played from `start`, each checked legal; at most [`MAX_PLIES`] are taken by the
/// readers before they call this.
pub(crate) fn play(
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> Result<Vec<Move>, IllegalAt> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    for (i, mv) in moves.into_iter().enumerate() {
        if pos.check_move(mv).is_err() {
            return Err(IllegalAt { ply: i + 1, mv });
        }
        pos.make(mv);
        line.push(mv);
    }
    Ok(line)
}

/// A board of pieces by rank (0 = red's back rank) and file, as the binary and digit
/// formats give it.
pub(crate) type Rows = [[Option<Piece>; 9]; 10];

/// A FEN of `rows` with `turn` to move.
pub(crate) fn placement(rows: &Rows, turn: Color) -> String {
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for cell in rows[rank] {
            match cell {
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if turn == Color::Red { " w" } else { " b" });
    fen
}

/// A game of up to `n` pseudo-random legal moves from `start` (the format modules' tests).
#[cfg(test)]
pub(crate) fn random_game(start: &Position, n: usize, mut s: u64) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..n {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let m = legal[usize::try_from(s % legal.len() as u64).unwrap_or(0)];
        pos.make(m);
        moves.push(m);
    }
    moves
}
