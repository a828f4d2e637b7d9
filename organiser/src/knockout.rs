//! 淘汰 (knock-out, 附表二 第一部份 1(1)) on the stored rounds: round 1 is the seeded
//! bracket of the register, each later round pairs the winners of neighbouring ties, and a
//! tie still level gets its tie-break games (as [`Tie::schedule`] sets them up) as more
//! boards of its round. A round's boards follow the bracket (a tie's games together, a bye
//! in its place), so the bracket is read back from the boards and never stored apart; a
//! tie's lot (抽籤) is read back from the change log ([`Logged::Lot`]).

use std::collections::BTreeSet;

use baoqi_tournament::knockout::{Next, Tie, TieRules, bracket};
use baoqi_tournament::{Player, PlayerId, RoundNumber};

use super::draft::{Board, Draft};
use super::results::{self, Outcomes};
use super::rounds::PairError;
use super::{ChangeLine, Logged, Opened, PairingRow};
use baoqi_store::model::TableId;

/// One place of a round's bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Slot {
    /// A tie, its games' results in board order, and its tables.
    Tie(Tie, Vec<TableId>),
    /// A player through to the next round without a game.
    Bye(PlayerId),
}

/// The boards to create next: round 1's bracket, the tie-break games of level ties, or the
/// next round of the winners (a tie the lot decided goes to the lot's winner).
pub(super) fn draft(
    t: &Opened<'_>,
    register: &[Player],
    active: &BTreeSet<PlayerId>,
    rows: &[PairingRow],
    outcomes: &Outcomes,
) -> Result<Draft, PairError> {
    let rules = t.settings.knockout;
    let Some(done) = super::last_round(rows) else {
        return Ok(first_round(register, active, rules));
    };
    let last: Vec<&PairingRow> = rows.iter().filter(|r| r.round == done).collect();
    let mut slots = slots(&last, outcomes, done, register)?;
    with_lots(&mut slots, done, &t.records.changes(t.event.id)?);
    let more = tie_breaks(&slots, rules);
    if !more.is_empty() {
        let first = last.iter().map(|r| r.board).max().unwrap_or(0) + 1;
        return Ok(Draft {
            round: done,
            first,
            boards: more,
            relaxed: Vec::new(),
        });
    }
    let winners = winners(&slots, rules, (t.event.id, done), register)?;
    if winners.len() < 2 {
        return Err(PairError::Complete(done.rounds_through()));
    }
    Ok(next_round(&winners, register, done.next(), rules))
}

/// Round 1: the active players seeded by their initial ranking (seed, rating, register
/// number) into the bracket; each tie's main games, the higher seed red first.
fn first_round(register: &[Player], active: &BTreeSet<PlayerId>, rules: TieRules) -> Draft {
    let mut seeded: Vec<&Player> = register.iter().filter(|p| active.contains(&p.id)).collect();
    seeded.sort_by_key(|p| p.ranking_key());
    let seed = |n: u32| seeded[n as usize - 1].id;
    let mut boards = Vec::new();
    for (a, b) in bracket(seeded.len() as u32) {
        match b {
            Some(b) => boards.extend(main_games(seed(a), seed(b), rules)),
            None => boards.push(Board::Bye(seed(a))),
        }
    }
    Draft {
        round: RoundNumber::first(),
        first: 1,
        boards,
        relaxed: Vec::new(),
    }
}

/// A new tie's main games.
fn main_games(first: PlayerId, second: PlayerId, rules: TieRules) -> Vec<Board> {
    Tie::new(first, second)
        .schedule(rules)
        .into_iter()
        .map(|(g, stage)| Board::Game(g, stage))
        .collect()
}

/// The bracket of a round from its boards: each tie at its first game (whose red is the
/// higher seed), its games' results in board order. Refuses while a game of a tie has no
/// final result (over and verified, 7.9, or recorded by the organiser).
fn slots(
    last: &[&PairingRow],
    outcomes: &Outcomes,
    round: RoundNumber,
    register: &[Player],
) -> Result<Vec<Slot>, PairError> {
    let mut slots: Vec<Slot> = Vec::new();
    for row in last {
        let Some(black) = row.black else {
            slots.push(Slot::Bye(row.red));
            continue;
        };
        let same =
            |t: &Tie| BTreeSet::from([t.first, t.second]) == BTreeSet::from([row.red, black]);
        let at = slots
            .iter()
            .position(|s| matches!(s, Slot::Tie(t, _) if same(t)));
        let index = at.unwrap_or_else(|| {
            slots.push(Slot::Tie(Tie::new(row.red, black), Vec::new()));
            slots.len() - 1
        });
        if let Slot::Tie(tie, tables) = &mut slots[index] {
            tables.extend(row.table);
            let result = results::board_result(row, outcomes)
                .filter(|_| results::board_final(row, outcomes));
            match result {
                Some(r) => tie.results.push(r),
                None => return Err(undecided(tie, round, last, outcomes, register)),
            }
        }
    }
    Ok(slots)
}

