//! The organiser's changes to a running tournament, each logged in the event's
//! change log: `baoqi players add|edit|withdraw|delete` (late entrants, corrections,
//! 89(2), lines entered by mistake),
//! `baoqi round override` (108) and `baoqi changes` (the log).

use baoqi_organiser::admin;
use baoqi_organiser::edits::{self, EditError, Patch};
use baoqi_organiser::overrides::{self, Correction, OverrideError};
use baoqi_organiser::register::DeleteError;
use baoqi_organiser::{EventError, Registered, changelog, register};
use baoqi_store::Database;
use baoqi_store::model::{EventId, TableId};
use baoqi_tournament::changes::{Missed, Remedy};
use baoqi_tournament::{
    FieldProblem, PlayerId, RoundNumber, SameName, parse_board, parse_categories, parse_sex,
    parse_year, parse_yes_no,
};
use clap::{Args, ValueEnum};

use super::CliError;
use super::tournament::{event_error, open, store};

/// A register line's fields, spelt as in the CSV (`baoqi players import`); for an edit, an
/// empty value clears an optional field.
#[derive(Debug, Args)]
pub(crate) struct Fields {
    /// 姓名.
    #[arg(long)]
    name: Option<String>,
    /// 所屬團體 (players of one club are kept apart where possible).
    #[arg(long)]
    club: Option<String>,
    /// 種子, 1 = the first seed.
    #[arg(long)]
    seed: Option<String>,
    /// A rating (等級分).
    #[arg(long)]
    rating: Option<String>,
    /// 類別: 全失明, 部份失明, 健視, 聾啞, 肢體傷殘 (or `blind`, `partially_sighted`, `sighted`,
    /// `deaf`, `physical`), several joined by `;` `、` or `/` (7.2(1)).
    #[arg(long)]
    category: Option<String>,
    /// 眼罩, plays blindfolded (counts as 全失明, 7.2(2)): 是/否, yes/no.
    #[arg(long)]
    blindfold: Option<String>,
    /// 懂記譜, knows traditional notation (7.4(2)(c)): 是/否, yes/no.
    #[arg(long)]
    knows_notation: Option<String>,
    /// 代理, the proxy's name.
    #[arg(long)]
    proxy: Option<String>,
    /// 棋盤, the board operated: 視障, 正規, 無 (or vi, regular, none).
    #[arg(long)]
    board: Option<String>,
    /// 性別, for the prizes: 男 / 女 (or M / F); empty clears it.
    #[arg(long)]
    sex: Option<String>,
    /// 出生年份, for the prizes: a four-digit year; empty clears it.
    #[arg(long)]
    born: Option<String>,
    /// Takes a player of a name and club already registered as another person (refused
    /// otherwise).
    #[arg(long)]
    allow_same_name: bool,
}

fn field(column: &str, p: &FieldProblem) -> CliError {
    CliError::Usage(format!("--{column}: {p}"))
}

fn number(column: &str, v: &str) -> Result<Option<u32>, CliError> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    v.parse()
        .map(Some)
        .map_err(|_| field(column, &FieldProblem::NotANumber(v.to_string())))
}

fn optional(v: &str) -> Option<String> {
    Some(v.trim().to_string()).filter(|s| !s.is_empty())
}

impl Fields {
    /// The organiser's word on a namesake.
    fn same_name(&self) -> SameName {
        if self.allow_same_name {
            SameName::Allow
        } else {
            SameName::Refuse
        }
    }

    /// The fields as a typed patch.
    fn patch(&self) -> Result<Patch, CliError> {
        let yes_no = |column: &str, v: &Option<String>| {
            v.as_deref()
                .map(|v| parse_yes_no(v).map_err(|p| field(column, &p)))
                .transpose()
        };
        Ok(Patch {
            name: self.name.clone(),
            club: self.club.as_deref().map(optional),
            seed: self
                .seed
                .as_deref()
                .map(|v| number("seed", v))
                .transpose()?,
            rating: self
                .rating
                .as_deref()
                .map(|v| number("rating", v))
                .transpose()?,
            categories: self
                .category
                .as_deref()
                .map(|v| parse_categories(v).map_err(|p| field("category", &p)))
                .transpose()?,
            blindfold: yes_no("blindfold", &self.blindfold)?,
            knows_notation: yes_no("knows-notation", &self.knows_notation)?,
            proxy: self.proxy.as_deref().map(optional),
            board: self
                .board
                .as_deref()
                .map(|v| {
                    optional(v)
                        .map(|v| parse_board(&v).map_err(|p| field("board", &p)))
                        .transpose()
                })
                .transpose()?,
            sex: self
                .sex
                .as_deref()
                .map(|v| {
                    optional(v)
                        .map(|v| parse_sex(&v).map_err(|p| field("sex", &p)))
                        .transpose()
                })
                .transpose()?,
            born: self
                .born
                .as_deref()
                .map(|v| {
                    optional(v)
                        .map(|v| parse_year(&v).map_err(|p| field("born", &p)))
                        .transpose()
                })
                .transpose()?,
        })
    }
}

