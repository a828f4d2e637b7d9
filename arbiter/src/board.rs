//! A physical board as reported (sensor or operator): pieces on points and pieces in hand.
//! It may be in any state, legal or not; the board move is read off its difference from the
//! game position (SPEC §6, §8).

use baoqi_rules::{Move, Piece, Point, Position};

/// A board's pieces and the pieces lifted from it and not yet placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    squares: [Option<Piece>; 90],
    /// Lifted pieces with the point they came from, in lifting order.
    hand: Vec<(Point, Piece)>,
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

    /// Reads a FEN placement (the board part; anything after a space is ignored) and a hand
    /// written as `C@h2` entries.
    pub(crate) fn parse(placement: &str, hand: &[String]) -> Result<Board, String> {
        let board_part = placement.split_whitespace().next().unwrap_or("");
        let rows: Vec<&str> = board_part.split('/').collect();
        if rows.len() != 10 {
            return Err(format!("{} ranks; a placement has 10", rows.len()));
        }
        let mut squares = [None; 90];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as u8;
                } else {
                    let piece = Piece::from_fen_char(c).ok_or(format!("bad piece letter {c:?}"))?;
                    let p = Point::new(file, rank).ok_or(format!("rank {rank} is too long"))?;
                    squares[p.index()] = Some(piece);
                    file += 1;
                }
            }
            if file != 9 {
                return Err(format!("rank {rank} has {file} files; a rank has 9"));
            }
        }
        let mut held = Vec::new();
        for h in hand {
            let (c, p) = h.split_once('@').ok_or(format!("bad hand entry {h:?}"))?;
            let piece = c
                .chars()
                .next()
                .and_then(Piece::from_fen_char)
                .ok_or(format!("bad hand entry {h:?}"))?;
            let point: Point = p.parse().map_err(|e| format!("{e}"))?;
            held.push((point, piece));
        }
        Ok(Board {
            squares,
            hand: held,
        })
    }

    /// The FEN placement.
    pub(crate) fn placement(&self) -> String {
        let mut setup = baoqi_rules::Setup::empty();
        setup.board = self.squares;
        setup.placement()
    }

    /// The hand as `C@h2` entries.
    pub(crate) fn hand(&self) -> Vec<String> {
        self.hand
            .iter()
            .map(|(p, piece)| format!("{}@{p}", piece.fen_char()))
            .collect()
    }

    /// Lifts the piece on `p`.
    pub(crate) fn lift(&mut self, p: Point) -> Result<Piece, String> {
        let piece = self.squares[p.index()]
            .take()
            .ok_or(format!("no piece on {p}"))?;
        self.hand.push((p, piece));
        Ok(piece)
    }

    /// Places a lifted piece on `p`: the last one lifted from another point (a piece lifted
    /// from `p` itself is the captured one), else the last lifted. Whatever stood on `p` is
    /// captured; other pieces in hand (captured pieces) leave the board.
    pub(crate) fn place(&mut self, p: Point) -> Result<(), String> {
        let i = self
            .hand
            .iter()
            .rposition(|(from, _)| *from != p)
            .or(self.hand.len().checked_sub(1))
            .ok_or("nothing in hand to place")?;
        let (_, piece) = self.hand.remove(i);
        self.squares[p.index()] = Some(piece);
        self.hand.clear();
        Ok(())
    }

    /// Plays a move as a board does: whatever is on `from` goes to `to`.
    pub(crate) fn play(&mut self, mv: Move) -> Result<(), String> {
        let piece = self.squares[mv.from.index()]
            .take()
            .ok_or(format!("no piece on {}", mv.from))?;
        self.squares[mv.to.index()] = Some(piece);
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
        assert_eq!(b.hand(), vec!["C@h2".to_string()]);
        b.place("e2".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Move("h2e2".parse().unwrap()));
        b.play("e2e6".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Move("h2e6".parse().unwrap()));
        b.play("a0a1".parse().unwrap()).unwrap();
        assert_eq!(b.diff(&pos), Diff::Other);
    }
}
