//! The result grid: every board of a round with its game's result and the organiser's,
//! where the organiser enters, corrects and clears any board's result, in any round
//! (`baoqi round results`, `baoqi round result`, the organiser page).
//!
//! A game's result is the table's (over, then verified by the referee, 附表七 7.9); the
//! organiser's stands over it (an absence, 第87條; a correction). Entering a result over one
//! that counts already (a game over, or one the organiser entered) asks first: the caller
//! says `overwrite`, and the refusal says what would be replaced. Every entry is logged with
//! who made it and why ([`Logged::Entered`]). A bye is no game: it has no result to enter.

use baoqi_tournament::{GameResult, RoundNumber};
use serde::Serialize;

use super::results::{Outcomes, board_final, board_result};
use super::standings::{Named, result_text};
use super::{EventError, Logged, Opened, PairingRow};
use baoqi_store::Store;
use baoqi_store::StoreError;
use baoqi_store::model::{EventId, TableId};

/// One board of the grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridBoard {
    /// The round.
    pub round: RoundNumber,
    /// The board.
    pub board: u32,
    /// Its table; none for a bye.
    pub table: Option<TableId>,
    /// 紅方, or the player with the bye.
    pub red: Named,
    /// 黑方; none for a bye.
    pub black: Option<Named>,
    /// The game's result, once it is over.
    pub game: Option<GameResult>,
    /// The referee verified the game's result (7.9).
    pub verified: bool,
    /// The organiser's result, which stands over the game's.
    pub recorded: Option<GameResult>,
    /// The result that counts (the organiser's, else the game's).
    pub result: Option<GameResult>,
    /// Whether it is final (the organiser's, a verified game, a bye).
    pub last: bool,
}

/// What the organiser enters at a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// This result stands over the game's.
    Result(GameResult),
    /// The organiser's result is cleared: the game's counts again (or none, while it goes on).
    Clear,
}

/// Who enters, why, and whether a result that counts may be replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The seat name of the referee's token, or the organiser's name.
    pub by: String,
    /// Why, as written.
    pub reason: Option<String>,
    /// A result that counts already may be replaced.
    pub overwrite: bool,
}

/// Where a board's counting result comes from, as a refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Played at the table, over but not yet verified.
    Played,
    /// Played at the table and verified by the referee (7.9).
    Verified,
    /// Entered by the organiser.
    Recorded,
}

/// Why a result cannot be entered; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No such board.
    #[error("round {round} has no board {board}")]
    NoBoard {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
    },
    /// The table is no board of the event's rounds.
    #[error("table {0} is not a board of this event's rounds")]
    NoTable(TableId),
    /// A bye has no game.
    #[error("round {round} board {board} is a bye: it has no result to enter")]
    Bye {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
    },
    /// The board has no organiser's result to clear.
    #[error("round {round} board {board} has no result of the organiser's to clear")]
    NothingToClear {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
    },
    /// A result counts already: replacing it must be asked for.
    #[error(
        "round {round} board {board} has a result already: {} ({}); say so to replace it",
        result_text(Some(*current)),
        source_text(*from)
    )]
    WouldReplace {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
        /// The result that counts now.
        current: GameResult,
        /// Where it comes from.
        from: Source,
    },
}

/// How a refusal names a result's source.
pub fn source_text(s: Source) -> &'static str {
    match s {
        Source::Played => "played, not yet verified",
        Source::Verified => "played and verified by the referee (7.9)",
        Source::Recorded => "entered by the organiser",
    }
}

/// The grid of `event`: every board of `round` (every round when `None`), by round and board.
pub fn grid(
    store: &dyn Store,
    event: EventId,
    round: Option<RoundNumber>,
    outcomes: &Outcomes,
) -> Result<Vec<GridBoard>, EventError> {
    let t = Opened::open(store, event)?;
    let register = t.records.players(event)?;
    Ok(t.records
        .pairings(event)?
        .into_iter()
        .filter(|r| round.is_none_or(|n| r.round == n))
        .map(|row| cell(&row, &register, outcomes))
        .collect())
}

/// A board's cell: its players as the standings name them, its results.
fn cell(row: &PairingRow, register: &[super::Registered], outcomes: &Outcomes) -> GridBoard {
    let named = |id| {
        let line = register.iter().find(|r| r.player.id == id);
        super::standings::named(line.map(|r| &r.player), id)
    };
    let table = row.table.and_then(|id| outcomes.get(&id));
    GridBoard {
        round: row.round,
        board: row.board,
        table: row.table,
        red: named(row.red),
        black: row.black.map(named),
        game: table.and_then(|o| o.result),
        verified: table.is_some_and(|o| o.verified),
        recorded: row.result,
        result: board_result(row, outcomes),
        last: board_final(row, outcomes),
    }
}

/// What counts at `row` now and where it comes from.
fn counting(row: &PairingRow, outcomes: &Outcomes) -> Option<(GameResult, Source)> {
    if let Some(r) = row.result {
        return Some((r, Source::Recorded));
    }
    let game = outcomes.get(&row.table?)?;
    let source = if game.verified {
        Source::Verified
    } else {
        Source::Played
    };
    Some((game.result?, source))
}

/// The last round paired of `event`, if any.
pub fn last_paired(store: &dyn Store, event: EventId) -> Result<Option<RoundNumber>, EventError> {
    let t = Opened::open(store, event)?;
    Ok(super::last_round(&t.records.pairings(event)?))
}

