//! The organiser's commands on a hall's database file or the federation's PostgreSQL (a
//! running server or its nodes may share it; new tables start within seconds):
//! `baoqi event create|revoke`, `baoqi table add`, `baoqi export`.

use std::path::PathBuf;

use baoqi_organiser::links::{self, LinkError, Which};
use baoqi_organiser::offline::{self, OfflineError};
use baoqi_server::export::RecordFormat;
use baoqi_server::launch::{self, ExportKind, LaunchError};
use baoqi_store::Database;
use baoqi_store::config::TableSpec;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_tournament::RoundNumber;
use clap::{Args, Subcommand};

use super::CliError;

/// Bad input: the file, the event, the configuration (exit code 2).
fn usage(e: &OfflineError) -> CliError {
    CliError::Usage(e.to_string())
}

/// A failure while running (exit code 1).
fn failed(e: &impl std::fmt::Display) -> CliError {
    CliError::Failed(e.to_string())
}

/// Arguments of `baoqi event`.
#[derive(Debug, Args)]
pub(crate) struct EventArgs {
    #[command(subcommand)]
    action: EventAction,
}

#[derive(Debug, Subcommand)]
enum EventAction {
    /// Creates an event, its tables and every seat from a TOML file (see docs/event.toml)
    /// and prints each seat's link and token (shown only this once).
    Create {
        /// The event file.
        #[arg(long)]
        config: PathBuf,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
        /// The server's public address, for the join links; kept with the event, so later
        /// commands make their links on it (default: the file's `settings.url`, else
        /// `http://127.0.0.1:7878`).
        #[arg(long)]
        url: Option<String>,
    },
    /// Reissues a seat's lost link: a new token for the same seat (role, name, tables), the
    /// old one revoked (its link stops working). Logged.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["table", "name"])))]
    Reissue {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// The seat's table (with --role): a player's or a proxy's seat.
        #[arg(long, requires = "role")]
        table: Option<TableId>,
        /// The seat's role at --table.
        #[arg(long, value_enum)]
        role: Option<SeatRole>,
        /// The seat's name: a referee's, a spectator's (`spectator 2`), a player's.
        #[arg(long)]
        name: Option<String>,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
        /// The server's public address (default: the one the event was created with).
        #[arg(long)]
        url: Option<String>,
    },
    /// Adds spectator seats (read-only links to every table) to an event already made.
    /// Logged.
    Spectators {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// How many.
        #[arg(long, default_value_t = 1)]
        add: usize,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
        /// The server's public address (default: the one the event was created with).
        #[arg(long)]
        url: Option<String>,
    },
    /// Revokes the seat holding a token.
    Revoke {
        /// The token.
        #[arg(long)]
        token: String,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
    },
}

/// Runs `baoqi event …`.
pub(crate) fn run_event(args: &EventArgs) -> Result<(), CliError> {
    match &args.action {
        EventAction::Create { config, db, url } => {
            let out = offline::create_event(db, config, url.as_deref()).map_err(|e| usage(&e))?;
            print!("{out}");
        }
        EventAction::Reissue {
            event,
            table,
            role,
            name,
            db,
            url,
        } => {
            let which = match (table, role, name) {
                (Some(table), Some(role), _) => Which::At {
                    table: *table,
                    role: (*role).into(),
                },
                (_, _, Some(name)) => Which::Named(name.clone()),
                _ => {
                    return Err(CliError::Usage(
                        "name the seat: --table and --role, or --name".into(),
                    ));
                }
            };
            let s = &*super::tournament::open(db)?;
            let base = link_base(s, *event, url.as_deref())?;
            let issued = links::reissue(s, *event, &which).map_err(|e| link_error(&e))?;
            print!("{}", links::describe(&issued, &base));
        }
        EventAction::Spectators {
            event,
            add,
            db,
            url,
        } => {
            let s = &*super::tournament::open(db)?;
            let base = link_base(s, *event, url.as_deref())?;
            let issued = links::add_spectators(s, *event, *add).map_err(|e| link_error(&e))?;
            print!("{}", links::describe(&issued, &base));
        }
        EventAction::Revoke { token, db } => {
            if !offline::revoke(db, token).map_err(|e| failed(&e))? {
                return Err(CliError::Usage("no seat has this token".into()));
            }
            println!("revoked");
        }
    }
    Ok(())
}

