//! Board readings by ear ([`Pieces`]): what stands on a file or a rank, where the pieces of
//! a kind stand, the whole position, grouped so that nothing is said twice in a row, in a
//! full or a terse [`Form`] (the whole start position took 57 s with 紅方 and the file
//! repeated for every piece; grouped and terse it reads in under 20 s at espeak-ng's default
//! rate).

use baoqi_rules::Piece;

use crate::phrasebook::{Phrase, entry, fill, plain, side};
use crate::spoken_time;

/// A piece where the asking player counts it: file 1–9 from his right, rank 1–10 from his side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceAt {
    /// The piece.
    pub piece: Piece,
    /// File 1..=9.
    pub file: u8,
    /// Rank 1..=10.
    pub rank: u8,
}

/// How much is said of each point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// Every point in words: `帥五線一排` (file, rank, each named).
    #[default]
    Full,
    /// Numbers only, file then rank (`帥五一`), and the coordinate the question already gave
    /// left out: a file's pieces by rank alone, a rank's by file alone.
    Terse,
}

/// The player's verbosity setting (`0 *` cycles it; `--verbosity` sets it at start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Verbosity {
    /// Terse during one's own turn (his clock runs), full otherwise.
    #[default]
    Auto,
    /// Always terse.
    Terse,
    /// Always full.
    Full,
}

impl Verbosity {
    /// The form of a reading asked for now; `own_turn` when the asker's clock runs.
    pub fn form(self, own_turn: bool) -> Form {
        match (self, own_turn) {
            (Verbosity::Terse, _) | (Verbosity::Auto, true) => Form::Terse,
            (Verbosity::Full, _) | (Verbosity::Auto, false) => Form::Full,
        }
    }

    /// The next setting of the cycle auto → terse → full → auto.
    #[must_use]
    pub fn next(self) -> Verbosity {
        match self {
            Verbosity::Auto => Verbosity::Terse,
            Verbosity::Terse => Verbosity::Full,
            Verbosity::Full => Verbosity::Auto,
        }
    }
}

/// What the question already fixed, and so what a terse reading leaves out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Along {
    /// Pieces anywhere (a kind, the whole position): file and rank are said.
    #[default]
    Anywhere,
    /// One file: a terse reading says the rank only.
    File,
    /// One rank: a terse reading says the file only.
    Rank,
}

/// The answer to a board query.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pieces {
    /// The pieces, in the order to say them (grouped by side, then kind).
    pub list: Vec<PieceAt>,
    /// Full or terse.
    pub form: Form,
    /// What the question fixed.
    pub along: Along,
}

impl Pieces {
    /// A full reading of `list` with both coordinates.
    pub fn full(list: Vec<PieceAt>) -> Pieces {
        Pieces {
            list,
            ..Pieces::default()
        }
    }

    /// Grouped so that the side and the piece are said once each: `紅方：帥五線一排；仕四線一排、
    /// 六線一排。黑方：將五線十排` (full), `紅方 帥五一 仕四一 六一。黑方 將五十` (terse), or
    /// 無子 for none.
    pub fn phrase(&self) -> Phrase {
        if self.list.is_empty() {
            return plain("keypad.no_piece");
        }
        let keys = Keys::of(self.form);
        let sides = runs(&self.list, |p| p.piece.color)
            .into_iter()
            .map(|group| {
                let kinds = runs(group, |p| p.piece).into_iter().map(|same| {
                    let points: Vec<Phrase> = same.iter().map(|p| self.point(*p)).collect();
                    let piece = Phrase::of_char(same[0].piece.chinese());
                    Phrase::join(&[piece, joined(&points, keys.point_sep)])
                });
                let kinds: Vec<Phrase> = kinds.collect();
                fill(
                    keys.side_group,
                    &[
                        ("side", side(group[0].piece.color)),
                        ("pieces", &joined(&kinds, keys.kind_sep)),
                    ],
                )
            });
        joined(&sides.collect::<Vec<_>>(), "keypad.side_sep")
    }

