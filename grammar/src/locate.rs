//! From words to points: which pieces a [`PieceName`] names in a position, and which point a
//! [`Motion`] leads a piece to by its movement pattern on an empty board (the measure of
//! what is *possible* in an announcement, 附表七 6.3, 7.4(2)). Legality in the position is
//! not looked at here.

use baoqi_rules::{Color, Kind, Piece, Point, Position};

use crate::designation::{Motion, Order, PieceName};

/// Why a piece name names no piece, or more than one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// No piece of that kind on that file.
    #[error("{side} has no {piece} on file {file}")]
    NoneOnFile {
        /// 紅/黑.
        side: char,
        /// The piece character.
        piece: char,
        /// The file number as the mover counts it.
        file: u8,
    },
    /// `前`/`後`/`中`/an ordinal, but no file holds several such pieces.
    #[error("{side} has no two {piece} on one file, so {order} names nothing")]
    NoTandem {
        /// 紅/黑.
        side: char,
        /// The piece character.
        piece: char,
        /// The order word(s) as written.
        order: String,
    },
    /// The order does not fit the number of pieces on the file (e.g. 中 of two).
    #[error("{order} does not name one of the {count} {piece} on file {file}")]
    BadOrder {
        /// The piece character.
        piece: char,
        /// The order word(s).
        order: String,
        /// How many stand on the file.
        count: usize,
        /// The file number.
        file: u8,
    },
    /// Several pieces answer the name (附表六 1(2) asks for 前/後, 1(4) for the file).
    #[error("{count} {piece} answer {name}; {hint}")]
    Ambiguous {
        /// The piece character.
        piece: char,
        /// The name as written.
        name: String,
        /// How many answer it.
        count: usize,
        /// What the rule text asks for instead.
        hint: &'static str,
    },
}

/// At most five points (the most pieces of one kind on one file), front first; kept inline
/// because naming a piece is on the replay hot path.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Points {
    buf: [Point; 5],
    len: usize,
}

impl Points {
    fn new() -> Points {
        let none = Point::from_index(0).expect("a0 is on the board");
        Points {
            buf: [none; 5],
            len: 0,
        }
    }

    fn one(p: Point) -> Points {
        let mut v = Points::new();
        v.push(p);
        v
    }

    fn push(&mut self, p: Point) {
        if self.len < self.buf.len() {
            self.buf[self.len] = p;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Points {
    type Target = [Point];

    fn deref(&self) -> &[Point] {
        &self.buf[..self.len]
    }
}

impl std::fmt::Debug for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The points of `color`'s pieces of `kind` on `file` (mover's numbering), front first.
pub(crate) fn on_file(pos: &Position, color: Color, kind: Kind, file: u8) -> Points {
    let mut v = Points::new();
    for p in pos.points_of_piece(Piece::new(color, kind)) {
        if p.file_number_for(color) == file {
            v.push(p);
        }
    }
    let n = v.len;
    v.buf[..n].sort_unstable_by_key(|p| std::cmp::Reverse(p.rank_for(color)));
    v
}

/// The file numbers (mover's numbering) holding two or more of `color`'s pieces of `kind`.
pub(crate) fn tandem_files(pos: &Position, color: Color, kind: Kind) -> Vec<u8> {
    let mut counts = [0u8; 10];
    for p in pos.points_of_piece(Piece::new(color, kind)) {
        counts[usize::from(p.file_number_for(color))] += 1;
    }
    (1..=9).filter(|&f| counts[usize::from(f)] >= 2).collect()
}

/// The pieces `name` designates for the side to move. `File` may answer several pieces when
/// two share the file; the caller decides (strict or lenient) what to do with that.
pub fn candidates(pos: &Position, name: PieceName) -> Result<Points, NameError> {
    let color = pos.turn();
    let side = color.chinese();
    let piece = Piece::new(color, name.kind()).chinese();
    match name {
        PieceName::File { kind, file } => {
            let v = on_file(pos, color, kind, file);
            if v.is_empty() {
                return Err(NameError::NoneOnFile { side, piece, file });
            }
            Ok(v)
        }
        PieceName::Tandem { kind, order } => {
            let files = tandem_files(pos, color, kind);
            let order_text = order_text(order);
            match files.as_slice() {
                [] => Err(NameError::NoTandem {
                    side,
                    piece,
                    order: order_text,
                }),
                [file] => pick(pos, color, kind, *file, order).map(Points::one),
                _ => Err(NameError::Ambiguous {
                    piece,
                    name: format!("{order_text}{piece}"),
                    count: files.len(),
                    hint: "two files hold several pawns: name the file (前三, 一三; 附表六 1(4))",
                }),
            }
        }
        PieceName::TandemOnFile { order, file } => {
            let files = tandem_files(pos, color, Kind::Pawn);
            if !files.contains(&file) {
                return Err(NameError::NoTandem {
                    side,
                    piece,
                    order: format!("{}{file}", order_text(order)),
                });
            }
            pick(pos, color, Kind::Pawn, file, order).map(Points::one)
        }
    }
}

fn pick(
    pos: &Position,
    color: Color,
    kind: Kind,
    file: u8,
    order: Order,
) -> Result<Point, NameError> {
    let v = on_file(pos, color, kind, file);
    order
        .index_among(v.len())
        .map(|i| v[i])
        .ok_or_else(|| NameError::BadOrder {
            piece: Piece::new(color, kind).chinese(),
            order: order_text(order),
            count: v.len(),
            file,
        })
}

/// The order word(s) in traditional characters.
pub(crate) fn order_text(order: Order) -> String {
    match order {
        Order::Front => "前".into(),
        Order::Middle => "中".into(),
        Order::Rear => "後".into(),
        Order::FrontFront => "前前".into(),
        Order::FrontRear => "前後".into(),
        Order::RearFront => "後前".into(),
        Order::RearRear => "後後".into(),
        Order::Nth(k) => crate::words::chinese_numeral(k).to_string(),
    }
}

/// Why a motion cannot take a piece anywhere, even on an empty board. JSON: `{"impossible":
/// "one_step", "piece": "P"}`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize,
)]
#[serde(tag = "impossible", rename_all = "snake_case")]
pub enum Impossible {
    /// 馬/象/士 never move along a rank.
    #[error("{} moves diagonally and never 平 (附表六 1(1)(c))", piece.chinese())]
    DiagonalAcross {
        /// The piece.
        piece: Piece,
    },
    /// 平 to the file the piece already stands on.
    #[error("{} already stands on file {file}", piece.chinese())]
    SameFile {
        /// The piece.
        piece: Piece,
        /// Its file, as its side counts.
        file: u8,
    },
    /// A diagonal piece going 進/退 to its own file, or to a file it cannot reach.
    #[error("{} on file {from} cannot reach file {to} in one move", piece.chinese())]
    FileOutOfReach {
        /// The piece.
        piece: Piece,
        /// Its file.
        from: u8,
        /// The file named.
        to: u8,
    },
    /// 帥/兵 move one step, so 進/退 more than one and 平 beyond the next file are impossible.
    #[error("{} moves one step at a time", piece.chinese())]
    OneStep {
        /// The piece.
        piece: Piece,
    },
    /// 兵/卒 never retreat (第28條).
    #[error("{} never retreats (第28條)", piece.chinese())]
    PawnRetreat {
        /// The piece.
        piece: Piece,
    },
    /// The point lies off the board.
    #[error("{} would leave the board", piece.chinese())]
    OffBoard {
        /// The piece.
        piece: Piece,
    },
}