/// Arguments of `baoqi players add`.
#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The player's fields (`--name` is required).
    #[command(flatten)]
    fields: Fields,
    /// What each round he missed scores, once play has begun: `none`, or `half` (a draw's
    /// points, as a half-point bye).
    #[arg(long, value_enum, default_value_t = MissedRounds::None)]
    missed: MissedRounds,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// What a late entrant's missed rounds score, as `--missed` spells it.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum MissedRounds {
    /// Nothing.
    None,
    /// A draw's points each.
    Half,
}

impl From<MissedRounds> for Missed {
    fn from(m: MissedRounds) -> Missed {
        match m {
            MissedRounds::None => Missed::Nothing,
            MissedRounds::Half => Missed::HalfPoint,
        }
    }
}

/// Arguments of `baoqi players edit`.
#[derive(Debug, Args)]
pub(crate) struct EditArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The player's register number.
    #[arg(long)]
    player: u32,
    /// The fields to change.
    #[command(flatten)]
    fields: Fields,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// Arguments of `baoqi players withdraw` and `baoqi players delete`.
#[derive(Debug, Args)]
pub(crate) struct WithdrawArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The player's register number.
    #[arg(long)]
    player: u32,
    /// Why (logged).
    #[arg(long)]
    reason: Option<String>,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

fn edit_error(e: EditError) -> CliError {
    match e {
        EditError::Store(s) => store(&s),
        EditError::Event(e) => event_error(e),
        same @ EditError::SameName { .. } => {
            CliError::Usage(format!("{same} (--allow-same-name registers him)"))
        }
        other => CliError::Usage(other.to_string()),
    }
}

fn show(event: EventId, db: &Database, players: &[Registered]) -> Result<(), CliError> {
    let s = &*open(db)?;
    let (rules, _) = register::list(s, event).map_err(event_error)?;
    print!("{}", register::list_text(&rules, players));
    Ok(())
}

/// Runs `baoqi players add`.
pub(crate) fn run_add(a: &AddArgs) -> Result<(), CliError> {
    let patch = a.fields.patch()?;
    if patch.name.is_none() {
        return Err(CliError::Usage("players add needs --name".into()));
    }
    let s = &*open(&a.db)?;
    let added = edits::add_with(s, a.event, &patch, (a.fields.same_name(), a.missed.into()))
        .map_err(edit_error)?;
    println!("registered {} in event {}", added.player.id, a.event);
    show(a.event, &a.db, &[added])
}

/// Runs `baoqi players edit`.
pub(crate) fn run_edit(a: &EditArgs) -> Result<(), CliError> {
    let patch = a.fields.patch()?;
    let s = &*open(&a.db)?;
    let edited = edits::edit_with(s, a.event, PlayerId(a.player), &patch, a.fields.same_name())
        .map_err(edit_error)?;
    show(a.event, &a.db, &[edited])
}

/// Runs `baoqi players withdraw`.
pub(crate) fn run_withdraw(a: &WithdrawArgs) -> Result<(), CliError> {
    let s = &*open(&a.db)?;
    let done =
        edits::withdraw(s, a.event, PlayerId(a.player), a.reason.as_deref()).map_err(edit_error)?;
    let (players, _) = changelog::list(s, a.event).map_err(event_error)?;
    println!(
        "{}",
        changelog::entry(&players, &baoqi_organiser::Logged::Change(done.change))
    );
    // The board he will not play is decided without play: said, with how to put it right.
    for b in &done.forfeited {
        println!(
            "round {} board {}{}: lost by his absence (缺席, 87), {}; if it was played, enter its result: baoqi round result --event {} --round {} --board {} --result red|black|draw --overwrite --reason …",
            b.round,
            b.board,
            b.table.map(|t| format!(" (table {t})")).unwrap_or_default(),
            baoqi_organiser::standings::result_text(b.result),
            a.event,
            b.round,
            b.board
        );
    }
    Ok(())
}

