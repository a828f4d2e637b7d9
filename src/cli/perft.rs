//! `baoqi perft`: leaf-node counts with time and speed.

use std::time::Instant;

use baoqi_rules::{divide, perft};
use clap::Args;

use super::{CliError, position_from};

/// Arguments of `baoqi perft`.
#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// Depth in plies (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: u32,
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
}

/// Prints `time`, `nodes/s` and, as the last line, the node count alone.
pub(crate) fn run(args: &PerftArgs) -> Result<(), CliError> {
    let mut pos = position_from(args.fen.as_deref())?;
    let started = Instant::now();
    let nodes = if args.divide {
        let mut lines = divide(&mut pos, args.depth);
        lines.sort_by_key(|(m, _)| m.to_string());
        for (m, n) in &lines {
            println!("{m}: {n}");
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    println!("time: {secs:.3} s");
    println!("speed: {:.1} M nodes/s", rate / 1e6);
    println!("{nodes}");
    Ok(())
}
