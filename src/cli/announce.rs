//! `baoqi announce`: feeds an announcement (報棋) word by word and prints, after every word,
//! what the arbiter answers a player who says it (附表七 6.3, 7.4(2)): the parser's verdict, or a refusal.

use baoqi_arbiter::Rejection;
use baoqi_grammar::{Announcer, Completion, Mode, Step};
use baoqi_rules::{Point, Position};
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

/// Prints `WORD<TAB>possible|impossible<TAB>TOUCHED<TAB>COMPLETIONS<TAB>WHY` per word, or
/// `WORD<TAB>refused<TAB>-<TAB>-<TAB>WHY` for a word the arbiter refuses, and, once an attempt
/// is complete and binding, `complete<TAB>legal|illegal<TAB>ICCS-or-why` last. An impossible
/// word completes nothing: the player may correct (6.3(6)(b), 7.4(2)(f)(ii)).
pub(crate) fn run(args: &AnnounceArgs) -> Result<(), CliError> {
    let pos = position_from(args.fen.as_deref())?;
    let mode = if args.lenient {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let mut turn = Turn::new(&pos, mode);
    for w in args.words.iter().flat_map(|w| split_word(w)) {
        match turn.push(&w) {
            Ok(step) => print_step(&w, &step),
            Err(refused) => println!("{w}\trefused\t-\t-\t{refused}"),
        }
    }
    match turn.bound {
        Some(Completion::Legal { mv, .. }) => println!("complete\tlegal\t{mv}"),
        Some(Completion::Illegal { why, .. }) => println!("complete\tillegal\t{why}"),
        None => {}
    }
    Ok(())
}

/// One word's verdict.
fn print_step(w: &str, step: &Step) {
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
}

/// The announcement of one turn as the arbiter takes it from the player (arbiter `turn.rs`):
/// the parser's answer, plus the two refusals that change nothing — a word after a complete,
/// binding announcement (後兩字落子無悔), and a word by which a new attempt names another piece
/// than the one the first two words touched, when that piece can move (頭兩字摸子走子).
struct Turn {
    pos: Position,
    announcer: Announcer,
    touched: Option<(Point, bool)>,
    bound: Option<Completion>,
}

impl Turn {
    fn new(pos: &Position, mode: Mode) -> Turn {
        Turn {
            pos: pos.clone(),
            announcer: Announcer::new(pos, mode),
            touched: None,
            bound: None,
        }
    }

    /// Gives one word: its verdict, or why the arbiter refuses it.
    fn push(&mut self, text: &str) -> Result<Step, Rejection> {
        if let Some(b) = &self.bound {
            let (Completion::Legal { designation, .. } | Completion::Illegal { designation, .. }) =
                b;
            return Err(Rejection::AnnouncementBound {
                words: designation.words(),
            });
        }
        let mut a = self.announcer.clone();
        let step = a.push_text(text);
        if let (Some((p, true)), Some(q)) = (self.touched, step.touched)
            && p != q
            && let Some(piece) = self.pos.piece_at(p)
        {
            return Err(Rejection::TouchedPiece {
                point: p,
                kind: piece.kind,
            });
        }
        self.announcer = a;
        if let Some(p) = step.touched.filter(|_| step.slot == 1 && step.possible) {
            self.touched = Some((p, step.touched_can_move));
        }
        self.bound.clone_from(&step.complete);
        Ok(step)
    }
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
