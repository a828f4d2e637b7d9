//! [`Unspeakable`]: why the words of an attempt cannot be the start of any move (附表七
//! 6.3, 7.4(2)), so that the player may correct them (附表七 6.3(6)(b), 7.4(2)(f)(ii)).
//! Typed, for every client to say in its reader's language; `Display` is an English
//! diagnostic for the command line.

use std::fmt;

use baoqi_rules::Piece;
use serde::{Deserialize, Serialize};

use crate::locate::Impossible;

/// Why no move begins with the words given. JSON: `{"why": "none_on_file", "piece":
/// "C", "file": 3}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Unspeakable {
    /// The text is no word of the notation (附表六).
    NotAWord {
        /// The text as given.
        text: String,
    },
    /// A designation begins with a piece, 前/中/後 or an ordinal, never a direction (附表六 1).
    DirectionFirst,
    /// The side has no piece of this kind on the board.
    NoSuchPiece {
        /// The piece named.
        piece: Piece,
    },
    /// The side's pieces of this kind share a file and are told apart by 前/後 (附表六 1(2)).
    SayFrontOrRear {
        /// The piece named.
        piece: Piece,
    },
    /// A numeral above 五 is neither a piece nor an ordinal (附表六 1(3)(b)).
    NotAnOrdinal {
        /// The numeral.
        numeral: u8,
    },
    /// The order names none of the side's same pieces on one file (附表六 1(2)-(4)).
    OrderNamesNone,
    /// The side has no same pieces on one file for an order to tell apart.
    NoSamePiecesOnAFile,
    /// The first two words do not name a piece (附表六 1(1)-(4)).
    NotAPiece,
    /// No piece of this kind on the file named.
    NoneOnFile {
        /// The piece named.
        piece: Piece,
        /// The file, as the side counts it.
        file: u8,
    },
    /// The order does not fit the number of pieces on the file (e.g. 中 of two).
    BadOrder {
        /// The piece named.
        piece: Piece,
        /// How many stand on the file.
        count: usize,
    },
    /// Several pieces answer the name: 前/後, or the file, tells them apart (附表六 1(2), 1(4)).
    Several {
        /// The piece named.
        piece: Piece,
        /// How many answer.
        count: usize,
    },
    /// The piece named cannot move at all.
    CannotMove,
    /// The last two words are not a direction and a number (附表六 1(1)(c)-(d)).
    NotAMotion,
    /// The third word is 進, 退 or 平 (附表六 1(1)(c)).
    NotADirection,
    /// The piece cannot move so even on an empty board.
    Unreachable {
        /// Why.
        #[serde(flatten)]
        reason: Impossible,
    },
    /// The words cannot be completed to a move of this piece.
    CannotComplete,
}

impl fmt::Display for Unspeakable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unspeakable::NotAWord { text } => {
                write!(f, "{text:?} is not a word of the notation (附表六)")
            }
            Unspeakable::DirectionFirst => {
                f.write_str("a designation begins with a piece, 前/中/後 or an ordinal (附表六 1)")
            }
            Unspeakable::NoSuchPiece { piece } => {
                write!(f, "has no {} on the board", piece.chinese())
            }
            Unspeakable::SayFrontOrRear { piece } => write!(
                f,
                "the {} share a file and are told apart by 前/後 (附表六 1(2))",
                piece.chinese()
            ),
            Unspeakable::NotAnOrdinal { numeral } => write!(
                f,
                "{numeral} is neither a piece nor an ordinal (一…五, 附表六 1(3)(b))"
            ),
            Unspeakable::OrderNamesNone => {
                f.write_str("names none of the same pieces on one file (附表六 1(2)-(4))")
            }
            Unspeakable::NoSamePiecesOnAFile => {
                f.write_str("no same pieces on one file to tell apart")
            }
            Unspeakable::NotAPiece => f.write_str("does not name a piece (附表六 1(1)-(4))"),
            Unspeakable::NoneOnFile { piece, file } => {
                write!(f, "has no {} on file {file}", piece.chinese())
            }
            Unspeakable::BadOrder { piece, count } => write!(
                f,
                "the order does not name one of the {count} {} on the file",
                piece.chinese()
            ),
            Unspeakable::Several { piece, count } => write!(
                f,
                "{count} {} answer: say 前/後 or the file (附表六 1(2), 1(4))",
                piece.chinese()
            ),
            Unspeakable::CannotMove => f.write_str("names a piece that cannot move at all"),
            Unspeakable::NotAMotion => {
                f.write_str("is not a direction and a number (附表六 1(1)(c)-(d))")
            }
            Unspeakable::NotADirection => {
                f.write_str("the third word is 進, 退 or 平 (附表六 1(1)(c))")
            }
            Unspeakable::Unreachable { reason } => write!(f, "{reason}"),
            Unspeakable::CannotComplete => {
                f.write_str("cannot be completed to a move of this piece")
            }
        }
    }
}

impl std::error::Error for Unspeakable {}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_rules::{Color, Kind};

    #[test]
    fn reasons_are_typed_json() {
        let u = Unspeakable::NoneOnFile {
            piece: Piece::new(Color::Red, Kind::Cannon),
            file: 3,
        };
        assert_eq!(
            serde_json::to_string(&u).unwrap(),
            r#"{"why":"none_on_file","piece":"C","file":3}"#
        );
        let r = Unspeakable::Unreachable {
            reason: Impossible::OneStep {
                piece: Piece::new(Color::Black, Kind::Pawn),
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"why":"unreachable","impossible":"one_step","piece":"p"}"#
        );
        assert_eq!(serde_json::from_str::<Unspeakable>(&json).unwrap(), r);
    }
}
