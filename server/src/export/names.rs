//! Download names: `baoqi-<event>-r<round>-t<table>.pgn`, sent in a `Content-Disposition`
//! header (RFC 6266) with an ASCII `filename` for every browser and the full name, Chinese
//! included, in `filename*=UTF-8''…` (RFC 8187) for those that read it.

use std::fmt::Write as _;

use baoqi_store::model::EventId;

use super::SheetHeader;

/// A download's name in both forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileName {
    /// ASCII letters, digits, `-` and `.` only.
    pub ascii: String,
    /// The full name (UTF-8; letters of any script kept).
    pub full: String,
}

impl FileName {
    /// The name of a table's export: event, round and table, then `.ext`. The event's ASCII
    /// form falls back to `e<number>` when its name has no ASCII letter or digit.
    pub fn of_table(h: &SheetHeader, event_id: EventId, ext: &str) -> FileName {
        let rest =
            |slug: fn(&str) -> String| format!("r{}-t{}.{ext}", slug(&h.round), slug(&h.table));
        let ascii_event = non_empty(slug_ascii(&h.event), || format!("e{event_id}"));
        FileName {
            ascii: format!("baoqi-{ascii_event}-{}", rest(slug_ascii)),
            full: format!("baoqi-{}-{}", slug_full(&h.event), rest(slug_full)),
        }
    }

    /// The name of an event's export: `baoqi-<event>-<what>.ext`.
    pub fn of_event(name: &str, event_id: EventId, what: &str, ext: &str) -> FileName {
        let ascii_event = non_empty(slug_ascii(name), || format!("e{event_id}"));
        FileName {
            ascii: format!("baoqi-{ascii_event}-{what}.{ext}"),
            full: format!("baoqi-{}-{what}.{ext}", slug_full(name)),
        }
    }

    /// The `Content-Disposition` value: `attachment` (the browser saves the file) or
    /// `inline` (it shows it, and saves it under this name when asked).
    pub fn disposition(&self, attachment: bool) -> String {
        let kind = if attachment { "attachment" } else { "inline" };
        let mut value = format!("{kind}; filename=\"{}\"", self.ascii);
        if self.full != self.ascii {
            let _ = write!(value, "; filename*=UTF-8''{}", percent_encoded(&self.full));
        }
        value
    }
}

fn non_empty(s: String, otherwise: impl FnOnce() -> String) -> String {
    if s.is_empty() { otherwise() } else { s }
}

/// Lower-case ASCII letters and digits; every other run of characters becomes one `-`.
fn slug_ascii(s: &str) -> String {
    slug(s, |c| c.is_ascii_alphanumeric())
}

/// Letters and digits of any script (lower-cased); every other run becomes one `-`.
fn slug_full(s: &str) -> String {
    slug(s, char::is_alphanumeric)
}

fn slug(s: &str, keep: fn(char) -> bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if keep(c) {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// RFC 8187 `value-chars`: `attr-char`s as they are, every other byte as `%XX`.
fn percent_encoded(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(event: &str, round: &str, table: &str) -> SheetHeader {
        SheetHeader {
            event: event.into(),
            date: String::new(),
            day: None,
            started: None,
            venue: String::new(),
            round: round.into(),
            table: table.into(),
            label: String::new(),
            referee: String::new(),
        }
    }

    #[test]
    fn a_chinese_event_gets_an_ascii_fallback_and_an_encoded_full_name() {
        let name = FileName::of_table(
            &header("2026 視障及共融象棋公開賽", "1", "2"),
            EventId(1),
            "pgn",
        );
        assert_eq!(name.ascii, "baoqi-2026-r1-t2.pgn");
        assert_eq!(name.full, "baoqi-2026-視障及共融象棋公開賽-r1-t2.pgn");
        assert_eq!(
            name.disposition(true),
            "attachment; filename=\"baoqi-2026-r1-t2.pgn\"; filename*=UTF-8''baoqi-2026-\
             %E8%A6%96%E9%9A%9C%E5%8F%8A%E5%85%B1%E8%9E%8D%E8%B1%A1%E6%A3%8B%E5%85%AC%E9%96%8B%E8%B3%BD\
             -r1-t2.pgn"
        );
    }

    #[test]
    fn names_without_ascii_and_with_punctuation() {
        let name = FileName::of_table(&header("公開賽", "第一輪", "A/3"), EventId(4), "txt");
        assert_eq!(name.ascii, "baoqi-e4-r-ta-3.txt");
        assert_eq!(name.full, "baoqi-公開賽-r第一輪-ta-3.txt");
        let plain = FileName::of_table(&header("Open \"Cup\" 2026", "2", "5"), EventId(1), "pgn");
        assert_eq!(
            plain.disposition(false),
            "inline; filename=\"baoqi-open-cup-2026-r2-t5.pgn\""
        );
        let results = FileName::of_event("公開賽", EventId(4), "results", "txt");
        assert_eq!(results.ascii, "baoqi-e4-results.txt");
    }
}
