//! The JSON form of a [`Word`]: one token, the same for both sides and every script, so that
//! each client writes it in its reader's own characters (紅 二 / 黑 2, 俥 / 車, 进 / 進, R):
//! a piece is its kind (`"cannon"`), a numeral its digit (`"2"`), the other words their
//! meaning (`"front"`, `"middle"`, `"rear"`, `"forward"`, `"backward"`, `"across"`).

use std::str::FromStr;

use baoqi_rules::Kind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::words::Word;

/// The token of every kind, in [`Kind::ALL`] order.
const KINDS: [&str; 7] = [
    "general", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
];

impl Word {
    /// The word's JSON token (`"cannon"`, `"2"`, `"forward"`).
    pub fn token(self) -> &'static str {
        const DIGITS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
        match self {
            Word::Piece(k) => KINDS[k.index()],
            Word::Numeral(n) => DIGITS[usize::from(n.clamp(1, 9) - 1)],
            Word::Front => "front",
            Word::Middle => "middle",
            Word::Rear => "rear",
            Word::Forward => "forward",
            Word::Backward => "backward",
            Word::Across => "across",
        }
    }
}

/// Why a text is not a word token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a word token (a piece kind, 1…9, front, middle, rear, forward, backward, across)"
)]
pub struct ParseTokenError(pub String);

impl FromStr for Word {
    type Err = ParseTokenError;
    fn from_str(s: &str) -> Result<Word, ParseTokenError> {
        Word::all()
            .into_iter()
            .find(|w| w.token() == s)
            .ok_or_else(|| ParseTokenError(s.to_owned()))
    }
}

impl Serialize for Word {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.token())
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Word, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Every kind's token, as [`Word::token`] writes it.
pub fn kind_token(kind: Kind) -> &'static str {
    KINDS[kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_round_trips_through_its_token() {
        for w in Word::all() {
            let json = serde_json::to_string(&w).unwrap();
            assert_eq!(serde_json::from_str::<Word>(&json).unwrap(), w, "{json}");
        }
        assert_eq!(serde_json::to_string(&Word::Numeral(2)).unwrap(), "\"2\"");
        assert_eq!(
            serde_json::to_string(&Word::Piece(Kind::Cannon)).unwrap(),
            "\"cannon\""
        );
        assert!(serde_json::from_str::<Word>("\"炮\"").is_err());
    }

    #[test]
    fn kind_tokens_are_the_kinds_own_json() {
        for k in Kind::ALL {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", kind_token(k))
            );
        }
    }
}
