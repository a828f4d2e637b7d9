//! Text into contracted Chinese braille cells, through liblouis's own tables (read by
//! `louis-rs`, a Rust reading of liblouis that gives the same cells: `tests/braille.rs`
//! compares them with liblouis itself).

use std::path::PathBuf;

use louis::{Direction, TranslationOptions, Translator};

use super::{BrailleError, Table};

/// Where Debian's `liblouis-data` puts the tables; `LOUIS_TABLE_PATH` is read first.
const TABLES: &str = "/usr/share/liblouis/tables";

/// Characters a table may lack, each with what is written instead: the same word (the red
/// chariot and horse are read as the black ones) or the same sign.
const FALLBACKS: &[(char, &str)] = &[
    ('俥', "車"),
    ('傌', "馬"),
    ('「', "“"),
    ('」', "”"),
    ('『', "‘"),
    ('』', "’"),
    ('（', "("),
    ('）', ")"),
    ('：', ":"),
];

/// A message in cells: each cell's dots (bit 0 = dot 1 … bit 7 = dot 8), and where a
/// written character begins, so that a display never splits one across two windows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cells {
    /// The dots of each cell.
    pub dots: Vec<u8>,
    /// `starts[i]`: cell `i` begins a character of the text.
    pub starts: Vec<bool>,
}

impl Cells {
    /// The number of cells.
    pub fn len(&self) -> usize {
        self.dots.len()
    }

    /// No cells at all.
    pub fn is_empty(&self) -> bool {
        self.dots.is_empty()
    }
}

/// Writes text in one table's braille.
pub struct Contractor {
    translator: Translator,
    /// The [`FALLBACKS`] this table needs.
    missing: Vec<(char, &'static str)>,
}

impl std::fmt::Debug for Contractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Contractor(missing {:?})", self.missing)
    }
}

impl Contractor {
    /// Reads `table` from `LOUIS_TABLE_PATH`'s folders and liblouis-data's.
    pub fn new(table: Table) -> Result<Contractor, BrailleError> {
        let mut path: Vec<PathBuf> = std::env::var_os("LOUIS_TABLE_PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        path.push(TABLES.into());
        let translator = Translator::with_search_path(&[table.file()], Direction::Forward, path)
            .map_err(|e| BrailleError::Table(table.file(), e.to_string()))?;
        let mut c = Contractor {
            translator,
            missing: Vec::new(),
        };
        c.missing = FALLBACKS
            .iter()
            .copied()
            .filter(|(ch, _)| !c.defines(*ch))
            .collect();
        Ok(c)
    }

    /// Whether the table writes `ch`: liblouis writes a character it lacks as its number
    /// (`\x4fe5`), which a reader would have to decode.
    fn defines(&self, ch: char) -> bool {
        let out = |t: &str| {
            self.translator
                .translate(t)
                .unwrap_or_default()
                .trim_matches(['\u{2800}', ' '])
                .to_owned()
        };
        let written = out(&ch.to_string());
        let number = out(&format!("\\x{:04x}", ch as u32));
        !written.is_empty() && !written.contains(&number)
    }

    /// `text` as this table writes it (full-width letters and digits as plain ones, and
    /// the characters the table lacks replaced).
    pub fn prepared(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for ch in text.chars() {
            if let Some((_, with)) = self.missing.iter().find(|(c, _)| *c == ch) {
                out.push_str(with);
            } else if ('\u{ff01}'..='\u{ff5e}').contains(&ch) {
                // Full-width forms (black's numerals １２３) as their plain characters.
                out.push(char::from_u32(ch as u32 - 0xfee0).unwrap_or(ch));
            } else {
                out.push(ch);
            }
        }
        out
    }

    /// `text` in cells.
    pub fn cells(&self, text: &str) -> Cells {
        let text = self.prepared(text);
        let Ok(r) = self
            .translator
            .translate_with_options(&text, TranslationOptions::default())
        else {
            return Cells::default();
        };
        let dots: Vec<u8> = r.output.chars().map(dots_of).collect();
        let from = r.input_positions.unwrap_or_default();
        let starts = (0..dots.len())
            .map(|i| i == 0 || from.get(i) != from.get(i - 1))
            .collect();
        Cells { dots, starts }
    }
}

/// The dots of a Unicode braille pattern (a space is a blank cell).
fn dots_of(c: char) -> u8 {
    match c as u32 {
        p @ 0x2800..=0x28ff => (p - 0x2800) as u8,
        _ => 0,
    }
}
