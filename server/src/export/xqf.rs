//! The XQF and `DhtmlXQ` records of a table: the game for 象棋演播室 and the software that
//! reads its files, and for the sites that embed `DhtmlXQ`, with the header's event, round
//! and table as the title, the date, the venue, the players and the result, and after each
//! move the comment the PGN writes (＝ for a draw offered, the mover's clock as
//! `[%clk h:mm:ss]`) (`baoqi_grammar::xqf`, `baoqi_grammar::dhtmlxq`,
//! `baoqi_grammar::cbf`).

use baoqi_arbiter::{Outcome, View};
use baoqi_grammar::cbf::write_cbf;
use baoqi_grammar::dhtmlxq::write_dhtmlxq;
use baoqi_grammar::record::{RecordHeader, RecordResult};
use baoqi_grammar::xqf::write_xqf;
use baoqi_rules::{Move, Position};

use super::{ExportError, Known, SheetHeader};

/// The XQF file of a table.
pub fn xqf(known: &Known, view: &View) -> Result<Vec<u8>, ExportError> {
    let (start, moves) = line(view)?;
    let (h, title, comments) = titled(known, view);
    Ok(write_xqf(
        &header(known, &h, view, &title, &comments),
        &start,
        &moves,
    ))
}

/// The `DhtmlXQ` block of a table.
pub fn dhtmlxq(known: &Known, view: &View) -> Result<String, ExportError> {
    let (start, moves) = line(view)?;
    let (h, title, comments) = titled(known, view);
    Ok(write_dhtmlxq(
        &header(known, &h, view, &title, &comments),
        &start,
        &moves,
    ))
}

/// The CBF document of a table.
pub fn cbf(known: &Known, view: &View) -> Result<String, ExportError> {
    let (start, moves) = line(view)?;
    let (h, title, comments) = titled(known, view);
    Ok(write_cbf(
        &header(known, &h, view, &title, &comments),
        &start,
        &moves,
    ))
}

/// The start position and the moves on the record.
fn line(view: &View) -> Result<(Position, Vec<Move>), ExportError> {
    let start = Position::from_fen(&view.start_fen)?;
    Ok((start, view.moves.iter().map(|m| m.mv.iccs).collect()))
}

/// The scoresheet's header, the title it gives (the event, its round and table), and the
/// comment after each move: ＝ for a draw offered, and the mover's clock, as in the PGN.
fn titled(known: &Known, view: &View) -> (SheetHeader, String, Vec<String>) {
    let h = known.header();
    let title = format!("{} 第{}輪 第{}台", h.event, h.round, h.table);
    let comments = view.moves.iter().map(super::pgn::comment).collect();
    (h, title, comments)
}

/// The record's header from what the store knows.
fn header<'a>(
    known: &'a Known,
    h: &'a SheetHeader,
    view: &View,
    title: &'a str,
    comments: &'a [String],
) -> RecordHeader<'a> {
    // No format says "both lose": such a game's result is left unknown.
    // The organiser's result where he entered one (87, 7.9).
    let result = match known.outcome(view) {
        Some(Outcome::RedWins) => RecordResult::RedWins,
        Some(Outcome::BlackWins) => RecordResult::BlackWins,
        Some(Outcome::Draw) => RecordResult::Draw,
        Some(Outcome::BothLose) | None => RecordResult::Unknown,
    };
    RecordHeader {
        title,
        event: &h.event,
        round: &h.round,
        table: &h.table,
        date: &h.date,
        site: &h.venue,
        red: &known.table.red,
        black: &known.table.black,
        result,
        comments,
    }
}
