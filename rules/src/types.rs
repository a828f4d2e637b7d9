//! Vocabulary types: colours, piece kinds, pieces, points and moves (第2章, 第3條).

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// One of the two sides (紅方 / 黑方, 第16條). Red moves first (第18(1)項).
/// JSON: `"red"`, `"black"`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// 紅方: occupies ranks 0–4 at the start.
    Red,
    /// 黑方: occupies ranks 5–9 at the start.
    Black,
}

impl Color {
    /// Both colours, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The traditional name of the side: 紅 or 黑.
    pub const fn chinese(self) -> char {
        match self {
            Color::Red => '紅',
            Color::Black => '黑',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// The seven kinds of piece (兵種, 第12條). JSON: `"general"`, `"advisor"`, …
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// 帥 / 將 (第29條).
    General,
    /// 仕 / 士 (第27條).
    Advisor,
    /// 相 / 象 (第26條).
    Elephant,
    /// 傌 / 馬 (第25條).
    Horse,
    /// 俥 / 車 (第23條).
    Rook,
    /// 炮 / 砲 (第24條).
    Cannon,
    /// 兵 / 卒 (第28條).
    Pawn,
}

impl Kind {
    /// All kinds, in FEN order of the letters K A B N R C P.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// Index 0..7 into per-kind arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter (K A B N R C P).
    pub const fn fen_letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E`/`B` both mean elephant and `H`/`N` horse.
    pub fn from_fen_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// Whether a piece of this kind can attack across the river (第26(3)項, 27(3), 29(3)
    /// keep generals, advisors and elephants at home): the pieces that could ever give mate.
    pub const fn crosses_river(self) -> bool {
        matches!(self, Kind::Horse | Kind::Rook | Kind::Cannon | Kind::Pawn)
    }
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Which kind.
    pub kind: Kind,
}

impl Piece {
    /// Makes a piece.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// The FEN letter: upper case for red, lower case for black.
    pub fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (case gives the colour).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_fen_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// Compact code 1..=14 used by the board array (0 means empty).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.kind as u8 + 7 * self.color as u8
    }

    /// Inverse of [`Piece::code`]; `None` for 0.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 14 {
            return None;
        }
        let c = code - 1;
        let color = if c >= 7 { Color::Black } else { Color::Red };
        Some(Piece {
            color,
            kind: Kind::ALL[(c % 7) as usize],
        })
    }

    /// The traditional character of this piece as the rule text writes it (第12條):
    /// 帥仕相傌俥炮兵 for red, 將士象馬車砲卒 for black.
    pub const fn chinese(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, Kind::General) => '帥',
            (Color::Red, Kind::Advisor) => '仕',
            (Color::Red, Kind::Elephant) => '相',
            (Color::Red, Kind::Horse) => '傌',
            (Color::Red, Kind::Rook) => '俥',
            (Color::Red, Kind::Cannon) => '炮',
            (Color::Red, Kind::Pawn) => '兵',
            (Color::Black, Kind::General) => '將',
            (Color::Black, Kind::Advisor) => '士',
            (Color::Black, Kind::Elephant) => '象',
            (Color::Black, Kind::Horse) => '馬',
            (Color::Black, Kind::Rook) => '車',
            (Color::Black, Kind::Cannon) => '砲',
            (Color::Black, Kind::Pawn) => '卒',
        }
    }
}

/// A point (交點) of the 9×10 board. File 0..9 is a..i from red's left, rank 0..10 counts
/// from red's side (ICCS convention). Internally `rank * 9 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point at `file` (0..9) and `rank` (0..10), or `None` off the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Point> {
        if file < 9 && rank < 10 {
            Some(Point(rank * 9 + file))
        } else {
            None
        }
    }

    /// The point with this index (0..90), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < 90 {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    /// Unchecked constructor for indices known to be on the board.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Point {
        Point(index as u8)
    }

    /// The index 0..90 (`rank * 9 + file`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (a..i), from red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10, from red's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Every point, a0 first.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..90u8).map(Point)
    }

