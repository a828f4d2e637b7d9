//! Reading XQF: the unencrypted 1.0 form and the encrypted forms 1.1–1.8 that 象棋演播室
//! writes, every length checked against the bytes there are and every move against the
//! rules. Only the main line is read: in the records' depth-first order it is the chain of
//! first children from the root, so no variation is ever walked and no recursion depth
//! depends on the file. The fields: `docs/record-formats.md` §1.3, §1.4, §1.6.

use baoqi_rules::{Color, Move, Piece, Point, Position};

use super::{FROM_BIAS, HEADER, TO_BIAS};
use crate::record::{
    IllegalAt, MAX_PLIES, PIECE_ORDER, RecordGame, RecordResult, Rows, placement, play,
};

/// The largest XQF file read (a game of 第11章 with its comments fits many times over).
pub const MAX_BYTES: usize = 4 << 20;
/// The newest version `XQStudio` writes (1.8); it refuses anything newer.
const NEWEST: u8 = 18;
/// The newest version that is not encrypted (1.0).
const PLAIN: u8 = 10;
/// The text every encrypted file's bytes from the header on are shifted by, under a mask.
const F32: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Why an XQF file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XqfError {
    /// No `XQ` signature, or shorter than its 1,024-byte header.
    #[error("not an XQF file (no XQ signature and 1,024-byte header)")]
    NotXqf,
    /// A version `XQStudio` never wrote.
    #[error("XQF version {0} is not one 象棋演播室 writes (10 to 18)")]
    Version(u8),
    /// The key bytes do not sum to zero, which `XQStudio` refuses too.
    #[error("the XQF key bytes do not sum to zero: a damaged file")]
    Keys,
    /// Larger than [`MAX_BYTES`].
    #[error("larger than {MAX_BYTES} bytes")]
    TooLarge,
    /// The piece table is not a position the rules allow.
    #[error("the piece table is not a legal position: {0}")]
    BadPosition(String),
    /// A record the one before it promised is cut short, or its comment runs past the end.
    #[error("move record {ply} is cut short")]
    Truncated {
        /// The ply of the record (0 = the root).
        ply: usize,
    },
    /// A move leaves or lands off the board.
    #[error("move {ply} is off the board")]
    OffBoard {
        /// The ply (1 = the first move).
        ply: usize,
    },
    /// The main line holds more than [`MAX_PLIES`] moves.
    #[error("more than {MAX_PLIES} moves")]
    TooLong,
    /// A move is not legal where it is played.
    #[error("move {ply} ({mv}) is not legal there")]
    Illegal {
        /// The ply (1 = the first move).
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl XqfError {
    /// The ply the error is at (0: before any move).
    #[must_use]
    pub fn ply(&self) -> usize {
        match self {
            Self::Truncated { ply } | Self::OffBoard { ply } | Self::Illegal { ply, .. } => *ply,
            _ => 0,
        }
    }
}

/// The keys a file's header gives (all zero for 1.0).
#[derive(Default)]
struct Keys {
    /// Shifts the piece table (and, from 1.2, rotates it).
    xy: u8,
    /// Shifts a move's from-square.
    from: u8,
    /// Shifts a move's to-square.
    to: u8,
    /// Is added to every comment's length.
    comment: u32,
    /// Is added to every byte from the header on, by its offset modulo 32.
    stream: [u8; 32],
}

/// `XQStudio`'s key function, kept to its low byte as the Pascal does.
fn scramble(k: u8) -> u8 {
    let k = u32::from(k);
    let f = (((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) & 0xFF;
    u8::try_from(f).unwrap_or(0)
}

/// The keys of an encrypted header (`dCalculateSecurityKeys`).
fn keys(head: &[u8]) -> Keys {
    let (mask, sum, xy, xyf, xyt) = (head[3], head[0x0C], head[0x0D], head[0x0E], head[0x0F]);
    let key_xy = scramble(xy).wrapping_mul(xy);
    let key_from = scramble(xyf).wrapping_mul(key_xy);
    let key_to = scramble(xyt).wrapping_mul(key_from);
    let ors = [head[8], head[9], head[10], head[11]];
    let bytes = [sum, xy, xyf, xyt].map(|k| k & mask);
    let mut stream = *F32;
    for (i, b) in stream.iter_mut().enumerate() {
        *b &= bytes[i % 4] | ors[i % 4];
    }
    Keys {
        xy: key_xy,
        from: key_from,
        to: key_to,
        comment: (u32::from(sum) * 256 + u32::from(xy)) % 32_000 + 767,
        stream,
    }
}

/// The point of a decoded square byte (file × 10 + rank), if on the board.
fn point(square: u8) -> Option<Point> {
    (square <= 89)
        .then(|| Point::new(square / 10, square % 10))
        .flatten()
}

/// The board of the 32-slot piece table.
fn board(head: &[u8], version: u8, k: &Keys) -> Result<Rows, XqfError> {
    let raw = &head[0x10..0x30];
    let mut slots = [0u8; 32];
    for (i, b) in raw.iter().enumerate() {
        // From 1.2 the table is also rotated by the key.
        let at = if version > PLAIN + 1 {
            (i + 1 + usize::from(k.xy)) % 32
        } else {
            i
        };
        slots[at] = b.wrapping_sub(k.xy);
    }
    let mut rows: Rows = [[None; 9]; 10];
    for (i, s) in slots.into_iter().enumerate() {
        let Some(p) = point(s) else { continue };
        let side = if i < 16 { Color::Red } else { Color::Black };
        let cell = &mut rows[usize::from(p.rank())][usize::from(p.file())];
        if cell.is_some() {
            return Err(XqfError::BadPosition(format!("two pieces on {p}")));
        }
        *cell = Some(Piece::new(side, PIECE_ORDER[i % 16]));
    }
    Ok(rows)
}

/// A cursor over the move records after the header.
struct Records<'a> {
    body: &'a [u8],
    at: usize,
    version: u8,
    keys: &'a Keys,
}

impl Records<'_> {
    /// The next record's decoded squares and whether a child (the line's next move) follows;
    /// its comment is stepped over.
    fn next(&mut self, ply: usize) -> Result<(u8, u8, bool), XqfError> {
        let cut = XqfError::Truncated { ply };
        let rec = self.body.get(self.at..self.at + 4).ok_or(cut.clone())?;
        self.at += 4;
        let (has_child, has_comment) = if self.version <= PLAIN {
            (rec[2] & 0xF0 != 0, true)
        } else {
            (rec[2] & 0x80 != 0, rec[2] & 0x20 != 0)
        };
        if has_comment {
            let len = self.body.get(self.at..self.at + 4).ok_or(cut.clone())?;
            self.at += 4;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]])
                .wrapping_sub(self.keys.comment);
            let len = usize::try_from(len).map_err(|_| cut.clone())?;
            if len > self.body.len() - self.at {
                return Err(cut);
            }
            self.at += len;
        }
        let from = rec[0].wrapping_sub(FROM_BIAS).wrapping_sub(self.keys.from);
        let to = rec[1].wrapping_sub(TO_BIAS).wrapping_sub(self.keys.to);
        Ok((from, to, has_child))
    }
}

