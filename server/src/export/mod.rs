//! Exports: a game's scoresheet (text), PGN, XQF, CBF and `DhtmlXQ`, an event's games as one
//! ZIP ([`mod@archive`]), with the 附表四 第三部份 header as the server
//! knows it, their download names, the event's results table ([`results`]), and the JSON
//! event log of a table or of a whole event. Shared by the HTTP routes and the CLI.

pub mod archive;
mod known;
mod names;
mod pgn;
pub mod results;
mod sheet;
mod xqf;

use baoqi_arbiter::Millis;
use serde::Serialize;

use baoqi_store::game::Actor;
use baoqi_store::model::TableId;
use baoqi_store::{EntryKind, LogEntry};

pub use archive::{RecordFormat, archive};
pub use known::{Known, SheetHeader, referees_of, started_of};
pub use names::FileName;
pub use pgn::pgn;
pub use results::ResultLine;
pub use sheet::{face, face_seconds, scoresheet};
pub use xqf::{cbf, dhtmlxq, xqf};

/// Why a game record cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The start position is not a legal position.
    #[error("the start position: {0}")]
    Start(#[from] baoqi_rules::FenError),
    /// The moves cannot be written.
    #[error("the moves: {0}")]
    Moves(#[from] baoqi_grammar::RenderError),
    /// The archive cannot be written.
    #[error("the archive: {0}")]
    Archive(#[from] zip::result::ZipError),
}

/// One stored step of the JSON event log.
#[derive(Debug, Clone, Serialize)]
pub struct TableLogLine<'a> {
    /// The table.
    pub table: TableId,
    /// Index within the table's log.
    pub index: u64,
    /// Instant on the game timeline.
    pub at: Millis,
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
pub fn log_json(entries: &[LogEntry]) -> Vec<TableLogLine<'_>> {
    entries
        .iter()
        .map(|e| TableLogLine {
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
