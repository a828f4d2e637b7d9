//! JSON forms of the vocabulary that have a standard text: a [`Point`] and a [`Move`] are
//! their ICCS text (`"h2"`, `"h2e2"`), a [`Piece`] its FEN letter (`"C"` red, `"c"` black),
//! a [`Position`] its FEN with both counters (read back as the same position, checked legal).
//! Reading checks the text as [`std::str::FromStr`] does, so a bad value is a serde error
//! with the reason, never a panic.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::position::Position;
use crate::types::{Move, Piece, Point};

/// Reads any `FromStr` type from a JSON string.
struct TextVisitor<T>(PhantomData<T>, &'static str);

impl<T> Visitor<'_> for TextVisitor<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

fn read<'de, D, T>(d: D, what: &'static str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    d.deserialize_str(TextVisitor(PhantomData, what))
}

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        read(d, "an ICCS point such as \"h2\"")
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        read(d, "an ICCS move such as \"h2e2\"")
    }
}

/// Why a text is not one FEN piece letter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a FEN piece letter (K A B N R C P, lower case for black)")]
pub struct ParsePieceError(pub String);

impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Piece::from_fen_char), chars.next()) {
            (Some(p), None) => Ok(p),
            _ => Err(ParsePieceError(s.to_owned())),
        }
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0; 4];
        s.serialize_str(self.fen_char().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        read(d, "a FEN piece letter such as \"C\"")
    }
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.fen())
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let fen = String::deserialize(d)?;
        Position::from_fen(&fen).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Color, Kind, Move, Piece, Point, Position};

    #[test]
    fn the_vocabulary_is_written_as_its_standard_text() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), "\"h2e2\"");
        assert_eq!(serde_json::to_string(&m.from).unwrap(), "\"h2\"");
        let p = Piece::new(Color::Black, Kind::Cannon);
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"c\"");
        assert_eq!(serde_json::to_string(&Color::Red).unwrap(), "\"red\"");
        assert_eq!(serde_json::to_string(&Kind::Horse).unwrap(), "\"horse\"");
        for point in Point::all() {
            let json = serde_json::to_string(&point).unwrap();
            assert_eq!(serde_json::from_str::<Point>(&json).unwrap(), point);
        }
        assert_eq!(
            serde_json::from_str::<Piece>("\"C\"").unwrap().color,
            Color::Red
        );
    }

    #[test]
    fn a_position_is_its_fen_and_reads_back_the_same_with_its_counters() {
        let mut pos = Position::start();
        for _ in 0..40 {
            let json = serde_json::to_string(&pos).unwrap();
            assert_eq!(json, format!("\"{}\"", pos.fen()));
            assert!(
                serde_json::from_str::<Position>(&json).unwrap() == pos,
                "{json}"
            );
            let Some(&mv) = pos.legal_moves().last() else {
                break;
            };
            pos.make(mv);
        }
        assert!(
            pos.halfmoves() > 0 || pos.fullmoves() > 1,
            "the counters moved"
        );
        let bad = serde_json::from_str::<Position>("\"4k4/9/9/9/9/9/9/9/9/9 w - - 0 1\"");
        assert!(bad.is_err(), "one general only: not a position");
    }

    #[test]
    fn bad_text_is_an_error_with_the_reason() {
        let e = serde_json::from_str::<Move>("\"h2h2\"").unwrap_err();
        assert!(e.to_string().contains("change the point"), "{e}");
        assert!(serde_json::from_str::<Point>("\"j0\"").is_err());
        assert!(serde_json::from_str::<Point>("7").is_err());
        assert!(serde_json::from_str::<Piece>("\"CC\"").is_err());
    }
}
