//! The XQF record of a table (issue 33, item 1): the game for 象棋演播室 and the software
//! that reads its files, with the header's event, round and table as the title, the date,
//! the venue, the players and the result (`baoqi_grammar::xqf`).

use baoqi_arbiter::{Outcome, View};
use baoqi_grammar::record::{RecordHeader, RecordResult};
use baoqi_grammar::xqf::write_xqf;
use baoqi_rules::{Move, Position};

use super::{ExportError, Known};

/// The XQF file of a table.
pub fn xqf(known: &Known, view: &View) -> Result<Vec<u8>, ExportError> {
    let start = Position::from_fen(&view.start_fen)?;
    let h = known.header();
    let title = format!("{} 第{}輪 第{}台", h.event, h.round, h.table);
    // XQF has no "both lose": such a game's result is left unknown.
    let result = match view.result.as_ref().map(|r| r.outcome) {
        Some(Outcome::RedWins) => RecordResult::RedWins,
        Some(Outcome::BlackWins) => RecordResult::BlackWins,
        Some(Outcome::Draw) => RecordResult::Draw,
        Some(Outcome::BothLose) | None => RecordResult::Unknown,
    };
    let moves: Vec<Move> = view.moves.iter().map(|m| m.mv.iccs).collect();
    let header = RecordHeader {
        title: &title,
        event: &h.event,
        date: &h.date,
        site: &h.venue,
        red: &known.table.red,
        black: &known.table.black,
        result,
    };
    Ok(write_xqf(&header, &start, &moves))
}
