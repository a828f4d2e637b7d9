//! `baoqi announce`: feeds an announcement (報棋) to the word-by-word parser and prints its
//! answer after every word (SPEC §5).

use baoqi_grammar::{Announcer, Completion, Mode};
use clap::Args;

use super::{CliError, position_from};

/// Arguments of `baoqi announce`.
#[derive(Debug, Args)]
pub(crate) struct AnnounceArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Accept the plain form for two same pieces on a file (the rule text asks for 前/後).
    #[arg(long)]
    lenient: bool,
    /// The words, one per argument, or several Chinese characters in one argument
    /// (`馬二進三`: one word per character).
    #[arg(required = true, allow_hyphen_values = true)]
    words: Vec<String>,
}

/// Prints `WORD<TAB>possible|impossible<TAB>TOUCHED<TAB>COMPLETIONS<TAB>WHY` per word and,
/// when four words were given, `complete<TAB>legal|illegal<TAB>ICCS-or-why`.
pub(crate) fn run(args: &AnnounceArgs) -> Result<(), CliError> {
    let pos = position_from(args.fen.as_deref())?;
    let mode = if args.lenient {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let mut announcer = Announcer::new(&pos, mode);
    let words: Vec<String> = args.words.iter().flat_map(|w| split_word(w)).collect();
    let mut complete = None;
    let mut impossible = None;
    for w in &words {
        let step = announcer.push_text(w);
        let touched = step
            .touched
            .map_or_else(|| "-".to_string(), |p| p.to_string());
        let status = if step.possible {
            "possible"
        } else {
            "impossible"
        };
        let why = if step.possible && step.touched.is_some() && !step.touched_can_move {
            "the touched piece has no legal move".to_string()
        } else {
            step.why
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        println!("{w}\t{status}\t{touched}\t{}\t{why}", step.completions);
        if !step.possible && impossible.is_none() {
            impossible = step.why.map(|w| w.to_string());
        }
        complete = step.complete.or(complete);
    }
    if words.len() == 4 {
        match (complete, impossible) {
            (Some(Completion::Legal { mv, .. }), None) => println!("complete\tlegal\t{mv}"),
            (Some(Completion::Illegal { why, .. }), None) => println!("complete\tillegal\t{why}"),
            (_, why) => println!(
                "complete\tillegal\timpossible: {}",
                why.unwrap_or_else(|| "the words are not a designation".into())
            ),
        }
    }
    Ok(())
}

/// Splits an argument into words: a run of CJK characters or full-width numerals gives one
/// word per character; anything else is one word (a letter, a digit, a sign).
fn split_word(arg: &str) -> Vec<String> {
    let arg = arg.trim();
    if arg.chars().count() > 1 {
        arg.chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect()
    } else {
        vec![arg.to_string()]
    }
}
