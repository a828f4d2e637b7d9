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
//! | `category` | 類別 | 全失明 / 部份失明 / 健視 / 聾啞 / 肢體傷殘 (or `blind`, `partially_sighted`, `sighted`, `deaf`, `physical`), several joined by `;` `、` `/` `,` |
//! | `blindfold` | 眼罩 | 是/否, yes/no, true/false, 1/0 |
//! | `knows_notation` | 懂記譜 | as above; empty means yes |
//! | `proxy` | 代理 | the proxy's name, empty for none |
//! | `board` | 棋盤 | 視障 / 正規 / 無 (or `vi`, `regular`, `none`) |
//! | `number` | 編號 | the player's place in the file (1, 2, …): checked, not used to renumber |
//! | `sex` | 性別 | 男 / 女 (or `M`, `F`), for the prizes |
//! | `born` | 出生年份 | a year of birth (`1958`), for the prizes |
//!
//! Numbers may be written with a thousands separator or in full-width digits (`"1,810"`,
//! `１８１０`); several categories may be joined by full-width punctuation too (`全失明；聾啞`).
//! A row of empty cells is passed over; a column the import does not read is named back
//! ([`unread_columns`]).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::fields::{
    FieldProblem, board, born, categories, check_text, number_field, present, sex, yes_no,
};

use crate::player::{Player, PlayerId};

/// Why a register cannot be read; nothing of it is taken.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// A column the header must have is missing.
    #[error("the header has no column `{0}`")]
    MissingColumn(&'static str),
    /// The file is larger than a register can be.
    #[error(
        "the register is {bytes} bytes, more than the {max} a register of {MAX_PLAYERS} players needs"
    )]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The largest accepted.
        max: usize,
    },
    /// More players than an event can pair.
    #[error("the register lists more than {max} players")]
    TooMany {
        /// The most players of an event.
        max: usize,
    },
    /// Lines that cannot be read: every one of them, in the file's order (the organiser
    /// corrects them all at once).
    #[error("{}", lines_text(.0))]
    Lines(Vec<LineError>),
}

impl RegisterError {
    /// The lines that cannot be read (none when the whole file is refused).
    pub fn lines(&self) -> &[LineError] {
        match self {
            RegisterError::Lines(lines) => lines,
            _ => &[],
        }
    }
}

fn lines_text(lines: &[LineError]) -> String {
    let count = match lines.len() {
        1 => "1 line".to_string(),
        n => format!("{n} lines"),
    };
    let each: Vec<String> = lines.iter().map(|l| format!("  {l}")).collect();
    format!(
        "{count} of the register cannot be read:\n{}",
        each.join("\n")
    )
}

/// One line of the register that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The CSV itself is malformed (unequal row lengths…).
    #[error("line {line}: {problem}")]
    Csv {
        /// The line of the file (1 = the header).
        line: u64,
        /// What the CSV reader found.
        problem: String,
    },
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
    /// A second player of a name already registered, with nothing to tell them apart: no
    /// two different clubs, no confirmation by the organiser ([`SameName::Allow`]).
    #[error(
        "line {line}: {name} is already registered on line {first}{}: give each his club, or confirm that they are two players",
        club.as_ref().map(|c| format!(" of the same club ({c})")).unwrap_or_default()
    )]
    SameName {
        /// The line of the second player.
        line: u64,
        /// The name.
        name: String,
        /// The club both carry, if any.
        club: Option<String>,
        /// The line of the first.
        first: u64,
    },
}

/// Whether the organiser has confirmed that players of one name are different people.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SameName {
    /// A second player of a name is refused unless the clubs tell them apart.
    #[default]
    Refuse,
    /// The organiser confirmed: players of one name are taken.
    Allow,
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
    #[serde(alias = "編號", default)]
    number: Option<String>,
    #[serde(alias = "性別", default)]
    sex: Option<String>,
    #[serde(alias = "出生年份", default)]
    born: Option<String>,
}

