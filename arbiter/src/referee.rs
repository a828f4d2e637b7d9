//! Referee actions (監局, `docs/product.md` §10): confirm or override a check, correct a board
//! (7.4(2)(g)(iv)), record or rescind a violation (126), warn (61, 128(1)(a)), adjudicate
//! (67, 70, 71(2)), verify the result orally (6.8, 7.9), pause and resume with a sealed move
//! (103–104). The sealed move may also come from the 續着方's own seat.

use baoqi_rules::{Move, WarningKind};

use crate::article::articles;
use crate::clock;
use crate::command::{Adjudication, Command, Millis, Seat, Side, ViolationKind};
use crate::event::{CheckOutcome, Event, Outcome};
use crate::physical_board::Board;
use crate::reasons::{BoardStep, EndCause, PauseReason, Removal, ViolationReason};
use crate::rejection::{Act, Rejection};
use crate::state::Match;
use crate::turn::illegality;
use crate::view::Phase;

impl Match {
    /// `mv` if it is legal on the game board now (第5章).
    fn legal_move(&self, mv: Move) -> Result<Move, Rejection> {
        self.game
            .position()
            .check_move(mv)
            .map_err(|why| Rejection::IllegalMove {
                mv,
                why: illegality(mv, &why),
            })?;
        Ok(mv)
    }

    /// Commands for the referee (and the sealed move).
    pub(crate) fn referee(
        &mut self,
        seat: Seat,
        command: Command,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if let Command::SealMove { mv } = command {
            return self.seal(seat, mv, out, now);
        }
        if seat != Seat::Referee {
            return Err(Rejection::NotAllowed {
                seat,
                act: Act::Referee,
            });
        }
        match command {
            Command::ConfirmCheck => {
                self.playing(false)?;
                let a = self.core.turn.correction.ok_or(Rejection::NoPendingCheck)?;
                self.corrected(a, now, out);
            }
            Command::OverrideCheck { mv } => self.override_check(mv, now, out)?,
            Command::CorrectBoard { board, placement } => {
                self.correct_board(board, &placement, now, out)?;
            }
            Command::RecordViolation { side, kind, note } => {
                self.playing(true)?;
                let reason = ViolationReason::Referee { note };
                self.violation(side, kind, reason, articles(&["126"]), now, out);
            }
            Command::RescindViolation { side, kind } => self.rescind(side, kind, out)?,
            Command::IssueWarning {
                side,
                repetition,
                text,
            } => self.warn(side, repetition, text, out)?,
            Command::Adjudicate { ruling } => self.adjudicate(ruling, now, out)?,
            Command::VerifyResult { note } => {
                if self.core.phase != Phase::Over {
                    return Err(Rejection::NotOver);
                }
                self.emit(out, Event::ResultVerified { note, at: now });
            }
            Command::Pause { reason } => self.pause(reason, now, out)?,
            Command::Resume => {
                if self.core.phase != Phase::Paused {
                    return Err(Rejection::NotPaused);
                }
                self.emit(out, Event::Resumed { at: now });
                let side = self.core.turn.side;
                let clock = clock::run(&self.core.clock, side, now);
                self.emit(out, Event::Clock { clock });
            }
            _ => return Err(Rejection::NotARefereeCommand),
        }
        Ok(())
    }

    /// Pauses the game: an adjournment (103), where the side to move seals a move on its own
    /// time; or, after a server restart, with both clocks stopped at once and no seal owed
    /// (docs/decisions.md).
    pub(crate) fn pause(
        &mut self,
        reason: PauseReason,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = self.core.turn.side;
        self.emit(
            out,
            Event::Paused {
                at: now,
                side,
                reason,
            },
        );
        if reason == PauseReason::ServerRestart && self.core.clock.running.is_some() {
            let stopped = clock::stopped(&self.core.clock, now);
            self.emit(out, Event::Clock { clock: stopped });
        }
        Ok(())
    }

