//! `baoqi moves`: the legal moves of a position.

use clap::Args;

use super::{CliError, position_from};

/// Arguments of `baoqi moves`.
#[derive(Debug, Args)]
pub(crate) struct MovesArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
}

/// Prints the legal moves in ICCS, sorted, space-separated, on one line.
pub(crate) fn run(args: &MovesArgs) -> Result<(), CliError> {
    let pos = position_from(args.fen.as_deref())?;
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    println!("{}", moves.join(" "));
    Ok(())
}
