//! The phrasebook: what baoqi says to a player, in one data file (`data/phrases.toml`) that the
//! keypad speaks and the pages show.
//!
//! Each entry is a template with `{slots}` in up to four forms: as shown (Traditional
//! characters: the keypad's status line and spoken log, and the pages' 繁體中文), as fed to
//! the Cantonese and the Mandarin voices of the keypad, and, for the entries the pages share,
//! in English. The entries with an English form are written into the pages' `phrases.js`
//! ([`js`]), so that a message the keypad and the pages both give is worded once; which
//! message an event gives stays with each client (the audio crate's `from_event`, the pages'
//! `narrate.js`), and a test holds the two to the same words for a sample of events.

mod js;

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use baoqi_grammar::speech::{self, Lang};

pub use js::js;

/// One thing to say, as shown and as spoken in each language.
#[derive(Clone, Debug, Default, Eq)]
pub struct Phrase {
    /// Traditional characters for the screen and the spoken-text log.
    pub display: String,
    /// For espeak-ng's `yue-Latn-jyutping` voice: characters the voice reads right and
    /// Jyutping (`geoi1`) for those it misreads.
    pub yue: String,
    /// For espeak-ng's `cmn-latn-pinyin` voice: pinyin with tone numbers.
    pub cmn: String,
    /// The phrasebook entry it was made from (`section.name`), when it is one entry filled:
    /// what the pages must say in the same words when the entry is shared ([`shared`]).
    pub entry: Option<&'static str>,
}

/// Two phrases are equal when they say the same, whichever entry made them.
impl PartialEq for Phrase {
    fn eq(&self, other: &Phrase) -> bool {
        (&self.display, &self.yue, &self.cmn) == (&other.display, &other.yue, &other.cmn)
    }
}

impl Hash for Phrase {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (&self.display, &self.yue, &self.cmn).hash(state);
    }
}

impl Phrase {
    /// A phrase from its three forms.
    pub fn new(display: &str, yue: &str, cmn: &str) -> Phrase {
        Phrase {
            display: display.to_owned(),
            yue: yue.to_owned(),
            cmn: cmn.to_owned(),
            entry: None,
        }
    }

    /// The grammar's reading of one character (piece, numeral, direction, mark).
    pub fn of_char(c: char) -> Phrase {
        let yue = speech::character(c, Lang::Yue);
        let cmn = speech::character(c, Lang::Cmn);
        Phrase {
            display: yue.display,
            yue: yue.speak,
            cmn: cmn.speak,
            entry: None,
        }
    }

    /// The text fed to the voice of `lang`.
    pub fn speak(&self, lang: Lang) -> &str {
        match lang {
            Lang::Yue => &self.yue,
            Lang::Cmn => &self.cmn,
        }
    }

    /// Phrases one after the other: display text glued, spoken texts apart (a space keeps
    /// romanised syllables from running together).
    pub fn join(parts: &[Phrase]) -> Phrase {
        let glue = |f: fn(&Phrase) -> &str| {
            parts
                .iter()
                .map(f)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Phrase {
            display: parts.iter().map(|p| p.display.as_str()).collect(),
            yue: glue(|p| &p.yue),
            cmn: glue(|p| &p.cmn),
            entry: None,
        }
    }
}

/// One entry of the phrasebook: its phrase (slots open) and, when the pages share it, its
/// English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The forms the keypad uses, slots open.
    pub phrase: Phrase,
    /// The pages' English, slots open: present when the pages say this entry too.
    pub en: Option<String>,
}

const DATA: &str = include_str!("../data/phrases.toml");

/// Every entry of the data file, by `section.name`.
fn entries() -> &'static HashMap<String, Entry> {
    static BOOK: OnceLock<HashMap<String, Entry>> = OnceLock::new();
    BOOK.get_or_init(|| parse(DATA).unwrap_or_else(|e| panic!("data/phrases.toml: {e}")))
}

/// Why a phrasebook could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The file is not TOML.
    #[error("{0}")]
    Toml(String),
    /// A top-level value is not a `[section]`.
    #[error("[{0}] is not a table")]
    NotASection(String),
    /// An entry is not `[display, cantonese, mandarin]` or `[display, cantonese, mandarin,
    /// english]`.
    #[error("{0}: want [display, cantonese, mandarin] or [display, cantonese, mandarin, english]")]
    Forms(String),
    /// The forms of an entry do not name the same slots.
    #[error("{entry}: the {form} form has slots {found:?}, the display form {want:?}")]
    Slots {
        /// The entry.
        entry: String,
        /// The form that differs.
        form: &'static str,
        /// Its slots.
        found: Vec<String>,
        /// The display form's slots.
        want: Vec<String>,
    },
}

/// Reads a phrasebook: tables of `name = [display, cantonese, mandarin]`, or with a fourth
/// form, the pages' English, for an entry the pages share. Every form names the same slots.
pub fn parse(text: &str) -> Result<HashMap<String, Entry>, ParseError> {
    let table: toml::Table = text.parse().map_err(|e| ParseError::Toml(format!("{e}")))?;
    let mut out = HashMap::new();
    for (section, entries) in table {
        let entries = entries
            .as_table()
            .ok_or_else(|| ParseError::NotASection(section.clone()))?;
        for (name, value) in entries {
            let key = format!("{section}.{name}");
            let forms: Vec<&str> = value
                .as_array()
                .map(|a| a.iter().filter_map(toml::Value::as_str).collect())
                .unwrap_or_default();
            let (display, yue, cmn, en) = match forms[..] {
                [d, y, c] => (d, y, c, None),
                [d, y, c, e] => (d, y, c, Some(e)),
                _ => return Err(ParseError::Forms(key)),
            };
            same_slots(&key, display, &[("cantonese", yue), ("mandarin", cmn)])?;
            if let Some(en) = en {
                same_slots(&key, display, &[("english", en)])?;
            }
            let entry = Entry {
                phrase: Phrase::new(display, yue, cmn),
                en: en.map(str::to_owned),
            };
            out.insert(key, entry);
        }
    }
    Ok(out)
}