/// A seat's role on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum SeatRole {
    /// 紅方.
    Red,
    /// 黑方.
    Black,
    /// Red's proxy.
    RedProxy,
    /// Black's proxy.
    BlackProxy,
}

impl From<SeatRole> for Role {
    fn from(r: SeatRole) -> Role {
        match r {
            SeatRole::Red => Role::Red,
            SeatRole::Black => Role::Black,
            SeatRole::RedProxy => Role::RedProxy,
            SeatRole::BlackProxy => Role::BlackProxy,
        }
    }
}

/// The address `event`'s links are made on ([`links::base`]).
pub(super) fn link_base(
    store: &dyn baoqi_store::Store,
    event: EventId,
    given: Option<&str>,
) -> Result<String, CliError> {
    links::base(store, event, given).map_err(|e| link_error(&e))
}

fn link_error(e: &LinkError) -> CliError {
    match e {
        LinkError::Store(_) => failed(e),
        _ => CliError::Usage(e.to_string()),
    }
}

/// Arguments of `baoqi table`.
#[derive(Debug, Args)]
pub(crate) struct TableArgs {
    #[command(subcommand)]
    action: TableAction,
}

#[derive(Debug, Subcommand)]
enum TableAction {
    /// Adds a table (and its player seats) to an event; prints the seats' links and tokens.
    Add {
        /// The event's number.
        #[arg(long)]
        event: EventId,
        /// A label, e.g. `視障賽 3`.
        #[arg(long)]
        name: String,
        /// Red player's name.
        #[arg(long)]
        red: String,
        /// Black player's name.
        #[arg(long)]
        black: String,
        /// The round.
        #[arg(long, default_value_t = RoundNumber::first())]
        round: RoundNumber,
        /// Red's proxy, if named.
        #[arg(long)]
        red_proxy: Option<String>,
        /// Black's proxy, if named.
        #[arg(long)]
        black_proxy: Option<String>,
        /// The match configuration (the arbiter's `MatchConfig`) as a TOML file.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
        /// `postgres://USER@HOST:PORT/DB`.
        #[arg(long, default_value = "baoqi.db")]
        db: Database,
        /// The server's public address, for the join links (default: the one the event was
        /// created with).
        #[arg(long)]
        url: Option<String>,
    },
}

/// Runs `baoqi table …`.
pub(crate) fn run_table(args: &TableArgs) -> Result<(), CliError> {
    let TableAction::Add {
        event,
        name,
        red,
        black,
        round,
        red_proxy,
        black_proxy,
        config,
        db,
        url,
    } = &args.action;
    let config = match config {
        Some(path) => Some(offline::match_config_from_toml(path).map_err(|e| usage(&e))?),
        None => None,
    };
    let spec = TableSpec {
        round: *round,
        name: name.clone(),
        red: red.clone(),
        black: black.clone(),
        red_proxy: red_proxy.clone(),
        black_proxy: black_proxy.clone(),
        config,
    };
    let out = offline::add_table(db, *event, &spec, url.as_deref()).map_err(|e| usage(&e))?;
    print!("{out}");
    Ok(())
}

/// Arguments of `baoqi export`: exactly one of the kinds.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("what").required(true).multiple(false)
    .args(["scoresheet", "pgn", "xqf", "dhtmlxq", "cbf", "table", "archive", "results", "log"]))]