/// The refusal for a tie with games not yet final: its tables without a final result.
fn undecided(
    tie: &Tie,
    round: RoundNumber,
    last: &[&PairingRow],
    outcomes: &Outcomes,
    register: &[Player],
) -> PairError {
    let pair = BTreeSet::from([tie.first, tie.second]);
    let tables = last
        .iter()
        .filter(|r| r.black.is_some_and(|b| BTreeSet::from([r.red, b]) == pair))
        .filter(|r| !results::board_final(r, outcomes))
        .filter_map(|r| r.table)
        .collect();
    PairError::TieUndecided {
        round,
        first: name(register, tie.first),
        second: name(register, tie.second),
        tables,
    }
}

fn name(register: &[Player], id: PlayerId) -> String {
    register
        .iter()
        .find(|p| p.id == id)
        .map_or_else(|| id.to_string(), |p| p.name.clone())
}

/// Sets the lot of each tie of `round` the change log holds one for (the first logged).
fn with_lots(slots: &mut [Slot], round: RoundNumber, log: &[ChangeLine]) {
    for slot in slots {
        let Slot::Tie(tie, _) = slot else { continue };
        let pair = BTreeSet::from([tie.first, tie.second]);
        tie.lot = log.iter().find_map(|l| match l.change {
            Logged::Lot {
                round: r,
                first,
                second,
                winner,
            } if r == round
                && BTreeSet::from([first, second]) == pair
                && pair.contains(&winner) =>
            {
                Some(winner)
            }
            _ => None,
        });
    }
}

/// The tie played at `table` (its round, and the tie with its lot if one was drawn), read
/// as [`draft`] reads it; `None` when the table is no game of a round.
/// Refused while a game of the tie has no final result.
pub(super) fn tie_at(
    t: &Opened<'_>,
    register: &[Player],
    table: TableId,
    outcomes: &Outcomes,
) -> Result<Option<(RoundNumber, Tie)>, PairError> {
    let rows = t.records.pairings(t.event.id)?;
    let Some(at) = rows.iter().find(|r| r.table == Some(table)) else {
        return Ok(None);
    };
    let pair = BTreeSet::from([Some(at.red), at.black]);
    let tie: Vec<&PairingRow> = rows
        .iter()
        .filter(|r| r.round == at.round && BTreeSet::from([Some(r.red), r.black]) == pair)
        .collect();
    let mut slots = slots(&tie, outcomes, at.round, register)?;
    with_lots(&mut slots, at.round, &t.records.changes(t.event.id)?);
    Ok(slots.into_iter().find_map(|s| match s {
        Slot::Tie(tie, _) => Some((at.round, tie)),
        Slot::Bye(_) => None,
    }))
}

/// The games level ties play next, tie by tie.
fn tie_breaks(slots: &[Slot], rules: TieRules) -> Vec<Board> {
    slots
        .iter()
        .filter_map(|s| match s {
            Slot::Tie(t, _) => Some(t.schedule(rules)),
            Slot::Bye(_) => None,
        })
        .flatten()
        .map(|(g, stage)| Board::Game(g, stage))
        .collect()
}

/// Who goes through from each place of the bracket, in order.
fn winners(
    slots: &[Slot],
    rules: TieRules,
    (event, round): (baoqi_store::model::EventId, RoundNumber),
    register: &[Player],
) -> Result<Vec<PlayerId>, PairError> {
    slots
        .iter()
        .map(|s| match s {
            Slot::Bye(p) => Ok(*p),
            Slot::Tie(t, tables) => match t.next(rules) {
                Next::Winner(p) => Ok(p),
                Next::Lot => Err(PairError::Lot {
                    event,
                    round,
                    first: name(register, t.first),
                    second: name(register, t.second),
                    table: tables.first().copied().unwrap_or(TableId(0)),
                }),
                Next::Play { .. } => Err(PairError::TieUndecided {
                    round,
                    first: name(register, t.first),
                    second: name(register, t.second),
                    tables: tables.clone(),
                }),
            },
        })
        .collect()
}

/// The next round: the winners of neighbouring places meet, the higher seed (initial
/// ranking) red first.
fn next_round(
    winners: &[PlayerId],
    register: &[Player],
    round: RoundNumber,
    rules: TieRules,
) -> Draft {
    let rank = |id: PlayerId| {
        register
            .iter()
            .find(|p| p.id == id)
            .map(Player::ranking_key)
    };
    let mut boards = Vec::new();
    for pair in winners.chunks(2) {
        match *pair {
            [a, b] if rank(b) < rank(a) => boards.extend(main_games(b, a, rules)),
            [a, b] => boards.extend(main_games(a, b, rules)),
            [a] => boards.push(Board::Bye(a)),
            _ => {}
        }
    }
    Draft {
        round,
        first: 1,
        boards,
        relaxed: Vec::new(),
    }
}
