//! `baoqi round override` (108, 違反對賽編排): a board of the current round corrected.
//!
//! - 108(1), colours reversed although the pairing was right: in a game of 15 minutes or
//!   more a side, within 5 minutes of its start, the players replay with the right colours;
//!   otherwise the game stands and the record is changed (the core's [`remedy_108`]).
//! - 108(2), a wrong pairing: within the same window the pairing is corrected and every
//!   affected board replayed; otherwise the pairing is not corrected and the game stands, so
//!   the override is refused.
//!
//! A replay is a new table for the board (new seats and tokens, configured from the register,
//! 7.2); the player and proxy seats of the table set aside are revoked, which closes their
//! connections. The new tables, the revocations, the boards and the log's lines are written
//! in one transaction ([`baoqi_store::TournamentStore::amend`]): all or nothing. The time since a game's start is measured on the game timeline: the last
//! instant the store recorded, less the instant its clocks started (0 before they start).

use baoqi_arbiter::{Event, Tallies, TallyView};
use baoqi_rules::Color;
use baoqi_tournament::changes::{Change, ChangeError, Format, Remedy, Tournament, remedy_108};
use baoqi_tournament::{Game, Player, PlayerId, RoundNumber};

use super::results::{self, Outcomes};
use super::{Amendment, EventError, Logged, Opened, PairingRow};
use crate::admin::{AdminError, Batch, Created};
use baoqi_store::config::TableSpec;
use baoqi_store::model::{EventId, Role, TableId, TableRow};
use baoqi_store::{NewBoard, Store, StoreError};

/// What the organiser corrects at a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Correction {
    /// 108(1): the players played with colours reversed.
    SwapColours,
    /// 108(2): the pairing was wrong; the `side` players of this board and of the board
    /// played at table `with` are exchanged.
    Exchange {
        /// The other board's table.
        with: TableId,
        /// Which players change boards.
        side: Color,
    },
}

/// A correction made.
#[derive(Debug, Clone)]
pub struct Corrected {
    /// The round.
    pub round: RoundNumber,
    /// Replayed, or recorded as played.
    pub remedy: Remedy,
    /// The boards as they now stand.
    pub boards: Vec<PairingRow>,
    /// The new tables of a replay, with their seats (secrets shown once).
    pub created: Option<Created>,
}

/// Why a board cannot be corrected; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum OverrideError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A new table could not be made.
    #[error(transparent)]
    Admin(#[from] AdminError),
    /// The table is no board of the event's rounds.
    #[error("table {table} is not a board of a round of event {event}")]
    NoBoard {
        /// The event.
        event: EventId,
        /// The table.
        table: TableId,
    },
    /// The table is a board of another round.
    #[error("table {table} is a board of round {round}, not of round {asked}")]
    WrongRound {
        /// The table.
        table: TableId,
        /// Its round.
        round: RoundNumber,
        /// The round given.
        asked: RoundNumber,
    },
    /// Only the round being played is corrected.
    #[error("round {round} is over: only the current round ({current}) can be corrected (108)")]
    NotCurrent {
        /// The round asked for.
        round: RoundNumber,
        /// The last round paired.
        current: RoundNumber,
    },
    /// A board exchanged with itself.
    #[error("table {0} cannot be exchanged with itself")]
    SameTable(TableId),
    /// 108(2): past the window, the pairing is not corrected.
    #[error(
        "108(2): a pairing is corrected only in a game of 15′ or more a side within 5′ of its start; table {table} ({} a side) started {} ago: the game stands",
        minutes(*base_ms), minutes(*elapsed_ms)
    )]
    OutsideWindow {
        /// The table.
        table: TableId,
        /// Its smaller time a side.
        base_ms: u64,
        /// The time since its clocks started.
        elapsed_ms: u64,
    },
    /// The tournament core refused.
    #[error(transparent)]
    Change(#[from] ChangeError),
}

/// Minutes and seconds, as `5′00″`.
fn minutes(ms: u64) -> String {
    format!("{}′{:02}″", ms / 60_000, ms % 60_000 / 1000)
}

