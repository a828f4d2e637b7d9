//! The PGN record of a table: the Seven Tag Roster in its order (with `Red` in the place of
//! `White`, as Xiangqi records write it), then supplemental tags, the moves in traditional
//! Chinese notation, and after each move a comment holding ＝ when a draw was offered in
//! that turn (附表六 第二部份) and the mover's clock face after the move as `[%clk h:mm:ss]`.

use baoqi_arbiter::{Outcome, SheetMove, View, cited};
use baoqi_grammar::Style;
use baoqi_grammar::pgn::write_pgn_commented;
use baoqi_rules::{Move, Position};

use super::sheet::face_seconds;
use super::{ExportError, Known, SheetHeader};

/// What PGN writes for an unknown date (PGN standard 8.1.1.3).
const UNKNOWN_DATE: &str = "????.??.??";

/// The PGN record of a table.
pub fn pgn(known: &Known, view: &View) -> Result<String, ExportError> {
    let start = Position::from_fen(&view.start_fen)?;
    // The organiser's result where he entered one (87, 7.9), else the game's.
    let result = known.outcome(view).map_or("*", Outcome::score);
    let moves: Vec<Move> = view.moves.iter().map(|m| m.mv.iccs).collect();
    let comments: Vec<String> = view.moves.iter().map(comment).collect();
    let tags = tags(known, &known.header(), view, result);
    Ok(write_pgn_commented(
        &tags,
        &start,
        &moves,
        &comments,
        Style::Traditional,
        result,
    )?)
}

/// The Seven Tag Roster, then `Game`, the table, the UTC start, the referee and the
/// termination.
fn tags(known: &Known, h: &SheetHeader, view: &View, result: &str) -> Vec<(String, String)> {
    let or_unknown = |s: &str| {
        if s.is_empty() {
            "?".to_string()
        } else {
            s.to_string()
        }
    };
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", or_unknown(&h.event)),
        ("Site", or_unknown(&h.venue)),
        ("Date", h.day.map_or(UNKNOWN_DATE.into(), |d| d.to_string())),
        ("Round", or_unknown(&h.round)),
        ("Red", or_unknown(&known.table.red)),
        ("Black", or_unknown(&known.table.black)),
        ("Result", result.to_string()),
        ("Game", "Chinese Chess".into()),
        ("Table", h.table.clone()),
        ("TableName", h.label.clone()),
    ];
    if let Some(t) = h.started {
        tags.push(("UTCDate", t.day.to_string()));
        tags.push(("UTCTime", t.clock()));
    }
    if !h.referee.is_empty() {
        // 終局裁判 (附表四 3(15)): PGN has no tag of its own for it.
        tags.push(("Referee", h.referee.clone()));
    }
    if let Some(r) = &view.result {
        let why = format!("{}（{}）", r.cause.rule_text(), cited(&r.articles));
        tags.push(("Termination", why));
    }
    tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The comment after a move: `＝` for a draw offered in that turn, then the mover's clock.
pub(super) fn comment(m: &SheetMove) -> String {
    let s = face_seconds(m.clock_ms);
    let clk = format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60);
    if m.draw_offer {
        format!("＝ {clk}")
    } else {
        clk
    }
}
