//! Spoken words: for every word of a move, the display text and the speakable text for
//! Cantonese (espeak-ng `yue`) and Mandarin (espeak-ng `cmn-latn-pinyin`).
//!
//! The readings are data (`data/phrasebook.txt`), not code: characters that espeak-ng
//! misreads (車, 將, 傌 …) are given as Jyutping/pinyin there. Latin letters (ICCS, English
//! piece letters) never enter a Chinese phrase: black's numerals are spoken as 一…九.

use std::collections::HashMap;
use std::sync::OnceLock;

use baoqi_rules::{Color, Move, Position};

use crate::render::{self, RenderError};
use crate::words::{Marks, Word, chinese_numeral};

const PHRASEBOOK: &str = include_str!("../data/phrasebook.txt");

/// A spoken language and the espeak-ng voice that speaks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Cantonese, voice `yue`.
    Yue,
    /// Mandarin, voice `cmn-latn-pinyin` (reads pinyin with tone numbers).
    Cmn,
}

impl Lang {
    /// The espeak-ng voice name.
    pub const fn voice(self) -> &'static str {
        match self {
            Lang::Yue => "yue-Latn-jyutping",
            Lang::Cmn => "cmn-latn-pinyin",
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        match s {
            "yue" | "spoken-yue" | "cantonese" => Ok(Lang::Yue),
            "cmn" | "cmn-latn-pinyin" | "spoken-cmn" | "mandarin" => Ok(Lang::Cmn),
            _ => Err(format!("unknown language {s:?} (yue, cmn)")),
        }
    }
}

/// One word as shown and as given to the speech engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoken {
    /// What a screen shows (traditional characters).
    pub display: String,
    /// What the voice is fed.
    pub speak: String,
}

/// One row of the phrasebook.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    display: String,
    yue: String,
    cmn: String,
}

fn phrasebook() -> &'static HashMap<char, Entry> {
    static BOOK: OnceLock<HashMap<char, Entry>> = OnceLock::new();
    BOOK.get_or_init(|| {
        PHRASEBOOK
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut cols = l.split('\t');
                let key = cols.next()?.chars().next()?;
                let same = |s: &str| {
                    if s == "=" {
                        key.to_string()
                    } else {
                        s.to_string()
                    }
                };
                let display = same(cols.next()?);
                let yue = same(cols.next()?);
                let cmn = cols.next()?.to_string();
                Some((key, Entry { display, yue, cmn }))
            })
            .collect()
    })
}

/// The phrasebook entry of a display character, shown and spoken in `lang`.
pub fn character(c: char, lang: Lang) -> Spoken {
    // Black's numerals are spoken like red's (the voice must not read Latin digits).
    let key = crate::words::numeral_char(c).map_or(c, |(n, _)| chinese_numeral(n));
    match phrasebook().get(&key) {
        Some(e) => Spoken {
            display: if key == c {
                e.display.clone()
            } else {
                c.to_string()
            },
            speak: match lang {
                Lang::Yue => e.yue.clone(),
                Lang::Cmn => e.cmn.clone(),
            },
        },
        None => Spoken {
            display: c.to_string(),
            speak: c.to_string(),
        },
    }
}

/// One word of `color`'s move, shown and spoken.
pub fn word(w: Word, color: Color, lang: Lang) -> Spoken {
    character(render::traditional_char(w, color), lang)
}

/// The four words of a legal move, shown and spoken, one entry per word.
pub fn move_words(pos: &Position, mv: Move, lang: Lang) -> Result<Vec<Spoken>, RenderError> {
    let color = pos.turn();
    Ok(render::words_of(pos, mv)?
        .iter()
        .map(|&w| word(w, color, lang))
        .collect())
}

/// The marks of a move as spoken words (吃, 將軍, 提和).
pub fn marks(m: Marks, lang: Lang) -> Vec<Spoken> {
    m.text().chars().map(|c| character(c, lang)).collect()
}

/// A whole move as one phrase: display words joined without spaces, speakable words joined
/// by spaces (so that Jyutping/pinyin syllables stay apart).
pub fn move_phrase(pos: &Position, mv: Move, lang: Lang) -> Result<Spoken, RenderError> {
    let words = move_words(pos, mv, lang)?;
    Ok(Spoken {
        display: words.iter().map(|w| w.display.as_str()).collect(),
        speak: words
            .iter()
            .map(|w| w.speak.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_of_every_side_has_a_reading() {
        let ws = Word::all();
        for color in Color::ALL {
            for &w in &ws {
                for lang in [Lang::Yue, Lang::Cmn] {
                    let s = word(w, color, lang);
                    let c = s.display.chars().next().unwrap();
                    assert!(
                        phrasebook().contains_key(&c) || crate::words::numeral_char(c).is_some(),
                        "{w:?}"
                    );
                    assert!(!s.speak.is_empty(), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn s7p6_3_rook_and_general_are_spoken_with_romanisation() {
        assert_eq!(character('車', Lang::Yue).speak, "geoi1");
        assert_eq!(character('車', Lang::Cmn).speak, "ju1");
        assert_eq!(character('將', Lang::Cmn).speak, "jiang4");
        assert_eq!(character('８', Lang::Cmn).speak, "ba1");
        assert_eq!(character('８', Lang::Cmn).display, "８");
        let pos = Position::start();
        let p = move_phrase(&pos, "h2e2".parse().unwrap(), Lang::Cmn).unwrap();
        assert_eq!(
            (p.display.as_str(), p.speak.as_str()),
            ("炮二平五", "pao4 er4 ping2 wu3")
        );
    }
}
