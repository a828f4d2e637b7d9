//! The vocabulary of repetition and game-end rulings: the forbidden patterns (禁着, 58),
//! the warnings with the words of 第61條, and the rulings of 第63–67條.

use std::fmt;

use crate::end::EndReason;
use crate::types::Color;

/// A forbidden way of playing a cycle (禁着, 63(a)): 長將 or 長捉.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// 長將 (58(1)): every move of the side within the cycle is a check (照着).
    PerpetualCheck,
    /// 長捉 (58(2)): every move of the side chases the same piece and the opponent answers
    /// the chase every time, none of the exceptions (a)–(e) applying.
    PerpetualChase,
}

impl Pattern {
    /// 長將 or 長捉.
    pub const fn chinese(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "長將",
            Pattern::PerpetualChase => "長捉",
        }
    }

    /// The article that defines the pattern.
    pub const fn article(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "58(1)",
            Pattern::PerpetualChase => "58(2)",
        }
    }
}

/// How each side played one cycle (循環局面), after 59(3) has been applied: `None` means the
/// side played neither 長將 nor 長捉 (一般循環, 58(3)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classification {
    /// Red's pattern, if forbidden.
    pub red: Option<Pattern>,
    /// Black's pattern, if forbidden.
    pub black: Option<Pattern>,
}

impl Classification {
    /// The pattern of `color`.
    pub const fn of(&self, color: Color) -> Option<Pattern> {
        match color {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// Whether neither side played a forbidden pattern (一般循環局面, 58(3)).
    pub const fn is_ordinary(&self) -> bool {
        self.red.is_none() && self.black.is_none()
    }
}

/// A position that arose again (相同盤面): the cycle (循環局面) it closes and its 循環次數.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repetition {
    /// The ply at which the position arose again.
    pub ply: usize,
    /// The ply of its previous occurrence: the cycle is the moves in between.
    pub previous: usize,
    /// 循環次數: how many times the position has occurred, this time included, however it
    /// was reached.
    pub count: usize,
}

/// Which warning of 第61條 a cycle calls for. JSON: `{"kind": "forbidden", "side": "red",
/// "pattern": "perpetual_check"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WarningKind {
    /// 61(1): an ordinary cycle; both sides are warned.
    Ordinary,
    /// 61(2): only `side` plays 長將 or 長捉; that side is warned.
    Forbidden {
        /// The offending side.
        side: Color,
        /// What it plays.
        pattern: Pattern,
    },
    /// 61(3): both sides play the same forbidden pattern; both are warned. `first` is named
    /// first in the words of the warning: the side whose move opened the cycle.
    Mutual {
        /// The side named first.
        first: Color,
        /// The pattern both play.
        pattern: Pattern,
    },
}

impl WarningKind {
    /// The warning a classified cycle calls for; `opener` is the side that moved first in it.
    pub fn from_classification(c: Classification, opener: Color) -> WarningKind {
        match (c.red, c.black) {
            (None, None) => WarningKind::Ordinary,
            (Some(pattern), None) => WarningKind::Forbidden {
                side: Color::Red,
                pattern,
            },
            (None, Some(pattern)) => WarningKind::Forbidden {
                side: Color::Black,
                pattern,
            },
            // After 59(3) both patterns are the same kind; name the opener's first.
            (Some(red), Some(black)) => WarningKind::Mutual {
                first: opener,
                pattern: if opener == Color::Red { red } else { black },
            },
        }
    }

    /// The article of 第61條 this warning follows.
    pub const fn article(self) -> &'static str {
        match self {
            WarningKind::Ordinary => "61(1)",
            WarningKind::Forbidden { .. } => "61(2)",
            WarningKind::Mutual { .. } => "61(3)",
        }
    }

    /// Whether `color` is warned (警誡): both sides for 61(1) and 61(3), the offender for 61(2).
    pub fn warns(self, color: Color) -> bool {
        match self {
            WarningKind::Forbidden { side, .. } => side == color,
            WarningKind::Ordinary | WarningKind::Mutual { .. } => true,
        }
    }

    /// Whether the warning is about a forbidden pattern (61(2) or 61(3)).
    pub const fn is_forbidden(self) -> bool {
        !matches!(self, WarningKind::Ordinary)
    }

    /// The exact words of 第61條, e.g. `紅方長將，紅方不變作負`.
    pub fn text(self) -> String {
        match self {
            WarningKind::Ordinary => "一般循環盤面，雙方不變作和".to_owned(),
            WarningKind::Forbidden { side, pattern } => {
                let s = side.chinese();
                format!("{s}方{}，{s}方不變作負", pattern.chinese())
            }
            WarningKind::Mutual { first, pattern } => {
                let p = pattern.chinese();
                format!(
                    "{}方{p}，{}方亦{p}，雙方不變作和",
                    first.chinese(),
                    first.other().chinese()
                )
            }
        }
    }
}

/// A warning given when a position arose (第60條); that position becomes the 警誡盤面.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// The ply (half-move number from the start of the history) at which it was given.
    pub ply: usize,
    /// Which warning.
    pub kind: WarningKind,
    /// Whether it is the renewed warning of 第62條 (a forbidden sequence stopped and the
    /// 警誡盤面 recurred).
    pub renewed: bool,
}

impl Warning {
    /// The article: `62` for a renewed warning, else the paragraph of 第61條.
    pub const fn article(&self) -> &'static str {
        if self.renewed {
            "62"
        } else {
            self.kind.article()
        }
    }

    /// The words of the warning (第61條).
    pub fn text(&self) -> String {
        self.kind.text()
    }
}

impl fmt::Display for Warning {
    /// `ply 8 61(2) 紅方長將，紅方不變作負`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {} {} {}", self.ply, self.article(), self.text())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// 紅方勝.
    RedWins,
    /// 黑方勝.
    BlackWins,
    /// 和局.
    Draw,
}