/// The `{slot}` names of a template, sorted.
fn slots(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        found.push(after[..close].to_owned());
        rest = &after[close + 1..];
    }
    found.sort();
    found.dedup();
    found
}

fn same_slots(key: &str, display: &str, forms: &[(&'static str, &str)]) -> Result<(), ParseError> {
    let want = slots(display);
    for &(form, text) in forms {
        let found = slots(text);
        if found != want {
            return Err(ParseError::Slots {
                entry: key.to_owned(),
                form,
                found,
                want,
            });
        }
    }
    Ok(())
}

/// All entry keys of the built-in phrasebook (for tests and warm-up).
pub fn keys() -> impl Iterator<Item = &'static str> {
    entries().keys().map(String::as_str)
}

/// The built-in entry `key` (`section.name`), with its slots still open.
///
/// # Panics
/// When the phrasebook has no such entry: keys are the program's own, never input.
pub fn entry(key: &str) -> &'static Phrase {
    &entry_of(key).1.phrase
}

fn entry_of(key: &str) -> (&'static str, &'static Entry) {
    entries().get_key_value(key).map_or_else(
        || panic!("phrasebook has no entry {key}"),
        |(k, e)| (k.as_str(), e),
    )
}

/// The entries the pages share, sorted by key: `(key, display, english)`, slots open.
pub fn shared() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut out: Vec<_> = entries()
        .iter()
        .filter_map(|(k, e)| Some((k.as_str(), e.phrase.display.as_str(), e.en.as_deref()?)))
        .collect();
    out.sort_unstable();
    out
}

/// Fills the `{slot}`s of entry `key`, each form from the same form of the slot's phrase, in
/// one pass: a slot's value is never read for slots again (a referee's note may hold braces).
///
/// # Panics
/// When the phrasebook has no such entry (see [`entry`]).
pub fn fill(key: &str, slots: &[(&str, &Phrase)]) -> Phrase {
    let (key, template) = entry_of(key);
    let t = &template.phrase;
    Phrase {
        display: substitute(&t.display, slots, |p| &p.display),
        yue: space_romanisation(&substitute(&t.yue, slots, |p| &p.yue)),
        cmn: substitute(&t.cmn, slots, |p| &p.cmn),
        entry: Some(key),
    }
}

/// The same entry, unfilled (an entry with no slots), marked with its key.
pub fn plain(key: &str) -> Phrase {
    fill(key, &[])
}

/// `template` with each `{slot}` named in `slots` replaced by that form of its value, left to
/// right; a `{name}` not in `slots` stays as it is.
fn substitute(template: &str, slots: &[(&str, &Phrase)], form: fn(&Phrase) -> &str) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let name = &after[..close];
            let (_, v) = slots.iter().find(|(slot, _)| *slot == name)?;
            Some((form(v), close))
        });
        if let Some((v, close)) = value {
            out.push_str(v);
            rest = &after[close + 1..];
        } else {
            out.push('{');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Puts a space between a character and a romanised syllable next to it (`紅方coeng4` →
/// `紅方 coeng4`), so that the voice never reads them as one word.
fn space_romanisation(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if let Some(p) = prev {
            let roman = |c: char| c.is_ascii_alphanumeric();
            let han = |c: char| !c.is_ascii() && c.is_alphanumeric();
            if (roman(p) && han(c)) || (han(p) && roman(c)) {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_value_is_never_read_for_slots_again() {
        let note = Phrase::new("{side}", "{side}", "{side}");
        let red = Phrase::new("紅方", "紅方", "hong2 fang1");
        let p = fill("referee.warning_you", &[("text", &note), ("side", &red)]);
        assert!(p.display.contains("{side}"), "{}", p.display);
        assert_eq!(p.entry, Some("referee.warning_you"));
    }

    #[test]
    fn every_form_of_an_entry_names_the_same_slots() {
        let bad = "[a]\nb = [\"{x}你\", \"{x}你\", \"ni3\"]\n";
        assert!(matches!(
            parse(bad),
            Err(ParseError::Slots {
                form: "mandarin",
                ..
            })
        ));
        let bad_en = "[a]\nb = [\"{x}你\", \"{x}你\", \"{x} ni3\", \"you\"]\n";
        assert!(matches!(
            parse(bad_en),
            Err(ParseError::Slots {
                form: "english",
                ..
            })
        ));
    }

    #[test]
    fn the_data_file_parses_and_shared_entries_have_english() {
        assert!(keys().count() > 100);
        for (key, zh, en) in shared() {
            assert!(!zh.is_empty() && !en.is_empty(), "{key}");
            assert!(
                en.chars().all(|c| c.is_ascii() || "’—–…".contains(c)),
                "{key}: English with other letters: {en}"
            );
        }
    }

    #[test]
    fn an_unknown_slot_stays_and_a_lone_brace_is_kept() {
        let x = Phrase::new("X", "X", "X");
        assert_eq!(substitute("a{b}c{", &[("z", &x)], |p| &p.display), "a{b}c{");
        assert_eq!(substitute("{z}{z}", &[("z", &x)], |p| &p.display), "XX");
    }
}
