//! The clock press and 走子檢查 (6.3(3), 6.4, 7.5; SPEC §6): the press is refused as a
//! 按鐘違規 while the move or the announcement is incomplete; otherwise the announcement is
//! compared with the board at once, with outcomes (a), (b), (c), their time consequences and
//! the violation tallies of 126–127.

use baoqi_rules::Move;

use crate::clock;
use crate::command::{Millis, Seat, ViolationKind};
use crate::event::{CheckOutcome, Event, RefereeCall, Speaker};
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
        let announcing = self.config.announcing();
        if !announcing && board_move == BoardMove::NoBoard {
            return Err(Rejection::Invalid(
                "no board and no announcement: nothing to press for".into(),
            ));
        }
        self.emit(
            out,
            Event::Pressed {
                side: side.into(),
                by: seat,
                at: now,
            },
        );
        let t = &self.core.turn;
        let bound = t.bound.clone();
        if let Some(m) = t.reannounce {
            if bound.as_ref().and_then(|b| b.mv) == Some(m) {
                let after = self.pressed_clock(now);
                self.end_turn(after, out);
            } else {
                self.clock_violation(side, "重新報棋未完成 (6.4(b))", now, out);
            }
            return Ok(());
        }
        if t.correction.is_some() {
            self.clock_violation(side, "棋盤仍未修正至報棋 (6.4(a))", now, out);
            return Ok(());
        }
        let mut missing = Vec::new();
        if board_move == BoardMove::Incomplete {
            missing.push("走子");
        }
        if announcing && bound.is_none() {
            missing.push("報棋");
        }
        if self.core.repeats.iter().any(|r| r.side == side) {
            missing.push("複讀");
        }
        if !missing.is_empty() {
            let why = format!("{}未完成便按鐘 (6.3(3), 7.4(2)(b))", missing.join("及"));
            self.clock_violation(side, &why, now, out);
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
        let words = bound.as_ref().map(|b| b.words.clone());
        let played = board.or(bound.as_ref().and_then(|b| b.mv));
        if let (Some(sealed), Some(m)) = (self.core.sealed, played)
            && sealed != m
        {
            // 125: the 續着方 must play the sealed move.
            let text = "走子與續着記錄不符：回復盤面，須走繼續着法";
            self.checked(
                CheckOutcome::SealedMoveBroken,
                words,
                board,
                text,
                "125",
                out,
            );
            self.technical(format!("不走繼續着法 {sealed}"), "125", now, out);
            self.restore(board, out);
            return;
        }
        match (bound, board) {
            (bound, None) => {
                // No board: the announcement is the move.
                let by = bound.as_ref().map(|b| b.by);
                match bound.and_then(|b| b.mv) {
                    Some(a) => {
                        self.checked(
                            CheckOutcome::Agree,
                            words,
                            None,
                            "報棋為合法着法",
                            "6.4",
                            out,
                        );
                        self.finish_move(a, by, now, out);
                    }
                    None => self.outcome_c(words, None, now, out),
                }
            }
            (None, Some(m)) => self.board_only(m, now, out),
            (Some(b), Some(m)) if b.by == Speaker::Referee => {
                if self.game.position().is_legal(m) {
                    let text = "由監局裁判報棋，以走子為準";
                    self.checked(
                        CheckOutcome::BoardGoverns,
                        words,
                        Some(m),
                        text,
                        "7.4(2)(f)(iii)",
                        out,
                    );
                    self.finish_move(m, Some(b.by), now, out);
                } else {
                    self.outcome_c(words, Some(m), now, out);
                }
            }
            (Some(b), Some(m)) => self.against_board(&b, m, now, out),
        }
    }

    /// No announcement required: the board move is checked for legality alone.
    fn board_only(&mut self, m: Move, now: Millis, out: &mut Vec<Event>) {
        if self.game.position().is_legal(m) {
            self.checked(
                CheckOutcome::BoardOnly,
                None,
                Some(m),
                "走子合法",
                "30",
                out,
            );
            self.finish_move(m, None, now, out);
        } else {
            let text = "非法走子，須回復 (37(2)(f))";
            self.checked(
                CheckOutcome::BoardOnly,
                None,
                Some(m),
                text,
                "37(2)(f)",
                out,
            );
            self.restore(Some(m), out);
        }
    }

    /// The player's (or proxy's) binding announcement against the board move: 6.4(a)-(c).
    fn against_board(&mut self, b: &Bound, m: Move, now: Millis, out: &mut Vec<Event>) {
        let words = Some(b.words.clone());
        let side = self.core.turn.side;
        let legal = self.game.position().is_legal(m);
        match b.mv {
            Some(a) if a == m => {
                self.checked(
                    CheckOutcome::Agree,
                    words,
                    Some(m),
                    "報棋與走子吻合",
                    "6.4, 7.5",
                    out,
                );
                self.finish_move(m, Some(b.by), now, out);
            }
            Some(a) => {
                let text = "報棋合法而走子不同：以該賽員之用時修正至跟報棋一致";
                self.checked(CheckOutcome::A, words, Some(m), text, "6.4(a), 7.5(a)", out);
                self.emit(
                    out,
                    Event::CorrectionRequired {
                        side: side.into(),
                        mv: a.to_string(),
                    },
                );
                let text = format!("{}方須把棋盤修正為 {}", side.chinese(), b.words);
                self.emit(
                    out,
                    Event::RefereeNeeded {
                        call: RefereeCall::CorrectionPending,
                        text,
                    },
                );
            }
            None if legal && b.point == Some(m.from) => {
                let text = "報棋非法而走子為所報子的合法着法：以走子為準，重新報棋，記錄違例";
                self.checked(CheckOutcome::B, words, Some(m), text, "6.4(b), 7.5(b)", out);
                let clock_ms = clock::remaining(&self.core.clock, side, now);
                self.play_move(m, Some(b.by), clock_ms, now, out);
                if self.core.phase != Phase::Over {
                    let why = format!("報棋「{}」非法", b.words);
                    self.violation(
                        side,
                        ViolationKind::Recording,
                        why,
                        "6.4(b), 126(1)(b)",
                        now,
                        out,
                    );
                }
                if self.core.phase != Phase::Over {
                    self.emit(
                        out,
                        Event::ReannounceRequired {
                            side: side.into(),
                            mv: m.to_string(),
                        },
                    );
                }
            }
            None => self.outcome_c(words, Some(m), now, out),
        }
    }

    /// Check (c): restore, another piece may be moved, one 技術犯規.
    fn outcome_c(
        &mut self,
        words: Option<String>,
        board: Option<Move>,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        self.checked(
            CheckOutcome::C,
            words.clone(),
            board,
            "報棋非法，走子非所報子或同為非法着法：回復盤面，可改走別子，記技術犯規",
            "6.4(c), 7.5(c)",
            out,
        );
        self.technical(
            format!("報棋「{}」非法", words.unwrap_or_default()),
            "6.4(c), 126(1)(c)",
            now,
            out,
        );
        self.restore(board, out);
    }

    fn restore(&mut self, board: Option<Move>, out: &mut Vec<Event>) {
        if self.core.phase == Phase::Over {
            return;
        }
        let side = self.core.turn.side;
        self.emit(
            out,
            Event::RestoreRequired {
                side: side.into(),
                mv: board.map(|m| m.to_string()),
            },
        );
    }

    fn technical(&mut self, reason: String, article: &str, now: Millis, out: &mut Vec<Event>) {
        let side = self.core.turn.side;
        self.violation(side, ViolationKind::Technical, reason, article, now, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn checked(
        &mut self,
        outcome: CheckOutcome,
        announced: Option<String>,
        board: Option<Move>,
        consequence: &str,
        article: &str,
        out: &mut Vec<Event>,
    ) {
        let side = self.core.turn.side;
        self.emit(
            out,
            Event::Checked {
                side: side.into(),
                outcome,
                announced,
                board_move: board.map(|m| m.to_string()),
                consequence: consequence.into(),
                article: article.into(),
            },
        );
    }

    /// Check (a) done: the board now shows the announced move (or the referee confirms).
    pub(crate) fn corrected(&mut self, a: Move, now: Millis, out: &mut Vec<Event>) {
        let side = self.core.turn.side;
        let by = self.core.turn.bound.as_ref().map(|b| b.by);
        self.emit(
            out,
            Event::Checked {
                side: side.into(),
                outcome: CheckOutcome::Agree,
                announced: self.core.turn.bound.as_ref().map(|b| b.words.clone()),
                board_move: Some(a.to_string()),
                consequence: "棋盤已修正至報棋".into(),
                article: "6.4(a), 7.5(a)".into(),
            },
        );
        self.finish_move(a, by, now, out);
    }
}
