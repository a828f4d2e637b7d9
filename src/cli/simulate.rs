//! `baoqi simulate`: runs a match from a configuration and a script of commands, with no
//! server, and prints every event as one JSON line with its time (for referee training and
//! for replaying disputed incidents). Formats: `docs/arbiter.md`.

use std::path::PathBuf;

use baoqi_arbiter::MatchConfig;
use baoqi_arbiter::script::{parse_script, simulate};
use clap::Args;

use super::CliError;

/// Arguments of `baoqi simulate`.
#[derive(Debug, Args)]
pub(crate) struct SimulateArgs {
    /// The match configuration (TOML).
    #[arg(long)]
    config: PathBuf,
    /// The script: one JSON command per line, `{"at": ms, "seat": "red", "type": "word", "text": "炮"}`.
    #[arg(long)]
    script: PathBuf,
    /// After the events, print the scoresheet (附表四 第三部份) to standard error.
    #[arg(long)]
    scoresheet: bool,
}

/// Prints one JSON line per event (or refused command) on standard output.
pub(crate) fn run(args: &SimulateArgs) -> Result<(), CliError> {
    let config_text = std::fs::read_to_string(&args.config)?;
    let config = MatchConfig::from_toml(&config_text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", args.config.display())))?;
    let script_text = std::fs::read_to_string(&args.script)?;
    let script = parse_script(&script_text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", args.script.display())))?;
    let (m, out) = simulate(config, &script).map_err(|e| CliError::Usage(e.to_string()))?;
    for line in &out {
        println!("{}", line.json());
    }
    if args.scoresheet {
        eprint!("{}", m.scoresheet());
    }
    Ok(())
}
