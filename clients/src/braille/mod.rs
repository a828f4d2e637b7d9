//! The keypad on a refreshable braille display, for a deafblind player
//! (`baoqi keypad --braille`, `docs/keypad.md`): every message the keypad speaks shown in
//! contracted Chinese braille through BRLTTY, the display's keys to read through them, and
//! its braille keyboard to type the keypad's commands.
//!
//! - [`contract`]: text into cells with liblouis's tables (Hong Kong Cantonese, Taiwanese,
//!   Mandarin).
//! - [`reader`]: what the display shows and how its keys move (pure).
//! - [`brlapi`]: BRLTTY's client protocol.
//! - [`display`]: the three together on a thread of their own.

pub mod brlapi;
pub mod contract;
pub mod display;
pub mod reader;

/// Which contracted Chinese braille (a liblouis table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// Hong Kong Cantonese braille (`zh-hk.ctb`).
    HongKong,
    /// Taiwanese (Mandarin) braille (`zh-tw.ctb`).
    Taiwan,
    /// Mainland Chinese (Mandarin) braille (`zh-chn.ctb`).
    Mainland,
}

impl Table {
    /// liblouis's file of the table.
    pub fn file(self) -> &'static str {
        match self {
            Table::HongKong => "zh-hk.ctb",
            Table::Taiwan => "zh-tw.ctb",
            Table::Mainland => "zh-chn.ctb",
        }
    }
}

/// How the braille display is reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrailleOptions {
    /// The braille.
    pub table: Table,
    /// BRLTTY's address (`:0`, `host:1`); `BRLAPI_HOST` or `:0` when `None`.
    pub host: Option<String>,
    /// `none` or a key file; `BRLAPI_AUTH` or `/etc/brlapi.key` when `None`.
    pub auth: Option<String>,
}

/// Why the braille display cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BrailleError {
    /// The liblouis table could not be read.
    #[error("braille table {0}: {1} (Debian: apt-get install liblouis-data)")]
    Table(&'static str, String),
    /// The address is not `:N`, `host:N` or `host`.
    #[error("BrlAPI address {0:?}: use :N, host:N or host")]
    Host(String),
    /// BRLTTY could not be reached.
    #[error("cannot reach BRLTTY at {0}: {1} (is brltty running with its BrlAPI server?)")]
    Connect(String, #[source] std::io::Error),
    /// The key file could not be read.
    #[error("BrlAPI key file {0}: {1}")]
    Key(String, #[source] std::io::Error),
    /// BRLTTY refused or answered something unexpected.
    #[error("BRLTTY refused: {0}")]
    Refused(String),
    /// BRLTTY closed the connection.
    #[error("BRLTTY closed the connection")]
    Closed,
    /// Reading or writing the socket failed.
    #[error("BrlAPI socket: {0}")]
    Io(#[source] std::io::Error),
}
