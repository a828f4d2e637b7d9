//! The register's fields read as a spreadsheet writes them: whole numbers with a thousands
//! separator or in full-width digits (`"1,810"`, `１８１０`), categories joined by ASCII or
//! full-width punctuation (`全失明；聾啞`), yes and no, boards, sex and year of birth; and the
//! texts (names, clubs, proxies) checked for what must not be in them, a character a
//! spreadsheet lost on saving (`?`) first among them.

use baoqi_arbiter::{BoardUse, Category};

use super::player::Sex;
use super::register::MAX_TEXT_CHARS;

/// What is wrong with one field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldProblem {
    /// A required field is empty.
    #[error("must not be empty")]
    Empty,
    /// Not a whole number.
    #[error("`{0}` is not a whole number")]
    NotANumber(String),
    /// A seed of 0.
    #[error("seeds start at 1")]
    ZeroSeed,
    /// Not a category of 7.2(1).
    #[error("`{0}` is not a category (全失明, 部份失明, 健視, 聾啞, 肢體傷殘)")]
    Category(String),
    /// Not yes or no.
    #[error("`{0}` is neither yes (是) nor no (否)")]
    YesNo(String),
    /// Not a board.
    #[error("`{0}` is not a board (視障, 正規, 無)")]
    Board(String),
    /// A text longer than [`MAX_TEXT_CHARS`].
    #[error("{0} characters, more than the {MAX_TEXT_CHARS} allowed")]
    TooLong(usize),
    /// A text holding a control character.
    #[error("holds a control character")]
    Control,
    /// A text holding a bidirectional control or a zero-width character (its code point;
    /// [`baoqi_arbiter::bounds::is_invisible_format`]).
    #[error("holds U+{0:04X}, an invisible character that reorders or hides the text around it")]
    Invisible(u32),
    /// A text holding `?` (or `�`) where a character was lost.
    #[error(
        "holds `?` where a character was lost: a spreadsheet saving as Big5 writes `?` for a \
         character Big5 cannot hold (𠮷, many of Hong Kong's); save the file as \"CSV UTF-8\" \
         or \"Unicode Text\" and import it again, or correct the name"
    )]
    LostCharacter,
    /// Not a sex.
    #[error("`{0}` is neither 男 (M) nor 女 (F)")]
    Sex(String),
    /// Not a year of birth.
    #[error("`{0}` is not a year of birth (four digits, e.g. 1958)")]
    Year(String),
    /// A `number` (編號) other than the line's place among the players.
    #[error(
        "is {found}, but this is player {expected} of the file: baoqi numbers the players in \
         the file's order; sort the file by 編號, or leave the column out"
    )]
    NumberOrder {
        /// The number written.
        found: u32,
        /// The player's place in the file.
        expected: u32,
    },
}

/// The earliest and latest years of birth taken (a four-digit year).
const YEARS: std::ops::RangeInclusive<u32> = 1900..=2100;

/// A name, club or proxy: at most [`MAX_TEXT_CHARS`], no control character, no bidi
/// control nor zero-width character, and no `?` nor `�` where a character was lost (a
/// spreadsheet saving as Big5 writes `?` for a character Big5 cannot hold; a name with one
/// would be wrong on every pairing list, scoresheet and record).
pub fn check_text(text: &str) -> Result<(), FieldProblem> {
    if text.chars().any(char::is_control) {
        return Err(FieldProblem::Control);
    }
    if let Some(c) = text
        .chars()
        .find(|&c| baoqi_arbiter::bounds::is_invisible_format(c))
    {
        return Err(FieldProblem::Invisible(u32::from(c)));
    }
    if text.contains(['?', '？', '\u{FFFD}']) {
        return Err(FieldProblem::LostCharacter);
    }
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(FieldProblem::TooLong(chars));
    }
    Ok(())
}

/// A field's text, `None` when empty.
pub(crate) fn present(field: Option<String>) -> Option<String> {
    field.filter(|s| !s.is_empty())
}

/// A whole number as written: ASCII or full-width digits, groups of three after a `,` or
/// `，` (`1,810`); anything else is refused.
pub fn parse_whole(text: &str) -> Result<u32, FieldProblem> {
    let refused = || FieldProblem::NotANumber(text.to_owned());
    let digits: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => {
                char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
            }
            '，' => ',',
            c => c,
        })
        .collect();
    let mut groups = digits.split(',');
    let first = groups.next().unwrap_or("");
    let mut whole = String::from(first);
    for group in groups {
        if group.len() != 3 || first.is_empty() {
            return Err(refused());
        }
        whole.push_str(group);
    }
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused());
    }
    whole.parse().map_err(|_| refused())
}

