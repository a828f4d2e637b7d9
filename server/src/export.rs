//! Exports: a game's scoresheet (text) and PGN, the event's results table, and the JSON
//! event log of a table or of a whole event. Shared by the HTTP routes and the CLI.

use std::fmt::Write as _;

use baoqi_grammar::Style;
use baoqi_grammar::pgn::write_pgn;
use baoqi_rules::Position;
use serde::Serialize;

use crate::game::{Actor, GameRecord};
use crate::model::{EventRow, TableRow};
use crate::store::{EntryKind, LogEntry};

/// Why a game record cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The start position is not a legal position.
    #[error("the start position: {0}")]
    Start(#[from] baoqi_rules::FenError),
    /// The moves cannot be written.
    #[error("the moves: {0}")]
    Moves(#[from] baoqi_grammar::RenderError),
}

/// The scoresheet (裁判人員記譜) of a table: the event and round, then the arbiter's sheet
/// with the 附表四 header, the moves with marks and clock times, and the result.
pub fn scoresheet(event: &EventRow, table: &TableRow, record: &GameRecord) -> String {
    format!(
        "{}\n第{}輪 {}\n{}",
        event.name, table.round, table.name, record.sheet
    )
}

/// The PGN record of a table, moves in traditional Chinese notation.
pub fn pgn(event: &EventRow, table: &TableRow, record: &GameRecord) -> Result<String, ExportError> {
    let start = Position::from_fen(&record.start_fen)?;
    let result = record.result();
    let tags = vec![
        ("Event".to_string(), event.name.clone()),
        ("Round".to_string(), table.round.to_string()),
        ("Table".to_string(), table.name.clone()),
        ("Red".to_string(), table.red.clone()),
        ("Black".to_string(), table.black.clone()),
        ("Result".to_string(), result.to_string()),
    ];
    Ok(write_pgn(
        &tags,
        &start,
        &record.moves,
        Style::Traditional,
        result,
    )?)
}

/// One line of the results table.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResultLine {
    /// The round.
    pub round: u32,
    /// The table id.
    pub table: i64,
    /// The table's label.
    pub name: String,
    /// Red player.
    pub red: String,
    /// Black player.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0` or `*`.
    pub result: &'static str,
    /// Why the game ended, in the words of the rule text.
    pub reason: Option<String>,
    /// Moves played (plies).
    pub plies: usize,
}

/// The results table of an event, as lines.
pub fn results(tables: &[(TableRow, GameRecord)]) -> Vec<ResultLine> {
    tables
        .iter()
        .map(|(t, r)| ResultLine {
            round: t.round,
            table: t.id,
            name: t.name.clone(),
            red: t.red.clone(),
            black: t.black.clone(),
            result: r.result(),
            reason: r.cause.as_ref().map(baoqi_arbiter::EndCause::rule_text),
            plies: r.moves.len(),
        })
        .collect()
}

/// The results table as aligned text.
pub fn results_text(event: &EventRow, lines: &[ResultLine]) -> String {
    let mut out = format!("{}\n輪 台 紅方 — 黑方 結果\n", event.name);
    for l in lines {
        let _ = writeln!(
            out,
            "{:>2} {:>3} {} — {}  {}  {}{}",
            l.round,
            l.table,
            l.red,
            l.black,
            l.result,
            l.name,
            l.reason
                .as_ref()
                .map(|r| format!("（{r}）"))
                .unwrap_or_default()
        );
    }
    out
}

/// One stored step of the JSON event log.
#[derive(Debug, Clone, Serialize)]
pub struct LogLine<'a> {
    /// The table.
    pub table: i64,
    /// Index within the table's log.
    pub index: u64,
    /// Instant on the game timeline.
    pub at: u64,
    /// `create`, `command` or `advance`.
    pub kind: EntryKind,
    /// Who.
    pub actor: Actor,
    /// The command.
    pub command: &'a Option<baoqi_arbiter::Command>,
    /// Events, each with its sequence number.
    pub events: Vec<(u64, &'a baoqi_arbiter::Event)>,
}

/// The JSON event log of one or more tables: every accepted command and its events.
pub fn log_json(entries: &[LogEntry]) -> Vec<LogLine<'_>> {
    entries
        .iter()
        .map(|e| LogLine {
            table: e.table,
            index: e.index,
            at: e.at,
            kind: e.kind,
            actor: e.actor,
            command: &e.command,
            events: e.numbered().collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use baoqi_arbiter::{Command, MatchConfig};

    #[test]
    fn a_record_exports_as_scoresheet_and_pgn() {
        let event = EventRow {
            id: 1,
            name: "公開賽".into(),
            settings: crate::config::EventSettings::default(),
        };
        let mut config = MatchConfig::default();
        config.red.name = "甲".into();
        config.black.name = "乙".into();
        let table = TableRow {
            id: 3,
            event: 1,
            round: 2,
            name: "視障賽 1".into(),
            red: "甲".into(),
            black: "乙".into(),
            config: config.clone(),
        };
        let mut game = Game::create(config, 0).unwrap();
        let red = Actor::Seat(crate::model::Role::Red);
        let black = Actor::Seat(crate::model::Role::Black);
        game.apply(crate::game::Actor::Server, &Command::Start, 0)
            .unwrap();
        for (actor, mv) in [(red, "h2e2"), (black, "h9g7")] {
            let board = Command::BoardMove {
                board: None,
                mv: mv.parse().unwrap(),
            };
            game.apply(actor, &board, 10).unwrap();
            game.apply(actor, &Command::PressClock, 10).unwrap();
        }
        let record = game.record();
        let sheet = scoresheet(&event, &table, &record);
        assert!(sheet.contains("炮二平五"), "{sheet}");
        assert!(sheet.contains("馬８進７"), "{sheet}");
        let pgn = pgn(&event, &table, &record).unwrap();
        assert!(
            pgn.contains("[Red \"甲\"]") && pgn.contains("炮二平五"),
            "{pgn}"
        );
        let lines = results(&[(table, record)]);
        assert!(results_text(&event, &lines).contains("甲 — 乙  *"));
    }
}
