//! `baoqi round pair` (the next round by the event's system, each game a table with seats
//! and tokens, written in one transaction with the round's boards) and `baoqi round result`
//! (an absence the organiser records, 87).

use std::collections::BTreeSet;

use baoqi_tournament::berger::BergerError;
use baoqi_tournament::changes::round_robin_round;
use baoqi_tournament::swiss::{self, Draw, Relaxation, SwissError};
use baoqi_tournament::{GameResult, Player, PlayerId, Round, RoundNumber};

use super::draft::Draft;
use super::results::{self, Outcomes};
use super::withdrawal;
use super::{EventError, Logged, Opened, PairingRow, PairingSystem, Registered};
use crate::admin::{AdminError, Created};
use baoqi_store::model::{EventId, TableId};
use baoqi_store::{Store, StoreError};

/// Why a round cannot be paired. Nothing is written unless the whole round is: its
/// tables, seats, boards and log line are one transaction.
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Fewer than two active players.
    #[error(
        "a round needs at least 2 players; the register has {0} (import it with `baoqi players import`)"
    )]
    TooFew(usize),
    /// More players than an event may pair (a register stored before the limit: such a field
    /// once aborted the process in the Swiss matcher).
    #[error(
        "the register has {found} players, more than the {max} an event may pair; withdraw or remove players first"
    )]
    TooMany {
        /// Active players.
        found: usize,
        /// The most an event may pair ([`baoqi_tournament::MAX_PLAYERS`]).
        max: usize,
    },
    /// Games of the last round have no result yet.
    #[error("round {round} is not over: table(s) {} have no result", list(.tables))]
    Unfinished {
        /// The round.
        round: RoundNumber,
        /// Its tables without a result.
        tables: Vec<TableId>,
    },
    /// Results of the last round are not yet verified by the referee (6.8, 7.9).
    #[error("round {round}: the result(s) of table(s) {} are not yet verified by the referee (7.9)", list(.tables))]
    Unverified {
        /// The round.
        round: RoundNumber,
        /// Its tables with a result not verified.
        tables: Vec<TableId>,
    },
    /// A knock-out tie of the last round is not decided: games of it have no final result
    /// (over and verified, 7.9).
    #[error(
        "round {round}: the tie {first} v {second} is undecided: table(s) {} have no final result yet",
        list(.tables)
    )]
    TieUndecided {
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
        /// Its tables without a final result.
        tables: Vec<TableId>,
    },
    /// A knock-out tie is level after its tie-break games and the event decides by lot, not
    /// yet drawn.
    #[error(
        "round {round}: the tie {first} v {second} is level after its tie-break games and the event's decider is the lot (抽籤): draw it with `baoqi round lot --event {event} --table {table}`"
    )]
    Lot {
        /// The event.
        event: EventId,
        /// A table of the tie.
        table: TableId,
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
    },
    /// Every round of the event is paired.
    #[error("all {0} rounds are paired")]
    Complete(u32),
    /// A pairing names a player the register does not hold (the stored register and
    /// rounds disagree).
    #[error("player {0} of the pairing is not in the register")]
    NotRegistered(PlayerId),
    /// A Swiss event must say how many rounds it plays.
    #[error("the event's [tournament] section must give `rounds` for a Swiss")]
    NoRoundCount,
    /// The round-robin table cannot be made.
    #[error(transparent)]
    Berger(#[from] BergerError),
    /// The Swiss pairer refused.
    #[error(transparent)]
    Swiss(#[from] SwissError),
    /// A table could not be created.
    #[error(transparent)]
    Admin(#[from] AdminError),
}

/// Table numbers as a reader reads them: `4, 7, 9`.
pub(super) fn list(tables: &[TableId]) -> String {
    tables
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A round just paired: its tables and seats (secrets shown once), its byes, and the Swiss
/// rules it had to break. A knock-out's tie-break games are more tables of the round
/// already paired.
#[derive(Debug, Clone)]
pub struct Paired {
    /// The round.
    pub round: RoundNumber,
    /// The tables and their seats.
    pub created: Created,
    /// Players with a bye.
    pub byes: Vec<Player>,
    /// Rules broken because no pairing kept them.
    pub relaxed: Vec<Relaxation>,
    /// Boards decided without play, with no table: a round robin's games against a player
    /// who withdrew, lost by his absence (89(2)).
    pub decided: Vec<Decided>,
    /// Every board of the round just written, tables numbered.
    pub boards: Vec<PairingRow>,
    /// The register the round was drawn from.
    pub register: Vec<Player>,
    /// Referees who kept the link of an earlier round, each with the round's tables it now
    /// covers too (附表七 6.2(1)).
    pub extended: Vec<(String, Vec<TableId>)>,
}

/// A board decided without play, with its players as the register names them.
#[derive(Debug, Clone)]
pub struct Decided {
    /// The board as stored.
    pub row: PairingRow,
    /// 紅方's line of the register (`None` if he is not in it).
    pub red: Option<Player>,
    /// 黑方's line.
    pub black: Option<Player>,
}

/// What the organiser adds to a pairing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairOptions {
    /// Referees of this round, each with a seat covering all its new tables (besides those
    /// the event file's `[[tournament.referees]]` assign by round and board).
    pub referees: Vec<String>,
}

/// [`pair_with`] without options.
pub fn pair(store: &dyn Store, event: EventId, outcomes: &Outcomes) -> Result<Paired, PairError> {
    pair_with(store, event, outcomes, &PairOptions::default())
}

/// Pairs the next round of `event` by its system and creates its tables with seats and
/// tokens, all in one transaction. The previous round must be over and its results final
/// (verified, 7.9, or recorded by the organiser); `outcomes` are the event's tables' games.
/// In a knock-out, a tie still level gets its tie-break games as more tables of the same
/// round instead, and the next round waits until every tie is decided.
pub fn pair_with(
    store: &dyn Store,
    event: EventId,
    outcomes: &Outcomes,
    options: &PairOptions,
) -> Result<Paired, PairError> {
    let t = Opened::open(store, event)?;
    let registered = t.records.players(event)?;
    let active = registered.iter().filter(|r| r.active).count();
    if active > baoqi_tournament::MAX_PLAYERS {
        return Err(PairError::TooMany {
            found: active,
            max: baoqi_tournament::MAX_PLAYERS,
        });
    }
    let rows = t.records.pairings(event)?;
    let draft = draft(&t, &registered, &rows, outcomes)?;
    let register: Vec<Player> = registered.iter().map(|r| r.player.clone()).collect();
    super::draft::write(&t, &register, &draft, options)
}

/// The boards the event's system draws next.
pub(super) fn draft(
    t: &Opened<'_>,
    registered: &[Registered],
    rows: &[PairingRow],
    outcomes: &Outcomes,
) -> Result<Draft, PairError> {
    let register: Vec<Player> = registered.iter().map(|r| r.player.clone()).collect();
    let active: BTreeSet<PlayerId> = registered
        .iter()
        .filter(|r| r.active)
        .map(|r| r.player.id)
        .collect();
    if active.len() < 2 {
        return Err(PairError::TooFew(active.len()));
    }
    if t.settings.system == PairingSystem::Knockout {
        return super::knockout::draft(t, &register, &active, rows, outcomes);
    }
    let done = super::last_round(rows);
    if let Some(done) = done {
        check_over(rows, done, outcomes)?;
    }
    let number = done.map_or(RoundNumber::first(), RoundNumber::next);
    if t.settings.system != PairingSystem::Swiss {
        return Ok(Draft::new(
            number,
            round_robin(t, registered, number)?,
            Vec::new(),
        ));
    }
    let total = t.settings.rounds.ok_or(PairError::NoRoundCount)?;
    if done.map_or(0, RoundNumber::rounds_through) >= total {
        return Err(PairError::Complete(total));
    }
    let half = withdrawal::half_byes(&t.records.changes(t.event.id)?);
    let rounds = results::scored(rows, outcomes, &half);
    let scoring = t.settings.scoring();
    let first = t.settings.first_colour;
    let draw = Draw::from_event(&register, &active, &rounds, scoring, first);
    let p = swiss::pair(&draw)?;
    Ok(Draft::new(number, p.round, p.relaxed))
}

/// Refuses to go on while the last round has games without a final result.
fn check_over(
    rows: &[PairingRow],
    round: RoundNumber,
    outcomes: &Outcomes,
) -> Result<(), PairError> {
    let last: Vec<&PairingRow> = rows.iter().filter(|r| r.round == round).collect();
    let tables = |pred: &dyn Fn(&PairingRow) -> bool| -> Vec<TableId> {
        last.iter()
            .filter(|r| pred(r))
            .filter_map(|r| r.table)
            .collect()
    };
    let unfinished = tables(&|r| !r.is_bye() && results::board_result(r, outcomes).is_none());
    if !unfinished.is_empty() {
        return Err(PairError::Unfinished {
            round,
            tables: unfinished,
        });
    }
    let unverified = tables(&|r| !results::board_final(r, outcomes));
    if !unverified.is_empty() {
        return Err(PairError::Unverified {
            round,
            tables: unverified,
        });
    }
    Ok(())
}

/// Round `number` of the Berger table, drawn over the same numbers as round 1 (a player
/// withdrawn since keeps his), as it is played once players have withdrawn (89(2)): his
/// opponent sits out (annulled) or wins without play (his remaining games forfeited).
fn round_robin(
    t: &Opened<'_>,
    registered: &[Registered],
    number: RoundNumber,
) -> Result<Round, PairError> {
    let withdrawn = withdrawal::logged(&t.records.changes(t.event.id)?);
    let drawn = withdrawal::drawn(registered, &withdrawn);
    let table = withdrawal::table(t.settings.system, &drawn)?;
    let total = table.len() as u32;
    let round = table
        .get(number.index())
        .ok_or(PairError::Complete(total))?;
    Ok(round_robin_round(round, &withdrawn))
}

/// A round's listing ([`crate::listing::describe`]): the byes first, then each table's
/// players and join links.
pub fn describe(paired: &Paired, base: &str) -> String {
    super::listing::describe(paired, base)
}

/// Who was absent at a table (87).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// 紅方 absent: black wins without play.
    Red,
    /// 黑方 absent.
    Black,
    /// Both (109(4)).
    Both,
}

impl Absent {
    /// The result it makes.
    pub fn result(self) -> GameResult {
        match self {
            Absent::Red => GameResult::RedAbsent,
            Absent::Black => GameResult::BlackAbsent,
            Absent::Both => GameResult::BothAbsent,
        }
    }
}

/// Why a result cannot be recorded.
#[derive(Debug, thiserror::Error)]
pub enum ResultError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The table is not a board of the event's rounds.
    #[error("table {table} is not a board of a round of event {event}")]
    NoBoard {
        /// The event.
        event: EventId,
        /// The table.
        table: TableId,
    },
}

/// Records an absence (87) at `table`: the board's result is then the event's scoring of
/// 不戰而勝 and 缺席, whatever happens at the table. Returns the board.
pub fn record_absence(
    store: &dyn Store,
    event: EventId,
    table: TableId,
    absent: Absent,
) -> Result<PairingRow, ResultError> {
    let t = Opened::open(store, event)?;
    let mut row = t
        .records
        .pairings(event)?
        .into_iter()
        .find(|r| r.table == Some(table))
        .ok_or(ResultError::NoBoard { event, table })?;
    let result = absent.result();
    t.records
        .set_result(event, row.round, row.board, Some(result))?;
    t.log(Logged::Result {
        round: row.round,
        board: row.board,
        result,
    })?;
    row.result = Some(result);
    Ok(row)
}