    /// A warning: a due 61 warning settles it (121(2)); a referee's words are a 口頭警告
    /// (128(1)(a)). A warning given as the words of a due 61 warning is that warning.
    fn warn(
        &mut self,
        side: Option<Side>,
        repetition: Option<WarningKind>,
        text: String,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if self.core.phase == Phase::NotStarted {
            return Err(Rejection::NotStarted);
        }
        let repetition = repetition.or_else(|| {
            self.core
                .due
                .iter()
                .map(|d| d.warning)
                .find(|w| w.text() == text.trim())
        });
        self.emit(
            out,
            Event::WarningIssued {
                side,
                repetition,
                text,
            },
        );
        Ok(())
    }

    /// 7.4(2)(g)(iv): the referee sets a board to a placement.
    fn correct_board(
        &mut self,
        board: crate::config::BoardId,
        placement: &str,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(true)?;
        if !self.core.boards.contains_key(&board) {
            return Err(Rejection::NoSuchBoard { board: Some(board) });
        }
        let b = Board::parse(placement, &[]).map_err(|why| Rejection::BadPlacement {
            text: placement.to_string(),
            why,
        })?;
        self.emit(
            out,
            Event::Board {
                board,
                by: Seat::Referee,
                step: BoardStep::Corrected,
                placement: b.placement(),
                hand: Vec::new(),
            },
        );
        self.refresh_boards(out);
        if let Some(a) = self.core.turn.correction
            && self.board_move() == crate::turn::BoardMove::Move(a)
        {
            self.corrected(a, now, out);
        }
        Ok(())
    }

    /// Takes the last violation of a kind off a side's tally.
    fn rescind(
        &mut self,
        side: Side,
        kind: ViolationKind,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(true)?;
        let count = self.core.tallies.get(side, kind);
        if count == 0 {
            return Err(Rejection::NothingToRescind { kind });
        }
        self.emit(
            out,
            Event::ViolationRemoved {
                side,
                kind,
                count: count - 1,
                why: Removal::Rescinded,
            },
        );
        Ok(())
    }

    fn override_check(
        &mut self,
        mv: Move,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        if self.core.turn.reannounce.is_some() {
            return Err(Rejection::MoveStands);
        }
        let m = self.legal_move(mv)?;
        let bound = self.core.turn.bound.clone();
        self.checked(
            CheckOutcome::RefereeRuling,
            bound.as_ref(),
            Some(m),
            &["6.4", "7.5"],
            out,
        );
        self.finish_move(m, Some(crate::event::Speaker::Referee), now, out);
        Ok(())
    }

    fn adjudicate(
        &mut self,
        ruling: Adjudication,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(true)?;
        match ruling {
            Adjudication::OfficialDraw => {
                if !self.config.official_draw {
                    return Err(Rejection::OfficialDrawNotAgreed);
                }
                self.end(out, Outcome::Draw, EndCause::OfficialDraw, &["67"], now);
            }
            Adjudication::Result {
                winner,
                both_lose,
                reason,
                article,
            } => {
                let outcome = match (both_lose, winner) {
                    (true, _) => Outcome::BothLose,
                    (false, Some(w)) => Outcome::win_for(w),
                    (false, None) => Outcome::Draw,
                };
                let cause = EndCause::Adjudicated { reason };
                self.end_with(out, outcome, cause, vec![article], now);
            }
        }
        Ok(())
    }

    /// 103(1)(a)-(b): the 續着方 decides a legal move on his own time; then the clock stops.
    fn seal(
        &mut self,
        seat: Seat,
        mv: Move,
        out: &mut Vec<Event>,
        now: Millis,
    ) -> Result<(), Rejection> {
        // 103: a move is sealed during an adjournment only, never after a server restart.
        if self.core.phase != Phase::Paused || self.core.paused != Some(PauseReason::Adjournment) {
            return Err(Rejection::NotPaused);
        }
        let side = self.core.turn.side;
        if seat != Seat::Referee && seat.side() != Some(side) {
            return Err(crate::turn::not_your_turn(seat));
        }
        if self.core.sealed.is_some() {
            return Err(Rejection::AlreadySealed);
        }
        let m = self.legal_move(mv)?;
        self.emit(out, Event::Sealed { side, mv: m });
        let stopped = clock::stopped(&self.core.clock, now);
        self.emit(out, Event::Clock { clock: stopped });
        Ok(())
    }
}
