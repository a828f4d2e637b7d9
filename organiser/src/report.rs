//! `baoqi standings --format text`: what the standings page's text view and the three CSVs
//! give, as plain text read line by line — the standings ([`standings::text`]), every round's
//! pairings with the points each side scores by the event's rules (附表二 第二部份 1), and the
//! crosstable by rounds. Written from the same [`Standings`] the page and the CSVs are.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use baoqi_rules::Color;
use baoqi_tournament::PlayerId;

use super::crosstable::{PlayerRound, Scored};
use super::prizes;
use super::standings::{self, Board, Named, RoundView, Standings};

/// The standings, then each round's pairings, then the crosstable.
pub fn text(s: &Standings) -> String {
    let mut out = standings::text(s);
    for r in &s.rounds {
        out.push('\n');
        out.push_str(&pairings(r));
    }
    if !s.rounds.is_empty() {
        out.push('\n');
        out.push_str(&crosstable(s));
    }
    if !s.prizes.is_empty() {
        let over = s.rounds_total.is_some_and(|n| s.rounds_complete >= n);
        out.push('\n');
        out.push_str(&prizes::text(&s.prizes, over.then_some(s.rounds_complete)));
    }
    out
}

/// `#3 王芳`.
fn named(p: &Named) -> String {
    format!("#{} {}", p.id.0, p.name)
}

/// One round's boards, one line each: board, table, red, result, black, each side's points.
pub fn pairings(r: &RoundView) -> String {
    let mut out = format!(
        "第{n}輪配對 pairings, round {n}\n台 board  桌 table  紅方 red  結果 result  黑方 black  得分 points\n",
        n = r.round
    );
    for b in &r.boards {
        let _ = writeln!(out, "{}", board(b));
    }
    out
}

fn board(b: &Board) -> String {
    let table = b.table.map_or_else(|| "-".to_string(), |t| t.to_string());
    let start = format!("{:>4}  {table:>4}  {}", b.board, named(&b.red));
    let Some(black) = &b.black else {
        return format!("{start}  輪空 bye  {}", b.red_points);
    };
    if b.result.is_none() {
        return format!("{start}  對局中 in play  {}", named(black));
    }
    let pending = if b.verified {
        ""
    } else {
        "  (未核實 not yet verified)"
    };
    format!(
        "{start}  {}  {}  {} : {}{pending}",
        b.score,
        named(black),
        b.red_points,
        b.black_points
    )
}

/// The mark a crosstable cell shows (as the page's short cells, in Chinese).
fn mark(r: Option<Scored>) -> &'static str {
    match r {
        None => "…",
        Some(Scored::Win) => "勝",
        Some(Scored::ForfeitWin) => "不戰勝",
        Some(Scored::Draw) => "和",
        Some(Scored::ForcedDraw) => "強制和",
        Some(Scored::Loss) => "負",
        Some(Scored::Absent) => "缺席",
        Some(Scored::Bye) => "輪空",
        Some(Scored::HalfBye) => "半分輪空",
    }
}

/// A cell: the opponent's line number, the colour, the result and its points (`5紅勝 13`).
fn cell(c: &PlayerRound, numbers: &BTreeMap<PlayerId, usize>) -> String {
    let who = c
        .opponent
        .and_then(|o| numbers.get(&o))
        .map(ToString::to_string)
        .unwrap_or_default();
    let colour = match c.colour {
        Some(Color::Red) => "紅",
        Some(Color::Black) => "黑",
        None => "",
    };
    let points = if c.points.is_empty() {
        String::new()
    } else {
        format!(" {}", c.points)
    };
    format!("{who}{colour}{}{points}", mark(c.result))
}

/// The crosstable by rounds: one line per player in the standings' order, numbered, each
/// round's cell (`—` where he was not paired), then his score.
pub fn crosstable(s: &Standings) -> String {
    let numbers: BTreeMap<PlayerId, usize> = s
        .crosstable
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player, i + 1))
        .collect();
    let rounds: Vec<String> = s
        .rounds
        .iter()
        .map(|r| format!("第{n}輪 r{n}", n = r.round))
        .collect();
    let mut out = format!(
        "交叉表 crosstable (每輪：對手序號、執子、結果、得分 each round: opponent's no., colour, result, points)\n\
         紅 red, 黑 black; 勝 won, 不戰勝 won without play, 和 drew, 強制和 forced draw, 負 lost, 缺席 absent, 輪空 bye; … in play\n\
         序 no.  編號  姓名 name  {}  積分 score\n",
        rounds.join("  ")
    );
    for (line, row) in s.lines.iter().zip(&s.crosstable) {
        let cells: Vec<String> = s
            .rounds
            .iter()
            .map(|r| {
                let mine: Vec<String> = row
                    .cells
                    .iter()
                    .filter(|c| c.round == r.round)
                    .map(|c| cell(c, &numbers))
                    .collect();
                if mine.is_empty() {
                    "—".to_string()
                } else {
                    mine.join(" / ")
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "{:>4}  {:>4}  {}  {}  {}",
            numbers.get(&row.player).copied().unwrap_or_default(),
            line.player.id.0,
            line.player.name,
            cells.join("  "),
            line.score
        );
    }
    out
}
