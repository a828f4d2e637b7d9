//! A physical board as reported (sensor or operator): pieces on points and pieces in hand.
//! It may be in any state, legal or not; the board move is read off its difference from the
//! game position (附表七 6.4, 7.5, 7.4(2)(g)).

use baoqi_rules::{Move, Piece, Point, Position};
use serde::{Deserialize, Serialize};

use crate::view::InHand;

/// Why a board step cannot be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum BoardError {
    /// There is no piece on the point.
    #[error("no piece on {point}")]
    NoPiece {
        /// The point.
        point: Point,
    },
    /// Nothing is in hand to place.
    #[error("nothing in hand to place")]
    NothingInHand,
}

/// Why a text is not a FEN placement.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum PlacementError {
    /// Not ten ranks.
    #[error("{found} ranks; a placement has 10")]
    Ranks {
        /// How many.
        found: usize,
    },
    /// A letter that is no piece.
    #[error("bad piece letter {letter:?}")]
    Letter {
        /// The letter.
        letter: char,
    },
    /// A rank of more or fewer than nine files.
    #[error("rank {rank} has {files} files; a rank has 9")]
    Files {
        /// The rank (0..10 from red's side).
        rank: u8,
        /// How many files it has.
        files: u8,
    },
}

/// A board's pieces and the pieces lifted from it and not yet placed. JSON: its FEN
/// placement and the pieces in hand (any placement, legal or not, reads back the same).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "SavedBoard", try_from = "SavedBoard")]
pub(crate) struct Board {
    squares: [Option<Piece>; 90],
    /// Lifted pieces with the point they came from, in lifting order.
    hand: Vec<(Point, Piece)>,
}

/// [`Board`] as JSON.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedBoard {
    placement: String,
    hand: Vec<(Point, Piece)>,
}

impl From<Board> for SavedBoard {
    fn from(b: Board) -> SavedBoard {
        SavedBoard {
            placement: b.placement(),
            hand: b.hand,
        }
    }
}

impl TryFrom<SavedBoard> for Board {
    type Error = PlacementError;
    fn try_from(saved: SavedBoard) -> Result<Board, PlacementError> {
        let mut board = Board::parse(&saved.placement, &[])?;
        board.hand = saved.hand;
        Ok(board)
    }
}

/// What a board shows compared with a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Diff {
    /// The same placement, nothing in hand.
    Same,
    /// Exactly one piece of `color` moved from one point to another (capturing perhaps).
    Move(Move),
    /// A piece is in hand: a move is in progress.
    InHand,
    /// Anything else.
    Other,
}

impl Board {
    /// The placement of a position.
    pub(crate) fn of(pos: &Position) -> Board {
        let mut squares = [None; 90];
        for p in Point::all() {
            squares[p.index()] = pos.piece_at(p);
        }
        Board {
            squares,
            hand: Vec::new(),
        }
    }

