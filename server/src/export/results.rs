//! The results table of an event (`baoqi export --results`, `/api/events/N/results.txt`):
//! a tournament's by its boards, as the standings count them: the organiser's result over
//! the table's game (an absence, 87, is `+/-`, not `*`), the byes, and no table set aside
//! by a 108 replay; another event's by its tables.

use std::fmt::Write as _;

use baoqi_arbiter::EndCause;
use baoqi_organiser::standings::Standings;
use baoqi_store::game::GameRecord;
use baoqi_store::model::{EventRow, TableId, TableRow};
use baoqi_tournament::{GameResult, RoundNumber};
use serde::Serialize;

/// One line of the results table: a board, or a table of an event without rounds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResultLine {
    /// The round.
    pub round: RoundNumber,
    /// The board within its round (a tournament's), else none.
    pub board: Option<u32>,
    /// The table, none for a bye.
    pub table: Option<TableId>,
    /// The table's label (empty for a bye).
    pub name: String,
    /// Red player, or the player with the bye.
    pub red: String,
    /// Black player (empty for a bye).
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0`, `+/-` (an absence, 87), `bye`, or `*` while it goes
    /// on.
    pub result: String,
    /// Why the game ended, in the words of the rule text (a game played to its end).
    pub reason: Option<String>,
    /// Moves played (plies).
    pub plies: usize,
}

/// The results of an event without rounds: its tables, each as its game stands.
pub fn by_table(tables: &[(TableRow, GameRecord)]) -> Vec<ResultLine> {
    tables
        .iter()
        .map(|(t, r)| ResultLine {
            round: t.round,
            board: None,
            table: Some(t.id),
            name: t.name.clone(),
            red: t.red.clone(),
            black: t.black.clone(),
            result: r.result().to_string(),
            reason: r.cause.as_ref().map(EndCause::rule_text),
            plies: r.moves.len(),
        })
        .collect()
}

/// The results of a tournament: every board of every round paired, as its standings count
/// it, with the game of its table where it was played (`tables`); a table no board names
/// (set aside by a 108 replay) is left out.
pub fn by_board(standings: &Standings, tables: &[(TableRow, GameRecord)]) -> Vec<ResultLine> {
    let mut out = Vec::new();
    for round in &standings.rounds {
        for b in &round.boards {
            let game = b
                .table
                .and_then(|id| tables.iter().find(|(t, _)| t.id == id));
            // The game's own end, when the board's result is the game's.
            let played = game.and_then(|(_, r)| {
                let outcome = r.outcome?;
                let own = b.result.is_some_and(|res| {
                    [false, true]
                        .iter()
                        .any(|&forced| res == GameResult::from_outcome(outcome, forced))
                });
                own.then(|| r.cause.as_ref().map(EndCause::rule_text))
                    .flatten()
            });
            out.push(ResultLine {
                round: round.round,
                board: Some(b.board),
                table: b.table,
                name: game.map(|(t, _)| t.name.clone()).unwrap_or_default(),
                red: b.red.name.clone(),
                black: b.black.as_ref().map(|n| n.name.clone()).unwrap_or_default(),
                result: if b.score.is_empty() {
                    "*".to_string()
                } else {
                    b.score.clone()
                },
                reason: played,
                plies: game.map_or(0, |(_, r)| r.moves.len()),
            });
        }
    }
    out
}

/// The results table as aligned text: a heading per round, a line per board or table.
pub fn text(event: &EventRow, lines: &[ResultLine]) -> String {
    let mut out = format!("{}\n", event.name);
    let mut round = None;
    for l in lines {
        if round != Some(l.round) {
            round = Some(l.round);
            let _ = writeln!(out, "第{}輪 round {}", l.round, l.round);
        }
        let place = match (l.board, l.table) {
            (Some(b), Some(t)) => format!("第{b}台（桌{t}）"),
            (Some(b), None) => format!("第{b}台"),
            (None, Some(t)) => format!("桌{t} {}", l.name),
            (None, None) => String::new(),
        };
        let reason = l
            .reason
            .as_ref()
            .map(|r| format!("（{r}）"))
            .unwrap_or_default();
        if l.black.is_empty() {
            let _ = writeln!(out, "  {place} {}  輪空 {}", l.red, l.result);
        } else {
            let _ = writeln!(
                out,
                "  {place} {} — {}  {}{reason}",
                l.red, l.black, l.result
            );
        }
    }
    out
}
