//! A [`Designation`] is what was written or said (附表六 第一部份), kept apart from legality:
//! it names a piece (first two words) and a motion (last two words). Turning it into a move
//! needs a position ([`Designation::resolve`]).

use baoqi_rules::Kind;

use crate::words::{CharSide, Marks, Word};

/// Which of several same pieces on one file (附表六 1(2)–(4)), counted from the front.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// 前: the front one (of two or three).
    Front,
    /// 中: the middle one (of three or five).
    Middle,
    /// 後: the rearmost one.
    Rear,
    /// 前前: the front one of four or five pawns.
    FrontFront,
    /// 前後: the second of four or five pawns.
    FrontRear,
    /// 後前: the second from the rear of four or five pawns.
    RearFront,
    /// 後後: the rearmost of four or five pawns.
    RearRear,
    /// 一 … 五: the n-th from the front (1-based).
    Nth(u8),
}

impl Order {
    /// The 0-based index from the front among `n` pieces on a file, if this order names one.
    pub fn index_among(self, n: usize) -> Option<usize> {
        let i = match self {
            Order::Front if n >= 2 => 0,
            Order::Rear if n >= 2 => n - 1,
            Order::Middle if n == 3 || n == 5 => n / 2,
            Order::FrontFront if n >= 4 => 0,
            Order::FrontRear if n >= 4 => 1,
            Order::RearFront if n >= 4 => n - 2,
            Order::RearRear if n >= 4 => n - 1,
            Order::Nth(k) if n >= 2 && (1..=n).contains(&usize::from(k)) => usize::from(k) - 1,
            _ => return None,
        };
        Some(i)
    }

    /// The first word of this order (the second one too for 前前 … 後後).
    pub(crate) fn words(self) -> (Word, Option<Word>) {
        match self {
            Order::Front => (Word::Front, None),
            Order::Middle => (Word::Middle, None),
            Order::Rear => (Word::Rear, None),
            Order::FrontFront => (Word::Front, Some(Word::Front)),
            Order::FrontRear => (Word::Front, Some(Word::Rear)),
            Order::RearFront => (Word::Rear, Some(Word::Front)),
            Order::RearRear => (Word::Rear, Some(Word::Rear)),
            Order::Nth(k) => (Word::Numeral(k), None),
        }
    }
}

/// How the first two words name a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceName {
    /// `炮二`: the piece of this kind on this file (1..=9 from the mover's right).
    File {
        /// The kind named.
        kind: Kind,
        /// The file number, from the mover's right.
        file: u8,
    },
    /// `前車`, `中兵`, `二兵`, `前前`: one of several pieces of this kind on the one file that
    /// holds several (附表六 1(2), 1(3)).
    Tandem {
        /// The kind named (`Pawn` for 前前 … 後後).
        kind: Kind,
        /// Which one.
        order: Order,
    },
    /// `前三`, `一三`: one of several pawns on a given file when two files hold several
    /// (附表六 1(4)).
    TandemOnFile {
        /// Which one.
        order: Order,
        /// The file number, from the mover's right.
        file: u8,
    },
}

impl PieceName {
    /// Reads the first two words as a piece name (syntax only).
    pub fn from_words(w1: Word, w2: Word) -> Option<PieceName> {
        use Word::{Front, Middle, Numeral, Piece, Rear};
        let order = |w: Word| match w {
            Front => Some(Order::Front),
            Middle => Some(Order::Middle),
            Rear => Some(Order::Rear),
            Numeral(n) if (1..=5).contains(&n) => Some(Order::Nth(n)),
            _ => None,
        };
        Some(match (w1, w2) {
            (Piece(kind), Numeral(file)) => PieceName::File { kind, file },
            (Front, Front) => tandem_pawn(Order::FrontFront),
            (Front, Rear) => tandem_pawn(Order::FrontRear),
            (Rear, Front) => tandem_pawn(Order::RearFront),
            (Rear, Rear) => tandem_pawn(Order::RearRear),
            (Front | Rear, Piece(kind)) => PieceName::Tandem {
                kind,
                order: order(w1)?,
            },
            (Middle | Numeral(_), Piece(Kind::Pawn)) => tandem_pawn(order(w1)?),
            (Front | Middle | Rear | Numeral(_), Numeral(file)) => PieceName::TandemOnFile {
                order: order(w1)?,
                file,
            },
            _ => return None,
        })
    }

    /// The two words of this name.
    pub fn words(self) -> [Word; 2] {
        match self {
            PieceName::File { kind, file } => [Word::Piece(kind), Word::Numeral(file)],
            PieceName::Tandem { kind, order } => match order.words() {
                (a, Some(b)) => [a, b],
                (a, None) => [a, Word::Piece(kind)],
            },
            PieceName::TandemOnFile { order, file } => [order.words().0, Word::Numeral(file)],
        }
    }