/// Reads an XQF file: its start position, main line, result and players.
pub fn read_xqf(bytes: &[u8]) -> Result<RecordGame, XqfError> {
    if bytes.len() < HEADER || &bytes[..2] != b"XQ" {
        return Err(XqfError::NotXqf);
    }
    if bytes.len() > MAX_BYTES {
        return Err(XqfError::TooLarge);
    }
    let (head, version) = (&bytes[..HEADER], bytes[2]);
    if version > NEWEST {
        return Err(XqfError::Version(version));
    }
    if head[0x0C..0x10].iter().fold(0u8, |s, b| s.wrapping_add(*b)) != 0 {
        return Err(XqfError::Keys);
    }
    let k = if version <= PLAIN {
        Keys::default()
    } else {
        keys(head)
    };
    let body: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, b)| b.wrapping_sub(k.stream[(HEADER + i) % 32]))
        .collect();
    let rows = board(head, version, &k)?;
    let line = main_line(&body, version, &k)?;
    let first = line
        .first()
        .and_then(|m| rows[usize::from(m.from.rank())][usize::from(m.from.file())]);
    let turn = match first {
        Some(p) => p.color,
        None if head[0x32] == 1 => Color::Black,
        None => Color::Red,
    };
    let start = Position::from_fen(&placement(&rows, turn))
        .map_err(|e| XqfError::BadPosition(e.to_string()))?;
    let moves =
        play(&start, line).map_err(|IllegalAt { ply, mv }| XqfError::Illegal { ply, mv })?;
    Ok(RecordGame {
        start,
        moves,
        result: match head[0x33] {
            1 => RecordResult::RedWins,
            2 => RecordResult::BlackWins,
            // 4 for a draw too, as some files have it (cchess).
            3 | 4 => RecordResult::Draw,
            _ => RecordResult::Unknown,
        },
        players: [name(&head[0x130..0x140]), name(&head[0x140..0x150])],
    })
}