/// The board played at `table`: its round and board.
pub fn board_at(
    store: &dyn Store,
    event: EventId,
    table: TableId,
) -> Result<(RoundNumber, u32), EntryError> {
    let t = Opened::open(store, event)?;
    let row = t
        .records
        .pairings(event)?
        .into_iter()
        .find(|r| r.table == Some(table))
        .ok_or(EntryError::NoTable(table))?;
    Ok((row.round, row.board))
}

/// An entry made at a board.
#[derive(Debug, Clone, PartialEq)]
pub struct Entered {
    /// The board as it now stands.
    pub cell: GridBoard,
    /// Whether anything was written: entering a result that is final already (entered by
    /// the organiser, or verified at the table, 7.9) changes nothing.
    pub changed: bool,
    /// Where the result that counted before came from, when one did.
    pub was: Option<Source>,
    /// The players of later rounds already paired whose score group the entry changed
    /// (a Swiss's; [`crate::late::warning`] says it).
    pub moved: Vec<crate::late::Moved>,
}

/// [`enter_board`], the board's cell alone.
pub fn enter(
    store: &dyn Store,
    event: EventId,
    at: (RoundNumber, u32),
    entry: Entry,
    signed: &Signed,
    outcomes: &Outcomes,
) -> Result<GridBoard, EntryError> {
    enter_board(store, event, at, entry, signed, outcomes).map(|e| e.cell)
}

/// Enters `entry` at board `board` of round `round`, signed. A result that counts already
/// is replaced only when `signed.overwrite` (clearing the organiser's result is asked for by
/// name, [`Entry::Clear`]). Entering the result a game shows that is not yet verified at
/// its table makes it final (7.9): it is written and logged as confirmed, asking nothing.
/// Entering a result that is final already changes nothing and is not logged.
pub fn enter_board(
    store: &dyn Store,
    event: EventId,
    (round, board): (RoundNumber, u32),
    entry: Entry,
    signed: &Signed,
    outcomes: &Outcomes,
) -> Result<Entered, EntryError> {
    let t = Opened::open(store, event)?;
    let rows = t.records.pairings(event)?;
    let row = *rows
        .iter()
        .find(|r| r.round == round && r.board == board)
        .ok_or(EntryError::NoBoard { round, board })?;
    if row.is_bye() {
        return Err(EntryError::Bye { round, board });
    }
    let now = counting(&row, outcomes);
    let after = match entry {
        Entry::Result(r) => Some(r),
        Entry::Clear if row.result.is_none() => {
            return Err(EntryError::NothingToClear { round, board });
        }
        Entry::Clear => None,
    };
    let same = now.is_some_and(|(r, _)| Some(r) == after);
    // The game's own result, not yet verified, entered as it is: confirmed, not replaced.
    let confirms = same && now.is_some_and(|(_, s)| s == Source::Played);
    let unchanged =
        row.result.is_some() && row.result == after || row.result.is_none() && same && !confirms;
    if !unchanged {
        // Clearing is asked for by name; any other entry over a result that counts must say
        // it replaces it.
        let asked = signed.overwrite || entry == Entry::Clear || confirms;
        if let (Some((current, source)), false) = (now, asked) {
            return Err(EntryError::WouldReplace {
                round,
                board,
                current,
                from: source,
            });
        }
        t.records.set_result(event, round, board, after)?;
        t.log(Logged::Entered {
            round,
            board,
            before: now.map(|(r, _)| r),
            after,
            by: signed.by.clone(),
            reason: signed.reason.clone(),
        })?;
    }
    // The board as it now stands, from what was read and written: nothing read again.
    let stands = PairingRow {
        result: if unchanged { row.result } else { after },
        ..row
    };
    let register = t.records.players(event)?;
    let moved = if unchanged {
        Vec::new()
    } else {
        let new: Vec<PairingRow> = rows
            .iter()
            .map(|r| {
                if r.round == round && r.board == board {
                    stands
                } else {
                    *r
                }
            })
            .collect();
        crate::late::moved(
            t.settings.system,
            t.settings.scoring(),
            &register,
            (&rows, &new),
            round,
            (
                outcomes,
                &crate::withdrawal::half_byes(&t.records.changes(event)?),
            ),
        )
    };
    Ok(Entered {
        cell: cell(&stands, &register, outcomes),
        changed: !unchanged,
        was: now.map(|(_, s)| s),
        moved,
    })
}

/// The grid as text (`baoqi round results`): a heading per round, a line per board with
/// the result that counts and where it comes from.
pub fn text(cells: &[GridBoard]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut round = None;
    for c in cells {
        if round != Some(c.round) {
            round = Some(c.round);
            let _ = writeln!(out, "round {} (第{}輪)", c.round, c.round);
        }
        let table = c.table.map(|t| format!("table {t}")).unwrap_or_default();
        let Some(black) = &c.black else {
            let _ = writeln!(out, "  board {:>2}  bye (輪空): {}", c.board, c.red.name);
            continue;
        };
        let game = match (c.game, c.verified) {
            (None, _) => "no result at the table".to_string(),
            (Some(g), true) => format!("game {} verified", result_text(Some(g))),
            (Some(g), false) => format!("game {} not verified", result_text(Some(g))),
        };
        let organiser = c
            .recorded
            .map(|r| format!(", organiser's {}", result_text(Some(r))))
            .unwrap_or_default();
        let counts = c.result.map_or("*", |r| result_text(Some(r)));
        let _ = writeln!(
            out,
            "  board {:>2}  {table:<9} {} v {}  {counts}  ({game}{organiser})",
            c.board, c.red.name, black.name
        );
    }
    out
}
