//! The clock press and 走子檢查 (6.3(3), 6.4, 7.5): the press is refused as a
//! 按鐘違規 while the move or the announcement is incomplete; otherwise the announcement is
//! compared with the board at once, with outcomes (a), (b), (c), their time consequences and
//! the violation tallies of 126–127.

use baoqi_rules::Move;

use crate::article::{Article, articles};
use crate::clock;
use crate::command::{Millis, Seat, ViolationKind};
use crate::event::{CheckOutcome, Event, RefereeCall, Speaker};
use crate::reasons::{CheckFinding, Owed, ViolationReason};
use crate::rejection::Rejection;
use crate::state::{Bound, Match};
use crate::turn::BoardMove;
use crate::view::Phase;

impl Match {
    /// A clock press by the side to act; the talking clock speaks both times on every
    /// accepted press (7.1(1)(b)), whatever the check decides.
    pub(crate) fn press(
        &mut self,
        seat: Seat,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.press_inner(seat, now, out)?;
        if self.core.phase != Phase::Over {
            self.talking_clock(now, out);
        }
        Ok(())
    }

    /// What was still owed at a press (6.3(3), 7.4(2)(b)).
    fn owed(&self, board_move: BoardMove, bound: Option<&Bound>) -> Vec<Owed> {
        let side = self.core.turn.side;
        let mut missing = Vec::new();
        if board_move == BoardMove::Incomplete {
            missing.push(Owed::Move);
        }
        if self.config.announcing() && bound.is_none() {
            missing.push(Owed::Announcement);
        }
        if self.core.repeats.iter().any(|r| r.side == side) {
            missing.push(Owed::Repeat);
        }
        missing
    }

    /// The press and, when the move and the announcement are complete, the check.
    fn press_inner(
        &mut self,
        seat: Seat,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = self.core.turn.side;
        if seat != Seat::Referee && seat.side() != Some(side) {
            return Err(crate::turn::not_your_turn(seat));
        }
        let board_move = self.board_move();
        if !self.config.announcing() && board_move == BoardMove::NoBoard {
            return Err(Rejection::NothingToPress);
        }
        self.emit(
            out,
            Event::Pressed {
                side,
                by: seat,
                at: now,
            },
        );
        let t = &self.core.turn;
        let bound = t.bound.clone();
        if let Some((m, _)) = t.reannounce {
            if bound.as_ref().and_then(|b| b.announcement.mv) == Some(m) {
                let after = self.pressed_clock(now);
                self.end_turn(after, out);
            } else {
                let reason = ViolationReason::PressedBeforeReannouncing;
                self.clock_violation(reason, &["6.4(b)", "126(1)(a)"], now, out);
            }
            return Ok(());
        }
        if t.correction.is_some() {
            let reason = ViolationReason::PressedBeforeCorrecting;
            self.clock_violation(reason, &["6.4(a)", "126(1)(a)"], now, out);
            return Ok(());
        }
        let missing = self.owed(board_move, bound.as_ref());
        if !missing.is_empty() {
            let reason = ViolationReason::PressedEarly { missing };
            let cited = ["6.3(3)", "7.4(2)(b)", "126(1)(a)"];
            self.clock_violation(reason, &cited, now, out);
            return Ok(());
        }
        self.check(bound, board_move.mv(), now, out);
        Ok(())
    }

    /// 走子檢查: the announcement (if any) against the board move (if any).
    fn check(
        &mut self,
        bound: Option<Bound>,
        board: Option<Move>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let played = board.or(bound.as_ref().and_then(|b| b.announcement.mv));
        if let (Some(sealed), Some(m)) = (self.core.sealed, played)
            && sealed != m
        {
            // 125: the 續着方 must play the sealed move.
            self.checked(
                CheckOutcome::SealedMoveBroken,
                bound.as_ref(),
                board,
                &["125"],
                out,
            );
            let reason = ViolationReason::SealedMoveNotPlayed { sealed };
            self.technical(reason, articles(&["125"]), now, out);
            self.restore(board, out);
            return;
        }
        match (bound, board) {
            (bound, None) => match bound.as_ref().and_then(|b| b.announcement.mv) {
                // No board: the announcement is the move.
                Some(a) => {
                    self.checked(CheckOutcome::Agree, bound.as_ref(), None, &["6.4"], out);
                    self.finish_move(a, bound.map(|b| b.by), now, out);
                }
                None => self.outcome_c(bound.as_ref(), None, now, out),
            },
            (None, Some(m)) => self.board_only(m, now, out),
            (Some(b), Some(m)) if b.by == Speaker::Referee => {
                if self.game.position().is_legal(m) {
                    let cited = ["7.4(2)(f)(iii)"];
                    self.checked(CheckOutcome::BoardGoverns, Some(&b), Some(m), &cited, out);
                    self.finish_move(m, Some(b.by), now, out);
                } else {
                    self.outcome_c(Some(&b), Some(m), now, out);
                }
            }
            (Some(b), Some(m)) => self.against_board(&b, m, now, out),
        }
    }

