//! Reading move text (syntax only): the four-word designations of 附表六 in any script —
//! traditional (`炮二平五`, `馬８進７`, `前車進一`, `前前平四`), AXF (`C2=5`, `H8+7`), English/WXF
//! (`R1-2`, `R+.3`, `C--1`, `++.4`) — with the marks of 第二部份 (`×` `○` `＝`), and ICCS
//! (`h2e2`, `H2-E2`).
//!
//! One nom function per grammar rule; `all_consuming` at the top; nothing here panics.

use baoqi_rules::{Move, Point};
use nom::{
    IResult, Parser,
    bytes::complete::take_while,
    character::complete::{anychar, char as nchar, one_of, satisfy},
    combinator::{all_consuming, map_opt, opt, verify},
    multi::many0,
    sequence::preceded,
};

use crate::designation::{Designation, Motion, PieceName};
use crate::words::{self, CharSide, Marks, Word};

/// A parsed move text: a designation, or an ICCS move that needs no interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Four words naming a piece and a motion (附表六 第一部份).
    Designation(Designation),
    /// Coordinates, from and to.
    Iccs(Move),
}

/// Why a text is not a move in any notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but blanks.
    #[error("empty move text")]
    Empty,
    /// A character that is no word of any notation.
    #[error("{text:?}: {ch:?} at character {at} is not a word of any notation")]
    UnknownWord {
        /// The whole text.
        text: String,
        /// The offending character.
        ch: char,
        /// Its 0-based character index.
        at: usize,
    },
    /// Fewer than four words.
    #[error("{text:?} has {count} words; a move has four (附表六 1(1))")]
    TooShort {
        /// The whole text.
        text: String,
        /// How many words were read.
        count: usize,
    },
    /// Something follows the fourth word that is not a mark.
    #[error("{text:?}: {rest:?} after the four words is not a mark (× ○ ＝)")]
    Trailing {
        /// The whole text.
        text: String,
        /// What follows.
        rest: String,
    },
    /// The first two words do not name a piece.
    #[error("{words} does not name a piece (附表六 1(1)(a)-(b), 1(2)-(4))")]
    BadName {
        /// The two words.
        words: String,
    },
    /// The last two words are not a direction and a number.
    #[error("{words} is not a direction (進 退 平) and a number (附表六 1(1)(c)-(d))")]
    BadMotion {
        /// The two words.
        words: String,
    },
}

fn blanks(i: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(i)
}

/// `word(slot) := chinese-char | numeral | english-letter | sign` — signs `+` `-` mean 前/後 in
/// the first two slots and 進/退 in the third (WXF tandem forms `R+.3`, `++.4`).
fn word(slot: usize) -> impl Fn(&str) -> IResult<&str, (Word, CharSide)> {
    move |i| preceded(blanks, map_opt(anychar, |c| words::word_of_char(c, slot))).parse(i)
}

/// `marks := (blank* mark)*` with `mark := × | ○ | ＝` and ASCII look-alikes.
fn marks(i: &str) -> IResult<&str, Marks> {
    let (i, found) = many0(preceded(blanks, map_opt(anychar, words::mark_char))).parse(i)?;
    let mut m = Marks::default();
    for set in found {
        set(&mut m);
    }
    let (i, _) = blanks(i)?;
    Ok((i, m))
}

fn file_letter(i: &str) -> IResult<&str, u8> {
    let (i, c) = satisfy(|c| matches!(c.to_ascii_lowercase(), 'a'..='i')).parse(i)?;
    Ok((i, c.to_ascii_lowercase() as u8 - b'a'))
}

fn rank_digit(i: &str) -> IResult<&str, u8> {
    let (i, c) = one_of("0123456789").parse(i)?;
    Ok((i, c as u8 - b'0'))
}

fn iccs_point(i: &str) -> IResult<&str, Point> {
    map_opt((file_letter, rank_digit), |(f, r)| Point::new(f, r)).parse(i)
}

/// `iccs := point ('-')? point` — `h2e2`, `H2-E2`.
fn iccs(i: &str) -> IResult<&str, Move> {
    let (i, _) = blanks(i)?;
    let (i, from) = iccs_point(i)?;
    let (i, _) = opt(nchar('-')).parse(i)?;
    let (i, to) = verify(iccs_point, |to| *to != from).parse(i)?;
    let (i, _) = marks(i)?;
    Ok((i, Move::new(from, to)))
}

