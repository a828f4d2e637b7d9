//! A [`Setup`] is any arrangement of pieces with a side to move; it may be illegal. FEN reading
//! and writing live here. [`crate::Position::from_setup`] checks legality.

use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

use crate::types::{Color, Piece, Point};

/// The standard starting arrangement (第17條).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Pieces on points, the side to move and the move counters, not yet checked for legality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each point, by [`Point::index`].
    pub board: [Option<Piece>; Point::COUNT],
    /// Whose turn it is (輪次).
    pub turn: Color,
    /// Plies since the last capture (FEN half-move clock).
    pub halfmoves: u32,
    /// Move number, starting at 1, incremented after black moves.
    pub fullmoves: u32,
}

impl Default for Setup {
    /// The starting arrangement.
    fn default() -> Setup {
        START_FEN.parse().expect("the start FEN is valid")
    }
}

impl Setup {
    /// An empty board with red to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; Point::COUNT],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The piece on `p`.
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        self.board[p.index()]
    }

    /// The board part of the FEN (pieces only, ranks from black's side).
    pub fn placement(&self) -> String {
        let mut out = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let p = Point::new(file, rank).expect("on board");
                match self.board[p.index()] {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Writes the FEN of this setup.
    pub fn fen(&self) -> String {
        let mut out = self.placement();
        let side = match self.turn {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        let _ = write!(out, " {side} - - {} {}", self.halfmoves, self.fullmoves);
        out
    }
}

/// Why a text is not a FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The text is empty.
    #[error("the FEN is empty")]
    Empty,
    /// The board part does not have ten ranks.
    #[error("the board part of a FEN has 10 ranks separated by `/`, this one has {0}")]
    RankCount(usize),
    /// A rank describes more or fewer than nine points.
    #[error(
        "rank {rank} of the FEN (counting from black's side, first = 1) describes {points} points instead of 9"
    )]
    RankWidth {
        /// 1-based rank as written (from the top of the FEN).
        rank: usize,
        /// How many points it describes.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    #[error(
        "`{0}` is not a piece letter (K A B/E N/H R C P, upper case red, lower case black) nor a digit"
    )]
    BadPiece(char),
    /// The side to move is not w, r or b.
    #[error("the side to move must be `w` or `r` (red) or `b` (black), not `{0}`")]
    BadTurn(String),
    /// A counter is not a number.
    #[error("the {field} of a FEN must be a whole number, not `{text}`")]
    BadCounter {
        /// Which counter.
        field: &'static str,
        /// The text found.
        text: String,
    },
}

impl FromStr for Setup {
    type Err = ParseFenError;

    /// Reads a FEN. The side defaults to red and the counters to `0 1` when absent.
    fn from_str(text: &str) -> Result<Setup, ParseFenError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(ParseFenError::Empty)?;
        let mut setup = Setup::empty();
        parse_placement(placement, &mut setup)?;
        if let Some(side) = fields.next() {
            setup.turn = match side {
                "w" | "r" | "W" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => return Err(ParseFenError::BadTurn(other.to_owned())),
            };
        }
        // Castling and en passant fields exist only for compatibility with chess FEN.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = if rest.len() >= 4 {
            rest[2..4].to_vec()
        } else {
            rest.iter().copied().filter(|f| *f != "-").collect()
        };
        if let Some(h) = counters.first() {
            setup.halfmoves = parse_counter("half-move clock", h)?;
        }
        if let Some(f) = counters.get(1) {
            setup.fullmoves = parse_counter("move number", f)?.max(1);
        }
        Ok(setup)
    }
}

fn parse_counter(field: &'static str, text: &str) -> Result<u32, ParseFenError> {
    text.parse().map_err(|_| ParseFenError::BadCounter {
        field,
        text: text.to_owned(),
    })
}

fn parse_placement(placement: &str, setup: &mut Setup) -> Result<(), ParseFenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file: usize = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else {
                let piece = Piece::from_fen_char(c).ok_or(ParseFenError::BadPiece(c))?;
                if file < 9 {
                    let p = Point::new(file as u8, rank).expect("checked");
                    setup.board[p.index()] = Some(piece);
                }
                file += 1;
            }
        }
        if file != 9 {
            return Err(ParseFenError::RankWidth {
                rank: i + 1,
                points: file,
            });
        }
    }
    Ok(())
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Kind;

    #[test]
    fn a17_start_fen_round_trips() {
        let s: Setup = START_FEN.parse().unwrap();
        assert_eq!(s.fen(), START_FEN);
        assert_eq!(
            s.piece_at("e0".parse().unwrap()),
            Some(Piece::new(Color::Red, Kind::General))
        );
        assert_eq!(
            s.piece_at("b7".parse().unwrap()),
            Some(Piece::new(Color::Black, Kind::Cannon))
        );
    }

    #[test]
    fn fen_accepts_e_h_and_r_side_and_missing_fields() {
        let a: Setup = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r"
            .parse()
            .unwrap();
        assert_eq!(a.fen(), START_FEN);
        let b: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 b".parse().unwrap();
        assert_eq!(b.turn, Color::Black);
        assert_eq!(b.halfmoves, 0);
    }

    #[test]
    fn bad_fen_names_what_is_wrong() {
        assert_eq!("".parse::<Setup>(), Err(ParseFenError::Empty));
        assert_eq!("9/9".parse::<Setup>(), Err(ParseFenError::RankCount(2)));
        assert!(matches!(
            "4k5/9/9/9/9/9/9/9/9/4K4 w".parse::<Setup>(),
            Err(ParseFenError::RankWidth {
                rank: 1,
                points: 10
            })
        ));
        assert_eq!(
            "4x4/9/9/9/9/9/9/9/9/4K4 w".parse::<Setup>(),
            Err(ParseFenError::BadPiece('x'))
        );
        assert!(matches!(
            "4k4/9/9/9/9/9/9/9/9/4K4 x".parse::<Setup>(),
            Err(ParseFenError::BadTurn(_))
        ));
    }
}