    /// The kind of piece this name designates.
    pub fn kind(self) -> Kind {
        match self {
            PieceName::File { kind, .. } | PieceName::Tandem { kind, .. } => kind,
            PieceName::TandemOnFile { .. } => Kind::Pawn,
        }
    }
}

fn tandem_pawn(order: Order) -> PieceName {
    PieceName::Tandem {
        kind: Kind::Pawn,
        order,
    }
}

/// The last two words: direction and number (附表六 1(1)(c)–(d)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// 進 n: n steps (straight pieces) or to file n (diagonal pieces).
    Forward(u8),
    /// 退 n.
    Backward(u8),
    /// 平 n: along the rank to file n.
    Across(u8),
}

impl Motion {
    /// Reads the last two words as a motion (syntax only).
    pub fn from_words(w3: Word, w4: Word) -> Option<Motion> {
        let Word::Numeral(n) = w4 else { return None };
        Some(match w3 {
            Word::Forward => Motion::Forward(n),
            Word::Backward => Motion::Backward(n),
            Word::Across => Motion::Across(n),
            _ => return None,
        })
    }

    /// The two words of this motion.
    pub fn words(self) -> [Word; 2] {
        match self {
            Motion::Forward(n) => [Word::Forward, Word::Numeral(n)],
            Motion::Backward(n) => [Word::Backward, Word::Numeral(n)],
            Motion::Across(n) => [Word::Across, Word::Numeral(n)],
        }
    }
}

/// A designation: a piece name, a motion and the marks written after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Designation {
    /// The first two words.
    pub name: PieceName,
    /// The last two words.
    pub motion: Motion,
    /// × ○ ＝ written after the move.
    pub marks: Marks,
    /// Whose set of characters (第12條) the piece word was written in; strict mode checks it.
    pub spelled_for: CharSide,
}

impl Designation {
    /// Reads four words as a designation (syntax only).
    pub fn from_words(words: [Word; 4]) -> Option<Designation> {
        Some(Designation {
            name: PieceName::from_words(words[0], words[1])?,
            motion: Motion::from_words(words[2], words[3])?,
            marks: Marks::default(),
            spelled_for: CharSide::Both,
        })
    }

    /// The four words in traditional characters as `color` writes them (`炮二平五`, `馬８進７`),
    /// without marks.
    pub fn text(&self, color: baoqi_rules::Color) -> String {
        crate::render::words_text(&self.words(), color)
    }

    /// The four words.
    pub fn words(&self) -> [Word; 4] {
        let [a, b] = self.name.words();
        let [c, d] = self.motion.words();
        [a, b, c, d]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s6p1_1_3_orders_count_from_the_front() {
        // 附表六 1(3)(a): 前前、前後、中兵、後前、後後 for five; 前兵、中兵、後兵 for three.
        let five = [
            Order::FrontFront,
            Order::FrontRear,
            Order::Middle,
            Order::RearFront,
            Order::RearRear,
        ];
        for (i, o) in five.iter().enumerate() {
            assert_eq!(o.index_among(5), Some(i));
        }
        let three = [Order::Front, Order::Middle, Order::Rear];
        for (i, o) in three.iter().enumerate() {
            assert_eq!(o.index_among(3), Some(i));
        }
        // 1(3)(b): 一兵 … 五兵.
        for k in 1..=5 {
            assert_eq!(Order::Nth(k).index_among(5), Some(usize::from(k) - 1));
        }
        assert_eq!(Order::Middle.index_among(2), None);
        assert_eq!(Order::FrontFront.index_among(3), None);
        assert_eq!(Order::Nth(4).index_among(3), None);
        assert_eq!(Order::Front.index_among(1), None);
    }

    #[test]
    fn s6p1_1_names_read_back_from_their_words() {
        let names = [
            PieceName::File {
                kind: Kind::Cannon,
                file: 2,
            },
            PieceName::Tandem {
                kind: Kind::Rook,
                order: Order::Rear,
            },
            PieceName::Tandem {
                kind: Kind::Pawn,
                order: Order::RearFront,
            },
            PieceName::Tandem {
                kind: Kind::Pawn,
                order: Order::Nth(4),
            },
            PieceName::TandemOnFile {
                order: Order::Middle,
                file: 3,
            },
            PieceName::TandemOnFile {
                order: Order::Nth(2),
                file: 7,
            },
        ];
        for n in names {
            let [a, b] = n.words();
            assert_eq!(PieceName::from_words(a, b), Some(n));
        }
        assert_eq!(
            PieceName::from_words(Word::Middle, Word::Piece(Kind::Rook)),
            None
        );
        assert_eq!(
            PieceName::from_words(Word::Numeral(2), Word::Piece(Kind::Horse)),
            None
        );
    }
}
