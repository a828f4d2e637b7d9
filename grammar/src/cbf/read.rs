//! Reading CBF, the XML record of 象棋橋: the head's players, result and FEN, and the main
//! line of `<Move value="FY-FY">` elements up to the first `end="1"`. The XML is read as a
//! stream of events (no recursion, no tree), a DOCTYPE is refused (so no entity is ever
//! declared, let alone expanded), and the size and the moves are bounded. The fields:
//! `docs/record-formats.md` §2.

use std::borrow::Cow;

use baoqi_rules::{Move, Point, Position};
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use crate::record::{IllegalAt, MAX_PLIES, RecordGame, RecordResult, play};

/// The largest CBF document read.
pub const MAX_BYTES: usize = 4 << 20;

/// Why a CBF document cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CbfError {
    /// Larger than [`MAX_BYTES`].
    #[error("larger than {MAX_BYTES} bytes")]
    TooLarge,
    /// Not well-formed XML, or an entity that is not XML's own.
    #[error("not well-formed XML: {0}")]
    Xml(String),
    /// A DOCTYPE: CBF has none, and a declared entity could expand without bound.
    #[error("a DOCTYPE declaration (CBF has none; refused rather than expanded)")]
    DocType,
    /// The root is not `ChineseChessRecord`.
    #[error("not a CBF record (no <ChineseChessRecord> root)")]
    NotCbf,
    /// The `<FEN>` is not a position the rules allow.
    #[error("<FEN> is not a legal position: {0}")]
    BadPosition(String),
    /// A move's `value` is not `FY-FY`.
    #[error("move {ply} has value {value:?}, not FY-FY")]
    BadMove {
        /// The ply (1 = the first move).
        ply: usize,
        /// The value as written (cut to 20 characters).
        value: String,
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

impl CbfError {
    /// The ply the error is at (0: before any move).
    #[must_use]
    pub fn ply(&self) -> usize {
        match self {
            Self::BadMove { ply, .. } | Self::Illegal { ply, .. } => *ply,
            _ => 0,
        }
    }
}

impl From<quick_xml::Error> for CbfError {
    fn from(e: quick_xml::Error) -> Self {
        Self::Xml(e.to_string())
    }
}

impl From<quick_xml::events::attributes::AttrError> for CbfError {
    fn from(e: quick_xml::events::attributes::AttrError) -> Self {
        Self::Xml(e.to_string())
    }
}

/// What the document says, as read.
#[derive(Default)]
struct Found {
    /// The head's fields this reader keeps: `Red`, `Black`, `RecordResult`, `FEN`.
    red: String,
    black: String,
    result: String,
    fen: String,
    /// The main line's `FY-FY` values, the root's dropped.
    values: Vec<String>,
    /// An `end="1"` was seen: later moves belong to variations.
    ended: bool,
}

/// [`read_cbf`] of a file's bytes: UTF-8 (a byte-order mark skipped), else GB18030.
pub fn read_cbf_bytes(bytes: &[u8]) -> Result<RecordGame, CbfError> {
    if bytes.len() > MAX_BYTES {
        return Err(CbfError::TooLarge);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => Cow::Borrowed(t),
        Err(_) => encoding_rs::GB18030.decode(bytes).0,
    };
    read_cbf(text.trim_start_matches('\u{feff}'))
}

/// Reads a CBF document: its start position, main line, result and players.
pub fn read_cbf(src: &str) -> Result<RecordGame, CbfError> {
    if src.len() > MAX_BYTES {
        return Err(CbfError::TooLarge);
    }
    let found = scan(src)?;
    let start = if found.fen.is_empty() {
        Position::start()
    } else {
        Position::from_fen(&found.fen).map_err(|e| CbfError::BadPosition(e.to_string()))?
    };
    let mut line = Vec::with_capacity(found.values.len());
    for (i, v) in found.values.iter().enumerate() {
        let mv = parse_value(v).ok_or_else(|| CbfError::BadMove {
            ply: i + 1,
            value: v.chars().take(20).collect(),
        })?;
        line.push(mv);
    }
    let moves =
        play(&start, line).map_err(|IllegalAt { ply, mv }| CbfError::Illegal { ply, mv })?;
    Ok(RecordGame {
        start,
        moves,
        result: match found.result.trim() {
            "1" => RecordResult::RedWins,
            "2" => RecordResult::BlackWins,
            "3" => RecordResult::Draw,
            _ => RecordResult::Unknown,
        },
        players: [found.red, found.black],
    })
}

/// A point of two digits: its file, then its row from black's side.
fn point(d: &[u8]) -> Option<Point> {
    let (f, row) = (d[0].checked_sub(b'0')?, d[1].checked_sub(b'0')?);
    Point::new(f, 9u8.checked_sub(row)?)
}

/// A move of `FY-FY`.
fn parse_value(v: &str) -> Option<Move> {
    let b = v.as_bytes();
    if b.len() != 5 || b[2] != b'-' || ![0, 1, 3, 4].iter().all(|i| b[*i].is_ascii_digit()) {
        return None;
    }
    Some(Move::new(point(&b[0..2])?, point(&b[3..5])?))
}

/// Walks the document's events once, keeping the head's fields and the main line.
fn scan(src: &str) -> Result<Found, CbfError> {
    let mut reader = Reader::from_str(src);
    let mut found = Found::default();
    let mut path: Vec<String> = Vec::new();
    let mut moves_seen = 0usize;
    let mut rooted = false;
    loop {
        match reader.read_event()? {
            Event::DocType(_) => return Err(CbfError::DocType),
            Event::Start(e) => {
                let name = tag(&e);
                if path.is_empty() {
                    if rooted || name != "ChineseChessRecord" {
                        return Err(CbfError::NotCbf);
                    }
                    rooted = true;
                }
                if name == "Move" {
                    on_move(&e, &mut found, &mut moves_seen)?;
                }
                path.push(name);
            }
            Event::Empty(e) => {
                if path.is_empty() {
                    return Err(CbfError::NotCbf);
                }
                if tag(&e) == "Move" {
                    on_move(&e, &mut found, &mut moves_seen)?;
                }
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Text(t) => head_text(&path, &mut found, &t.xml10_content()),
            Event::CData(t) => head_text(&path, &mut found, &t.xml10_content()),
            Event::GeneralRef(r) => {
                let ch = match r.resolve_char_ref()? {
                    Some(c) => c.to_string(),
                    None => resolve_predefined_entity(&r)
                        .ok_or_else(|| CbfError::Xml(format!("unknown entity &{};", &*r)))?
                        .to_string(),
                };
                head_text(&path, &mut found, &ch);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !path.is_empty() {
        return Err(CbfError::Xml(format!(
            "<{}> is never closed",
            path[path.len() - 1]
        )));
    }
    for field in [&mut found.red, &mut found.black, &mut found.fen] {
        *field = field.trim().to_string();
    }
    if rooted {
        Ok(found)
    } else {
        Err(CbfError::NotCbf)
    }
}

/// An element's name as text.
fn tag(e: &BytesStart<'_>) -> String {
    e.name().as_ref().to_string()
}

/// Text inside a head field this reader keeps, appended (text may come in pieces).
fn head_text(path: &[String], found: &mut Found, text: &str) {
    let [.., parent, field] = path else { return };
    if parent != "Head" {
        return;
    }
    let slot = match field.as_str() {
        "Red" => &mut found.red,
        "Black" => &mut found.black,
        "RecordResult" => &mut found.result,
        "FEN" => &mut found.fen,
        _ => return,
    };
    // A head field is a name or a FEN: a few hundred bytes at most are kept.
    if slot.len() < 256 {
        slot.push_str(text);
    }
}

/// A `<Move>`: the first is the root (the start position); then each is a ply of the main
/// line until one says `end="1"`; those after it are variations, which this reader skips.
fn on_move(e: &BytesStart<'_>, found: &mut Found, seen: &mut usize) -> Result<(), CbfError> {
    *seen += 1;
    if *seen == 1 || found.ended {
        return Ok(());
    }
    if found.values.len() >= MAX_PLIES {
        return Err(CbfError::TooLong);
    }
    let value = match e.try_get_attribute("value")? {
        Some(a) => a.normalized_value(XmlVersion::Implicit1_0)?.into_owned(),
        None => String::new(),
    };
    found.values.push(value);
    if let Some(end) = e.try_get_attribute("end")? {
        found.ended = &*end.value == "1";
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::write_cbf;
    use super::*;
    use crate::record::RecordHeader;

    #[test]
    fn what_we_write_reads_back_with_its_names_result_and_start() {
        let endgame = Position::from_fen("3k5/4a4/9/9/2p6/9/9/4B4/4A4/3AK2R1 b").unwrap();
        for start in [Position::start(), endgame] {
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for i in 0..60 {
                let legal = pos.legal_moves();
                let Some(m) = legal.get(i * 7 % legal.len().max(1)).copied() else {
                    break;
                };
                pos.make(m);
                moves.push(m);
            }
            let h = RecordHeader {
                title: "t",
                event: "e",
                date: "d",
                site: "s",
                red: "A&B <陳>",
                black: "林華",
                result: RecordResult::Draw,
                ..RecordHeader::default()
            };
            let back = read_cbf(&write_cbf(&h, &start, &moves)).unwrap();
            assert_eq!(back.start.fen(), start.fen());
            assert_eq!(back.moves, moves);
            assert_eq!(back.result, RecordResult::Draw);
            assert_eq!(back.players, ["A&B <陳>".to_string(), "林華".to_string()]);
        }
    }

    fn doc(moves: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?><ChineseChessRecord><Head><Red>甲</Red></Head>\
             <MoveList><Move value=\"00-00\"/>{moves}</MoveList></ChineseChessRecord>"
        )
    }

    #[test]
    fn the_main_line_ends_at_end_1_and_variations_after_it_are_skipped() {
        let g = read_cbf(&doc(
            "<Move value=\"77-47\"/><Move value=\"70-62\" end=\"1\"><![CDATA[評]]></Move>\
             <Move value=\"10-22\" end=\"1\"/>",
        ))
        .unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.moves[0].to_string(), "h2e2");
        assert_eq!(g.players[0], "甲");
    }

    #[test]
    fn hostile_documents_are_refused_with_a_reason() {
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]>\
                      <ChineseChessRecord><Head><Red>&b;</Red></Head></ChineseChessRecord>";
        assert_eq!(read_cbf(laughs).unwrap_err(), CbfError::DocType);
        let undeclared = "<ChineseChessRecord><Head><Red>&b;</Red></Head></ChineseChessRecord>";
        assert!(matches!(
            read_cbf(undeclared).unwrap_err(),
            CbfError::Xml(_)
        ));
        assert_eq!(read_cbf("<html/>").unwrap_err(), CbfError::NotCbf);
        assert_eq!(read_cbf("plain text").unwrap_err(), CbfError::NotCbf);
        assert!(matches!(
            read_cbf("<ChineseChessRecord><Head>").unwrap_err(),
            CbfError::Xml(_)
        ));
        assert_eq!(
            read_cbf(&doc("<Move value=\"77-4\"/>")).unwrap_err(),
            CbfError::BadMove {
                ply: 1,
                value: "77-4".into()
            }
        );
        assert_eq!(
            read_cbf(&doc("<Move value=\"97-47\"/>")).unwrap_err(),
            CbfError::BadMove {
                ply: 1,
                value: "97-47".into()
            }
        );
        assert!(matches!(
            read_cbf(&doc("<Move value=\"77-47\"/><Move value=\"77-47\"/>")).unwrap_err(),
            CbfError::Illegal { ply: 2, .. }
        ));
        let many = "<Move value=\"77-47\"/>".repeat(MAX_PLIES + 1);
        assert_eq!(read_cbf(&doc(&many)).unwrap_err(), CbfError::TooLong);
        let huge = vec![b' '; MAX_BYTES + 1];
        assert_eq!(read_cbf_bytes(&huge).unwrap_err(), CbfError::TooLarge);
    }
}
