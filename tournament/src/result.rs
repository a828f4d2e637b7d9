//! Results: a game's result as the table reports it ([`GameResult`]) and what it is for one
//! player ([`Mark`]), which is what every scoring system of 附表二 第二部份 counts.

use baoqi_arbiter::Outcome;
use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

/// The result of one game of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// 紅勝.
    RedWins,
    /// 黑勝.
    BlackWins,
    /// 和局 by play or agreement.
    Draw,
    /// 強制和棋 (70(3)): an outside cause broke the position.
    ForcedDraw,
    /// 雙負 (70(5)).
    BothLose,
    /// Red absent (87, 109(2)): black wins without play (不戰而勝).
    RedAbsent,
    /// Black absent: red wins without play.
    BlackAbsent,
    /// Both absent (109(4)).
    BothAbsent,
}

impl GameResult {
    /// The result of a finished match of the arbiter; `forced` marks a draw adjudicated
    /// under 70(3).
    pub fn from_outcome(outcome: Outcome, forced: bool) -> GameResult {
        match outcome {
            Outcome::RedWins => GameResult::RedWins,
            Outcome::BlackWins => GameResult::BlackWins,
            Outcome::Draw if forced => GameResult::ForcedDraw,
            Outcome::Draw => GameResult::Draw,
            Outcome::BothLose => GameResult::BothLose,
        }
    }

    /// What the result is for the player of `colour`.
    pub fn mark(self, colour: Color) -> Mark {
        let mine = |red: Mark, black: Mark| if colour == Color::Red { red } else { black };
        match self {
            GameResult::RedWins => mine(Mark::Win, Mark::Loss),
            GameResult::BlackWins => mine(Mark::Loss, Mark::Win),
            GameResult::Draw => Mark::Draw(colour),
            GameResult::ForcedDraw => Mark::ForcedDraw,
            GameResult::BothLose => Mark::Loss,
            GameResult::RedAbsent => mine(Mark::Absent, Mark::ForfeitWin),
            GameResult::BlackAbsent => mine(Mark::ForfeitWin, Mark::Absent),
            GameResult::BothAbsent => Mark::Absent,
        }
    }

    /// Whether the game was played over the board (是否正常完成對賽, 附表二 第一部份 3(f)):
    /// no absence.
    pub fn played(self) -> bool {
        !matches!(
            self,
            GameResult::RedAbsent | GameResult::BlackAbsent | GameResult::BothAbsent
        )
    }
}

/// One player's result in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// 勝.
    Win,
    /// 不戰而勝: the opponent was absent.
    ForfeitWin,
    /// 和 with this colour (黃氏計分法 tells 紅和 from 黑和).
    Draw(Color),
    /// 強制和 (70(3)).
    ForcedDraw,
    /// 負 (also 雙負, 70(5)).
    Loss,
    /// 缺席.
    Absent,
    /// 輪空: no opponent this round (odd number of players).
    Bye,
    /// A round a late entrant missed, scored as a draw because the organiser chose so (the
    /// rule text is silent on late entrants: `docs/decisions.md`). Not the round's bye: he
    /// may still be given that one.
    HalfBye,
}

impl Mark {
    /// The game points of the mark in halves (勝 2, 和 1, 負 0): the 局分 that team scoring
    /// and Sonneborn-Berger weigh by. A bye counts as the event scores it, see
    /// [`crate::Scoring::bye`].
    pub const fn game_halves(self) -> u32 {
        match self {
            Mark::Win | Mark::ForfeitWin | Mark::Bye => 2,
            Mark::Draw(_) | Mark::ForcedDraw | Mark::HalfBye => 1,
            Mark::Loss | Mark::Absent => 0,
        }
    }
}
