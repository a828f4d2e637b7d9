//! `baoqi demo`: a short tour of the rules engine, for a first run on a new machine.

use std::time::Instant;

use baoqi_grammar::{Style, render_marked};
use baoqi_rules::{Game, Move, Position, perft};
use clap::Args;

use super::CliError;

/// Arguments of `baoqi demo`.
#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// Perft depth for the speed figure at the end (0 to skip).
    #[arg(long, default_value_t = 5)]
    perft_depth: u32,
}

/// A short opening (中炮對屏風馬) and a mate, in ICCS.
const OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h4 h7i7 h4h9 g7h9";
const MATE_FEN: &str = "3k5/9/9/9/9/9/9/R8/4R4/5K3 w";

/// Plays the sample opening, shows a mate and measures move generation.
pub(crate) fn run(args: &DemoArgs) -> Result<(), CliError> {
    let mut pos = Position::start();
    println!("baoqi demo — the start position (第17條):\n{pos}\n");
    for (ply, text) in OPENING.split_whitespace().enumerate() {
        let m: Move = text.parse().map_err(|e| CliError::Failed(format!("{e}")))?;
        let traditional = render_marked(&pos, m, Style::Traditional)
            .map_err(|e| CliError::Failed(format!("{e}")))?;
        let axf =
            render_marked(&pos, m, Style::Axf).map_err(|e| CliError::Failed(format!("{e}")))?;
        pos.play(m).map_err(|e| CliError::Failed(format!("{e}")))?;
        println!("{:>2}. {traditional:<6} {axf:<6} {m}", ply + 1);
    }
    println!(
        "\n{pos}\n{} legal moves for the side to move.\n",
        pos.legal_moves().len()
    );
    let mut mate = Position::from_fen(MATE_FEN)?;
    println!("Two rooks against a bare general:\n{mate}");
    mate.play(
        "a2d2"
            .parse()
            .map_err(|e| CliError::Failed(format!("{e}")))?,
    )
    .map_err(|e| CliError::Failed(format!("{e}")))?;
    if let Some(end) = mate.ending() {
        let result = match end.winner {
            Some(c) => format!("{}方勝", c.chinese()),
            None => "和局".to_owned(),
        };
        println!(
            "after a2d2: {} ({}): {result}\n",
            end.reason.chinese(),
            end.reason.article()
        );
    }
    perpetual_check()?;
    if args.perft_depth > 0 {
        let started = Instant::now();
        let nodes = perft(&mut Position::start(), args.perft_depth);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "perft {} from the start: {nodes} nodes in {secs:.2} s ({:.1} M nodes/s)",
            args.perft_depth,
            nodes as f64 / secs / 1e6
        );
    }
    Ok(())
}

/// A rook checking on every move (長將, 58(1)): warned at the 3rd occurrence (61(2)), lost
/// when the warned position recurs (65(3)).
fn perpetual_check() -> Result<(), CliError> {
    let mut game = Game::new(Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w")?);
    println!("A perpetual check (長將):");
    for text in "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split_whitespace() {
        let m: Move = text.parse().map_err(|e| CliError::Failed(format!("{e}")))?;
        let review = game.play(m).map_err(|e| CliError::Failed(format!("{e}")))?;
        for line in review
            .warnings
            .iter()
            .map(ToString::to_string)
            .chain(review.ending.iter().map(ToString::to_string))
        {
            println!("  {line}");
        }
    }
    println!();
    Ok(())
}
