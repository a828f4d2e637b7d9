//! 計分方法 (附表二 第二部份): the four systems of 1, team scoring of 2.

use std::fmt;

use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

use crate::result::Mark;

/// Points in half units, so that 1/½/0 stays exact: `Points(3)` is 1½.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Points(pub u32);

impl Points {
    /// Whole points.
    pub const fn whole(n: u32) -> Points {
        Points(2 * n)
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points(0), |a, b| a + b)
    }
}

impl fmt::Display for Points {
    /// `3`, `1½`, `½`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => write!(f, "½"),
            (n, 1) => write!(f, "{n}½"),
            (n, _) => write!(f, "{n}"),
        }
    }
}

/// A scoring system of 附表二 第二部份 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// (1) 取局分: 勝 1, 和 ½, 負 0.
    #[default]
    GamePoints,
    /// (2) 取整數: 勝 2, 和 1, 負 0.
    Integer,
    /// (3) 聯賽制: 勝 3, 和 1, 負 0.
    League,
    /// (4) 黃氏計分法: 勝 13, 不戰而勝 12, 黑和 9, 強制和 8, 紅和 7, 負 2, 缺席 0.
    Huang,
}

impl System {
    /// The points of one mark; a bye is scored as [`Scoring::bye`] says, here as a
    /// 不戰而勝.
    pub const fn points(self, mark: Mark) -> Points {
        let whole = match self {
            System::GamePoints => return Points(mark.game_halves()),
            System::Integer => match mark {
                Mark::Win | Mark::ForfeitWin | Mark::Bye => 2,
                Mark::Draw(_) | Mark::ForcedDraw | Mark::HalfBye => 1,
                Mark::Loss | Mark::Absent => 0,
            },
            System::League => match mark {
                Mark::Win | Mark::ForfeitWin | Mark::Bye => 3,
                Mark::Draw(_) | Mark::ForcedDraw | Mark::HalfBye => 1,
                Mark::Loss | Mark::Absent => 0,
            },
            System::Huang => match mark {
                Mark::Win => 13,
                Mark::ForfeitWin | Mark::Bye => 12,
                Mark::Draw(Color::Black) => 9,
                Mark::ForcedDraw | Mark::HalfBye => 8,
                Mark::Draw(Color::Red) => 7,
                Mark::Loss => 2,
                Mark::Absent => 0,
            },
        };
        Points::whole(whole)
    }
}

/// How a bye (輪空) is scored; the rule text is silent (see `docs/decisions.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeScore {
    /// As a 不戰而勝 (the default).
    #[default]
    ForfeitWin,
    /// As a draw (for 黃氏計分法: 強制和, colourless).
    Draw,
    /// Nothing.
    Zero,
}

/// The event's scoring: the system and the bye.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scoring {
    /// The system of 附表二 第二部份 1.
    pub system: System,
    /// How a bye scores.
    pub bye: ByeScore,
}

impl Scoring {
    /// The points of one mark under this event's rules.
    pub const fn points(self, mark: Mark) -> Points {
        match (mark, self.bye) {
            (Mark::Bye, ByeScore::Draw) => self.system.points(Mark::ForcedDraw),
            (Mark::Bye, ByeScore::Zero) => Points(0),
            _ => self.system.points(mark),
        }
    }
}

/// The two team methods of 附表二 第二部份 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamMethod {
    /// 2(1): each team's members' 局分 are added; the totals decide a team win, draw or loss,
    /// scored by the system of section 1.
    MatchResult,
    /// 2(2): the team's score is the sum of its members' scores.
    BoardSum,
}

/// One team match: each board's marks, first team's player first. The first team is the one
/// with red on the first board.
pub fn team_match(method: TeamMethod, system: System, boards: &[(Mark, Mark)]) -> (Points, Points) {
    match method {
        TeamMethod::BoardSum => (
            boards.iter().map(|b| system.points(b.0)).sum(),
            boards.iter().map(|b| system.points(b.1)).sum(),
        ),
        TeamMethod::MatchResult => {
            let first: u32 = boards.iter().map(|b| b.0.game_halves()).sum();
            let second: u32 = boards.iter().map(|b| b.1.game_halves()).sum();
            let (a, b) = match first.cmp(&second) {
                std::cmp::Ordering::Greater => (Mark::Win, Mark::Loss),
                std::cmp::Ordering::Less => (Mark::Loss, Mark::Win),
                // 黃氏: the team with red on the first board draws as red.
                std::cmp::Ordering::Equal => (Mark::Draw(Color::Red), Mark::Draw(Color::Black)),
            };
            (system.points(a), system.points(b))
        }
    }
}
