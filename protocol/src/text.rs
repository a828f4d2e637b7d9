//! The bounds of the free text a command carries. A word of an announcement is one
//! character of notation (附表六), so a longer one is no word a player could say; notes and
//! reasons are a referee's sentences. Text beyond these bounds, empty words and control
//! characters are refused at the edge, before anything is stored: every word is kept in the
//! log for good (每一字不得反悔), and a table's `state` carries that log to every seat, so
//! one player's long words would reach his opponent's client at every join.

use baoqi_arbiter::{Adjudication, Command};

/// The longest word a seat may send, in characters: a word of notation is one character
/// (炮, 二, `C`, `=`), and a spoken word transcribed in romanisation a few (`pau3`).
pub const MAX_WORD_CHARS: usize = 16;

/// The longest note, reason or warning text, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

/// The longest board placement (the board part of a FEN is at most 90 characters).
pub const MAX_PLACEMENT_CHARS: usize = 128;

/// Why a command's text is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// A word with nothing in it.
    #[error("{field} is empty: a word is one word of notation, e.g. 炮 or 二")]
    Empty {
        /// The field.
        field: &'static str,
    },
    /// Longer than its bound.
    #[error("{field} has {chars} characters, more than the {max} allowed")]
    TooLong {
        /// The field.
        field: &'static str,
        /// Its length in characters.
        chars: usize,
        /// The bound.
        max: usize,
    },
    /// A control character (NUL, a bare carriage return…).
    #[error("{field} holds a control character (U+{code:04X})")]
    Control {
        /// The field.
        field: &'static str,
        /// The character's code point.
        code: u32,
    },
    /// A bidirectional control or a zero-width character
    /// ([`baoqi_arbiter::bounds::is_invisible_format`]): it would reorder or hide what the
    /// referee and the other seats read.
    #[error(
        "{field} holds U+{code:04X}, an invisible character that reorders or hides the text around it"
    )]
    Invisible {
        /// The field.
        field: &'static str,
        /// The character's code point.
        code: u32,
    },
}

/// Checks every text of `command` against its bound.
pub fn check(command: &Command) -> Result<(), TextError> {
    match command {
        Command::Word { text } | Command::RepeatWord { text } => word(text),
        Command::CorrectBoard { placement, .. } => {
            bounded("placement", placement, MAX_PLACEMENT_CHARS, false)
        }
        Command::RecordViolation { note, .. } | Command::VerifyResult { note } => {
            bounded("note", note, MAX_NOTE_CHARS, true)
        }
        Command::IssueWarning { text, .. } => bounded("text", text, MAX_NOTE_CHARS, true),
        Command::Adjudicate {
            ruling: Adjudication::Result { reason, .. },
        } => bounded("reason", reason, MAX_NOTE_CHARS, true),
        _ => Ok(()),
    }
}

/// A word: not blank, at most [`MAX_WORD_CHARS`], no control character.
fn word(text: &str) -> Result<(), TextError> {
    if text.trim().is_empty() {
        return Err(TextError::Empty { field: "text" });
    }
    bounded("text", text, MAX_WORD_CHARS, false)
}

/// At most `max` characters, no control character (a line break allowed in sentences) and
/// no invisible one.
fn bounded(field: &'static str, text: &str, max: usize, lines: bool) -> Result<(), TextError> {
    if let Some(c) = text
        .chars()
        .find(|&c| c.is_control() && !(lines && c == '\n'))
    {
        return Err(TextError::Control {
            field,
            code: u32::from(c),
        });
    }
    if let Some(c) = text
        .chars()
        .find(|&c| baoqi_arbiter::bounds::is_invisible_format(c))
    {
        return Err(TextError::Invisible {
            field,
            code: u32::from(c),
        });
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(TextError::TooLong { field, chars, max });
    }
    Ok(())
}