/// A board's game's window (108): its smaller time a side and the time since its start.
fn window(store: &dyn Store, row: &TableRow) -> Result<(u64, u64), StoreError> {
    let c = &row.config;
    let base = c
        .time
        .for_side(&c.red)
        .base_ms
        .min(c.time.for_side(&c.black).base_ms);
    let started = store.log(row.id)?.into_iter().find_map(|e| {
        e.events
            .iter()
            .any(|ev| matches!(ev, Event::Started { .. }))
            .then_some(e.at)
    });
    let elapsed = started.map_or(0, |at| store.timeline().unwrap_or(at).since(at));
    Ok((base, elapsed))
}

/// Corrects the board played at `table` in round `round` of `event`.
pub fn correct(
    store: &dyn Store,
    event: EventId,
    round: RoundNumber,
    table: TableId,
    correction: Correction,
) -> Result<Corrected, OverrideError> {
    let t = Opened::open(store, event)?;
    let rows = t.records.pairings(event)?;
    let board = board_of(&rows, event, table, round)?;
    // The board is paired, so the last round paired is at least its round.
    let current = super::last_round(&rows).unwrap_or(board.round);
    if round != current {
        return Err(OverrideError::NotCurrent { round, current });
    }
    let mut core = core_of(&t, &rows)?;
    let tables = store.tables(Some(event))?;
    let row_of = |id: TableId| {
        tables
            .iter()
            .find(|r| r.id == id)
            .ok_or(OverrideError::NoBoard { event, table: id })
    };
    let (base, elapsed) = window(store, row_of(table)?)?;
    let mut remedy = remedy_108(base, elapsed);
    let mut affected = vec![board];
    let change = match correction {
        Correction::SwapColours => {
            let position = game_index(&rows, &board) as u32 + 1;
            match core.colours_reversed(round, position, remedy)? {
                Change::ColoursReversed { round, remedy, .. } => Change::ColoursReversed {
                    round,
                    board: board.board,
                    remedy,
                },
                other => other,
            }
        }
        Correction::Exchange { with, side } => {
            if with == table {
                return Err(OverrideError::SameTable(table));
            }
            let other = board_of(&rows, event, with, round)?;
            for id in [table, with] {
                let (base, elapsed) = window(store, row_of(id)?)?;
                if remedy_108(base, elapsed) == Remedy::Record {
                    return Err(OverrideError::OutsideWindow {
                        table: id,
                        base_ms: base,
                        elapsed_ms: elapsed,
                    });
                }
            }
            remedy = Remedy::Replay;
            affected.push(other);
            let mut after = core.rounds[round.index()].clone();
            let at = |b: &PairingRow| game_index(&rows, b);
            exchange(&mut after.games, at(&board), at(&other), side);
            core.override_pairing(round, after)?
        }
    };
    let games = &core.rounds[round.index()].games;
    let boards: Vec<PairingRow> = affected
        .iter()
        .map(|b| {
            let g = games[game_index(&rows, b)];
            PairingRow {
                red: g.red,
                black: Some(g.black),
                result: b.result.filter(|_| remedy == Remedy::Record),
                ..*b
            }
        })
        .collect();
    let mut amendment = Amendment {
        log: vec![Logged::Change(change)],
        at: baoqi_store::wallclock::now(),
        ..Amendment::default()
    };
    // 108(1): 「無論如何雙方均記技術犯規 1 次」: a replay after colours reversed starts with
    // one technical foul a side (a wrong pairing, 108(2), gives none).
    let carried = match correction {
        Correction::SwapColours => fouled(),
        Correction::Exchange { .. } => Tallies::default(),
    };
    let batch = if remedy == Remedy::Replay {
        Some(replay(&t, &boards, carried, &mut amendment)?)
    } else {
        amendment.boards = boards
            .iter()
            .map(|&row| NewBoard { row, table: None })
            .collect();
        None
    };
    let ids = t.records.amend(event, &amendment)?;
    let boards = amendment.stored_boards(&ids)?;
    let created = batch
        .map(|b| b.created(event, &t.event.name, &ids))
        .transpose()?;
    Ok(Corrected {
        round,
        remedy,
        boards,
        created,
    })
}

/// The violations 108(1) gives: 「無論如何雙方均記技術犯規 1 次」, one technical foul each,
/// whether the game is replayed or stands.
pub fn fouled() -> Tallies {
    let one = TallyView {
        technical: 1,
        ..TallyView::default()
    };
    Tallies {
        red: one,
        black: one,
    }
}