/// Reads a move text in any notation (syntax only; [`Notation::resolve`] needs the position).
///
/// ```text
/// move        := iccs | designation
/// iccs        := point '-'? point marks          (h2e2, H2-E2)
/// designation := word(0) word(1) word(2) word(3) marks
/// ```
/// The four words are read one at a time so that an error can say which one is wrong.
pub fn parse(text: &str) -> Result<Notation, ParseError> {
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    if let Ok((_, m)) = all_consuming(iccs).parse(text) {
        return Ok(Notation::Iccs(m));
    }
    let mut rest = text;
    let mut ws = [Word::Across; 4];
    let mut side = CharSide::Both;
    for (slot, w) in ws.iter_mut().enumerate() {
        let Ok((r, (found, s))) = word(slot)(rest) else {
            let trimmed = rest.trim_start();
            return Err(match trimmed.chars().next() {
                None => ParseError::TooShort {
                    text: text.into(),
                    count: slot,
                },
                Some(ch) => ParseError::UnknownWord {
                    text: text.into(),
                    ch,
                    at: text.chars().count() - trimmed.chars().count(),
                },
            });
        };
        rest = r;
        *w = found;
        if s != CharSide::Both {
            side = s;
        }
    }
    let (rest, found_marks) = marks(rest).unwrap_or((rest, Marks::default()));
    if !rest.is_empty() {
        return Err(ParseError::Trailing {
            text: text.into(),
            rest: rest.into(),
        });
    }
    // WXF writes the letter first in tandem names (`R+.3`, `C--1`).
    if let [Word::Piece(_), Word::Front | Word::Rear, ..] = ws {
        ws.swap(0, 1);
    }
    let name = PieceName::from_words(ws[0], ws[1]).ok_or_else(|| ParseError::BadName {
        words: show_words(&ws[..2]),
    })?;
    let motion = Motion::from_words(ws[2], ws[3]).ok_or_else(|| ParseError::BadMotion {
        words: show_words(&ws[2..]),
    })?;
    Ok(Notation::Designation(Designation {
        name,
        motion,
        marks: found_marks,
        spelled_for: side,
    }))
}

/// Words in neutral traditional characters, for error messages.
pub(crate) fn show_words(ws: &[Word]) -> String {
    ws.iter().map(|w| neutral_char(*w)).collect()
}

/// A side-neutral character for a word (black's pieces, Arabic numerals).
pub(crate) fn neutral_char(w: Word) -> char {
    match w {
        Word::Piece(k) => match k {
            baoqi_rules::Kind::General => '將',
            baoqi_rules::Kind::Advisor => '士',
            baoqi_rules::Kind::Elephant => '象',
            baoqi_rules::Kind::Horse => '馬',
            baoqi_rules::Kind::Rook => '車',
            baoqi_rules::Kind::Cannon => '炮',
            baoqi_rules::Kind::Pawn => '兵',
        },
        Word::Numeral(n) => char::from(b'0' + n),
        Word::Front => '前',
        Word::Middle => '中',
        Word::Rear => '後',
        Word::Forward => '進',
        Word::Backward => '退',
        Word::Across => '平',
    }
}

/// Reads an announced word given as text (a character, letter, numeral or sign).
pub fn parse_word(text: &str, slot: usize) -> Option<Word> {
    words::word_from_text(text, slot)
}

/// The words of an announcement written one character a word, as the arbiter records it
/// (`炮二平五`, `馬８進７`); characters that are no word are left out.
pub fn parse_words(text: &str) -> Vec<Word> {
    text.chars()
        .enumerate()
        .filter_map(|(slot, c)| parse_word(&c.to_string(), slot))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a12_variant_characters_all_read_as_the_same_word() {
        for t in ["車二進一", "俥二進一", "车二进一", "R2+1", "r2+1"] {
            let Ok(Notation::Designation(d)) = parse(t) else {
                panic!("{t}")
            };
            assert_eq!(
                d.name,
                PieceName::File {
                    kind: baoqi_rules::Kind::Rook,
                    file: 2
                },
                "{t}"
            );
        }
    }

    #[test]
    fn iccs_forms() {
        assert_eq!(parse("h2e2"), parse("H2-E2"));
        assert!(matches!(parse("h2e2"), Ok(Notation::Iccs(_))));
    }

    #[test]
    fn short_text_says_how_many_words() {
        assert!(matches!(
            parse("炮二平"),
            Err(ParseError::TooShort { count: 3, .. })
        ));
    }
}
