//! Writing (and, in `read`, reading) a game as CBF, the XML record of 象棋橋 (`XiangQi`
//! Bridge): a `ChineseChessRecord` with its `Head` (title, event, round, table, date,
//! place, players, result, the start position as FEN) and its `MoveList`, the main line
//! only, each move `FY-FY` with F the file (a = 0) and Y the row from black's side. The
//! fields and their sources: `docs/record-formats.md` §2.

use std::fmt::Write as _;

use baoqi_rules::{Move, Point, Position};

use crate::record::{RecordHeader, RecordResult};

mod read;
pub use read::{CbfError, MAX_BYTES, read_cbf, read_cbf_bytes};

/// `s` with the characters XML gives meaning to escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A point as CBF writes it: its file, then its row from black's side.
fn square(p: Point) -> String {
    format!("{}{}", p.file(), 9 - p.rank())
}

/// The game from `start` through `moves` as a CBF document.
pub fn write_cbf(h: &RecordHeader<'_>, start: &Position, moves: &[Move]) -> String {
    let result = match h.result {
        RecordResult::Unknown => 0,
        RecordResult::RedWins => 1,
        RecordResult::BlackWins => 2,
        RecordResult::Draw => 3,
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<ChineseChessRecord Version=\"1.0\">\n <Head>\n");
    for (tag, value) in [
        ("Name", escape(h.title)),
        ("Contest", escape(h.event)),
        ("Round", escape(h.round)),
        ("Table", escape(h.table)),
        ("Date", escape(h.date)),
        ("Site", escape(h.site)),
        ("Red", escape(h.red)),
        ("Black", escape(h.black)),
        ("RecordType", "1".to_string()),
        ("RecordResult", result.to_string()),
        ("FEN", start.fen()),
    ] {
        let _ = writeln!(out, "  <{tag}>{value}</{tag}>");
    }
    out.push_str(" </Head>\n <MoveList>\n  <Move value=\"00-00\" />\n");
    for (i, m) in moves.iter().enumerate() {
        let end = if i + 1 == moves.len() {
            " end=\"1\""
        } else {
            ""
        };
        let value = format!("{}-{}", square(m.from), square(m.to));
        let _ = match h.comment(i) {
            "" => writeln!(out, "  <Move value=\"{value}\"{end} />"),
            c => writeln!(out, "  <Move value=\"{value}\"{end}>{}</Move>", escape(c)),
        };
    }
    out.push_str(" </MoveList>\n</ChineseChessRecord>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_written_as_the_samples_write_it() {
        // 炮二平五 h2e2 is 77-47; 馬８進７ h9g7 is 70-62.
        let h2e2 = Move::new(Point::new(7, 2).unwrap(), Point::new(4, 2).unwrap());
        let h = RecordHeader {
            title: "a<b>&c",
            event: "e",
            date: "d",
            site: "s",
            red: "r",
            black: "b",
            result: RecordResult::Draw,
            ..RecordHeader::default()
        };
        let doc = write_cbf(&h, &Position::start(), &[h2e2]);
        assert!(doc.contains("<Move value=\"77-47\" end=\"1\" />"), "{doc}");
        assert!(doc.contains("<Name>a&lt;b&gt;&amp;c</Name>"), "{doc}");
        assert!(doc.contains("<RecordResult>3</RecordResult>"), "{doc}");
    }
}