    fn point(&self, p: PieceAt) -> Phrase {
        let file = spoken_time::count(u32::from(p.file));
        let rank = spoken_time::count(u32::from(p.rank));
        let slots = [("file", &file), ("rank", &rank)];
        let key = match (self.form, self.along) {
            (Form::Full, _) => "keypad.point",
            (Form::Terse, Along::Anywhere) => "keypad.point_terse",
            (Form::Terse, Along::File) => "keypad.point_rank_only",
            (Form::Terse, Along::Rank) => "keypad.point_file_only",
        };
        fill(key, &slots)
    }
}

/// The phrasebook keys of a form's groupings.
struct Keys {
    side_group: &'static str,
    kind_sep: &'static str,
    point_sep: &'static str,
}

impl Keys {
    fn of(form: Form) -> Keys {
        match form {
            Form::Full => Keys {
                side_group: "keypad.side_group",
                kind_sep: "keypad.kind_sep",
                point_sep: "keypad.point_sep",
            },
            Form::Terse => Keys {
                side_group: "keypad.side_group_terse",
                kind_sep: "keypad.terse_sep",
                point_sep: "keypad.terse_sep",
            },
        }
    }
}

/// The runs of consecutive items with the same `key`.
fn runs<T, K: PartialEq>(items: &[T], key: impl Fn(&T) -> K) -> Vec<&[T]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || key(&items[i]) != key(&items[start]) {
            out.push(&items[start..i]);
            start = i;
        }
    }
    out
}

/// Phrases with the separator `sep` (a phrasebook key) between them.
pub(crate) fn joined(parts: &[Phrase], sep: &str) -> Phrase {
    let sep = entry(sep);
    let mut out = Vec::with_capacity(parts.len() * 2);
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push(sep.clone());
        }
        out.push(p.clone());
    }
    Phrase::join(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_rules::{Color, Kind};

    fn at(color: Color, kind: Kind, file: u8, rank: u8) -> PieceAt {
        PieceAt {
            piece: Piece::new(color, kind),
            file,
            rank,
        }
    }

    #[test]
    fn a_full_reading_names_side_piece_file_and_rank() {
        let list = vec![
            at(Color::Red, Kind::General, 5, 1),
            at(Color::Black, Kind::Rook, 9, 10),
        ];
        let p = Pieces::full(list).phrase();
        assert_eq!(p.display, "紅方：帥五線一排。黑方：車九線十排");
        assert!(p.yue.contains("geoi1"), "車 is fed as Jyutping: {}", p.yue);
        assert!(
            p.cmn.contains("ju1") && p.cmn.contains("xian4"),
            "{}",
            p.cmn
        );
        assert_eq!(Pieces::default().phrase().display, "無子");
    }

    #[test]
    fn a_terse_reading_says_numbers_and_leaves_out_what_the_question_fixed() {
        let file_five = vec![
            at(Color::Red, Kind::General, 5, 1),
            at(Color::Red, Kind::Pawn, 5, 4),
            at(Color::Black, Kind::Pawn, 5, 7),
            at(Color::Black, Kind::General, 5, 10),
        ];
        let terse = |along| {
            Pieces {
                list: file_five.clone(),
                form: Form::Terse,
                along,
            }
            .phrase()
            .display
        };
        assert_eq!(terse(Along::File), "紅方 帥一 兵四。黑方 卒七 將十");
        assert_eq!(
            terse(Along::Anywhere),
            "紅方 帥五一 兵五四。黑方 卒五七 將五十"
        );
        let advisors = vec![
            at(Color::Red, Kind::Advisor, 4, 1),
            at(Color::Red, Kind::Advisor, 6, 1),
        ];
        let rank_one = Pieces {
            list: advisors,
            form: Form::Terse,
            along: Along::Rank,
        };
        assert_eq!(rank_one.phrase().display, "紅方 仕四 六");
    }
}