/// The place of `board`'s game among its round's games (the core's order: the stored
/// boards, byes apart), which a withdrawal's annulled boards (89(2)) leave with gaps.
fn game_index(rows: &[PairingRow], board: &PairingRow) -> usize {
    rows.iter()
        .filter(|r| r.round == board.round && !r.is_bye() && r.board < board.board)
        .count()
}

fn board_of(
    rows: &[PairingRow],
    event: EventId,
    table: TableId,
    round: RoundNumber,
) -> Result<PairingRow, OverrideError> {
    let row = rows
        .iter()
        .find(|r| r.table == Some(table))
        .ok_or(OverrideError::NoBoard { event, table })?;
    if row.round != round {
        return Err(OverrideError::WrongRound {
            table,
            round: row.round,
            asked: round,
        });
    }
    Ok(*row)
}

/// The event as the core sees it: the stored rounds, every board's order kept (results do
/// not matter to 108, and a board replayed clears its own).
fn core_of(t: &Opened<'_>, rows: &[PairingRow]) -> Result<Tournament, StoreError> {
    let registered = t.records.players(t.event.id)?;
    let mut core = Tournament::new(
        Format::Swiss,
        registered.iter().map(|r| r.player.clone()).collect(),
    );
    // A withdrawn player's board may still be corrected: 108 looks at what was played.
    core.active = registered.iter().map(|r| r.player.id).collect();
    core.rounds = results::rounds(rows, &Outcomes::new());
    core.started = true;
    Ok(core)
}

/// Exchanges the `side` players of the games at `first` and `second` (places in the round).
fn exchange(games: &mut [Game], first: usize, second: usize, side: Color) {
    fn seat(game: &mut Game, side: Color) -> &mut PlayerId {
        match side {
            Color::Red => &mut game.red,
            Color::Black => &mut game.black,
        }
    }
    let (one, other) = (first, second);
    let moved = *seat(&mut games[one], side);
    let back = std::mem::replace(seat(&mut games[other], side), moved);
    *seat(&mut games[one], side) = back;
}

/// New tables for the boards replayed (108), configured from the register (7.2), and their
/// old tables' player seats revoked, added to `amendment`: written together, with the boards
/// moved and the log, in one transaction. Returns the batch, whose secrets are shown once.
fn replay(
    t: &Opened<'_>,
    boards: &[PairingRow],
    carried: Tallies,
    amendment: &mut Amendment,
) -> Result<Batch, OverrideError> {
    let register: Vec<Player> = t
        .records
        .players(t.event.id)?
        .into_iter()
        .map(|r| r.player)
        .collect();
    let rules = t.settings.rules(&t.event.name);
    let player = |id: PlayerId| {
        register
            .iter()
            .find(|p| p.id == id)
            .ok_or(ChangeError::NotActive(id))
    };
    let seats = t.store.seats(t.event.id)?;
    let mut batch = Batch::default();
    for &b in boards {
        let (red, black) = (player(b.red)?, player(b.black.unwrap_or(b.red))?);
        let mut config = rules.match_config(red, black, b.round, b.board);
        config.start_fen.clone_from(&t.settings.game.start_fen);
        config.carried = carried;
        let index = batch.table(&TableSpec {
            round: b.round,
            name: format!("第{}輪 第{}台 重賽", b.round, b.board),
            red: red.name.clone(),
            black: black.name.clone(),
            red_proxy: red.proxy.clone(),
            black_proxy: black.proxy.clone(),
            config: Some(config),
        })?;
        let players = [Role::Red, Role::Black, Role::RedProxy, Role::BlackProxy];
        amendment.revoke.extend(
            seats
                .iter()
                .filter(|s| {
                    players.contains(&s.role)
                        && !s.revoked
                        && b.table.is_some_and(|x| s.tables == [x])
                })
                .map(|s| s.token_hash.clone()),
        );
        // The board's referees (附表七 6.2(1)) follow it to its new table; a referee of
        // every table (none listed) covers it already.
        amendment.cover.extend(
            seats
                .iter()
                .filter(|s| {
                    s.role == Role::Referee
                        && !s.revoked
                        && b.table.is_some_and(|x| s.tables.contains(&x))
                })
                .map(|s| (s.token_hash.clone(), index)),
        );
        amendment.boards.push(NewBoard {
            row: b,
            table: Some(index),
        });
    }
    amendment.tables = batch.tables().clone();
    Ok(batch)
}