/// An optional whole number ([`parse_whole`]).
pub(crate) fn number_field(field: Option<String>) -> Result<Option<u32>, FieldProblem> {
    present(field).map(|s| parse_whole(&s)).transpose()
}

/// Parses one category word (7.2(1)).
pub fn parse_category(word: &str) -> Option<Category> {
    Some(match word {
        "全失明" | "blind" => Category::Blind,
        "部份失明" | "部分失明" | "partially_sighted" => Category::PartiallySighted,
        "健視" | "sighted" => Category::Sighted,
        "聾啞" | "deaf" => Category::Deaf,
        "肢體傷殘" | "physical" => Category::Physical,
        _ => return None,
    })
}

/// What joins several categories in one cell: `;` `、` `/` `,` and their full-width forms.
const JOINERS: [char; 7] = [';', '；', '、', '/', '／', ',', '，'];

pub(crate) fn categories(field: Option<String>) -> Result<Vec<Category>, FieldProblem> {
    let Some(text) = present(field) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for word in text.split(JOINERS).map(str::trim).filter(|w| !w.is_empty()) {
        let c = parse_category(word).ok_or_else(|| FieldProblem::Category(word.to_string()))?;
        if !out.contains(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

pub(crate) fn yes_no(field: Option<String>, default: bool) -> Result<bool, FieldProblem> {
    present(field).map_or(Ok(default), |text| parse_yes_no(&text))
}

pub(crate) fn board(field: Option<String>) -> Result<Option<BoardUse>, FieldProblem> {
    present(field).map(|text| parse_board(&text)).transpose()
}

pub(crate) fn sex(field: Option<String>) -> Result<Option<Sex>, FieldProblem> {
    present(field).map(|text| parse_sex(&text)).transpose()
}

pub(crate) fn born(field: Option<String>) -> Result<Option<u32>, FieldProblem> {
    present(field).map(|text| parse_year(&text)).transpose()
}

/// Parses a `category` field as the CSV writes it: several categories joined by `;` `、`
/// `/` `,` or their full-width forms, each in Chinese or English (7.2(1)); empty means
/// none (健視).
pub fn parse_categories(text: &str) -> Result<Vec<Category>, FieldProblem> {
    categories(Some(text.trim().to_string()))
}

/// Parses a yes/no field as the CSV writes it (是/否, yes/no, true/false, 1/0).
pub fn parse_yes_no(text: &str) -> Result<bool, FieldProblem> {
    match text.trim().to_lowercase().as_str() {
        "是" | "yes" | "y" | "true" | "1" => Ok(true),
        "否" | "no" | "n" | "false" | "0" => Ok(false),
        _ => Err(FieldProblem::YesNo(text.to_string())),
    }
}

/// Parses a `board` field as the CSV writes it (視障 / 正規 / 無, or vi / regular / none).
pub fn parse_board(text: &str) -> Result<BoardUse, FieldProblem> {
    match text.trim() {
        "視障" | "視障棋盤" | "vi" => Ok(BoardUse::Vi),
        "正規" | "正規棋盤" | "regular" => Ok(BoardUse::Regular),
        "無" | "none" => Ok(BoardUse::None),
        _ => Err(FieldProblem::Board(text.to_string())),
    }
}

/// Parses a `sex` field (男 / 女, M / F, male / female), for the women's prizes.
pub fn parse_sex(text: &str) -> Result<Sex, FieldProblem> {
    match text.trim().to_lowercase().as_str() {
        "女" | "f" | "female" => Ok(Sex::Female),
        "男" | "m" | "male" => Ok(Sex::Male),
        _ => Err(FieldProblem::Sex(text.to_string())),
    }
}

/// Parses a year of birth: four digits from 1900 to 2100, `年` after them allowed.
pub fn parse_year(text: &str) -> Result<u32, FieldProblem> {
    let digits = text.trim().trim_end_matches('年');
    match parse_whole(digits) {
        Ok(year) if digits.chars().count() == 4 && YEARS.contains(&year) => Ok(year),
        _ => Err(FieldProblem::Year(text.to_string())),
    }
}
