//! A table's game as its pairing's result, read from the game itself when the results are
//! needed (standings, the next pairing): the table tasks write nothing extra. A game counts
//! once it is over; the referee's verification (6.8, 7.9) makes it final, and a round is
//! paired only on final results. A result the organiser recorded (an absence, 87) stands
//! over the table's.

use std::collections::BTreeMap;

use baoqi_arbiter::{Millis, View};
use baoqi_tournament::changes::{self, HalfByes};
use baoqi_tournament::{Game, GameResult, Round, RoundNumber};

use super::PairingRow;
use baoqi_store::model::{EventId, TableId};
use baoqi_store::replay::{ReplayError, replay};
use baoqi_store::{Store, StoreError};

/// What is known of one table's game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableOutcome {
    /// The result, once the game is over.
    pub result: Option<GameResult>,
    /// The referee verified it (6.8, 7.9).
    pub verified: bool,
    /// The clocks were started (a game not begun is not "in play" on the hall's screen).
    pub started: bool,
}

/// The article of 強制和棋, which 黃氏計分法 scores apart (附表二 第二部份 1(4)).
const FORCED_DRAW: &str = "70(3)";

/// The result of a table's game from its current state: the arbiter's outcome, a draw ruled
/// under 70(3) as 強制和.
pub fn outcome(view: &View) -> TableOutcome {
    let result = view.result.as_ref().map(|r| {
        let forced = r.articles.iter().any(|a| a.as_str() == FORCED_DRAW);
        GameResult::from_outcome(r.outcome, forced)
    });
    TableOutcome {
        result,
        verified: result.is_some() && view.verified.is_some(),
        started: view.phase != baoqi_arbiter::Phase::NotStarted,
    }
}

/// Every table's outcome, by table.
pub type Outcomes = BTreeMap<TableId, TableOutcome>;

/// Why the games cannot be read from the store.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A table's log does not rebuild its match.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// The outcomes of an event's tables, rebuilt from their logs (the command line, with or
/// without a server running on the file).
pub fn from_store(store: &dyn Store, event: EventId) -> Result<Outcomes, ReadError> {
    let mut out = Outcomes::new();
    for row in store.tables(Some(event))? {
        let log = store.log(row.id)?;
        let now = log.last().map_or(Millis(0), |e| e.at);
        let (resumed, _) = replay(&row, &log, now)?;
        out.insert(row.id, outcome(&resumed.game.snapshot()));
    }
    Ok(out)
}

/// A board's result: the organiser's, else the table's game once over.
pub fn board_result(row: &PairingRow, outcomes: &Outcomes) -> Option<GameResult> {
    row.result
        .or_else(|| row.table.and_then(|t| outcomes.get(&t)?.result))
}

/// Whether a board's result is final: recorded by the organiser, or verified at the table.
pub fn board_final(row: &PairingRow, outcomes: &Outcomes) -> bool {
    row.is_bye()
        || row.result.is_some()
        || row
            .table
            .and_then(|t| outcomes.get(&t))
            .is_some_and(|o| o.verified)
}

/// The event's rounds as the tournament core scores them: results filled in, and the
/// late entrants' half-point byes for the rounds they missed ([`Round::half_byes`]).
pub fn scored(rows: &[PairingRow], outcomes: &Outcomes, half: &HalfByes) -> Vec<Round> {
    changes::with_half_byes(rounds(rows, outcomes), half)
}

/// The event's rounds as the tournament core counts them, results filled in.
pub fn rounds(rows: &[PairingRow], outcomes: &Outcomes) -> Vec<Round> {
    let paired = super::last_round(rows).map_or(0, RoundNumber::rounds_through);
    let mut out = vec![Round::default(); paired as usize];
    for row in rows {
        let round = &mut out[row.round.index()];
        match row.black {
            None => round.byes.push(row.red),
            Some(black) => round.games.push(Game {
                red: row.red,
                black,
                result: board_result(row, outcomes),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_tournament::PlayerId;

    fn game(board: u32, table: TableId, result: Option<GameResult>) -> PairingRow {
        PairingRow {
            round: RoundNumber::first(),
            board,
            red: PlayerId(board * 2 - 1),
            black: Some(PlayerId(board * 2)),
            table: Some(table),
            result,
        }
    }

    #[test]
    fn a87_the_organisers_absence_stands_over_the_table() {
        let outcomes = Outcomes::from([
            (
                TableId(10),
                TableOutcome {
                    result: Some(GameResult::RedWins),
                    verified: false,
                    started: true,
                },
            ),
            (TableId(11), TableOutcome::default()),
        ]);
        let rows = [
            game(1, TableId(10), None),
            game(2, TableId(11), Some(GameResult::BlackAbsent)),
        ];
        let r = rounds(&rows, &outcomes);
        assert_eq!(r[0].games[0].result, Some(GameResult::RedWins));
        assert_eq!(r[0].games[1].result, Some(GameResult::BlackAbsent));
        assert!(!board_final(&rows[0], &outcomes), "not yet verified (7.9)");
        assert!(board_final(&rows[1], &outcomes));
    }
}
