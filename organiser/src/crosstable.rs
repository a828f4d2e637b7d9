//! The crosstable (交叉表) of an event: for each player, in the standings' order, every round
//! he was paired in — the opponent, the colour, the result and the points the event's rules
//! give it (附表二 第二部份 1: 黃氏計分法 scores 不戰而勝 12, 缺席 0; a bye as the event
//! says). A Swiss reads it round by round; the page draws a round robin as the full grid
//! (each player against each) from the same cells. Also written out as CSV.

use baoqi_rules::Color;
use baoqi_tournament::{Entry, Mark, PlayerId, Records, RoundNumber, Scoring};
use serde::Serialize;

use super::spreadsheet::{csv_field, points_number};
use super::standings::Line;

/// A player's result in one round, as the crosstable writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scored {
    /// 勝.
    Win,
    /// 不戰而勝: the opponent was absent (87).
    ForfeitWin,
    /// 和 (the cell's colour tells 紅和 from 黑和).
    Draw,
    /// 強制和 (70(3)).
    ForcedDraw,
    /// 負 (also 雙負, 70(5)).
    Loss,
    /// 缺席 (87).
    Absent,
    /// 輪空.
    Bye,
    /// A round a late entrant missed, scored as a draw (半分輪空).
    HalfBye,
}

impl From<Mark> for Scored {
    fn from(m: Mark) -> Scored {
        match m {
            Mark::Win => Scored::Win,
            Mark::ForfeitWin => Scored::ForfeitWin,
            Mark::Draw(_) => Scored::Draw,
            Mark::ForcedDraw => Scored::ForcedDraw,
            Mark::Loss => Scored::Loss,
            Mark::Absent => Scored::Absent,
            Mark::Bye => Scored::Bye,
            Mark::HalfBye => Scored::HalfBye,
        }
    }
}

impl Scored {
    /// The word a CSV cell holds.
    fn word(self) -> &'static str {
        match self {
            Scored::Win => "win",
            Scored::ForfeitWin => "forfeit_win",
            Scored::Draw => "draw",
            Scored::ForcedDraw => "forced_draw",
            Scored::Loss => "loss",
            Scored::Absent => "absent",
            Scored::Bye => "bye",
            Scored::HalfBye => "half_bye",
        }
    }
}

/// One player's round in the crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerRound {
    /// The round.
    pub round: RoundNumber,
    /// The opponent; none for a bye.
    pub opponent: Option<PlayerId>,
    /// The colour played; none for a bye.
    pub colour: Option<Color>,
    /// The result for this player, once known.
    pub result: Option<Scored>,
    /// The points the event's rules give it, as written (`12`, `½`); empty while unknown.
    pub points: String,
}

/// One player's line of the crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrossRow {
    /// The player.
    pub player: PlayerId,
    /// His rounds, first round first; a round he was not paired in has no cell.
    pub cells: Vec<PlayerRound>,
}

fn cell(entry: &Entry, scoring: Scoring) -> PlayerRound {
    PlayerRound {
        round: entry.round,
        opponent: entry.opponent,
        colour: entry.colour,
        result: entry.mark.map(Scored::from),
        points: entry
            .mark
            .map(|m| scoring.points(m).to_string())
            .unwrap_or_default(),
    }
}

/// The crosstable of the players of `lines`, in their order, from their records.
pub fn rows(lines: &[Line], records: &Records, scoring: Scoring) -> Vec<CrossRow> {
    lines
        .iter()
        .map(|l| CrossRow {
            player: l.player.id,
            cells: records
                .get(&l.player.id)
                .map(|entries| entries.iter().map(|e| cell(e, scoring)).collect())
                .unwrap_or_default(),
        })
        .collect()
}

fn colour_word(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::Red) => "red",
        Some(Color::Black) => "black",
        None => "",
    }
}

/// The crosstable as CSV: place, number, name and score (a number), then for each round the opponent's
/// number, the colour, the result and its points (empty where the player was not paired).
pub fn csv(lines: &[Line], rows: &[CrossRow], rounds: u32) -> String {
    let mut head: Vec<String> = ["place", "player", "name", "score"]
        .map(String::from)
        .into();
    for r in 1..=rounds {
        head.extend(["opponent", "colour", "result", "points"].map(|w| format!("r{r}_{w}")));
    }
    let mut out = head.join(",");
    out.push('\n');
    for (line, row) in lines.iter().zip(rows) {
        let mut cells = vec![
            line.place.to_string(),
            line.player.id.0.to_string(),
            csv_field(&line.player.name),
            points_number(&line.score),
        ];
        for r in (1..=rounds).map(RoundNumber) {
            match row.cells.iter().find(|c| c.round == r) {
                Some(c) => cells.extend([
                    c.opponent.map(|p| p.0.to_string()).unwrap_or_default(),
                    colour_word(c.colour).to_string(),
                    c.result.map(Scored::word).unwrap_or_default().to_string(),
                    points_number(&c.points),
                ]),
                None => cells.extend(std::iter::repeat_n(String::new(), 4)),
            }
        }
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