    /// Whether this point lies on `color`'s own half (before the river, 第9(3)項).
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether this point is in `color`'s palace (九宮, 第9(4)項).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// The file number as `color` counts it in traditional notation (附表六): 1..=9 from that
    /// player's right-hand side.
    #[inline]
    pub const fn file_number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.file(),
            Color::Black => self.file() + 1,
        }
    }

    /// How far forward this point is from `color`'s back rank (0..10).
    #[inline]
    pub const fn rank_for(self, color: Color) -> u8 {
        match color {
            Color::Red => self.rank(),
            Color::Black => 9 - self.rank(),
        }
    }
}

impl fmt::Display for Point {
    /// ICCS: file letter then rank digit, e.g. `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Why a text is not an ICCS point or move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseIccsError {
    /// The text has the wrong length.
    #[error("an ICCS {what} has {expected} characters, `{text}` has {found}")]
    Length {
        /// "point" or "move".
        what: &'static str,
        /// Expected number of characters.
        expected: usize,
        /// Number found.
        found: usize,
        /// The text.
        text: String,
    },
    /// A file letter outside a..i.
    #[error("`{0}` is not a file: files are a to i")]
    File(char),
    /// A rank digit outside 0..9.
    #[error("`{0}` is not a rank: ranks are 0 to 9")]
    Rank(char),
    /// Origin and destination are the same point.
    #[error("a move must change the point of the piece (`{0}`)")]
    NullMove(String),
}

impl FromStr for Point {
    type Err = ParseIccsError;
    fn from_str(s: &str) -> Result<Point, ParseIccsError> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 2 {
            return Err(ParseIccsError::Length {
                what: "point",
                expected: 2,
                found: chars.len(),
                text: s.to_owned(),
            });
        }
        let fc = chars[0].to_ascii_lowercase();
        if !('a'..='i').contains(&fc) {
            return Err(ParseIccsError::File(chars[0]));
        }
        let rank = chars[1]
            .to_digit(10)
            .ok_or(ParseIccsError::Rank(chars[1]))?;
        Ok(Point((rank as u8) * 9 + (fc as u8 - b'a')))
    }
}

/// A move: the origin and destination points (原佔據交點, 目的地交點). Whether it is legal
/// depends on a position; see [`crate::Position::is_legal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
}

impl Move {
    /// Makes a move.
    #[inline]
    pub const fn new(from: Point, to: Point) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// ICCS: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = ParseIccsError;
    /// Reads ICCS (`h2e2`, also `H2-E2` as some software writes it).
    fn from_str(s: &str) -> Result<Move, ParseIccsError> {
        let clean: Vec<char> = s.chars().filter(|c| *c != '-').collect();
        if clean.len() != 4 {
            return Err(ParseIccsError::Length {
                what: "move",
                expected: 4,
                found: clean.len(),
                text: s.to_owned(),
            });
        }
        let from: Point = clean[..2].iter().collect::<String>().parse()?;
        let to: Point = clean[2..].iter().collect::<String>().parse()?;
        if from == to {
            return Err(ParseIccsError::NullMove(s.to_owned()));
        }
        Ok(Move { from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_points_and_moves_round_trip() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.from, Point::new(7, 2).unwrap());
        assert_eq!(m.to, Point::new(4, 2).unwrap());
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("H2-E2".parse::<Move>(), Ok(m));
    }

    #[test]
    fn bad_iccs_is_rejected_with_reason() {
        assert!(matches!(
            "j2e2".parse::<Move>(),
            Err(ParseIccsError::File('j'))
        ));
        assert!(matches!(
            "h2e".parse::<Move>(),
            Err(ParseIccsError::Length { .. })
        ));
        assert!(matches!(
            "h2h2".parse::<Move>(),
            Err(ParseIccsError::NullMove(_))
        ));
        assert!(matches!(
            "hxe2".parse::<Move>(),
            Err(ParseIccsError::Rank('x'))
        ));
    }

    #[test]
    fn a12_piece_codes_round_trip_and_names() {
        for color in Color::ALL {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(Piece::new(Color::Red, Kind::Rook).chinese(), '俥');
        assert_eq!(Piece::new(Color::Black, Kind::Cannon).chinese(), '砲');
    }

    #[test]
    fn traditional_file_numbers_count_from_each_players_right() {
        let h2: Point = "h2".parse().unwrap();
        assert_eq!(h2.file_number_for(Color::Red), 2);
        assert_eq!(h2.file_number_for(Color::Black), 8);
    }
}