/// The main line: the root's first child, its first child, and so on.
fn main_line(body: &[u8], version: u8, keys: &Keys) -> Result<Vec<Move>, XqfError> {
    let mut records = Records {
        body,
        at: 0,
        version,
        keys,
    };
    let (_, _, mut more) = records.next(0)?;
    let mut line = Vec::new();
    while more {
        let ply = line.len() + 1;
        if ply > MAX_PLIES {
            return Err(XqfError::TooLong);
        }
        let (from, to, child) = records.next(ply)?;
        let (Some(from), Some(to)) = (point(from), point(to)) else {
            return Err(XqfError::OffBoard { ply });
        };
        line.push(Move::new(from, to));
        more = child;
    }
    Ok(line)
}

/// A length-prefixed GBK name field, its length clamped to the field.
fn name(field: &[u8]) -> String {
    let len = usize::from(field[0]).min(field.len() - 1);
    encoding_rs::GBK
        .decode(&field[1..=len])
        .0
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::super::write_xqf;
    use super::*;
    use crate::record::{RecordHeader, random_game as game};

    fn header(result: RecordResult) -> RecordHeader<'static> {
        RecordHeader {
            title: "t",
            event: "e",
            date: "d",
            site: "s",
            red: "陳明",
            black: "林華",
            result,
            ..RecordHeader::default()
        }
    }

    /// What `XQStudio` 1.8 does on saving, from `XQFileRW.pas` (`docs/record-formats.md` §1.3):
    /// version 18, keys summing to zero, the table rotated and shifted, every record's flags
    /// in the high bits with a comment on each, and the stream added from the header on.
    fn encrypt(plain: &[u8], key: [u8; 3], mask: u8, ors: [u8; 4]) -> Vec<u8> {
        let mut out = plain.to_vec();
        out[2] = 18;
        out[3] = mask;
        out[8..12].copy_from_slice(&ors);
        out[0x0D..0x10].copy_from_slice(&key);
        out[0x0C] = 0u8
            .wrapping_sub(key[0])
            .wrapping_sub(key[1])
            .wrapping_sub(key[2]);
        let k = keys(&out);
        for i in 0..32 {
            let s = plain[0x10 + i];
            let s = if s > 89 { 200 } else { s };
            out[0x10 + i] = s.wrapping_add(k.xy);
        }
        let rotated: Vec<u8> = (0..32)
            .map(|i| out[0x10 + (i + 1 + usize::from(k.xy)) % 32])
            .collect();
        out[0x10..0x30].copy_from_slice(&rotated);
        let mut body = Vec::new();
        for rec in plain[HEADER..].chunks(8) {
            let tag = if rec[2] & 0xF0 != 0 { 0x80 } else { 0 } | 0x20;
            body.extend_from_slice(&[
                rec[0].wrapping_add(k.from),
                rec[1].wrapping_add(k.to),
                tag | 0x05,
                0x3C,
            ]);
            let comment = b"ab";
            body.extend_from_slice(&(2 + k.comment).to_le_bytes());
            body.extend_from_slice(comment);
        }
        out.truncate(HEADER);
        for (i, b) in body.iter().enumerate() {
            out.push(b.wrapping_add(k.stream[(HEADER + i) % 32]));
        }
        out
    }

    #[test]
    fn what_we_write_reads_back_move_for_move() {
        let endgame = Position::from_fen("3k5/4a4/9/9/2p6/9/9/4B4/4A4/3AK2R1 b").unwrap();
        for (k, start) in std::iter::repeat_n(Position::start(), 20)
            .chain([endgame])
            .enumerate()
        {
            let moves = game(&start, 150, 0x9E37_79B9 + k as u64);
            let result = [RecordResult::RedWins, RecordResult::Draw][k % 2];
            let back = read_xqf(&write_xqf(&header(result), &start, &moves)).unwrap();
            assert_eq!(back.start.fen(), start.fen(), "game {k}");
            assert_eq!(back.moves, moves, "game {k}");
            assert_eq!(back.result, result);
            assert_eq!(back.players, ["陳明".to_string(), "林華".to_string()]);
        }
    }

    #[test]
    fn an_encrypted_file_of_xqstudio_reads_as_its_plain_form() {
        let start = Position::start();
        for (k, key) in [[0, 0, 0], [7, 200, 33], [255, 1, 128], [91, 92, 93]]
            .into_iter()
            .enumerate()
        {
            let moves = game(&start, 80, 0xDEAD_BEEF + k as u64);
            let plain = write_xqf(&header(RecordResult::BlackWins), &start, &moves);
            let secret = encrypt(&plain, key, 0xA5, [0x11, 0x22, 0x44, 0x88]);
            assert_ne!(secret[HEADER..], plain[HEADER..]);
            let back = read_xqf(&secret).unwrap();
            assert_eq!(back.moves, moves, "keys {key:?}");
            assert_eq!(back.result, RecordResult::BlackWins);
        }
    }

    #[test]
    fn damaged_and_hostile_files_are_refused_with_a_reason() {
        let start = Position::start();
        let moves = game(&start, 10, 3);
        let good = write_xqf(&header(RecordResult::Unknown), &start, &moves);
        assert_eq!(read_xqf(&good[..100]).unwrap_err(), XqfError::NotXqf);
        let mut v = good.clone();
        v[2] = 19;
        assert_eq!(read_xqf(&v).unwrap_err(), XqfError::Version(19));
        let mut v = good.clone();
        v[0x0D] = 1;
        assert_eq!(read_xqf(&v).unwrap_err(), XqfError::Keys);
        // Cut inside the fifth move's record.
        let cut = HEADER + 8 * 5 + 3;
        assert_eq!(
            read_xqf(&good[..cut]).unwrap_err(),
            XqfError::Truncated { ply: 5 }
        );
        // A comment of 4 GB on the root.
        let mut v = good.clone();
        v[HEADER + 4..HEADER + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(read_xqf(&v).unwrap_err(), XqfError::Truncated { ply: 0 });
        // Two pieces on one point.
        let mut v = good.clone();
        v[0x11] = v[0x10];
        assert!(matches!(
            read_xqf(&v).unwrap_err(),
            XqfError::BadPosition(_)
        ));
        // The third move moved somewhere else: illegal there.
        let mut v = good.clone();
        v[HEADER + 8 * 3 + 1] = 89 + TO_BIAS;
        assert!(matches!(
            read_xqf(&v).unwrap_err(),
            XqfError::Illegal { ply: 3, .. }
        ));
        let mut v = good.clone();
        v[HEADER + 8 * 3] = 95 + FROM_BIAS;
        assert_eq!(read_xqf(&v).unwrap_err(), XqfError::OffBoard { ply: 3 });
        // A chain longer than any game: every record says a child follows.
        let mut v = good[..HEADER].to_vec();
        for _ in 0..=MAX_PLIES + 1 {
            v.extend_from_slice(&[0x18 + 70, 0x20 + 71, 0xF0, 0, 0, 0, 0, 0]);
        }
        assert_eq!(read_xqf(&v).unwrap_err(), XqfError::TooLong);
    }
}
