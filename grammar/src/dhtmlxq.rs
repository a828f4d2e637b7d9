//! `DhtmlXQ`, the UBB text 東萍象棋網 and the Chinese Xiangqi sites embed and broadcast games
//! in: `[DhtmlXQ_tag]value[/DhtmlXQ_tag]` fields, the position as 32 pieces of two
//! digits (`_binit`), the main line as four digits a move (`_movelist`), each a file (a = 0)
//! and a row counted from black's side (row = 9 − rank). Written as UTF-8; read from any
//! text, every field bounded and every move checked legal. The fields and their sources:
//! `docs/record-formats.md` §3.

use std::fmt::Write as _;

use baoqi_rules::{Color, Move, Piece, Point, Position};

use crate::record::{
    IllegalAt, MAX_PLIES, PIECE_ORDER, RecordGame, RecordHeader, RecordResult, Rows, placement,
    play,
};

/// Why a `DhtmlXQ` text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DhtmlError {
    /// No `_movelist` and no `_binit`: not a `DhtmlXQ` record.
    #[error("no [DhtmlXQ_movelist] or [DhtmlXQ_binit] field")]
    NotARecord,
    /// `_binit` is not 64 digits of points (or 99).
    #[error("[DhtmlXQ_binit] is not 64 digits of board points")]
    BadPosition,
    /// The position it gives is not one the rules allow.
    #[error("[DhtmlXQ_binit] gives an illegal position: {0}")]
    IllegalPosition(String),
    /// `_movelist` is not groups of four digits, or holds too many.
    #[error("[DhtmlXQ_movelist] is not groups of four digits (at most {MAX_PLIES} moves)")]
    BadMoves,
    /// A move of the list is not legal where it is played.
    #[error("move {ply} ({mv}) is not legal there")]
    Illegal {
        /// The ply (1 = the first move).
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl DhtmlError {
    /// The ply the error is at (0: before any move).
    #[must_use]
    pub fn ply(&self) -> usize {
        match self {
            Self::Illegal { ply, .. } => *ply,
            _ => 0,
        }
    }
}

/// A point as two digits: its file (a = 0) and its row from black's side.
fn digits(p: Point) -> String {
    format!("{}{}", p.file(), 9 - p.rank())
}

/// The point of two digits, if on the board.
fn point(d: &[u8]) -> Option<Point> {
    let (c, r) = ((d[0] as char).to_digit(10)?, (d[1] as char).to_digit(10)?);
    Point::new(
        u8::try_from(c).ok()?,
        9u8.checked_sub(u8::try_from(r).ok()?)?,
    )
}

/// `_binit` of a position: each side's pieces in their slots, 99 for one not on the board.
fn binit(pos: &Position) -> String {
    let mut out = String::new();
    for side in [Color::Red, Color::Black] {
        let mut taken: Vec<Point> = Vec::new();
        for kind in PIECE_ORDER {
            let found = Point::all()
                .find(|p| pos.piece_at(*p) == Some(Piece::new(side, kind)) && !taken.contains(p));
            match found {
                Some(p) => {
                    taken.push(p);
                    out.push_str(&digits(p));
                }
                None => out.push_str("99"),
            }
        }
    }
    out
}

/// A field's text as an embedding page reads it: the brackets that would end the field
/// replaced (the format has no escape for them), and HTML's five special characters written
/// as references. A `DhtmlXQ` block is made for sites to paste into their pages, where the
/// viewer reads it back from the page's HTML: a name like `<img src=x onerror=…>` must reach
/// it as text, not as markup.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '[' => out.push('［'),
            ']' => out.push('］'),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A field's text as [`text`] wrote it, its five references read back (any other `&` is
/// kept as it stands).
fn untext(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The game from `start` through `moves` as a `DhtmlXQ` block.
pub fn write_dhtmlxq(h: &RecordHeader<'_>, start: &Position, moves: &[Move]) -> String {
    let result = match h.result {
        RecordResult::RedWins => "红胜",
        RecordResult::BlackWins => "黑胜",
        RecordResult::Draw => "和棋",
        RecordResult::Unknown => "未知",
    };
    let mut list = String::new();
    for m in moves {
        list.push_str(&digits(m.from));
        list.push_str(&digits(m.to));
    }
    let mut out = String::from("[DhtmlXQ]\n");
    for (tag, value) in [
        ("title", text(h.title)),
        ("event", text(h.event)),
        ("round", text(h.round)),
        ("table", text(h.table)),
        ("date", text(h.date)),
        ("place", text(h.site)),
        ("red", text(h.red)),
        ("black", text(h.black)),
        ("result", result.to_string()),
        ("binit", binit(start)),
        ("movelist", list),
    ] {
        let _ = writeln!(out, "[DhtmlXQ_{tag}]{value}[/DhtmlXQ_{tag}]");
    }
    for ply in 0..moves.len() {
        // Comment N follows the main line's ply N (from 1); `||` is its line break.
        let c = h.comment(ply);
        if !c.is_empty() {
            let n = ply + 1;
            let c = text(c).replace('\n', "||");
            let _ = writeln!(out, "[DhtmlXQ_comment{n}]{c}[/DhtmlXQ_comment{n}]");
        }
    }
    // No standard tag says who moves first: the side of the first move's piece does.
    if start.turn() == Color::Black {
        let _ = writeln!(out, "[DhtmlXQ_fen]{}[/DhtmlXQ_fen]", start.fen());
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

/// The value of field `tag` in `src`, if present and closed.
fn field<'a>(src: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("[DhtmlXQ_{tag}]");
    let close = format!("[/DhtmlXQ_{tag}]");
    let from = src.find(&open)? + open.len();
    let len = src[from..].find(&close)?;
    Some(src[from..from + len].trim())
}

/// The side to move of the extra `_fen` some writers add (vschess, and baoqi for a
/// black-first record): the only word on it when no move is played.
fn fen_turn(src: &str) -> Option<Color> {
    match field(src, "fen")?.split_whitespace().nth(1)? {
        "b" => Some(Color::Black),
        "w" | "r" => Some(Color::Red),
        _ => None,
    }
}

/// The start position of `_binit` (the standard opening when absent).
fn start_of(src: &str) -> Result<Position, DhtmlError> {
    let Some(init) = field(src, "binit") else {
        return Ok(Position::start());
    };
    let b = init.as_bytes();
    if b.len() != 64 || !b.iter().all(u8::is_ascii_digit) {
        return Err(DhtmlError::BadPosition);
    }
    let mut fen_rows: Rows = [[None::<Piece>; 9]; 10];
    for (i, pair) in b.chunks(2).enumerate() {
        if pair == b"99" {
            continue;
        }
        let p = point(pair).ok_or(DhtmlError::BadPosition)?;
        let side = if i < 16 { Color::Red } else { Color::Black };
        let slot = &mut fen_rows[usize::from(p.rank())][usize::from(p.file())];
        if slot.is_some() {
            return Err(DhtmlError::BadPosition);
        }
        *slot = Some(Piece::new(side, PIECE_ORDER[i % 16]));
    }
    let first = field(src, "movelist")
        .and_then(|l| l.as_bytes().get(..2).and_then(point))
        .and_then(|p| fen_rows[usize::from(p.rank())][usize::from(p.file())].map(|pc| pc.color))
        .or_else(|| fen_turn(src))
        .unwrap_or(Color::Red);
    let fen = placement(&fen_rows, first);
    Position::from_fen(&fen).map_err(|e| DhtmlError::IllegalPosition(e.to_string()))
}

/// [`read_dhtmlxq`] of a file's bytes: UTF-8 (a byte-order mark skipped), else GB18030, as
/// the Chinese sites write it.
pub fn read_dhtmlxq_bytes(bytes: &[u8]) -> Result<RecordGame, DhtmlError> {
    match std::str::from_utf8(bytes) {
        Ok(t) => read_dhtmlxq(t.trim_start_matches('\u{feff}')),
        Err(_) => read_dhtmlxq(&encoding_rs::GB18030.decode(bytes).0),
    }
}

/// Reads the first `DhtmlXQ` record of `src`: its start, main line, result and players.
pub fn read_dhtmlxq(src: &str) -> Result<RecordGame, DhtmlError> {
    if field(src, "movelist").is_none() && field(src, "binit").is_none() {
        return Err(DhtmlError::NotARecord);
    }
    let start = start_of(src)?;
    let list = field(src, "movelist").unwrap_or("").as_bytes();
    if !list.len().is_multiple_of(4)
        || list.len() / 4 > MAX_PLIES
        || !list.iter().all(u8::is_ascii_digit)
    {
        return Err(DhtmlError::BadMoves);
    }
    let mut line = Vec::with_capacity(list.len() / 4);
    for m in list.chunks(4) {
        let (Some(from), Some(to)) = (point(&m[..2]), point(&m[2..])) else {
            return Err(DhtmlError::BadMoves);
        };
        line.push(Move::new(from, to));
    }
    let moves =
        play(&start, line).map_err(|IllegalAt { ply, mv }| DhtmlError::Illegal { ply, mv })?;
    let result = match field(src, "result").unwrap_or("") {
        "红胜" | "紅勝" | "红先胜" | "黑负" | "黑負" => RecordResult::RedWins,
        "黑胜" | "黑勝" | "红负" | "紅負" | "红先负" => RecordResult::BlackWins,
        "和棋" | "和" | "红和" | "红先和" | "和局" => RecordResult::Draw,
        _ => RecordResult::Unknown,
    };
    let name = |tag| untext(field(src, tag).unwrap_or(""));
    Ok(RecordGame {
        start,
        moves,
        result,
        players: [name("red"), name("black")],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_opening_and_a_move_as_dpxq_writes_them() {
        // 炮二平五 is h2e2: from file 7 row 7 to file 4 row 7 (rows from black's side).
        assert_eq!(digits(Point::new(7, 2).unwrap()), "77");
        assert_eq!(
            binit(&Position::start()),
            "0919293949596979891777062646668600102030405060708012720323436383"
        );
    }

    #[test]
    fn names_and_comments_reach_an_embedding_page_as_text_not_markup() {
        let hostile = "<img src=x onerror=alert(1)>\"&'";
        let comments = [format!("{hostile}\n</script>")];
        let h = RecordHeader {
            title: hostile,
            event: hostile,
            red: hostile,
            black: "林華",
            comments: &comments,
            ..RecordHeader::default()
        };
        let start = Position::start();
        let moves = crate::record::random_game(&start, 2, 7);
        let written = write_dhtmlxq(&h, &start, &moves);
        for raw in ['<', '>', '"', '\''] {
            assert!(!written.contains(raw), "{raw} raw in {written}");
        }
        assert!(
            written.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&amp;&#39;"),
            "{written}"
        );
        assert!(written.contains("||&lt;/script&gt;"), "{written}");
        let back = read_dhtmlxq(&written).unwrap();
        assert_eq!(back.players, [hostile.to_string(), "林華".to_string()]);
    }

    #[test]
    fn random_games_and_a_black_first_endgame_read_back_as_written() {
        let endgame = Position::from_fen("3k5/4a4/9/9/2p6/9/9/4B4/4A4/3AK2R1 b").unwrap();
        for (k, start) in std::iter::repeat_n(Position::start(), 40)
            .chain([endgame])
            .enumerate()
        {
            let moves = crate::record::random_game(&start, 120, 0x2545_F491_4F6C_DD1D + k as u64);
            let result = [
                RecordResult::Unknown,
                RecordResult::RedWins,
                RecordResult::BlackWins,
                RecordResult::Draw,
            ][k % 4];
            let h = RecordHeader {
                title: "t[1]",
                event: "e",
                date: "d",
                site: "s",
                red: "陳明",
                black: "林華",
                result,
                ..RecordHeader::default()
            };
            let back = read_dhtmlxq(&write_dhtmlxq(&h, &start, &moves)).unwrap();
            assert_eq!(back.start.fen(), start.fen(), "game {k}");
            assert_eq!(back.moves, moves, "game {k}");
            assert_eq!(back.result, result, "game {k}");
            assert_eq!(back.players, ["陳明".to_string(), "林華".to_string()]);
        }
    }

    #[test]
    fn hostile_fields_are_refused_not_trusted() {
        let bad = |s: &str| read_dhtmlxq(s).unwrap_err();
        assert_eq!(bad("hello"), DhtmlError::NotARecord);
        assert_eq!(
            bad("[DhtmlXQ_movelist]774[/DhtmlXQ_movelist]"),
            DhtmlError::BadMoves
        );
        assert_eq!(
            bad("[DhtmlXQ_movelist]77x7[/DhtmlXQ_movelist]"),
            DhtmlError::BadMoves
        );
        assert_eq!(
            bad("[DhtmlXQ_binit]0919[/DhtmlXQ_binit]"),
            DhtmlError::BadPosition
        );
        let huge = format!(
            "[DhtmlXQ_movelist]{}[/DhtmlXQ_movelist]",
            "7747".repeat(MAX_PLIES + 1)
        );
        assert_eq!(bad(&huge), DhtmlError::BadMoves);
        assert!(matches!(
            bad("[DhtmlXQ_movelist]77477747[/DhtmlXQ_movelist]"),
            DhtmlError::Illegal { ply: 2, .. }
        ));
    }
}
