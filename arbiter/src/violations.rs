//! The violation tallies (126): several technical fouls in one turn count once, a technical
//! foul absorbs the clock-press violations of its turn, every recording violation counts;
//! reaching a limit of 127(2) (or the configured one) loses the game (70(4)).

use baoqi_rules::Color;

use crate::article::{Article, articles};
use crate::command::{Millis, ViolationKind};
use crate::event::{Event, Outcome};
use crate::reasons::{EndCause, Removal, ViolationReason};
use crate::state::Match;

impl Match {
    /// A 按鐘違規 of the side to act; absorbed by a technical foul of the same turn (126(3)).
    pub(crate) fn clock_violation(
        &mut self,
        reason: ViolationReason,
        cited: &[&'static str],
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        let cited = articles(cited);
        self.violation(side, ViolationKind::Clock, reason, cited, now, out);
    }

    /// Records a violation with the counting rules of 126 and the limits of 127 (70(4)).
    pub(crate) fn violation(
        &mut self,
        side: Color,
        kind: ViolationKind,
        reason: ViolationReason,
        cited: Vec<Article>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let same_turn = side == self.core.turn.side;
        let limit = self.config.limits.of(kind);
        let current = self.core.tallies.get(side, kind);
        let absorbed = same_turn
            && self.core.turn.technical
            && matches!(kind, ViolationKind::Technical | ViolationKind::Clock);
        if absorbed {
            // 126(2): one technical foul per turn; 126(3): it absorbs the clock violations.
            self.emit(
                out,
                Event::Violation {
                    side,
                    kind,
                    counted: false,
                    count: current,
                    limit,
                    reason,
                    articles: cited,
                },
            );
            return;
        }
        if kind == ViolationKind::Technical && same_turn {
            for _ in 0..self.core.turn.clock_violations {
                let count = self
                    .core
                    .tallies
                    .get(side, ViolationKind::Clock)
                    .saturating_sub(1);
                self.emit(
                    out,
                    Event::ViolationRemoved {
                        side,
                        kind: ViolationKind::Clock,
                        count,
                        why: Removal::AbsorbedByFoul,
                    },
                );
            }
        }
        let count = current + 1;
        self.emit(
            out,
            Event::Violation {
                side,
                kind,
                counted: true,
                count,
                limit,
                reason,
                articles: cited,
            },
        );
        if limit > 0 && count >= limit {
            let cause = EndCause::ViolationLimit {
                loser: side,
                kind,
                count,
            };
            self.end(
                out,
                Outcome::win_for(side.other()),
                cause,
                &["70(4)", "127"],
                now,
            );
        }
    }
}
