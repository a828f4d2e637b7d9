//! `baoqi bench load`: the server under N games of scripted bots over real WebSocket
//! connections; `baoqi bench speech`: the blind player's readings and speech latency.

use std::path::PathBuf;

use baoqi_server::bench::{BenchOptions, run_blocking};
use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `baoqi bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    action: BenchAction,
}

#[derive(Debug, Subcommand)]
enum BenchAction {
    /// Bots play N games (words, board reports, clock presses, queries) plus one referee
    /// monitor per 10 tables; prints latency percentiles, events/s, lost and reordered events.
    Load {
        /// Games played at once.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Seconds of play.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// A running server (`http://127.0.0.1:7878`); default: one started in-process.
        #[arg(long)]
        url: Option<String>,
        /// The running server's database (with `--url`).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Commands per second per game.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
    },
    /// Lengths of the long readings and, through a sound device or a file tap, the latency
    /// of a key's echo and of the opponent's move while a reading plays.
    Speech(super::bench_speech::SpeechArgs),
}

/// Runs `baoqi bench …`.
pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    let (games, seconds, url, db, rate) = match &args.action {
        BenchAction::Speech(a) => return super::bench_speech::run(a),
        BenchAction::Load {
            games,
            seconds,
            url,
            db,
            rate,
        } => (games, seconds, url, db, rate),
    };
    let opts = BenchOptions {
        games: *games,
        seconds: *seconds,
        url: url.clone(),
        db: db.clone(),
        rate: *rate,
    };
    let report = run_blocking(&opts).map_err(CliError::Failed)?;
    print!("{report}");
    Ok(())
}
