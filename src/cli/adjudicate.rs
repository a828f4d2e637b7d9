//! `baoqi adjudicate`: replays a game and prints the warnings and rulings of the repetition
//! and game-end rules (通用象棋規則 第10–11章, in the order of 第35條).

use baoqi_rules::{Game, Move, Position};
use clap::Args;

use super::{CliError, position_from};

/// Arguments of `baoqi adjudicate`.
#[derive(Debug, Args)]
pub(crate) struct AdjudicateArgs {
    /// The start position (default: the start position of 第17條).
    #[arg(long)]
    fen: Option<String>,
    /// The moves played, in ICCS, separated by spaces (e.g. "h2e2 h9g7").
    #[arg(long, default_value = "")]
    moves: String,
}

/// Prints one line per warning or ending in move order (`ply N ARTICLE TEXT`), then the
/// verdict: `ongoing`, or `red wins` / `black wins` / `draw` and the article.
pub(crate) fn run(args: &AdjudicateArgs) -> Result<(), CliError> {
    let start = position_from(args.fen.as_deref())?;
    for line in adjudicate(start, &args.moves)? {
        println!("{line}");
    }
    Ok(())
}

/// The lines `run` prints.
fn adjudicate(start: Position, moves: &str) -> Result<Vec<String>, CliError> {
    let mut game = Game::new(start);
    let mut lines = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let ply = i + 1;
        let mv: Move = text
            .parse()
            .map_err(|e| CliError::Usage(format!("move {ply} `{text}`: {e}")))?;
        let review = game
            .play(mv)
            .map_err(|e| CliError::Usage(format!("move {ply} `{text}`: {e}")))?;
        lines.extend(review.warnings.iter().map(ToString::to_string));
        lines.extend(review.ending.iter().map(ToString::to_string));
    }
    lines.push(match game.ending() {
        Some(r) => format!("{} {}", r.outcome, r.article()),
        None => "ongoing".to_owned(),
    });
    Ok(lines)
}
