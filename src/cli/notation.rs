//! `baoqi notation`: reading a move text in a position, and writing a move in a style.

use std::io::{BufRead, Write};

use baoqi_grammar::speech::{self, Lang};
use baoqi_grammar::{Mode, Style, parse_move, render_marked};
use baoqi_rules::{Move, Position};
use clap::{Args, Subcommand, ValueEnum};

use super::{CliError, position_from};

/// Arguments of `baoqi notation`.
#[derive(Debug, Args)]
pub(crate) struct NotationArgs {
    #[command(subcommand)]
    command: NotationCommand,
}

#[derive(Debug, Subcommand)]
enum NotationCommand {
    /// Read a move text (any notation of 附表六, or ICCS) and print the ICCS move.
    Parse(ParseArgs),
    /// Write a legal move (ICCS) in a notation.
    Render(RenderArgs),
}

/// Strictness of reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    /// As real records are written (plain form for two pieces on a file when only one can move).
    Lenient,
    /// As the rule text says.
    Strict,
}

#[derive(Debug, Args)]
struct ParseArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Read `FEN<TAB>TEXT` lines from stdin; write the ICCS move or `error: <reason>` for each.
    #[arg(long, conflicts_with = "text")]
    batch: bool,
    /// How strictly to read.
    #[arg(long, value_enum, default_value = "lenient")]
    mode: ModeArg,
    /// Shorthand for `--mode strict`.
    #[arg(long, conflicts_with = "mode")]
    strict: bool,
    /// The move text, e.g. 炮二平五, 馬８進７, C2=5, R+.3, h2e2.
    #[arg(required_unless_present = "batch", allow_hyphen_values = true)]
    text: Option<String>,
}

/// A notation style, or a spoken language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StyleArg {
    /// 炮二平五 (with the marks × ○).
    Traditional,
    /// C2=5 (with the marks × ○).
    Axf,
    /// C2.5
    Wxf,
    /// h2e2
    Iccs,
    /// Speakable Cantonese for espeak-ng `yue`.
    SpokenYue,
    /// Speakable Mandarin for espeak-ng `cmn-latn-pinyin`.
    SpokenCmn,
}

#[derive(Debug, Args)]
struct RenderArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// The style.
    #[arg(long, value_enum, default_value = "traditional")]
    style: StyleArg,
    /// The move in ICCS, e.g. h2e2.
    iccs: String,
}

/// Runs `baoqi notation`.
pub(crate) fn run(args: &NotationArgs) -> Result<(), CliError> {
    match &args.command {
        NotationCommand::Parse(a) => parse(a),
        NotationCommand::Render(a) => render(a),
    }
}

fn mode(m: ModeArg) -> Mode {
    match m {
        ModeArg::Lenient => Mode::Lenient,
        ModeArg::Strict => Mode::Strict,
    }
}

fn mode_of(args: &ParseArgs) -> Mode {
    if args.strict {
        Mode::Strict
    } else {
        mode(args.mode)
    }
}

fn parse(args: &ParseArgs) -> Result<(), CliError> {
    if args.batch {
        let stdin = std::io::stdin();
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for line in stdin.lock().lines() {
            let line = line?;
            let Some((fen, text)) = line.split_once('\t') else {
                writeln!(out, "error: expected FEN<TAB>TEXT")?;
                continue;
            };
            match Position::from_fen(fen.trim()) {
                Err(e) => writeln!(out, "error: {e}")?,
                Ok(pos) => match parse_move(&pos, text, mode_of(args)) {
                    Ok(mv) => writeln!(out, "{mv}")?,
                    Err(e) => writeln!(out, "error: {e}")?,
                },
            }
        }
        return Ok(());
    }
    let pos = position_from(args.fen.as_deref())?;
    let text = args.text.as_deref().unwrap_or_default();
    let mv = parse_move(&pos, text, mode_of(args)).map_err(|e| CliError::Usage(e.to_string()))?;
    println!("{mv}");
    Ok(())
}

fn render(args: &RenderArgs) -> Result<(), CliError> {
    let pos = position_from(args.fen.as_deref())?;
    let mv: Move = args
        .iccs
        .parse()
        .map_err(|e| CliError::Usage(format!("{e}")))?;
    let bad = |e: baoqi_grammar::RenderError| CliError::Usage(e.to_string());
    let text = match args.style {
        StyleArg::Traditional => render_marked(&pos, mv, Style::Traditional).map_err(bad)?,
        StyleArg::Axf => render_marked(&pos, mv, Style::Axf).map_err(bad)?,
        StyleArg::Wxf => render_marked(&pos, mv, Style::Wxf).map_err(bad)?,
        StyleArg::Iccs => render_marked(&pos, mv, Style::Iccs).map_err(bad)?,
        StyleArg::SpokenYue => speech::move_phrase(&pos, mv, Lang::Yue).map_err(bad)?.speak,
        StyleArg::SpokenCmn => speech::move_phrase(&pos, mv, Lang::Cmn).map_err(bad)?.speak,
    };
    println!("{text}");
    Ok(())
}
