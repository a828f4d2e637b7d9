//! Time passing: alerts on each downward threshold crossing (6.6, 7.7), flag fall (71(1), 97),
//! [`Match::next_deadline`], time queries (6.5, 7.6) and the talking clock (7.1(1)(b)).

use baoqi_rules::Color;

use crate::article::articles;
use crate::clock;
use crate::command::{Millis, Seat};
use crate::config::EventKind;
use crate::event::{Audience, Event, Outcome, ReportReason};
use crate::reasons::{EndCause, Threshold};
use crate::state::Match;
use crate::view::Phase;

/// What happens next by itself.
enum Due {
    Alert(Color, u64, Threshold, Millis),
    Flag(Color, Millis),
}

impl Match {
    fn clock_runs(&self) -> bool {
        matches!(self.core.phase, Phase::Playing | Phase::Paused)
            && self.core.clock.running.is_some()
    }

    /// The next alert or flag fall, whenever it is.
    fn due(&self) -> Option<Due> {
        if !self.clock_runs() {
            return None;
        }
        let c = &self.core.clock;
        let side: Color = c.running?;
        // The first threshold reached is the largest one below the time left (the clock
        // counts down) not yet alerted: found by bisection in the list, largest first.
        let list = &self.alerts[side.index()];
        let left = clock::stored(c, side);
        let below = list.partition_point(|(t, _)| *t >= left);
        let alert = list[below..]
            .iter()
            .find(|(t, _)| !self.core.alerted[side.index()].contains(t))
            .and_then(|&(t, kind)| clock::instant_of(c, t).map(|(_, at)| (t, kind, at)));
        let flag = clock::instant_of(c, 0).map_or(c.since, |(_, at)| at);
        match alert {
            Some((t, kind, at)) if at < flag => Some(Due::Alert(side, t, kind, at)),
            _ => Some(Due::Flag(side, flag)),
        }
    }

    /// The next instant at which the match changes by itself (an alert, a flag fall), if
    /// any: the caller applies [`crate::Command::Tick`] then.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.due().map(|d| match d {
            Due::Alert(.., at) | Due::Flag(_, at) => at,
        })
    }

    /// Emits every alert and the flag fall due by `now`, each at its true instant.
    pub(crate) fn catch_up(&mut self, now: Millis, out: &mut Vec<Event>) {
        while let Some(due) = self.due() {
            match due {
                Due::Alert(side, t, threshold, at) if at <= now => {
                    let (_, _, vi_only) = self.config.alert_plan();
                    let mut times = clock::times(&self.core.clock, side, at);
                    times[0].ms = t;
                    self.emit(
                        out,
                        Event::TimeAlert {
                            side,
                            threshold_ms: t,
                            threshold,
                            at,
                            times,
                            audience: if vi_only {
                                Audience::Side(side)
                            } else {
                                Audience::All
                            },
                        },
                    );
                }
                Due::Flag(side, at) if at <= now => {
                    let stopped = clock::stopped(&self.core.clock, at);
                    self.emit(out, Event::Clock { clock: stopped });
                    let cause = EndCause::Timeout { loser: side };
                    self.end(out, Outcome::win_for(side.other()), cause, &["71(1)"], at);
                }
                _ => break,
            }
        }
    }

    /// 6.5(2): the side to move first; 7.6(2): the asking player first.
    pub(crate) fn query(&mut self, seat: Seat, now: Millis, out: &mut Vec<Event>) {
        let first = match (self.config.kind, seat.side()) {
            (EventKind::Part7, Some(asker)) => asker,
            _ => self.core.turn.side,
        };
        let times = clock::times(&self.core.clock, first, now);
        self.emit(
            out,
            Event::TimeReport {
                reason: ReportReason::Query,
                by: Some(seat),
                at: now,
                times,
            },
        );
    }

    /// The talking clock after a press: the side whose clock now runs first.
    pub(crate) fn talking_clock(&mut self, now: Millis, out: &mut Vec<Event>) {
        if !self.config.talking_clock {
            return;
        }
        let first = self.core.clock.running.unwrap_or(self.core.turn.side);
        let times = clock::times(&self.core.clock, first, now);
        self.emit(
            out,
            Event::TimeReport {
                reason: ReportReason::Press,
                by: None,
                at: now,
                times,
            },
        );
    }

    /// Ends the game: the clock stops and the result is recorded.
    pub(crate) fn end(
        &mut self,
        out: &mut Vec<Event>,
        outcome: Outcome,
        cause: EndCause,
        cited: &[&'static str],
        at: Millis,
    ) {
        self.end_with(out, outcome, cause, articles(cited), at);
    }

    /// Ends the game citing `cited` (an adjudication cites the referee's article).
    pub(crate) fn end_with(
        &mut self,
        out: &mut Vec<Event>,
        outcome: Outcome,
        cause: EndCause,
        cited: Vec<crate::article::Article>,
        at: Millis,
    ) {
        if self.core.clock.running.is_some() {
            let stopped = clock::stopped(&self.core.clock, at);
            self.emit(out, Event::Clock { clock: stopped });
        }
        self.emit(
            out,
            Event::GameOver {
                outcome,
                cause,
                articles: cited,
                at,
            },
        );
        self.emit(
            out,
            Event::RefereeNeeded {
                call: crate::event::RefereeCall::VerifyResult,
                side: None,
            },
        );
    }
}

impl Outcome {
    /// The outcome in which `color` wins.
    pub fn win_for(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `0-0` (雙負).
    pub const fn score(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::BothLose => "0-0",
        }
    }

    /// 紅方勝, 黑方勝, 和局 or 雙負.
    pub const fn chinese(self) -> &'static str {
        match self {
            Outcome::RedWins => "紅方勝",
            Outcome::BlackWins => "黑方勝",
            Outcome::Draw => "和局",
            Outcome::BothLose => "雙負",
        }
    }
}
