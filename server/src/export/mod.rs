//! Exports: a game's scoresheet (text) and PGN with the 附表四 第三部份 header as the server
//! knows it, their download names, the event's results table, and the JSON event log of a
//! table or of a whole event. Shared by the HTTP routes and the CLI.

mod known;
mod names;
mod pgn;
mod sheet;

use std::fmt::Write as _;

use serde::Serialize;

use baoqi_store::game::{Actor, GameRecord};
use baoqi_store::model::{EventRow, TableRow};
use baoqi_store::{EntryKind, LogEntry};

pub use known::{Known, SheetHeader, referees_of};
pub use names::FileName;
pub use pgn::pgn;
pub use sheet::{face, face_seconds, scoresheet};

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
mod tests;