    /// Reads a FEN placement (the board part; anything after a space is ignored) and the
    /// pieces in hand.
    pub(crate) fn parse(placement: &str, hand: &[InHand]) -> Result<Board, PlacementError> {
        let board_part = placement.split_whitespace().next().unwrap_or("");
        let rows: Vec<&str> = board_part.split('/').collect();
        if rows.len() != 10 {
            return Err(PlacementError::Ranks { found: rows.len() });
        }
        let mut squares = [None; 90];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file = file.saturating_add(n as u8);
                } else {
                    let piece =
                        Piece::from_fen_char(c).ok_or(PlacementError::Letter { letter: c })?;
                    let p = Point::new(file, rank).ok_or(PlacementError::Files {
                        rank,
                        files: file + 1,
                    })?;
                    squares[p.index()] = Some(piece);
                    file += 1;
                }
            }
            if file != 9 {
                return Err(PlacementError::Files { rank, files: file });
            }
        }
        Ok(Board {
            squares,
            hand: hand.iter().map(|h| (h.from, h.piece)).collect(),
        })
    }

    /// The FEN placement.
    pub(crate) fn placement(&self) -> String {
        let mut setup = baoqi_rules::Setup::empty();
        setup.board = self.squares;
        setup.placement()
    }

    /// The pieces in hand, in lifting order.
    pub(crate) fn hand(&self) -> Vec<InHand> {
        self.hand
            .iter()
            .map(|&(from, piece)| InHand { piece, from })
            .collect()
    }

    /// Lifts the piece on `p`.
    pub(crate) fn lift(&mut self, p: Point) -> Result<Piece, BoardError> {
        let piece = self.squares[p.index()]
            .take()
            .ok_or(BoardError::NoPiece { point: p })?;
        self.hand.push((p, piece));
        Ok(piece)
    }

    /// Places a lifted piece on `p`: the last one lifted from another point (a piece lifted
    /// from `p` itself is the captured one), else the last lifted. Whatever stood on `p` is
    /// captured; other pieces in hand (captured pieces) leave the board.
    pub(crate) fn place(&mut self, p: Point) -> Result<(), BoardError> {
        let i = self
            .hand
            .iter()
            .rposition(|(from, _)| *from != p)
            .or(self.hand.len().checked_sub(1))
            .ok_or(BoardError::NothingInHand)?;
        let (_, piece) = self.hand.remove(i);
        self.squares[p.index()] = Some(piece);
        self.hand.clear();
        Ok(())
    }

    /// Plays a move as a board does: whatever is on `from` goes to `to`.
    pub(crate) fn play(&mut self, mv: Move) -> Result<(), BoardError> {
        let piece = self.squares[mv.from.index()]
            .take()
            .ok_or(BoardError::NoPiece { point: mv.from })?;
        self.squares[mv.to.index()] = Some(piece);
        Ok(())
    }

    /// What stands on `p`.
    pub(crate) fn piece_at(&self, p: Point) -> Option<Piece> {
        self.squares[p.index()]
    }

    /// Takes back `last` (the move just played, which took `taken`): the piece goes back
    /// and the captured one with it.
    pub(crate) fn take_back(&mut self, last: Move, taken: Option<Piece>) -> Result<(), BoardError> {
        self.play(Move::new(last.to, last.from))?;
        self.squares[last.to.index()] = taken;
        Ok(())
    }

    /// The points where the board and the position differ.
    pub(crate) fn differences(&self, pos: &Position) -> Vec<Point> {
        Point::all()
            .filter(|&p| self.squares[p.index()] != pos.piece_at(p))
            .collect()
    }

    /// Compares with a position whose side to move is the mover.
    pub(crate) fn diff(&self, pos: &Position) -> Diff {
        if !self.hand.is_empty() {
            return Diff::InHand;
        }
        let d = self.differences(pos);
        match d.as_slice() {
            [] => Diff::Same,
            [a, b] => {
                let mover = pos.turn();
                for (from, to) in [(*a, *b), (*b, *a)] {
                    let moved = pos.piece_at(from);
                    if moved.is_some_and(|m| m.color == mover)
                        && self.squares[from.index()].is_none()
                        && self.squares[to.index()] == moved
                        && pos.piece_at(to).is_none_or(|c| c.color != mover)
                    {
                        return Diff::Move(Move::new(from, to));
                    }
                }
                Diff::Other
            }
            _ => Diff::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_round_trips_and_a_move_is_read_off_the_difference() {
        let pos = Position::start();
        let mut b = Board::of(&pos);
        assert_eq!(b.placement(), pos.fen().split(' ').next().unwrap());
        assert_eq!(Board::parse(&b.placement(), &[]).unwrap(), b);
        assert_eq!(b.diff(&pos), Diff::Same);
        b.lift("h2".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::InHand);
        assert_eq!(
            b.hand(),
            vec![InHand {
                piece: "C".parse().unwrap(),
                from: "h2".parse().unwrap()
            }]
        );
        b.place("e2".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Move("h2e2".parse().unwrap()));
        b.play("e2e6".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Move("h2e6".parse().unwrap()));
        b.play("a0a1".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Other);
    }
}
