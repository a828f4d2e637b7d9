//! Writing (and, in `read`, reading) a game as XQF, the binary record of 象棋演播室 (`XQStudio`) that most Xiangqi
//! software opens: the unencrypted XQF 1.0 form every reader reads — version 10, every key
//! byte 0 — with the header's strings in GBK and the main line as a chain of move records.
//! The fields and their sources: `docs/record-formats.md` §1.

use baoqi_rules::{Color, Move, Point, Position};

use crate::record::{PIECE_ORDER, RecordHeader, RecordResult};

mod read;
pub use read::{MAX_BYTES, XqfError, read_xqf};

/// The header's size; the move records follow it.
pub(crate) const HEADER: usize = 0x400;
/// XQF 1.0: not encrypted.
const VERSION: u8 = 10;
/// What XQF adds to a move's from and to squares.
pub(crate) const FROM_BIAS: u8 = 0x18;
pub(crate) const TO_BIAS: u8 = 0x20;
/// A record's flag: the next move of the line follows.
const HAS_CHILD: u8 = 0xF0;
/// A slot whose piece is off the board (every reader skips it).
const OFF_BOARD: u8 = 0xFF;

/// A point as XQF writes it: file × 10 + rank (the ICCS square, a0 = 0).
fn square(p: Point) -> u8 {
    p.file() * 10 + p.rank()
}

/// The 32-slot piece table of `pos`: each side's pieces in its slots of their kind, taken
/// from that side's right to its left, as `XQStudio` fills them (red from file i, black from
/// file a); empty slots off the board.
fn pieces(pos: &Position) -> [u8; 32] {
    let mut table = [OFF_BOARD; 32];
    for (side, base) in [(Color::Red, 0), (Color::Black, 16)] {
        let mut points: Vec<Point> = pos.points_of(side).collect();
        points.sort_by_key(|p| {
            let f = if side == Color::Red {
                8 - p.file()
            } else {
                p.file()
            };
            (f, p.rank())
        });
        for p in points {
            let Some(piece) = pos.piece_at(p) else {
                continue;
            };
            let free = PIECE_ORDER
                .iter()
                .enumerate()
                .position(|(i, k)| *k == piece.kind && table[base + i] == OFF_BOARD);
            if let Some(i) = free {
                table[base + i] = square(p);
            }
        }
    }
    table
}

/// What a character GBK lacks (𠮷, most of CJK Extension B, emoji) is written as: □, the
/// mark Chinese texts print for a missing character. The encoder's own replacement, an HTML
/// reference such as `&#134071;`, is shown by XQF readers as nine characters of markup and
/// took most of a 15-byte name.
const MISSING: char = '□';

/// `ch` in GBK, or [`MISSING`] when GBK lacks it.
fn gbk_char(ch: char) -> Vec<u8> {
    let mut buf = [0u8; 4];
    let (bytes, _, unmappable) = encoding_rs::GBK.encode(ch.encode_utf8(&mut buf));
    if unmappable {
        return gbk_char(MISSING);
    }
    bytes.into_owned()
}

/// `text` in GBK, each character GBK lacks as [`MISSING`].
fn gbk_text(text: &str) -> Vec<u8> {
    text.chars().flat_map(gbk_char).collect()
}

/// `text` as a length-prefixed GBK string of at most `cap` bytes, cut on a character (each
/// character GBK lacks as [`MISSING`]).
fn gbk(text: &str, cap: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for ch in text.chars() {
        let bytes = gbk_char(ch);
        if out.len() + bytes.len() > cap {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    let mut field = vec![u8::try_from(out.len()).unwrap_or(0)];
    field.extend(out);
    field
}

/// Writes the header's fixed part at its offsets.
fn header(h: &RecordHeader<'_>, start: &Position) -> Vec<u8> {
    let mut head = vec![0u8; HEADER];
    head[0..2].copy_from_slice(b"XQ");
    head[2] = VERSION;
    head[0x10..0x30].copy_from_slice(&pieces(start));
    head[0x32] = u8::from(start.turn() == Color::Black);
    head[0x33] = match h.result {
        RecordResult::Unknown => 0,
        RecordResult::RedWins => 1,
        RecordResult::BlackWins => 2,
        RecordResult::Draw => 3,
    };
    // 0 全局 only for the standard opening: readers then may ignore the table.
    head[0x40] = if start.fen() == Position::start().fen() {
        0
    } else {
        2
    };
    for (at, text, cap) in [
        (0x50, h.title, 63),
        (0xD0, h.event, 63),
        (0x110, h.date, 15),
        (0x120, h.site, 15),
        (0x130, h.red, 15),
        (0x140, h.black, 15),
    ] {
        let field = gbk(text, cap);
        head[at..at + field.len()].copy_from_slice(&field);
    }
    head
}

/// One move record: from, to, flag, reserved, then its comment's length and its GBK bytes
/// (CRLF between lines, as `XQStudio` stores them; a character GBK lacks as [`MISSING`]).
fn record(out: &mut Vec<u8>, squares: (u8, u8), flag: u8, reserved: u8, comment: &str) {
    let text = comment.replace("\r\n", "\n").replace('\n', "\r\n");
    let bytes = gbk_text(&text);
    out.extend_from_slice(&[squares.0, squares.1, flag, reserved]);
    out.extend_from_slice(&u32::try_from(bytes.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&bytes);
}

/// The game from `start` through `moves` (its main line) as an XQF file.
pub fn write_xqf(h: &RecordHeader<'_>, start: &Position, moves: &[Move]) -> Vec<u8> {
    let mut out = header(h, start);
    // The root stands for the start position; its flag says whether a move follows.
    let root_flag = if moves.is_empty() { 0 } else { HAS_CHILD };
    record(&mut out, (FROM_BIAS, TO_BIAS), root_flag, OFF_BOARD, "");
    for (i, m) in moves.iter().enumerate() {
        let flag = if i + 1 < moves.len() { HAS_CHILD } else { 0 };
        let squares = (square(m.from) + FROM_BIAS, square(m.to) + TO_BIAS);
        record(&mut out, squares, flag, 0, h.comment(i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_fills_the_slots_as_xqstudio_does() {
        // XQF 1.0: 80,70,…,00,72,12,83,63,43,23,03, then 09,19,…,89,17,77,06,26,46,66,86.
        let want: [u8; 32] = [
            80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59,
            69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
        ];
        assert_eq!(pieces(&Position::start()), want);
    }

    #[test]
    fn names_are_cut_on_a_character_within_their_bytes() {
        // Fifteen bytes hold seven Chinese characters (two bytes each in GBK).
        let f = gbk("一二三四五六七八", 15);
        assert_eq!(f[0], 14);
        assert_eq!(f.len(), 15);
    }

    #[test]
    fn a_character_gbk_lacks_is_written_as_the_missing_character_mark() {
        // 𠮷 (U+20BB7) is not in GBK: it was written `&#134071;`, nine bytes a reader shows
        // as they stand, and a field of such names was cut inside one.
        let f = gbk("𠮷野家𠮷", 15);
        assert_eq!(&f[1..], encoding_rs::GBK.encode("□野家□").0.as_ref());
        let f = gbk(&"𠮷".repeat(20), 15);
        assert_eq!((f[0], f.len()), (14, 15), "seven marks, cut on a character");
        assert!(!f.contains(&b'&') && !f.contains(&b'#'));
        // A comment too.
        let mut out = Vec::new();
        record(&mut out, (0, 0), 0, 0, "𠮷");
        assert_eq!(&out[8..], encoding_rs::GBK.encode("□").0.as_ref());
    }
}