pub(crate) struct ExportArgs {
    /// A table's scoresheet (text).
    #[arg(long, value_name = "TABLE")]
    scoresheet: Option<TableId>,
    /// A table's game as PGN.
    #[arg(long, value_name = "TABLE")]
    pgn: Option<TableId>,
    /// A table's game as XQF (象棋演播室's binary record, unencrypted XQF 1.0), written to
    /// standard output: redirect it to a file.
    #[arg(long, value_name = "TABLE")]
    xqf: Option<TableId>,
    /// A table's game as `DhtmlXQ` (the UBB text of 東萍象棋網 and the Chinese sites).
    #[arg(long, value_name = "TABLE")]
    dhtmlxq: Option<TableId>,
    /// A table's game as CBF (象棋橋's XML record).
    #[arg(long, value_name = "TABLE")]
    cbf: Option<TableId>,
    /// A table's game in the record format(s) of `--format` (PGN when absent).
    #[arg(long, value_name = "TABLE")]
    table: Option<TableId>,
    /// An event's games that have begun, as one ZIP (written to standard output: redirect
    /// it to a file), each game in every format of `--format` (all four when absent).
    #[arg(long, value_name = "EVENT")]
    archive: Option<EventId>,
    /// Record formats for `--table` (one) and `--archive` (any, separated by commas).
    #[arg(long, value_enum, value_delimiter = ',')]
    format: Vec<FormatArg>,
    /// An event's results table.
    #[arg(long, value_name = "EVENT")]
    results: Option<EventId>,
    /// An event's JSON event log.
    #[arg(long, value_name = "EVENT")]
    log: Option<EventId>,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// A game-record format on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// PGN, traditional notation, `[%clk]` comments.
    Pgn,
    /// 象棋演播室's XQF 1.0 (binary).
    Xqf,
    /// 象棋橋's CBF (XML).
    Cbf,
    /// 東萍象棋網's `DhtmlXQ` text.
    Dhtmlxq,
}

impl From<FormatArg> for RecordFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Pgn => RecordFormat::Pgn,
            FormatArg::Xqf => RecordFormat::Xqf,
            FormatArg::Cbf => RecordFormat::Cbf,
            FormatArg::Dhtmlxq => RecordFormat::Dhtmlxq,
        }
    }
}

/// Writes bytes to standard output; binary (XQF, ZIP) is refused on a terminal.
fn write_out(bytes: &[u8], binary: bool) -> Result<(), CliError> {
    use std::io::{IsTerminal, Write};
    if binary && std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "this export is binary: redirect it to a file (> games.zip, > game.xqf)".into(),
        ));
    }
    std::io::stdout()
        .write_all(bytes)
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// Runs `baoqi export`.
pub(crate) fn run_export(args: &ExportArgs) -> Result<(), CliError> {
    let formats: Vec<RecordFormat> = args.format.iter().map(|f| (*f).into()).collect();
    if let Some(e) = args.archive {
        let formats = if formats.is_empty() {
            RecordFormat::ALL.to_vec()
        } else {
            formats
        };
        let bytes = launch::export_archive_offline(&args.db, e, &formats)
            .map_err(|e: LaunchError| failed(&e))?;
        return write_out(&bytes, true);
    }
    let game = match (args.table, args.xqf) {
        (Some(t), _) => match formats.as_slice() {
            [] => Some((t, RecordFormat::Pgn)),
            [one] => Some((t, *one)),
            _ => return Err(CliError::Usage("--table takes one --format".into())),
        },
        (_, Some(t)) => Some((t, RecordFormat::Xqf)),
        _ => None,
    };
    if let Some((t, format)) = game {
        let bytes = launch::export_game_offline(&args.db, t, format)
            .map_err(|e: LaunchError| failed(&e))?;
        return write_out(&bytes, format == RecordFormat::Xqf);
    }
    let text = match (args.dhtmlxq, args.cbf) {
        (Some(t), _) => Some(ExportKind::Dhtmlxq(t)),
        (_, Some(t)) => Some(ExportKind::Cbf(t)),
        _ => None,
    };
    if let Some(kind) = text {
        let out = launch::export_offline(&args.db, kind).map_err(|e: LaunchError| failed(&e))?;
        print!("{out}");
        return Ok(());
    }
    let what = match (args.scoresheet, args.pgn, args.results, args.log) {
        (Some(t), ..) => ExportKind::Scoresheet(t),
        (_, Some(t), ..) => ExportKind::Pgn(t),
        (_, _, Some(e), _) => ExportKind::Results(e),
        (.., Some(e)) => ExportKind::Log(e),
        _ => return Err(CliError::Usage("say what to export".into())),
    };
    let out = launch::export_offline(&args.db, what).map_err(|e: LaunchError| failed(&e))?;
    print!("{out}");
    Ok(())
}
