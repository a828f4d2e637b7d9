//! The vocabulary of 附表六: one [`Word`] is one of the four characters of a traditional
//! designation (棋子名稱, 直線數碼, 方向, 步數/線數), whatever script it was written in.
//!
//! Characters follow 第12條 (帥帅 將将 俥車车 傌馬马 炮砲包 仕士 相象 兵卒) plus 進进 後后 and the
//! old 上/下 for 進/退; numerals are Chinese (一…九), Arabic (1…9) or full-width (１…９).

use baoqi_rules::{Color, Kind};

/// One word of a designation or announcement, reduced to its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    /// A piece name (第1字), e.g. 車; the kind only, the side comes from the position.
    Piece(Kind),
    /// A numeral 1..=9: a file number, a step count or an ordinal (一兵, 二三).
    Numeral(u8),
    /// 前: the front one of pieces on one file.
    Front,
    /// 中: the middle one of three (or five) pawns on one file.
    Middle,
    /// 後 (后): the rear one.
    Rear,
    /// 進 (进, old 上; AXF/WXF `+`).
    Forward,
    /// 退 (old 下; AXF/WXF `-`).
    Backward,
    /// 平 (AXF `=` `•` `°`, WXF `.`).
    Across,
}

impl Word {
    /// Every word of the vocabulary (22: seven piece names, nine numerals, 前 中 後 進 退 平),
    /// pieces first, for tables, echoes and exhaustive tests.
    pub fn all() -> Vec<Word> {
        let mut words: Vec<Word> = Kind::ALL.iter().map(|&k| Word::Piece(k)).collect();
        words.extend((1..=9).map(Word::Numeral));
        words.extend([
            Word::Front,
            Word::Middle,
            Word::Rear,
            Word::Forward,
            Word::Backward,
            Word::Across,
        ]);
        words
    }

    /// The value of a numeral word.
    pub fn numeral(self) -> Option<u8> {
        if let Word::Numeral(n) = self {
            Some(n)
        } else {
            None
        }
    }
}

/// How a numeral was written; the side is decided from the position, never from the style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumeralStyle {
    /// 一…九 (red's numerals in traditional notation).
    Chinese,
    /// 1…9.
    Arabic,
    /// １…９.
    FullWidth,
}

/// Which sides may write a piece character according to 第12條.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharSide {
    /// Only red's set (帥, 俥, 傌, 仕, 相, 兵).
    Red,
    /// Only black's set (將, 砲, 象, 卒).
    Black,
    /// Both sets (車, 馬, 炮, 包, 士 and the English letters).
    Both,
}

impl CharSide {
    /// Whether `color` may write this character under 第12條.
    pub const fn allows(self, color: Color) -> bool {
        matches!(
            (self, color),
            (CharSide::Both, _) | (CharSide::Red, Color::Red) | (CharSide::Black, Color::Black)
        )
    }
}

/// A piece character (Chinese or English letter) and what it means.
pub fn piece_char(c: char) -> Option<(Kind, CharSide)> {
    use CharSide::{Black, Both, Red};
    Some(match c {
        '帥' | '帅' => (Kind::General, Red),
        '將' | '将' => (Kind::General, Black),
        '俥' => (Kind::Rook, Red),
        '車' | '车' => (Kind::Rook, Both),
        // 馮 is how the rule text itself misprints 傌 in 附表六 4(3).
        '傌' | '馮' => (Kind::Horse, Red),
        '馬' | '马' => (Kind::Horse, Both),
        '炮' | '包' => (Kind::Cannon, Both),
        '砲' => (Kind::Cannon, Black),
        '仕' => (Kind::Advisor, Red),
        '士' => (Kind::Advisor, Both),
        '相' => (Kind::Elephant, Red),
        '象' => (Kind::Elephant, Black),
        '兵' => (Kind::Pawn, Red),
        '卒' => (Kind::Pawn, Black),
        _ => return english_letter(c).map(|k| (k, Both)),
    })
}

/// An English piece letter (附表六 4: K R H C E A P; WXF's N and B as aliases), either case.
pub fn english_letter(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' => Kind::General,
        'R' => Kind::Rook,
        'H' | 'N' => Kind::Horse,
        'C' => Kind::Cannon,
        'E' | 'B' => Kind::Elephant,
        'A' => Kind::Advisor,
        'P' => Kind::Pawn,
        _ => return None,
    })
}

