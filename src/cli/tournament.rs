//! The organiser's tournament commands on a hall's file or the federation's PostgreSQL
//! (a running server or its nodes may share it and start the new tables
//! within seconds): `baoqi players import|list|delete`, `baoqi round pair|result|results|lot`,
//! `baoqi standings`.

use std::path::PathBuf;
use std::sync::Arc;

use baoqi_organiser::lot::{self, LotError};
use baoqi_organiser::preview;
use baoqi_organiser::results::{self, ReadError};
use baoqi_organiser::rounds::{self, PairError};
use baoqi_organiser::unpair::{self, UnpairError};
use baoqi_organiser::{EventError, register, report, standings};
use baoqi_store::model::{EventId, TableId};
use baoqi_store::{Database, Store, StoreError};
use baoqi_tournament::SameName;
use clap::{Args, Subcommand, ValueEnum};

use super::CliError;

/// Opens the organiser's database: a hall's `SQLite` file, which must hold an event
/// already, or the federation's PostgreSQL, a running server's or nodes' too.
pub(super) fn open(db: &Database) -> Result<Arc<dyn Store>, CliError> {
    if let Database::Sqlite(path) = db
        && std::fs::metadata(path).map_or(true, |m| m.len() == 0)
    {
        return Err(CliError::Usage(format!(
            "{}: no database here; create the event first with `baoqi event create`",
            path.display()
        )));
    }
    db.open(false).map_err(|e| store(&e))
}

pub(super) fn store(e: &StoreError) -> CliError {
    CliError::Failed(e.to_string())
}

pub(super) fn event_error(e: EventError) -> CliError {
    match e {
        EventError::Store(s) => store(&s),
        other => CliError::Usage(other.to_string()),
    }
}

fn read_error(e: &ReadError) -> CliError {
    CliError::Failed(e.to_string())
}

/// Arguments of `baoqi players`.
#[derive(Debug, Args)]
pub(crate) struct PlayersArgs {
    #[command(subcommand)]
    action: PlayersAction,
}

#[derive(Debug, Subcommand)]
enum PlayersAction {
    /// Imports an event's register from CSV (columns `name` 姓名, `club` 所屬團體, `seed`
    /// 種子, `rating` 等級分, `category` 類別, `blindfold` 眼罩, `knows_notation` 懂記譜,
    /// `proxy` 代理, `board` 棋盤), replacing one no round has been paired on. The file may
    /// be UTF-8, UTF-16 (a BOM) or Big5 (a spreadsheet's CSV on Traditional Chinese Windows):
    /// the encoding read is said. Every bad line is reported; nothing is imported then.
    Import {
        /// The CSV file.
        csv: PathBuf,
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// Takes players of one name and club as different people (refused otherwise).
        #[arg(long)]
        allow_same_name: bool,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
    },
    /// Lists an event's register with each player's derived settings (time allowance 7.2,
    /// board, cards).
    List {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
    },
    /// Registers a late entrant (before round 1: one more player), with the CSV's fields;
    /// logged. A round robin takes none once play has begun.
    Add(super::organiser::AddArgs),
    /// Corrects fields of a player's line (an empty value clears one); logged. Tables
    /// already made keep their settings.
    Edit(super::organiser::EditArgs),
    /// Withdraws a player (89(2)): before round 1 the draw is made without him; in a Swiss
    /// his results stand and he is paired no more. Logged with the reason.
    Withdraw(super::organiser::WithdrawArgs),
    /// Strikes a line entered by mistake (a duplicate, a player who never came) before the
    /// player is paired: a clerical correction, not a withdrawal (89(2)). Logged; the
    /// others keep their numbers.
    Delete(super::organiser::WithdrawArgs),
}

/// The import's refusal in words; a refused namesake says how to confirm.
fn import_error(csv: &std::path::Path, e: register::ImportError) -> CliError {
    match e {
        register::ImportError::Store(s) => store(&s),
        register::ImportError::Event(e) => event_error(e),
        register::ImportError::Register(r)
            if r.lines()
                .iter()
                .any(|l| matches!(l, baoqi_tournament::LineError::SameName { .. })) =>
        {
            CliError::Usage(format!(
                "{}: {r}\n(two players of one name and club: --allow-same-name imports both)",
                csv.display()
            ))
        }
        other => CliError::Usage(format!("{}: {other}", csv.display())),
    }
}

/// Runs `baoqi players …`.
pub(crate) fn run_players(args: &PlayersArgs) -> Result<(), CliError> {
    match &args.action {
        PlayersAction::Import {
            csv,
            event,
            allow_same_name,
            db,
        } => {
            let bytes = std::fs::read(csv)
                .map_err(|e| CliError::Usage(format!("{}: {e}", csv.display())))?;
            let same_name = if *allow_same_name {
                SameName::Allow
            } else {
                SameName::Refuse
            };
            let s = &*open(db)?;
            let imported = register::import_file(s, *event, &bytes, same_name)
                .map_err(|e| import_error(csv, e))?;
            println!(
                "{} players registered in event {event} (read as {})",
                imported.players.len(),
                imported.encoding
            );
            if !imported.unread.is_empty() {
                println!(
                    "columns not read (not part of the register): {}",
                    imported.unread.join(", ")
                );
            }
            let (rules, players) = register::list(s, *event).map_err(event_error)?;
            print!("{}", register::list_text(&rules, &players));
        }
        PlayersAction::List { event, db } => {
            let s = &*open(db)?;
            let (rules, players) = register::list(s, *event).map_err(event_error)?;
            print!("{}", register::list_text(&rules, &players));
        }
        PlayersAction::Add(a) => super::organiser::run_add(a)?,
        PlayersAction::Edit(a) => super::organiser::run_edit(a)?,
        PlayersAction::Withdraw(a) => super::organiser::run_withdraw(a)?,
        PlayersAction::Delete(a) => super::organiser::run_delete(a)?,
    }
    Ok(())
}

