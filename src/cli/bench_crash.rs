//! `baoqi bench crash`: `kill -9` rounds against `baoqi serve` (this very executable, in
//! its own process) on a table whose log is filled to 10,000+ entries first. Prints one
//! line per round and a summary; exits 1 when a check fails (an acknowledged command lost,
//! a clock off by more than the tolerance, a flag fall or a moving clock while paused).

use std::path::PathBuf;

use baoqi_bench::crash::{CrashOptions, run_blocking};
use clap::Args;

use super::CliError;

/// Arguments of `baoqi bench crash`.
#[derive(Debug, Args)]
pub(crate) struct CrashArgs {
    /// `kill -9` rounds.
    #[arg(long, default_value_t = 100)]
    rounds: usize,
    /// Log entries stored (in-process, without rate limits) before the first round.
    #[arg(long, default_value_t = 10_000)]
    entries: usize,
    /// The database to create (a new path); default: a temporary file, removed when every
    /// check passed.
    #[arg(long)]
    db: Option<PathBuf>,
    /// Seeds the game and the kill instants.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The largest difference allowed between a clock at the kill and after the restart, ms.
    #[arg(long, default_value_t = 100)]
    tolerance_ms: u64,
    /// Print only the summary, not a line per round.
    #[arg(long)]
    quiet: bool,
}

/// Runs `baoqi bench crash`.
pub(crate) fn run(a: &CrashArgs) -> Result<(), CliError> {
    if a.rounds == 0 {
        return Err(CliError::Usage("--rounds must be at least 1".into()));
    }
    let exe = std::env::current_exe()?;
    let opts = CrashOptions {
        rounds: a.rounds,
        entries: a.entries,
        db: a.db.clone(),
        seed: a.seed,
        tolerance_ms: a.tolerance_ms,
        ..CrashOptions::new(exe)
    };
    let quiet = a.quiet;
    let report = run_blocking(&opts, &mut |round| {
        if !quiet {
            println!("{round}");
        }
    })
    .map_err(|e| CliError::Failed(e.to_string()))?;
    print!("{report}");
    if report.passed() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "crash bench failed: {} checks",
            report.failures().len()
        )))
    }
}