/// The columns the register reads, each in English and in Chinese.
const COLUMNS: [(&str, &str); 12] = [
    ("name", "姓名"),
    ("club", "所屬團體"),
    ("seed", "種子"),
    ("rating", "等級分"),
    ("category", "類別"),
    ("blindfold", "眼罩"),
    ("knows_notation", "懂記譜"),
    ("proxy", "代理"),
    ("board", "棋盤"),
    ("number", "編號"),
    ("sex", "性別"),
    ("born", "出生年份"),
];

/// The columns of a register's header that the import does not read (a telephone number,
/// a remark…), in the header's order: said back to the organiser, never dropped silently.
pub fn unread_columns(text: &str) -> Vec<String> {
    let header = text.lines().next().unwrap_or("");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .trim(csv::Trim::All)
        .delimiter(delimiter(text))
        .from_reader(header.as_bytes());
    let Some(Ok(names)) = reader.records().next() else {
        return Vec::new();
    };
    names
        .iter()
        .filter(|h| !h.is_empty())
        .filter(|h| !COLUMNS.iter().any(|(e, c)| h == e || h == c))
        .map(str::to_owned)
        .collect()
}

/// Reads a register; players are numbered 1, 2, … in the order of the file. A second
/// player of a name already registered is refused unless the clubs tell them apart
/// ([`read_register_with`] takes the organiser's confirmation).
pub fn read_register(text: &str) -> Result<Vec<Player>, RegisterError> {
    read_register_with(text, SameName::Refuse)
}

/// Reads a register, as [`read_register`]; `same_name` says whether the organiser confirmed
/// that players of one name are different people. Every line that cannot be read is
/// reported, not only the first.
pub fn read_register_with(text: &str, same_name: SameName) -> Result<Vec<Player>, RegisterError> {
    if text.len() > MAX_REGISTER_BYTES {
        return Err(RegisterError::TooLarge {
            bytes: text.len(),
            max: MAX_REGISTER_BYTES,
        });
    }
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .delimiter(delimiter(text))
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            let first = Lines {
                text: "",
                fallback: 1,
            };
            RegisterError::Lines(vec![csv_error(&e, first)])
        })?
        .clone();
    if !headers.iter().any(|h| h == "name" || h == "姓名") {
        return Err(RegisterError::MissingColumn("name (姓名)"));
    }
    let mut players: Vec<(u64, Player)> = Vec::new();
    let mut problems = Vec::new();
    let mut number = 0;
    for (index, record) in reader.records().enumerate() {
        let lines = Lines {
            text,
            fallback: index as u64 + 2,
        };
        // A row of empty cells (a spreadsheet's trailing tabs) is no player.
        if record.as_ref().is_ok_and(|r| r.iter().all(str::is_empty)) {
            continue;
        }
        if number == MAX_PLAYERS as u32 {
            return Err(RegisterError::TooMany { max: MAX_PLAYERS });
        }
        number += 1;
        match record
            .map_err(|e| csv_error(&e, lines))
            .and_then(|r| as_long_as(r, &headers, lines))
            .and_then(|r| line(&r, &headers, number, lines))
        {
            Ok(read) => players.push(read),
            Err(problem) => problems.push(problem),
        }
    }
    problems.extend(duplicate_seeds(&players));
    if same_name == SameName::Refuse {
        problems.extend(same_names(&players));
    }
    if !problems.is_empty() {
        problems.sort_by_key(LineError::line);
        return Err(RegisterError::Lines(problems));
    }
    Ok(players.into_iter().map(|(_, p)| p).collect())
}

impl LineError {
    /// The line of the file.
    pub fn line(&self) -> u64 {
        match self {
            LineError::Csv { line, .. }
            | LineError::Field { line, .. }
            | LineError::DuplicateSeed { line, .. }
            | LineError::SameName { line, .. } => *line,
        }
    }
}

/// A record with as many fields as the header, else the CSV's own refusal.
fn as_long_as(
    record: csv::StringRecord,
    headers: &csv::StringRecord,
    lines: Lines<'_>,
) -> Result<csv::StringRecord, LineError> {
    if record.len() == headers.len() {
        return Ok(record);
    }
    Err(LineError::Csv {
        line: lines.of(record.position()),
        problem: format!(
            "{} fields where the header has {} (a comma in a name needs the name in quotes)",
            record.len(),
            headers.len()
        ),
    })
}