/// Arguments of `baoqi round`.
#[derive(Debug, Args)]
pub(crate) struct RoundArgs {
    #[command(subcommand)]
    action: RoundAction,
}

#[derive(Debug, Subcommand)]
enum RoundAction {
    /// Pairs the next round by the event's system and creates its tables with seats;
    /// prints each table's players and join links (tokens shown only this once). In a
    /// knock-out, a tie still level gets its tie-break games as more tables of its round.
    Pair {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// A referee of this round (監局): a seat covering all its new tables, its monitor
        /// link printed with the pairings. Repeat for more; the event file's
        /// `[[tournament.referees]]` add theirs by round and board.
        #[arg(long = "referee", value_name = "NAME")]
        referees: Vec<String>,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
        /// The server's public address, for the join links (default: the one the event was
        /// created with).
        #[arg(long)]
        url: Option<String>,
        /// Shows the round the system would draw, and who was absent last round, and writes
        /// nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Takes back the last round before any of its games started (to pair it again): its
    /// boards removed, its seats' links revoked, its tables set aside. Logged.
    Unpair {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
    },
    /// Enters, corrects or clears one board's result, in any round: a result the table
    /// cannot give (an absence, 87), or one put right. A board whose result counts already
    /// (a game over, or entered before) is refused, its result named, unless --overwrite
    /// (with --reason). Logged with who and why.
    Result(super::results::EntryArgs),
    /// The result grid: every board of a round (or of every round), the game's result, the
    /// organiser's, and the one that counts.
    Results(super::results::GridArgs),
    /// Corrects a board of the current round (108): colours reversed (replayed within 5′ of
    /// the start in a game of 15′ or more a side, else recorded as played), or a wrong
    /// pairing (two boards' players exchanged and replayed, only within that window).
    Override(super::organiser::OverrideArgs),
    /// Draws the lot (抽籤) of a knock-out tie still level after its tie-break games, when
    /// the event's decider is the lot: the server draws at random, logs the draw, and the
    /// next `baoqi round pair` sends the winner through. Drawn once per tie.
    Lot {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// A table of the tie (any of its games).
        #[arg(long)]
        table: TableId,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
    },
}

/// Runs `baoqi round …`.
pub(crate) fn run_round(args: &RoundArgs) -> Result<(), CliError> {
    match &args.action {
        RoundAction::Pair {
            event,
            referees,
            db,
            url,
            dry_run,
        } => {
            let s = &*open(db)?;
            let base = super::event::link_base(s, *event, url.as_deref())?;
            let outcomes = results::from_store(s, *event).map_err(|e| read_error(&e))?;
            let pair_error = |e| match e {
                PairError::Store(s) => store(&s),
                PairError::Event(e) => event_error(e),
                other => CliError::Usage(other.to_string()),
            };
            if *dry_run {
                let p = preview::preview(s, *event, &outcomes).map_err(pair_error)?;
                print!("{}", preview::text(&p));
                return Ok(());
            }
            // Who was absent last round is said before the new round's listing (87, 109(5)).
            let absent = preview::absentees(s, *event, &outcomes).map_err(event_error)?;
            print!("{}", preview::absent_text(&absent));
            let options = rounds::PairOptions {
                referees: referees.clone(),
            };
            let paired = rounds::pair_with(s, *event, &outcomes, &options).map_err(pair_error)?;
            print!("{}", rounds::describe(&paired, &base));
        }
        RoundAction::Result(a) => super::results::run_entry(a)?,
        RoundAction::Results(a) => super::results::run_grid(a)?,
        RoundAction::Unpair { event, db } => {
            let s = &*open(db)?;
            let done = unpair::unpair(s, *event).map_err(|e| match e {
                UnpairError::Store(s) => store(&s),
                UnpairError::Event(e) => event_error(e),
                other => CliError::Usage(other.to_string()),
            })?;
            let tables: Vec<String> = done.tables.iter().map(ToString::to_string).collect();
            println!(
                "round {} un-paired: its boards removed, its seats' links revoked, table(s) {} set aside; pair it again with baoqi round pair --event {event}",
                done.round,
                tables.join(", ")
            );
        }
        RoundAction::Override(a) => super::organiser::run_override(a)?,
        RoundAction::Lot { event, table, db } => {
            let s = &*open(db)?;
            let outcomes = results::from_store(s, *event).map_err(|e| read_error(&e))?;
            let drawn = lot::draw(s, *event, *table, &outcomes).map_err(|e| match e {
                LotError::Store(s) => store(&s),
                LotError::Event(e) => event_error(e),
                other => CliError::Usage(other.to_string()),
            })?;
            print!("{}", lot::describe(&drawn));
        }
    }
    Ok(())
}

/// How `baoqi standings` writes.
#[derive(Debug, Clone, Copy, Default, ValueEnum)]
enum Format {
    /// Text: the standings, every round's pairings with points, the crosstable.
    #[default]
    Text,
    /// CSV, one line per player.
    Csv,
}

/// Arguments of `baoqi standings`.
#[derive(Debug, Args)]
pub(crate) struct StandingsArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
    /// The output.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `baoqi standings`.
pub(crate) fn run_standings(args: &StandingsArgs) -> Result<(), CliError> {
    let s = &*open(&args.db)?;
    let outcomes = results::from_store(s, args.event).map_err(|e| read_error(&e))?;
    let st = standings::compute(s, args.event, &outcomes).map_err(event_error)?;
    match args.format {
        Format::Text => print!("{}", report::text(&st)),
        Format::Csv => print!("{}", standings::csv(&st)),
    }
    Ok(())
}
