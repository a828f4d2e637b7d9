//! Writing a legal move in each notation, with the canonical choices the rule text prefers:
//! 前/後 for two same pieces on a file, 前/中/後 for three pawns, 一…四兵 for four (1(3)(b)),
//! 前前 … 後後 for five (1(3)(a)), the file (前三, 一三) when two files hold several pawns
//! (1(4)); red numerals 一…九, black full-width １…９; the marks of 第二部份.

use baoqi_rules::{Color, Kind, Move, Position};

use crate::designation::{Designation, Order, PieceName};
use crate::locate;
use crate::words::{self, CharSide, Marks, Word};

/// A notation to write moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// 附表六 1: four Chinese characters, `炮二平五`, `馬８進７`.
    Traditional,
    /// 附表六 2 (AXF): English letters, Arabic numerals, `+` `-` `=`: `C2=5`, `H8+7`.
    Axf,
    /// English/WXF: `C2.5`, `R+.3` (front rook), `2P+1` (second of several pawns).
    Wxf,
    /// ICCS coordinates: `h2e2`.
    Iccs,
}

impl std::str::FromStr for Style {
    type Err = String;

    fn from_str(s: &str) -> Result<Style, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "traditional" | "chinese" => Style::Traditional,
            "axf" => Style::Axf,
            "wxf" | "english" => Style::Wxf,
            "iccs" => Style::Iccs,
            _ => return Err(format!("unknown style {s:?} (traditional, axf, wxf, iccs)")),
        })
    }
}

/// Why a move cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// Only legal moves are written.
    #[error("{mv} is not legal here: {why}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why.
        why: baoqi_rules::IllegalMove,
    },
}

/// The canonical name of the piece on `from` (the side to move's), for Chinese or English.
pub fn canonical_name(
    pos: &Position,
    from: baoqi_rules::Point,
    english: bool,
) -> Option<PieceName> {
    let piece = pos.piece_at(from)?;
    let (color, kind) = (piece.color, piece.kind);
    let file = from.file_number_for(color);
    let same = locate::on_file(pos, color, kind, file);
    let n = same.len();
    let idx = same.iter().position(|&p| p == from)?;
    if n == 1 {
        return Some(PieceName::File { kind, file });
    }
    let two_three = |i: usize, n: usize| match (i, n) {
        (0, _) => Order::Front,
        (1, 3) => Order::Middle,
        _ => Order::Rear,
    };
    if kind != Kind::Pawn {
        return Some(PieceName::Tandem {
            kind,
            order: two_three(idx, n),
        });
    }
    let order = if n == 2 {
        two_three(idx, n)
    } else if english || n == 4 {
        Order::Nth(idx as u8 + 1)
    } else if n == 3 {
        two_three(idx, n)
    } else {
        [
            Order::FrontFront,
            Order::FrontRear,
            Order::Middle,
            Order::RearFront,
            Order::RearRear,
        ][idx.min(4)]
    };
    if locate::tandem_files(pos, color, Kind::Pawn).len() >= 2 {
        Some(PieceName::TandemOnFile { order, file })
    } else {
        Some(PieceName::Tandem { kind, order })
    }
}

/// The marks of 附表六 第二部份 that a legal move earns (× capture, ○ check).
pub fn marks_of(pos: &Position, mv: Move) -> Marks {
    Marks {
        capture: pos.piece_at(mv.to).is_some(),
        check: pos.after(mv).is_check(),
        draw_offer: false,
    }
}

/// The canonical designation of a legal move (marks left empty).
pub fn designate(pos: &Position, mv: Move, english: bool) -> Result<Designation, RenderError> {
    pos.check_move(mv)
        .map_err(|why| RenderError::Illegal { mv, why })?;
    let piece = pos
        .piece_at(mv.from)
        .expect("a legal move starts on a piece");
    let name = canonical_name(pos, mv.from, english).expect("the piece stands on its point");
    let motion = locate::motion_between(mv.from, mv.to, piece.color, piece.kind);
    Ok(Designation {
        name,
        motion,
        marks: Marks::default(),
        spelled_for: CharSide::Both,
    })
}

/// The four words of a legal move in traditional form (what is announced).
pub fn words_of(pos: &Position, mv: Move) -> Result<[Word; 4], RenderError> {
    Ok(designate(pos, mv, false)?.words())
}

/// Writes a legal move in `style`, without marks.
pub fn render(pos: &Position, mv: Move, style: Style) -> Result<String, RenderError> {
    let color = pos.turn();
    Ok(match style {
        Style::Iccs => {
            pos.check_move(mv)
                .map_err(|why| RenderError::Illegal { mv, why })?;
            mv.to_string()
        }
        Style::Traditional => words_of(pos, mv)?
            .iter()
            .map(|&w| traditional_char(w, color))
            .collect(),
        Style::Axf | Style::Wxf => {
            let d = designate(pos, mv, true)?;
            let mut ws = d.words();
            // WXF writes the letter first in tandem names: `R+.3`, not `+R.3`.
            if let [Word::Front | Word::Rear, Word::Piece(_), ..] = ws {
                ws.swap(0, 1);
            }
            let across = if style == Style::Axf { '=' } else { '.' };
            ws.iter()
                .enumerate()
                .map(|(slot, &w)| english_char(w, slot, across))
                .collect()
        }
    })
}

/// Writes a legal move in `style` followed by the marks it earns (Traditional and AXF only;
/// WXF and ICCS carry no marks).
pub fn render_marked(pos: &Position, mv: Move, style: Style) -> Result<String, RenderError> {
    let mut s = render(pos, mv, style)?;
    if matches!(style, Style::Traditional | Style::Axf) {
        s.push_str(&marks_of(pos, mv).text());
    }
    Ok(s)
}

/// A word in traditional characters as `color` writes it.
pub(crate) fn traditional_char(w: Word, color: Color) -> char {
    match w {
        Word::Piece(k) => words::piece_display(k, color),
        Word::Numeral(n) => match color {
            Color::Red => words::chinese_numeral(n),
            Color::Black => words::full_width_numeral(n),
        },
        Word::Front => '前',
        Word::Middle => '中',
        Word::Rear => '後',
        Word::Forward => '進',
        Word::Backward => '退',
        Word::Across => '平',
    }
}

fn english_char(w: Word, slot: usize, across: char) -> char {
    match w {
        Word::Piece(k) => words::letter_of(k),
        Word::Numeral(n) => char::from(b'0' + n),
        Word::Front | Word::Forward => '+',
        Word::Rear | Word::Backward => '-',
        // Not produced: English names use ordinals for three or more pawns.
        Word::Middle if slot < 2 => 'm',
        Word::Middle | Word::Across => across,
    }
}

/// Words in traditional characters as `color` writes them (for messages).
pub fn words_text(ws: &[Word], color: Color) -> String {
    ws.iter().map(|&w| traditional_char(w, color)).collect()
}
