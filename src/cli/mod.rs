//! Subcommands of `baoqi`, one module each, and the error type they share.

pub(crate) mod adjudicate;
pub(crate) mod announce;
#[cfg(feature = "bench")]
pub(crate) mod bench;
#[cfg(feature = "bench")]
pub(crate) mod bench_crash;
#[cfg(all(feature = "bench", feature = "clients"))]
pub(crate) mod bench_speech;
#[cfg(feature = "clients")]
pub(crate) mod board;
pub(crate) mod db;
pub(crate) mod demo;
pub(crate) mod event;
#[cfg(feature = "clients")]
pub(crate) mod heard;
#[cfg(feature = "clients")]
pub(crate) mod keypad;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod organiser;
pub(crate) mod perft;
pub(crate) mod protocol;
pub(crate) mod replay;
pub(crate) mod results;
pub(crate) mod serve;
pub(crate) mod simulate;
pub(crate) mod terminal;
pub(crate) mod tournament;

use baoqi_rules::{FenError, Position, START_FEN};

/// What a subcommand can fail with. Usage errors (bad input) exit with 2, failures with 1.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The input given on the command line is not valid.
    #[error("{0}")]
    Usage(String),
    /// A FEN could not be read or is not a legal position.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Anything else that went wrong while running.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    /// The process exit code for this error: 2 for bad input, 1 otherwise.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Fen(_) => 2,
            CliError::Io(_) | CliError::Failed(_) => 1,
        }
    }
}

/// Reads `--fen`, defaulting to the start position.
pub(crate) fn position_from(fen: Option<&str>) -> Result<Position, CliError> {
    Ok(Position::from_fen(fen.unwrap_or(START_FEN))?)
}
