//! The CSV files of the standings page and `baoqi standings --format csv`, written for a
//! spreadsheet: UTF-8 with a byte order mark (without it, a spreadsheet on Traditional
//! Chinese Windows reads the names as Big5 and garbles them); scores and tie-breaks as
//! numbers (`6.5`, not `6½`); no cell a spreadsheet would take for a formula.

use baoqi_arbiter::Category;
use baoqi_tournament::standings::TieBreak;

use super::crosstable;
use super::standings::{Line, Standings};

/// The byte order mark that opens every file: a spreadsheet then reads it as UTF-8.
pub const BOM: char = '\u{feff}';

/// A CSV field of text from the register or the organiser, safe in a spreadsheet: control
/// characters become spaces, a field a spreadsheet would take for a formula (`=`, `+`, `-`,
/// `@` first) is kept as text by a leading `'` (OWASP's advice for CSV injection), and it
/// is quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    let mut text: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.starts_with(['=', '+', '-', '@']) {
        text.insert(0, '\'');
    }
    if text.contains([',', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Half points as a number: `6.5`, `13`.
fn halves(v: i64) -> String {
    if v % 2 == 0 {
        (v / 2).to_string()
    } else {
        format!("{}.5", v.div_euclid(2))
    }
}

/// Points as written (`2½`, `½`, `12`) as a number (`2.5`, `0.5`, `12`).
pub fn points_number(written: &str) -> String {
    match written.strip_suffix('½') {
        Some("") => "0.5".to_string(),
        Some(whole) => format!("{whole}.5"),
        None => written.to_string(),
    }
}

/// A tie-break's value as a number: scores in points (`3.5`), Sonneborn-Berger in points ×
/// 局分 (`2.75`, the core's quarters), counts as they are.
fn tiebreak_number(t: &TieBreak, v: i64) -> String {
    match t {
        TieBreak::HeadToHead | TieBreak::Buchholz | TieBreak::BuchholzCut1 | TieBreak::Club => {
            halves(v)
        }
        TieBreak::SonnebornBerger => {
            let s = format!("{:.2}", v as f64 / 4.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        _ => v.to_string(),
    }
}

/// A category's name as the register writes it (7.2(1)).
pub fn category_name(c: Category) -> &'static str {
    match c {
        Category::Blind => "全失明",
        Category::PartiallySighted => "部份失明",
        Category::Sighted => "健視",
        Category::Deaf => "聾啞",
        Category::Physical => "肢體傷殘",
    }
}

/// A player's categories in one cell, `全失明、聾啞`; none is 健視.
fn categories_cell(categories: &[Category]) -> String {
    if categories.is_empty() {
        return category_name(Category::Sighted).to_string();
    }
    let names: Vec<&str> = categories.iter().map(|c| category_name(*c)).collect();
    names.join("、")
}

/// The standings as CSV (UTF-8 with a BOM): one header line, then one line per player:
/// place, shared, number, name, club, score (a number), every tie-break of the event (blank
/// only where it does not apply), withdrawn, category, rating.
pub fn csv(s: &Standings) -> String {
    let mut head: Vec<String> = ["place", "shared", "player", "name", "club", "score"]
        .map(String::from)
        .into();
    head.extend(s.tiebreaks.iter().map(|l| csv_field(&l.en)));
    head.extend(["withdrawn", "category", "rating"].map(String::from));
    let mut out = format!("{BOM}{}\n", head.join(","));
    let order = &s.order;
    for l in &s.lines {
        out.push_str(&standings_row(l, order).join(","));
        out.push('\n');
    }
    out
}

fn standings_row(l: &Line, order: &[TieBreak]) -> Vec<String> {
    let mut cells = vec![
        l.place.to_string(),
        l.shared.to_string(),
        l.player.id.0.to_string(),
        csv_field(&l.player.name),
        csv_field(l.player.club.as_deref().unwrap_or("")),
        halves(i64::from(l.halves)),
    ];
    for (t, v) in order.iter().zip(&l.every_value) {
        cells.push(
            v.map(|v| csv_field(&tiebreak_number(t, v)))
                .unwrap_or_default(),
        );
    }
    cells.resize(6 + order.len(), String::new());
    cells.extend([
        l.withdrawn.to_string(),
        csv_field(&categories_cell(&l.categories)),
        l.rating.map(|r| r.to_string()).unwrap_or_default(),
    ]);
    cells
}

/// Every round's pairings as CSV (UTF-8 with a BOM): one line per board, with the result and each side's points
/// by the event's rules; a bye has no black.
pub fn pairings_csv(s: &Standings) -> String {
    let mut out = String::from(
        "\u{feff}round,board,table,red,red_name,black,black_name,result,red_points,black_points,final\n",
    );
    for r in &s.rounds {
        for b in &r.boards {
            let cells = [
                r.round.to_string(),
                b.board.to_string(),
                b.table.map(|t| t.to_string()).unwrap_or_default(),
                b.red.id.0.to_string(),
                csv_field(&b.red.name),
                b.black
                    .as_ref()
                    .map(|p| p.id.0.to_string())
                    .unwrap_or_default(),
                b.black
                    .as_ref()
                    .map(|p| csv_field(&p.name))
                    .unwrap_or_default(),
                // baoqi's own notation, never the register's text: `+/-` as it is (a
                // spreadsheet finds no formula in it, and a `'` would show).
                b.score.clone(),
                points_number(&b.red_points),
                points_number(&b.black_points),
                b.verified.to_string(),
            ];
            out.push_str(&cells.join(","));
            out.push('\n');
        }
    }
    out
}

/// The crosstable as CSV (UTF-8 with a BOM, [`crosstable::csv`]).
pub fn crosstable_csv(s: &Standings) -> String {
    let rounds = s.rounds.len() as u32;
    format!("{BOM}{}", crosstable::csv(&s.lines, &s.crosstable, rounds))
}

#[cfg(test)]
mod tests {
    use super::{csv_field, halves, points_number};

    #[test]
    fn scores_are_numbers_a_spreadsheet_adds_up() {
        assert_eq!(halves(13), "6.5");
        assert_eq!(halves(26), "13");
        assert_eq!(halves(1), "0.5");
        assert_eq!(points_number("2½"), "2.5");
        assert_eq!(points_number("½"), "0.5");
        assert_eq!(points_number("12"), "12");
        assert_eq!(points_number(""), "");
    }

    #[test]
    fn a_name_from_the_register_is_never_a_formula_nor_breaks_a_line() {
        assert_eq!(
            csv_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        assert_eq!(csv_field("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(csv_field("+1+1"), "'+1+1");
        assert_eq!(csv_field("-2"), "'-2");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("王\r芳"), "王 芳");
        assert_eq!(csv_field("王\n芳,李"), "\"王 芳,李\"");
        assert_eq!(csv_field("\t=1"), "\t=1".replace('\t', " "));
        assert_eq!(csv_field("陳家豪"), "陳家豪");
    }
}
