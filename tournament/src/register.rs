//! The register imported from CSV (a spreadsheet's export). The first line names the columns,
//! in English or in Chinese; only `name` (姓名) is required. Bad input is refused with the
//! line and the column, never a panic.
//!
//! | column | 中文 | value |
//! |---|---|---|
//! | `name` | 姓名 | text |
//! | `club` | 所屬團體 | text, empty for none |
//! | `seed` | 種子 | whole number ≥ 1 |
//! | `rating` | 等級分 | whole number |
//! | `category` | 類別 | 全失明 / 部份失明 / 健視 / 聾啞 / 肢體傷殘 (or `blind`, `partially_sighted`, `sighted`, `deaf`, `physical`), several joined by `;` `、` or `/` |
//! | `blindfold` | 眼罩 | 是/否, yes/no, true/false, 1/0 |
//! | `knows_notation` | 懂記譜 | as above; empty means yes |
//! | `proxy` | 代理 | the proxy's name, empty for none |
//! | `board` | 棋盤 | 視障 / 正規 / 無 (or `vi`, `regular`, `none`) |

use baoqi_arbiter::{BoardUse, Category};
use serde::Deserialize;

use crate::player::{Player, PlayerId};

/// Why a register cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// The CSV itself is malformed (unequal row lengths, bad UTF-8…).
    #[error("line {line}: {problem}")]
    Csv {
        /// The line of the file (1 = the header).
        line: u64,
        /// What the CSV reader found.
        problem: String,
    },
    /// A column the header must have is missing.
    #[error("the header has no column `{0}`")]
    MissingColumn(&'static str),
    /// A field cannot be read.
    #[error("line {line}, column `{column}`: {problem}")]
    Field {
        /// The line of the file.
        line: u64,
        /// The column's name as written in the header.
        column: String,
        /// What is wrong.
        problem: FieldProblem,
    },
    /// The file is larger than a register can be (issue 34, item 10).
    #[error(
        "the register is {bytes} bytes, more than the {max} a register of {MAX_PLAYERS} players needs"
    )]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The largest accepted.
        max: usize,
    },
    /// More players than an event can pair (issue 34, item 10).
    #[error("the register lists more than {max} players")]
    TooMany {
        /// The most players of an event.
        max: usize,
    },
    /// Two players carry the same seed.
    #[error("line {line}: seed {seed} is already given on line {first}")]
    DuplicateSeed {
        /// The line of the second player.
        line: u64,
        /// The seed.
        seed: u32,
        /// The line of the first.
        first: u64,
    },
}

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
}

/// One row as the CSV gives it: text, typed afterwards with the column's name at hand.
#[derive(Debug, Default, Deserialize)]
struct Row {
    #[serde(alias = "姓名", default)]
    name: Option<String>,
    #[serde(alias = "所屬團體", default)]
    club: Option<String>,
    #[serde(alias = "種子", default)]
    seed: Option<String>,
    #[serde(alias = "等級分", default)]
    rating: Option<String>,
    #[serde(alias = "類別", default)]
    category: Option<String>,
    #[serde(alias = "眼罩", default)]
    blindfold: Option<String>,
    #[serde(alias = "懂記譜", default)]
    knows_notation: Option<String>,
    #[serde(alias = "代理", default)]
    proxy: Option<String>,
    #[serde(alias = "棋盤", default)]
    board: Option<String>,
}

/// Reads a register; players are numbered 1, 2, … in the order of the file.
pub fn read_register(text: &str) -> Result<Vec<Player>, RegisterError> {
    if text.len() > MAX_REGISTER_BYTES {
        return Err(RegisterError::TooLarge {
            bytes: text.len(),
            max: MAX_REGISTER_BYTES,
        });
    }
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| csv_error(&e))?.clone();
    let column = |english: &str, chinese: &str| -> String {
        headers
            .iter()
            .find(|h| *h == english || *h == chinese)
            .unwrap_or(english)
            .to_string()
    };
    if !headers.iter().any(|h| h == "name" || h == "姓名") {
        return Err(RegisterError::MissingColumn("name (姓名)"));
    }
    let mut players = Vec::new();
    let mut seeds: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
    for (index, record) in reader.records().enumerate() {
        if index == MAX_PLAYERS {
            return Err(RegisterError::TooMany { max: MAX_PLAYERS });
        }
        let record = record.map_err(|e| csv_error(&e))?;
        let line = record
            .position()
            .map_or(index as u64 + 2, csv::Position::line);
        let row: Row = record
            .deserialize(Some(&headers))
            .map_err(|e| RegisterError::Csv {
                line,
                problem: e.to_string(),
            })?;
        let field = |english: &str, chinese: &str, problem| RegisterError::Field {
            line,
            column: column(english, chinese),
            problem,
        };
        let player = typed(row, index as u32 + 1).map_err(|(e, c, p)| field(e, c, p))?;
        if let Some(seed) = player.seed
            && let Some(&first) = seeds.get(&seed)
        {
            return Err(RegisterError::DuplicateSeed { line, seed, first });
        }
        if let Some(seed) = player.seed {
            seeds.insert(seed, line);
        }
        players.push(player);
    }
    Ok(players)
}