/// Runs `baoqi players delete`.
pub(crate) fn run_delete(a: &WithdrawArgs) -> Result<(), CliError> {
    let s = &*open(&a.db)?;
    let struck = register::delete(s, a.event, PlayerId(a.player), a.reason.as_deref()).map_err(
        |e| match e {
            DeleteError::Store(s) => store(&s),
            DeleteError::Event(e) => event_error(e),
            other => CliError::Usage(other.to_string()),
        },
    )?;
    println!(
        "{} {} struck from the register of event {} (not a withdrawal)",
        struck.id, struck.name, a.event
    );
    Ok(())
}

/// Which players change boards in a corrected pairing.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Side {
    /// The red players.
    Red,
    /// The black players.
    Black,
}

/// Arguments of `baoqi round override`.
#[derive(Debug, Args)]
pub(crate) struct OverrideArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The round (only the current one can be corrected).
    #[arg(long)]
    round: RoundNumber,
    /// The table of the board to correct.
    #[arg(long)]
    table: TableId,
    /// 108(1): the players played with colours reversed. Replayed with the right colours in
    /// a game of 15′ or more a side within 5′ of its start, else recorded as played.
    #[arg(
        long,
        conflicts_with = "exchange_with",
        required_unless_present = "exchange_with"
    )]
    swap_colours: bool,
    /// 108(2): the pairing was wrong; exchange players with the board of this table (both
    /// games replayed; refused past 5′ or under 15′ a side, where the games stand).
    #[arg(long)]
    exchange_with: Option<TableId>,
    /// With --exchange-with: which players change boards.
    #[arg(long, value_enum, default_value = "black")]
    side: Side,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
    /// The server's public address, for the join links of a replay (default: the one the
    /// event was created with).
    #[arg(long)]
    url: Option<String>,
}

/// Runs `baoqi round override`.
pub(crate) fn run_override(a: &OverrideArgs) -> Result<(), CliError> {
    let correction = match a.exchange_with {
        Some(with) => Correction::Exchange {
            with,
            side: match a.side {
                Side::Red => baoqi_rules::Color::Red,
                Side::Black => baoqi_rules::Color::Black,
            },
        },
        None => Correction::SwapColours,
    };
    let s = &*open(&a.db)?;
    let done =
        overrides::correct(s, a.event, a.round, a.table, correction).map_err(|e| match e {
            OverrideError::Store(s) => store(&s),
            OverrideError::Event(e) => event_error(e),
            other => CliError::Usage(other.to_string()),
        })?;
    let (players, _) = changelog::list(s, a.event).map_err(event_error)?;
    let name = |id: PlayerId| {
        players
            .iter()
            .find(|r| r.player.id == id)
            .map_or_else(|| id.to_string(), |r| format!("{id} {}", r.player.name))
    };
    let remedy = match done.remedy {
        Remedy::Replay => "replayed (108)",
        Remedy::Record => "the game stands, recorded as played (108)",
    };
    println!("round {}: {remedy}", done.round);
    for b in &done.boards {
        let black = b.black.map(name).unwrap_or_default();
        let table = b.table.map(|t| format!(" (table {t})")).unwrap_or_default();
        println!("  board {}{table}: {} v {black}", b.board, name(b.red));
    }
    // 108(1): 「無論如何雙方均記技術犯規 1 次」, whichever the remedy.
    if correction == Correction::SwapColours {
        match (done.remedy, done.boards.first().and_then(|b| b.table)) {
            (Remedy::Replay, _) => println!(
                "108(1): the replay starts with one technical foul a side (技術犯規 1 次), shown on the monitor and counted towards the limit"
            ),
            (Remedy::Record, table) => println!(
                "108(1): each side is given one technical foul (無論如何雙方均記技術犯規 1 次): the referee records it at table {}, one for each side (the monitor's 記違規 → 技術犯規)",
                table.map_or_else(String::new, |t| t.to_string())
            ),
        }
    }
    if let Some(created) = &done.created {
        let base = super::event::link_base(s, a.event, a.url.as_deref())?;
        print!("{}", admin::describe(created, &base));
    }
    Ok(())
}

/// Arguments of `baoqi changes`.
#[derive(Debug, Args)]
pub(crate) struct ChangesArgs {
    /// The event's number.
    #[arg(long)]
    event: EventId,
    /// The store: a hall's `SQLite` file (or `sqlite:FILE`), or the federation's
    /// `postgres://USER@HOST:PORT/DB`.
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
}

/// Runs `baoqi changes`.
pub(crate) fn run_changes(a: &ChangesArgs) -> Result<(), CliError> {
    let s = &*open(&a.db)?;
    let (players, lines) = changelog::list(s, a.event).map_err(|e| match e {
        EventError::Store(s) => store(&s),
        other => event_error(other),
    })?;
    print!("{}", changelog::text(&players, &lines));
    Ok(())
}