/// The canonical English letter of a kind (附表六 4).
pub const fn letter_of(kind: Kind) -> char {
    match kind {
        Kind::General => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Rook => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A numeral character 1..=9 in any of the three styles.
pub fn numeral_char(c: char) -> Option<(u8, NumeralStyle)> {
    if let Some(i) = CHINESE_NUMERALS.iter().position(|&n| n == c) {
        return Some((i as u8 + 1, NumeralStyle::Chinese));
    }
    if let Some(i) = FULL_WIDTH_NUMERALS.iter().position(|&n| n == c) {
        return Some((i as u8 + 1, NumeralStyle::FullWidth));
    }
    match c {
        '1'..='9' => Some((c as u8 - b'0', NumeralStyle::Arabic)),
        _ => None,
    }
}

/// The Chinese numeral for 1..=9 (red's style).
pub fn chinese_numeral(n: u8) -> char {
    CHINESE_NUMERALS[usize::from(n.clamp(1, 9) - 1)]
}

/// The full-width Arabic numeral for 1..=9 (black's style in records).
pub fn full_width_numeral(n: u8) -> char {
    FULL_WIDTH_NUMERALS[usize::from(n.clamp(1, 9) - 1)]
}

/// A Chinese character that is a whole word by itself (piece, numeral, position or direction).
pub fn chinese_word(c: char) -> Option<Word> {
    if c.is_ascii() {
        return None;
    }
    word_of_char(c, 0).map(|(w, _)| w)
}

/// One announced word typed as text: a Chinese character, a numeral in any style, an English
/// piece letter, or an AXF/WXF sign. `+` and `-` are read as 進/退 unless `slot` (0-based
/// position in the four words) is 0 or 1, where they mean 前/後.
pub fn word_from_text(text: &str, slot: usize) -> Option<Word> {
    let mut chars = text.trim().chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    word_of_char(c, slot).map(|(w, _)| w)
}

/// One character as a word in `slot` (see [`word_from_text`]), with the set of 第12條 it
/// belongs to when it is a piece character.
pub fn word_of_char(c: char, slot: usize) -> Option<(Word, CharSide)> {
    if let Some((kind, side)) = piece_char(c) {
        return Some((Word::Piece(kind), side));
    }
    if let Some((n, _)) = numeral_char(c) {
        return Some((Word::Numeral(n), CharSide::Both));
    }
    // Signs name a position in the first two slots (WXF `R+.3`) and a direction after.
    let in_name = slot < 2;
    let w = match c {
        '+' if in_name => Word::Front,
        '-' if in_name => Word::Rear,
        '前' => Word::Front,
        '中' => Word::Middle,
        '後' | '后' => Word::Rear,
        '進' | '进' | '上' | '+' => Word::Forward,
        '退' | '下' | '-' => Word::Backward,
        '平' | '=' | '.' | '•' | '°' | '·' => Word::Across,
        _ => return None,
    };
    Some((w, CharSide::Both))
}

/// The marks of 附表六 第二部份 written after a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks {
    /// `×` (ASCII `x`, `X`, `*`): the move captures.
    pub capture: bool,
    /// `○` (`〇`, `◯`, ASCII `o`, `O`): the move gives check.
    pub check: bool,
    /// `＝` (ASCII `=`): a draw offer in that turn.
    pub draw_offer: bool,
}

impl Marks {
    /// Whether no mark was written.
    pub fn is_empty(self) -> bool {
        !(self.capture || self.check || self.draw_offer)
    }

    /// The marks in their rule-text form, in the order × ○ ＝.
    pub fn text(self) -> String {
        let mut s = String::new();
        if self.capture {
            s.push('×');
        }
        if self.check {
            s.push('○');
        }
        if self.draw_offer {
            s.push('＝');
        }
        s
    }
}

/// Which mark a character is, if any.
pub(crate) fn mark_char(c: char) -> Option<fn(&mut Marks)> {
    match c {
        '×' | 'x' | 'X' | '*' | '✕' => Some(|m| m.capture = true),
        '○' | '〇' | '◯' | 'o' | 'O' => Some(|m| m.check = true),
        '＝' | '=' => Some(|m| m.draw_offer = true),
        _ => None,
    }
}

/// The traditional display character of a piece word for a side (rules' canonical set).
pub fn piece_display(kind: Kind, color: Color) -> char {
    baoqi_rules::Piece::new(color, kind).chinese()
}