/// Whether a kind moves diagonally (附表六 1(1)(d): the 4th word is then a file number).
pub(crate) const fn is_diagonal(kind: Kind) -> bool {
    matches!(kind, Kind::Advisor | Kind::Elephant | Kind::Horse)
}

/// The point `motion` takes `color`'s `kind` from `from` to, by its movement pattern on an
/// empty board. Palace, river, blocking and check are not considered (附表七 6.3, 7.4(2)).
pub fn destination(
    from: Point,
    color: Color,
    kind: Kind,
    motion: Motion,
) -> Result<Point, Impossible> {
    let piece = Piece::new(color, kind);
    let file = i32::from(from.file_number_for(color));
    let rank = i32::from(from.rank_for(color));
    let (to_file, to_rank) = if is_diagonal(kind) {
        let (sign, target) = match motion {
            Motion::Across(_) => return Err(Impossible::DiagonalAcross { piece }),
            Motion::Forward(n) => (1, i32::from(n)),
            Motion::Backward(n) => (-1, i32::from(n)),
        };
        let df = (target - file).abs();
        let dr = match (kind, df) {
            (Kind::Advisor, 1) | (Kind::Horse, 2) => 1,
            (Kind::Elephant, 2) | (Kind::Horse, 1) => 2,
            _ => {
                return Err(Impossible::FileOutOfReach {
                    piece,
                    from: file as u8,
                    to: target as u8,
                });
            }
        };
        (target, rank + sign * dr)
    } else {
        let one_step = matches!(kind, Kind::General | Kind::Pawn);
        match motion {
            Motion::Across(n) => {
                let n = i32::from(n);
                if n == file {
                    return Err(Impossible::SameFile {
                        piece,
                        file: n as u8,
                    });
                }
                if one_step && (n - file).abs() != 1 {
                    return Err(Impossible::OneStep { piece });
                }
                (n, rank)
            }
            Motion::Backward(_) if kind == Kind::Pawn => {
                return Err(Impossible::PawnRetreat { piece });
            }
            Motion::Forward(n) | Motion::Backward(n) if one_step && n != 1 => {
                return Err(Impossible::OneStep { piece });
            }
            Motion::Forward(n) => (file, rank + i32::from(n)),
            Motion::Backward(n) => (file, rank - i32::from(n)),
        }
    };
    point_for(color, to_file, to_rank).ok_or(Impossible::OffBoard { piece })
}

/// The board point of a file number and rank counted by `color`, if on the board.
pub(crate) fn point_for(color: Color, file: i32, rank: i32) -> Option<Point> {
    if !(1..=9).contains(&file) || !(0..=9).contains(&rank) {
        return None;
    }
    let (f, r) = match color {
        Color::Red => (9 - file, rank),
        Color::Black => (file - 1, 9 - rank),
    };
    Point::new(f as u8, r as u8)
}

/// The motion that takes a piece from `from` to `to` in traditional terms (the inverse of
/// [`destination`] for any move the piece's pattern allows).
pub fn motion_between(from: Point, to: Point, color: Color, kind: Kind) -> Motion {
    let (rf, rt) = (from.rank_for(color), to.rank_for(color));
    let tf = to.file_number_for(color);
    let n = if is_diagonal(kind) {
        tf
    } else {
        rf.abs_diff(rt)
    };
    match rt.cmp(&rf) {
        std::cmp::Ordering::Greater => Motion::Forward(n),
        std::cmp::Ordering::Less => Motion::Backward(n),
        std::cmp::Ordering::Equal => Motion::Across(tf),
    }
}