impl Outcome {
    /// The outcome in which `color` wins.
    pub const fn win_for(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::RedWins => Some(Color::Red),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw => None,
        }
    }

    /// 紅方勝, 黑方勝 or 和局.
    pub const fn chinese(self) -> &'static str {
        match self {
            Outcome::RedWins => "紅方勝",
            Outcome::BlackWins => "黑方勝",
            Outcome::Draw => "和局",
        }
    }
}

impl fmt::Display for Outcome {
    /// `red wins`, `black wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::RedWins => "red wins",
            Outcome::BlackWins => "black wins",
            Outcome::Draw => "draw",
        })
    }
}

/// Why a game ended (第11章, in the terms of 第35條).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulingReason {
    /// 正和, 將死, 困斃 or 自然限着: the board alone (35(a)–(b)).
    Board(EndReason),
    /// 犯禁 (65(3), by 63(a)(i)): a warned side went on with its forbidden pattern.
    Forbidden {
        /// The side that loses.
        offender: Color,
        /// What it played.
        pattern: Pattern,
    },
    /// 相同犯禁 (66(3), by 63(a)(ii)): both sides went on with a forbidden pattern.
    MutualForbidden,
    /// 一般循環和局 (66(4), by 63(b)): the 警誡盤面 of an ordinary cycle recurred.
    CycleDraw,
    /// 官和 (67): adjudicated by the referee, only when both players agreed to 67 before
    /// the game (64(2)).
    OfficialDraw,
}

impl RulingReason {
    /// The article of 第11章 that ends the game.
    pub const fn article(self) -> &'static str {
        match self {
            RulingReason::Board(reason) => reason.article(),
            RulingReason::Forbidden { .. } => "65(3)",
            RulingReason::MutualForbidden => "66(3)",
            RulingReason::CycleDraw => "66(4)",
            RulingReason::OfficialDraw => "67",
        }
    }

    /// The name of the ending as the rule text writes it.
    pub const fn chinese(self) -> &'static str {
        match self {
            RulingReason::Board(reason) => reason.chinese(),
            RulingReason::Forbidden { .. } => "犯禁",
            RulingReason::MutualForbidden => "相同犯禁",
            RulingReason::CycleDraw => "一般循環和局",
            RulingReason::OfficialDraw => "官和",
        }
    }
}

/// A game-ending ruling: when, who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruling {
    /// The ply whose move ended the game.
    pub ply: usize,
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub reason: RulingReason,
}

impl Ruling {
    /// The article, e.g. `65(3)`.
    pub const fn article(&self) -> &'static str {
        self.reason.article()
    }

    /// The ruling in words, e.g. `犯禁，黑方勝` or `一般循環和局`.
    pub fn text(&self) -> String {
        let name = self.reason.chinese();
        match self.reason {
            RulingReason::Forbidden { offender, pattern } => format!(
                "{}方{}{name}，{}",
                offender.chinese(),
                pattern.chinese(),
                self.outcome.chinese()
            ),
            _ if name.ends_with("和局") => name.to_owned(),
            _ => format!("{name}，{}", self.outcome.chinese()),
        }
    }
}

impl fmt::Display for Ruling {
    /// `ply 12 65(3) 紅方長將犯禁，黑方勝`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {} {} {}", self.ply, self.article(), self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a61_warning_words_are_exact() {
        let w = |kind| Warning {
            ply: 8,
            kind,
            renewed: false,
        };
        assert_eq!(
            w(WarningKind::Ordinary).text(),
            "一般循環盤面，雙方不變作和"
        );
        let red_check = WarningKind::Forbidden {
            side: Color::Red,
            pattern: Pattern::PerpetualCheck,
        };
        assert_eq!(w(red_check).text(), "紅方長將，紅方不變作負");
        let black_chase = WarningKind::Forbidden {
            side: Color::Black,
            pattern: Pattern::PerpetualChase,
        };
        assert_eq!(w(black_chase).text(), "黑方長捉，黑方不變作負");
        let mutual = WarningKind::Mutual {
            first: Color::Red,
            pattern: Pattern::PerpetualCheck,
        };
        assert_eq!(w(mutual).text(), "紅方長將，黑方亦長將，雙方不變作和");
        let mutual = WarningKind::Mutual {
            first: Color::Black,
            pattern: Pattern::PerpetualChase,
        };
        assert_eq!(w(mutual).text(), "黑方長捉，紅方亦長捉，雙方不變作和");
        assert_eq!(w(mutual).article(), "61(3)");
    }

    #[test]
    fn a59_3_check_on_one_side_and_chase_on_the_other_warns_the_checker() {
        // Classification has already dropped the chase (59(3)); a single pattern is 61(2).
        let c = Classification {
            red: Some(Pattern::PerpetualCheck),
            black: None,
        };
        let kind = WarningKind::from_classification(c, Color::Black);
        assert!(kind.warns(Color::Red) && !kind.warns(Color::Black));
        assert_eq!(kind.article(), "61(2)");
    }

    #[test]
    fn a65_3_ruling_names_offender_and_winner() {
        let r = Ruling {
            ply: 12,
            outcome: Outcome::BlackWins,
            reason: RulingReason::Forbidden {
                offender: Color::Red,
                pattern: Pattern::PerpetualCheck,
            },
        };
        assert_eq!(r.to_string(), "ply 12 65(3) 紅方長將犯禁，黑方勝");
        let d = Ruling {
            ply: 12,
            outcome: Outcome::Draw,
            reason: RulingReason::CycleDraw,
        };
        assert_eq!(d.text(), "一般循環和局");
        assert_eq!(d.outcome.to_string(), "draw");
    }
}
