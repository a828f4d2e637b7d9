//! The violation tallies (126): several technical fouls in one turn count once, a technical
//! foul absorbs the clock-press violations of its turn, every recording violation counts;
//! reaching a limit of 127(2) (or the configured one) loses the game (70(4)).

use baoqi_rules::Color;

use crate::command::{Millis, ViolationKind};
use crate::event::{Event, Outcome};
use crate::state::{Match, kind_index};

impl Match {
    /// A 按鐘違規; absorbed by a technical foul of the same turn (126(3)).
    pub(crate) fn clock_violation(
        &mut self,
        side: Color,
        why: &str,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        self.violation(
            side,
            ViolationKind::Clock,
            why.to_string(),
            "6.3(3), 126(1)(a)",
            now,
            out,
        );
    }

    /// Records a violation with the counting rules of 126 and the limits of 127 (70(4)).
    pub(crate) fn violation(
        &mut self,
        side: Color,
        kind: ViolationKind,
        reason: String,
        article: &str,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let same_turn = side == self.core.turn.side;
        let i = side.index();
        let limit = self.config.limits.of(kind);
        let current = self.core.tallies[i][kind_index(kind)];
        let absorbed = same_turn
            && self.core.turn.technical
            && matches!(kind, ViolationKind::Technical | ViolationKind::Clock);
        if absorbed {
            let why = if kind == ViolationKind::Technical {
                "126(2)"
            } else {
                "126(3)"
            };
            self.emit(
                out,
                Event::Violation {
                    side: side.into(),
                    kind,
                    counted: false,
                    count: current,
                    limit,
                    reason: format!("{reason}（同一輪次只記 1 次技術犯規, {why}）"),
                    article: article.into(),
                },
            );
            return;
        }
        if kind == ViolationKind::Technical && same_turn {
            for _ in 0..self.core.turn.clock_violations {
                let count =
                    self.core.tallies[i][kind_index(ViolationKind::Clock)].saturating_sub(1);
                self.emit(
                    out,
                    Event::ViolationRemoved {
                        side: side.into(),
                        kind: ViolationKind::Clock,
                        count,
                        reason: "同一輪次的技術犯規吸收按鐘違規 (126(3))".into(),
                    },
                );
            }
        }
        let count = current + 1;
        self.emit(
            out,
            Event::Violation {
                side: side.into(),
                kind,
                counted: true,
                count,
                limit,
                reason,
                article: article.into(),
            },
        );
        if limit > 0 && count >= limit {
            self.end(
                out,
                Outcome::win_for(side.other()),
                format!(
                    "{}方{}達 {count} 次上限，犯規作負 (127)",
                    side.chinese(),
                    kind.chinese()
                ),
                "70(4)",
                now,
            );
        }
    }
}
