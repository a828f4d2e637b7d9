//! Ending a turn: the move goes on the record and is reviewed by the rules crate (61
//! warnings with their exact words, the endings of 第11章), the clock switches with the press
//! adjustments of 附表三, an offer made in the turn stands (69(2)(b)), and the next side's
//! turn begins with what it owes (a mirroring repeat, an announcement by the referee).

use baoqi_rules::{Color, Move, RulingReason};

use crate::article::Article;
use crate::clock;
use crate::command::Millis;
use crate::event::{ClockView, Event, Outcome, RefereeCall, Speaker};
use crate::reasons::EndCause;
use crate::render::move_view;
use crate::state::Match;
use crate::view::Phase;

impl Match {
    /// The clock as it would be after the side to act presses at `now`.
    pub(crate) fn pressed_clock(&self, now: Millis) -> ClockView {
        let side = self.core.turn.side;
        let mine = self.config.time.for_side(self.config.side(side));
        let theirs = self.config.time.for_side(self.config.side(side.other()));
        clock::press(
            &self.core.clock,
            side,
            now,
            self.core.turn.move_start_ms,
            &mine,
            &theirs,
        )
    }

    /// Plays `m` and ends the turn.
    pub(crate) fn finish_move(
        &mut self,
        m: Move,
        by: Option<Speaker>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        let after = self.pressed_clock(now);
        self.play_move(m, by, clock::stored(&after, side), now, out);
        if self.core.phase != Phase::Over {
            self.end_turn(after, out);
        }
    }

    /// Puts `m` on the record and reviews it (warnings of 第61條, endings of 第11章).
    pub(crate) fn play_move(
        &mut self,
        m: Move,
        by: Option<Speaker>,
        clock_ms: u64,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        let pos = self.game.position().clone();
        let view = move_view(&pos, m);
        // A derived cache, not state: the fold of `Moved` sets it again.
        self.last_review = None;
        self.emit(
            out,
            Event::Moved {
                side,
                ply: self.game.moves().len() + 1,
                at: now,
                mv: view,
                fen: pos.after(m).fen(),
                clock_ms,
                by,
            },
        );
        let review = self.last_review.clone().unwrap_or_default();
        for w in review.warnings {
            let warned: Vec<Color> = Color::ALL
                .into_iter()
                .filter(|&c| w.kind.warns(c))
                .collect();
            let side = match warned.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            self.emit(
                out,
                Event::RepetitionWarning {
                    ply: w.ply,
                    warning: w.kind,
                    article: Article::of(w.article()),
                    warned,
                },
            );
            self.emit(
                out,
                Event::RefereeNeeded {
                    call: RefereeCall::RepetitionWarning,
                    side,
                },
            );
        }
        if let Some(r) = review.ending {
            let outcome = match r.outcome {
                baoqi_rules::Outcome::RedWins => Outcome::RedWins,
                baoqi_rules::Outcome::BlackWins => Outcome::BlackWins,
                baoqi_rules::Outcome::Draw => Outcome::Draw,
            };
            let cause = match r.reason {
                RulingReason::Board(reason) => EndCause::Board { reason },
                RulingReason::Forbidden { offender, pattern } => {
                    EndCause::Forbidden { offender, pattern }
                }
                RulingReason::MutualForbidden => EndCause::MutualForbidden,
                RulingReason::CycleDraw => EndCause::CycleDraw,
                RulingReason::OfficialDraw => EndCause::OfficialDraw,
            };
            self.end_with(out, outcome, cause, vec![Article::of(r.article())], now);
        }
        self.refresh_boards(out);
    }

    /// Ends the turn of the side to act: the clock switches, an offer made in the turn
    /// stands (69(2)(b)), the opponent's turn begins, with the repeat he owes when boards
    /// are mirrored (7.4(2)(g)(ii)).
    pub(crate) fn end_turn(&mut self, after: ClockView, out: &mut Vec<Event>) {
        let side = self.core.turn.side;
        self.emit(out, Event::Clock { clock: after });
        if let Some(o) = self.core.offer
            && o.side == side
            && !o.stands
        {
            self.emit(out, Event::DrawOfferStands { side });
        }
        let next = side.other();
        self.emit(
            out,
            Event::Turn {
                side: next,
                ply: self.game.moves().len() + 1,
            },
        );
        if self.mirrored()
            && self.config.announcing()
            && let Some(last) = self.core.sheet.last()
        {
            let words = last.mv.words;
            self.emit(
                out,
                Event::RepeatDue {
                    side: next,
                    words,
                    mover: side,
                    article: Article::of("7.4(2)(g)(ii)"),
                    mirror: true,
                },
            );
        }
        self.call_announcer(out);
        self.refresh_boards(out);
    }

    /// Calls the referee when the side to act needs its move announced for it (6.3(7),
    /// 7.4(2)(c)-(d)).
    pub(crate) fn call_announcer(&mut self, out: &mut Vec<Event>) {
        if self.needs_announcer() {
            let side = Some(self.core.turn.side);
            self.emit(
                out,
                Event::RefereeNeeded {
                    call: RefereeCall::AnnounceFor,
                    side,
                },
            );
        }
    }
}