    /// No announcement required: the board move is checked for legality alone.
    fn board_only(&mut self, m: Move, now: Millis, out: &mut Vec<Event>) {
        if self.game.position().is_legal(m) {
            self.checked(CheckOutcome::BoardOnly, None, Some(m), &["30"], out);
            self.finish_move(m, None, now, out);
        } else {
            self.checked(CheckOutcome::BoardOnly, None, Some(m), &["37(2)(f)"], out);
            self.restore(Some(m), out);
        }
    }

    /// The player's (or proxy's) binding announcement against the board move: 6.4(a)-(c).
    fn against_board(&mut self, b: &Bound, m: Move, now: Millis, out: &mut Vec<Event>) {
        let side = self.core.turn.side;
        let a = &b.announcement;
        match a.mv {
            Some(mv) if mv == m => {
                self.checked(CheckOutcome::Agree, Some(b), Some(m), &["6.4", "7.5"], out);
                self.finish_move(m, Some(b.by), now, out);
            }
            Some(mv) => {
                let cited = ["6.4(a)", "7.5(a)"];
                self.checked(CheckOutcome::A, Some(b), Some(m), &cited, out);
                self.emit(
                    out,
                    Event::CorrectionRequired {
                        side,
                        mv,
                        words: a.words,
                    },
                );
                self.emit(
                    out,
                    Event::RefereeNeeded {
                        call: RefereeCall::CorrectionPending,
                        side: Some(side),
                    },
                );
            }
            None if self.game.position().is_legal(m) && a.from == Some(m.from) => {
                let cited = ["6.4(b)", "7.5(b)"];
                self.checked(CheckOutcome::B, Some(b), Some(m), &cited, out);
                let words = baoqi_grammar::words_of(self.game.position(), m);
                let clock_ms = clock::remaining(&self.core.clock, side, now);
                self.play_move(m, Some(b.by), clock_ms, now, out);
                if self.core.phase != Phase::Over {
                    let reason = ViolationReason::IllegalAnnouncement {
                        words: a.words.to_vec(),
                    };
                    let cited = articles(&["6.4(b)", "126(1)(b)"]);
                    self.violation(side, ViolationKind::Recording, reason, cited, now, out);
                }
                if self.core.phase != Phase::Over
                    && let Ok(words) = words
                {
                    self.emit(out, Event::ReannounceRequired { side, mv: m, words });
                }
            }
            None => self.outcome_c(Some(b), Some(m), now, out),
        }
    }

    /// Check (c): restore, another piece may be moved, one 技術犯規.
    fn outcome_c(
        &mut self,
        b: Option<&Bound>,
        board: Option<Move>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        self.checked(CheckOutcome::C, b, board, &["6.4(c)", "7.5(c)"], out);
        let words = b.map(|b| b.announcement.words.to_vec()).unwrap_or_default();
        let reason = ViolationReason::IllegalAnnouncement { words };
        self.technical(reason, articles(&["6.4(c)", "126(1)(c)"]), now, out);
        self.restore(board, out);
    }

    fn restore(&mut self, board: Option<Move>, out: &mut Vec<Event>) {
        if self.core.phase == Phase::Over {
            return;
        }
        let side = self.core.turn.side;
        self.emit(out, Event::RestoreRequired { side, mv: board });
    }

    fn technical(
        &mut self,
        reason: ViolationReason,
        cited: Vec<Article>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        self.violation(side, ViolationKind::Technical, reason, cited, now, out);
    }

    /// Emits the outcome of a check with what it compared.
    pub(crate) fn checked(
        &mut self,
        outcome: CheckOutcome,
        bound: Option<&Bound>,
        board: Option<Move>,
        cited: &[&'static str],
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        let board_words = board.and_then(|m| baoqi_grammar::words_of(self.game.position(), m).ok());
        let finding = CheckFinding {
            announced: bound.map(|b| b.announcement.clone()),
            board,
            board_words,
        };
        self.emit(
            out,
            Event::Checked {
                side,
                outcome,
                finding,
                articles: articles(cited),
            },
        );
    }

    /// Check (a) done: the board now shows the announced move (or the referee confirms).
    pub(crate) fn corrected(&mut self, a: Move, now: Millis, out: &mut Vec<Event>) {
        let bound = self.core.turn.bound.clone();
        let cited = ["6.4(a)", "7.5(a)"];
        self.checked(
            CheckOutcome::Corrected,
            bound.as_ref(),
            Some(a),
            &cited,
            out,
        );
        self.finish_move(a, bound.map(|b| b.by), now, out);
    }
}
