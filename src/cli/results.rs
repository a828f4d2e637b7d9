//! `baoqi round results` (the result grid of a round, or of every round) and `baoqi round
//! result` (enter, correct or clear one board's result), over the organiser's grid
//! (第87條, 附表七 7.9).

use baoqi_organiser::grid::{self, Entry, EntryError, Signed};
use baoqi_organiser::standings::result_text;
use baoqi_organiser::{late, results};
use baoqi_store::Database;
use baoqi_store::model::{EventId, TableId};
use baoqi_tournament::{GameResult, RoundNumber};
use clap::{Args, ValueEnum};

use super::CliError;
use super::tournament::{event_error, open, store};

/// A result the organiser enters.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Won {
    /// 紅勝.
    Red,
    /// 黑勝.
    Black,
    /// 和局.
    Draw,
    /// 強制和棋 (70(3)).
    ForcedDraw,
    /// 雙負 (70(5)).
    BothLose,
}

/// Who forfeits a game by absence (87).
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Side {
    /// 紅方 was absent.
    Red,
    /// 黑方 was absent.
    Black,
    /// Both were absent (109(4)).
    Both,
}

/// Arguments of `baoqi round results`.
#[derive(Debug, Args)]
pub(crate) struct GridArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// Only this round (every round when left out).
    #[arg(long)]
    round: Option<RoundNumber>,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// Arguments of `baoqi round result`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("entry").required(true).args(["result", "forfeit", "clear"])))]
#[command(group(clap::ArgGroup::new("at").required(true).args(["table", "board"])))]
pub(crate) struct EntryArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The board's table.
    #[arg(long)]
    table: Option<TableId>,
    /// The board (with --round): a board of any round, its table or not.
    #[arg(long, requires = "round")]
    board: Option<u32>,
    /// The round of --board.
    #[arg(long)]
    round: Option<RoundNumber>,
    /// The result: who won, or a draw.
    #[arg(long, value_enum)]
    result: Option<Won>,
    /// The side that forfeits by absence (87), scored by the event's rules.
    #[arg(long, value_enum)]
    forfeit: Option<Side>,
    /// Clears the organiser's result: the game's counts again.
    #[arg(long)]
    clear: bool,
    /// Replaces a result that counts already (a game over, verified or not, or one entered
    /// before); without it such a board is refused and its result named.
    #[arg(long)]
    overwrite: bool,
    /// Why, for the change log (asked for when replacing a result).
    #[arg(long)]
    reason: Option<String>,
    /// Who enters it, for the change log (default: the login name).
    #[arg(long)]
    by: Option<String>,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// Runs `baoqi round results`.
pub(crate) fn run_grid(args: &GridArgs) -> Result<(), CliError> {
    let s = &*open(&args.db)?;
    let outcomes =
        results::from_store(s, args.event).map_err(|e| CliError::Failed(e.to_string()))?;
    let cells = grid::grid(s, args.event, args.round, &outcomes).map_err(event_error)?;
    if cells.is_empty() {
        return Err(CliError::Usage(match args.round {
            Some(r) => format!("round {r} is not paired"),
            None => "no round is paired yet".to_string(),
        }));
    }
    print!("{}", grid::text(&cells));
    Ok(())
}

impl EntryArgs {
    fn entry(&self) -> Entry {
        let won = self.result.map(|w| match w {
            Won::Red => GameResult::RedWins,
            Won::Black => GameResult::BlackWins,
            Won::Draw => GameResult::Draw,
            Won::ForcedDraw => GameResult::ForcedDraw,
            Won::BothLose => GameResult::BothLose,
        });
        let absent = self.forfeit.map(|f| match f {
            Side::Red => GameResult::RedAbsent,
            Side::Black => GameResult::BlackAbsent,
            Side::Both => GameResult::BothAbsent,
        });
        won.or(absent).map_or(Entry::Clear, Entry::Result)
    }

    fn signed(&self) -> Signed {
        let login = || {
            ["SUDO_USER", "USER", "LOGNAME"]
                .iter()
                .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
                .unwrap_or_else(|| "organiser".to_string())
        };
        Signed {
            by: self.by.clone().unwrap_or_else(login),
            reason: self.reason.clone(),
            overwrite: self.overwrite,
        }
    }
}

/// Runs `baoqi round result`.
pub(crate) fn run_entry(args: &EntryArgs) -> Result<(), CliError> {
    if args.overwrite && args.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        return Err(CliError::Usage(
            "--overwrite replaces a result: say why with --reason".to_string(),
        ));
    }
    let s = &*open(&args.db)?;
    let outcomes =
        results::from_store(s, args.event).map_err(|e| CliError::Failed(e.to_string()))?;
    let at = match (args.table, args.round, args.board) {
        (Some(t), _, _) => grid::board_at(s, args.event, t).map_err(entry_error)?,
        (None, Some(r), Some(b)) => (r, b),
        _ => {
            return Err(CliError::Usage(
                "name the board: --table, or --round and --board".into(),
            ));
        }
    };
    let done = grid::enter_board(s, args.event, at, args.entry(), &args.signed(), &outcomes)
        .map_err(entry_error)?;
    let cell = &done.cell;
    let counts = cell
        .result
        .map_or("* (the game goes on)", |r| result_text(Some(r)));
    if done.changed {
        let last = if cell.last { ", final" } else { "" };
        println!("round {} board {}: {counts}{last}", cell.round, cell.board);
    } else {
        // Nothing was written: said so, never reported as an entry (87, 7.9).
        let from = done.was.map_or("", grid::source_text);
        println!(
            "round {} board {}: {counts} counts already ({from}); nothing changed",
            cell.round, cell.board
        );
    }
    let last = grid::last_paired(s, args.event).map_err(event_error)?;
    print!("{}", late::warning(args.event, last, &done.moved));
    Ok(())
}

fn entry_error(e: EntryError) -> CliError {
    match e {
        EntryError::Store(s) => store(&s),
        EntryError::Event(e) => event_error(e),
        EntryError::WouldReplace { .. } => {
            CliError::Usage(format!("{e}: add --overwrite and --reason"))
        }
        other => CliError::Usage(other.to_string()),
    }
}