/// The field separator: a comma, or a tab when the header has tabs and no comma (a
/// spreadsheet's "Unicode Text" is tab-separated UTF-16).
fn delimiter(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or("");
    if header.contains('\t') && !header.contains(',') {
        b'\t'
    } else {
        b','
    }
}

/// One record as a player numbered `number`, with its line.
fn line(
    record: &csv::StringRecord,
    headers: &csv::StringRecord,
    number: u32,
    lines: Lines<'_>,
) -> Result<(u64, Player), LineError> {
    let line = lines.of(record.position());
    let row: Row = record
        .deserialize(Some(headers))
        .map_err(|e| LineError::Csv {
            line,
            problem: e.to_string(),
        })?;
    let column = |english: &str, chinese: &str| -> String {
        headers
            .iter()
            .find(|h| *h == english || *h == chinese)
            .unwrap_or(english)
            .to_string()
    };
    typed(row, number)
        .map(|p| (line, p))
        .map_err(|(english, chinese, problem)| LineError::Field {
            line,
            column: column(english, chinese),
            problem,
        })
}

/// Every player whose seed an earlier line gives already.
fn duplicate_seeds(players: &[(u64, Player)]) -> Vec<LineError> {
    let mut first: BTreeMap<u32, u64> = BTreeMap::new();
    let mut out = Vec::new();
    for (line, p) in players {
        let Some(seed) = p.seed else { continue };
        match first.get(&seed) {
            Some(&first) => out.push(LineError::DuplicateSeed {
                line: *line,
                seed,
                first,
            }),
            None => {
                first.insert(seed, *line);
            }
        }
    }
    out
}

/// Every player who may be one an earlier line registers already ([`Player::namesake`]).
fn same_names(players: &[(u64, Player)]) -> Vec<LineError> {
    let mut by_name: BTreeMap<String, Vec<&(u64, Player)>> = BTreeMap::new();
    let mut out = Vec::new();
    for entry in players {
        let (line, p) = entry;
        let earlier = by_name.entry(p.name_key()).or_default();
        if let Some((first, q)) = earlier.iter().find(|(_, q)| q.namesake(p)) {
            out.push(LineError::SameName {
                line: *line,
                name: p.name.clone(),
                club: p.club.clone().filter(|_| q.club == p.club),
                first: *first,
            });
        }
        earlier.push(entry);
    }
    out
}

/// Where a record starts, as a spreadsheet numbers its rows (the header is line 1).
#[derive(Clone, Copy)]
struct Lines<'a> {
    text: &'a str,
    /// The line when the reader gives no position: the record's index + 2.
    fallback: u64,
}

impl Lines<'_> {
    /// The line of a record at `position`, counted from the text itself: the CSV reader
    /// starts a record ended by CRLF at its `\n`, and counts it to the line before.
    fn of(self, position: Option<&csv::Position>) -> u64 {
        position.map_or(self.fallback, |p| {
            let end = (p.byte() as usize + 1).min(self.text.len());
            // One more piece than newlines: the line's number.
            self.text.as_bytes()[..end].split(|&b| b == b'\n').count() as u64
        })
    }
}

fn csv_error(e: &csv::Error, lines: Lines<'_>) -> LineError {
    LineError::Csv {
        line: lines.of(e.position()),
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
    player.sex = sex(row.sex).map_err(|p| ("sex", "性別", p))?;
    player.born = born(row.born).map_err(|p| ("born", "出生年份", p))?;
    match number_field(row.number).map_err(|p| ("number", "編號", p))? {
        Some(found) if found != number => Err((
            "number",
            "編號",
            FieldProblem::NumberOrder {
                found,
                expected: number,
            },
        )),
        _ => Ok(player),
    }
}

/// The most players an event may have: the Swiss pairer's matching grows with the cube of
/// the field, and the largest Xiangqi opens seat a few hundred.
pub const MAX_PLAYERS: usize = 1_000;
/// The largest register file: 1 MiB, a thousand lines of a kilobyte.
pub const MAX_REGISTER_BYTES: usize = 1 << 20;
/// The longest name, club or proxy, in characters.
pub const MAX_TEXT_CHARS: usize = 100;
