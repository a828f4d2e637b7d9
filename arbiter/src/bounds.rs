//! The bounds of a match configuration: values no match can use are refused when the
//! configuration is read, with the field and the reason, instead of overflowing a clock or
//! filling memory later. Pure: [`MatchConfig::check`].

use crate::config::{MatchConfig, SideConfig, TimeControl};

/// The longest time a side may be given (附表三 knows nothing near it): a day.
pub const MAX_BASE_MS: u64 = 24 * 3_600_000;
/// The largest increment, Bronstein maximum or delay: an hour.
pub const MAX_EXTRA_MS: u64 = 3_600_000;
/// The most alert thresholds of a custom set (6.6(2) lists seven, 7.7(2) eight; the load
/// benchmark alerts every 2 s of an hour, 600).
pub const MAX_THRESHOLDS: usize = 1_000;
/// The highest violation limit (127(2) has 2 and 4).
pub const MAX_VIOLATION_LIMIT: u32 = 100;
/// The longest name of a player, a proxy or a header field, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The longest start position (a FEN is under 100 characters).
pub const MAX_FEN_CHARS: usize = 200;

/// A field of a configuration outside its bounds, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {why}")]
pub struct OutOfBounds {
    /// The field, as the event file writes it (`time.blind.base_ms`, `red.name`).
    pub field: String,
    /// What is wrong.
    pub why: Bound,
}

/// What is wrong with a value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Bound {
    /// A number below its smallest value.
    #[error("{found} is less than {min}")]
    Below {
        /// The value given.
        found: u64,
        /// The smallest allowed.
        min: u64,
    },
    /// A name with nothing in it.
    #[error("is empty")]
    Empty,
    /// A number above its largest value.
    #[error("{found} is more than {max}")]
    Above {
        /// The value given.
        found: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A list or a text longer than allowed.
    #[error("{found} is more than the {max} allowed")]
    TooLong {
        /// Its length.
        found: usize,
        /// The most allowed.
        max: usize,
    },
    /// A text holding a control character.
    #[error("holds a control character")]
    Control,
    /// A text holding a bidirectional control or a zero-width character
    /// ([`is_invisible_format`]).
    #[error("holds U+{0:04X}, an invisible character that reorders or hides the text around it")]
    Invisible(u32),
}

impl MatchConfig {
    /// Whether no violation ever loses the game (every limit 0: 70(4) could never apply).
    pub fn without_violation_limits(&self) -> bool {
        let l = &self.limits;
        l.technical == 0 && l.recording == 0 && l.clock == 0
    }

    /// Checks every value against its bound; the first one outside is reported.
    pub fn check(&self) -> Result<(), OutOfBounds> {
        side(&self.red, "red")?;
        side(&self.black, "black")?;
        let t = &self.time;
        time(&t.default, "time.default")?;
        let categories = [
            (&t.blind, "time.blind"),
            (&t.partially_sighted, "time.partially_sighted"),
            (&t.physical, "time.physical"),
            (&t.deaf, "time.deaf"),
            (&t.sighted, "time.sighted"),
            (&t.vi_with_proxy, "time.vi_with_proxy"),
        ];
        for (tc, field) in categories {
            if let Some(tc) = tc {
                time(tc, field)?;
            }
        }
        let thresholds = &self.alerts.thresholds_ms;
        length("alerts.thresholds_ms", thresholds.len(), MAX_THRESHOLDS)?;
        for &ms in thresholds {
            at_most("alerts.thresholds_ms", ms, MAX_BASE_MS)?;
        }
        let l = &self.limits;
        for (n, field) in [
            (l.technical, "limits.technical"),
            (l.recording, "limits.recording"),
            (l.clock, "limits.clock"),
        ] {
            at_most(field, u64::from(n), u64::from(MAX_VIOLATION_LIMIT))?;
        }
        for (t, side) in [(&self.carried.red, "red"), (&self.carried.black, "black")] {
            for (n, kind) in [
                (t.technical, "technical"),
                (t.recording, "recording"),
                (t.clock, "clock"),
            ] {
                let field = format!("carried.{side}.{kind}");
                at_most(&field, u64::from(n), u64::from(MAX_VIOLATION_LIMIT))?;
            }
        }
        if let Some(fen) = &self.start_fen {
            text("start_fen", fen, MAX_FEN_CHARS)?;
        }
        let h = &self.header;
        for (value, field) in [
            (&h.event, "header.event"),
            (&h.date, "header.date"),
            (&h.venue, "header.venue"),
            (&h.round, "header.round"),
            (&h.table, "header.table"),
            (&h.referee, "header.referee"),
        ] {
            text(field, value, MAX_NAME_CHARS)?;
        }
        Ok(())
    }
}

/// A side's name, proxy and own time.
fn side(s: &SideConfig, color: &str) -> Result<(), OutOfBounds> {
    text(&format!("{color}.name"), &s.name, MAX_NAME_CHARS)?;
    if let Some(p) = &s.proxy {
        text(&format!("{color}.proxy"), p, MAX_NAME_CHARS)?;
    }
    if let Some(t) = &s.time {
        time(t, &format!("{color}.time"))?;
    }
    Ok(())
}

fn time(t: &TimeControl, field: &str) -> Result<(), OutOfBounds> {
    at_most(&format!("{field}.base_ms"), t.base_ms, MAX_BASE_MS)?;
    at_most(&format!("{field}.extra_ms"), t.extra_ms, MAX_EXTRA_MS)
}

/// A number in `min..=max`.
pub fn within(field: &str, found: u64, min: u64, max: u64) -> Result<(), OutOfBounds> {
    if found < min {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::Below { found, min },
        });
    }
    at_most(field, found, max)
}

/// A name: not blank, at most [`MAX_NAME_CHARS`], no control character nor invisible one.
pub fn name(field: &str, value: &str) -> Result<(), OutOfBounds> {
    if value.trim().is_empty() {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::Empty,
        });
    }
    text(field, value, MAX_NAME_CHARS)
}

/// A number of at most `max`.
pub fn at_most(field: &str, found: u64, max: u64) -> Result<(), OutOfBounds> {
    if found > max {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::Above { found, max },
        });
    }
    Ok(())
}

/// A list or text of at most `max` items.
pub fn length(field: &str, found: usize, max: usize) -> Result<(), OutOfBounds> {
    if found > max {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::TooLong { found, max },
        });
    }
    Ok(())
}

/// Whether `c` changes how the text around it reads without being seen itself: the
/// bidirectional embeddings, overrides, isolates and marks (U+202A–202E, U+2066–2069,
/// U+200E, U+200F, U+061C) and the zero-width characters (U+200B–200D, U+2060, U+FEFF). In a
/// name, an unclosed override reverses the rest of a page's line, and a zero-width space
/// makes a second name that looks the same as the first; no name, word or reason needs one.
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'
            | '\u{FEFF}'
    )
}

/// The first character of a sentence (a reason, a note) that no log line may hold: a control
/// character other than a line break, or an invisible one ([`is_invisible_format`]).
pub fn hidden_in_sentence(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| (c.is_control() && c != '\n') || is_invisible_format(c))
}

/// A text of at most `max` characters, none a control character nor an invisible one
/// ([`is_invisible_format`]).
pub fn text(field: &str, value: &str, max: usize) -> Result<(), OutOfBounds> {
    if value.chars().any(char::is_control) {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::Control,
        });
    }
    if let Some(c) = value.chars().find(|&c| is_invisible_format(c)) {
        return Err(OutOfBounds {
            field: field.to_string(),
            why: Bound::Invisible(u32::from(c)),
        });
    }
    length(field, value.chars().count(), max)
}