fn csv_error(e: &csv::Error) -> RegisterError {
    RegisterError::Csv {
        line: e.position().map_or(0, csv::Position::line),
        problem: e.to_string(),
    }
}

type Refusal = (&'static str, &'static str, FieldProblem);

fn typed(row: Row, number: u32) -> Result<Player, Refusal> {
    let name = present(row.name).ok_or(("name", "姓名", FieldProblem::Empty))?;
    for (text, english, chinese) in [
        (Some(&name), "name", "姓名"),
        (row.club.as_ref(), "club", "所屬團體"),
        (row.proxy.as_ref(), "proxy", "代理"),
    ] {
        if let Some(text) = text {
            check_text(text).map_err(|p| (english, chinese, p))?;
        }
    }
    let mut player = Player::new(number, name);
    player.id = PlayerId(number);
    player.club = present(row.club);
    player.seed = number_field(row.seed).map_err(|p| ("seed", "種子", p))?;
    if player.seed == Some(0) {
        return Err(("seed", "種子", FieldProblem::ZeroSeed));
    }
    player.rating = number_field(row.rating).map_err(|p| ("rating", "等級分", p))?;
    player.categories = categories(row.category).map_err(|p| ("category", "類別", p))?;
    player.blindfold = yes_no(row.blindfold, false).map_err(|p| ("blindfold", "眼罩", p))?;
    player.knows_notation =
        yes_no(row.knows_notation, true).map_err(|p| ("knows_notation", "懂記譜", p))?;
    player.proxy = present(row.proxy);
    player.board = board(row.board).map_err(|p| ("board", "棋盤", p))?;
    Ok(player)
}

/// The most players an event may have: the Swiss pairer's matching grows with the cube of
/// the field, and the largest Xiangqi opens seat a few hundred.
pub const MAX_PLAYERS: usize = 1_000;
/// The largest register file: 1 MiB, a thousand lines of a kilobyte.
pub const MAX_REGISTER_BYTES: usize = 1 << 20;
/// The longest name, club or proxy, in characters.
pub const MAX_TEXT_CHARS: usize = 100;

/// A name, club or proxy: at most [`MAX_TEXT_CHARS`], no control character.
pub fn check_text(text: &str) -> Result<(), FieldProblem> {
    if text.chars().any(char::is_control) {
        return Err(FieldProblem::Control);
    }
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(FieldProblem::TooLong(chars));
    }
    Ok(())
}

fn present(field: Option<String>) -> Option<String> {
    field.filter(|s| !s.is_empty())
}

fn number_field(field: Option<String>) -> Result<Option<u32>, FieldProblem> {
    present(field)
        .map(|s| s.parse().map_err(|_| FieldProblem::NotANumber(s)))
        .transpose()
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

fn categories(field: Option<String>) -> Result<Vec<Category>, FieldProblem> {
    let Some(text) = present(field) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for word in text.split([';', '、', '/']).map(str::trim) {
        let c = parse_category(word).ok_or_else(|| FieldProblem::Category(word.to_string()))?;
        if !out.contains(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

fn yes_no(field: Option<String>, default: bool) -> Result<bool, FieldProblem> {
    present(field).map_or(Ok(default), |text| parse_yes_no(&text))
}

fn board(field: Option<String>) -> Result<Option<BoardUse>, FieldProblem> {
    present(field).map(|text| parse_board(&text)).transpose()
}

/// Parses a `category` field as the CSV writes it: several categories joined by `;` `、`
/// or `/`, each in Chinese or English (7.2(1)); empty means none (健視).
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
