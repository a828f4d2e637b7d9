//! Exports: a game's scoresheet (text) and PGN, the event's results table, and the JSON
//! event log of a table or of a whole event. Shared by the HTTP routes and the CLI.

use std::fmt::Write as _;

use baoqi_grammar::Style;
use baoqi_grammar::pgn::{write_pgn, write_scoresheet};
use baoqi_rules::{Move, Position, START_FEN};
use serde::Serialize;
use serde_json::Value;

use crate::engine::GameRecord;
use crate::model::{EventRow, TableRow};
use crate::store::{EntryKind, LogEntry};

fn game(record: &GameRecord) -> Result<(Position, Vec<Move>), String> {
    let fen = if record.start_fen.is_empty() {
        START_FEN
    } else {
        &record.start_fen
    };
    let start = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let moves = record
        .moves
        .iter()
        .map(|m| m.parse::<Move>().map_err(|e| format!("{m}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((start, moves))
}

/// The scoresheet (裁判人員記譜) of a table: header, moves with marks, result.
pub fn scoresheet(
    event: &EventRow,
    table: &TableRow,
    record: &GameRecord,
) -> Result<String, String> {
    let mut out = format!("{}\n第{}輪 {}\n", event.name, table.round, table.name);
    if let Some(sheet) = &record.sheet {
        out.push_str(sheet);
        return Ok(out);
    }
    let (start, moves) = game(record)?;
    out.push_str(
        &write_scoresheet(&table.red, &table.black, &start, &moves).map_err(|e| e.to_string())?,
    );
    let _ = writeln!(out, "結果：{}", record.result);
    if let Some(reason) = &record.reason {
        let _ = writeln!(out, "理由：{reason}");
    }
    Ok(out)
}

/// The PGN record of a table, moves in traditional Chinese notation.
pub fn pgn(event: &EventRow, table: &TableRow, record: &GameRecord) -> Result<String, String> {
    let (start, moves) = game(record)?;
    let tags = vec![
        ("Event".to_string(), event.name.clone()),
        ("Round".to_string(), table.round.to_string()),
        ("Table".to_string(), table.name.clone()),
        ("Red".to_string(), table.red.clone()),
        ("Black".to_string(), table.black.clone()),
        ("Result".to_string(), record.result.clone()),
    ];
    write_pgn(&tags, &start, &moves, Style::Traditional, &record.result).map_err(|e| e.to_string())
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
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended.
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
            result: r.result.clone(),
            reason: r.reason.clone(),
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
    pub actor: &'a crate::engine::Actor,
    /// The command.
    pub command: &'a Value,
    /// Events, each with its sequence number.
    pub events: Vec<(u64, &'a Value)>,
}

/// The JSON event log of one or more tables: every accepted command and its events.
pub fn log_json(entries: &[LogEntry]) -> Value {
    let lines: Vec<LogLine<'_>> = entries
        .iter()
        .map(|e| LogLine {
            table: e.table,
            index: e.index,
            at: e.at,
            kind: e.kind,
            actor: &e.actor,
            command: &e.command,
            events: e
                .events
                .iter()
                .enumerate()
                .map(|(k, ev)| (e.first_seq + k as u64, ev))
                .collect(),
        })
        .collect();
    serde_json::to_value(lines).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_exports_as_scoresheet_and_pgn() {
        let event = EventRow {
            id: 1,
            name: "公開賽".into(),
            settings: json!({}),
        };
        let table = TableRow {
            id: 3,
            event: 1,
            round: 2,
            name: "視障賽 1".into(),
            red: "甲".into(),
            black: "乙".into(),
            config: json!({}),
        };
        let record = GameRecord {
            start_fen: String::new(),
            moves: vec!["h2e2".into(), "h9g7".into()],
            clock_after: vec![None, None],
            result: "*".into(),
            reason: None,
            sheet: None,
        };
        let sheet = scoresheet(&event, &table, &record).unwrap();
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
