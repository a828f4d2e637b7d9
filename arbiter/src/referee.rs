//! Referee actions (監局, SPEC §10): confirm or override a check, correct a board
//! (7.4(2)(g)(iv)), record or rescind a violation (126), warn (61, 128(1)(a)), adjudicate
//! (67, 70, 71(2)), verify the result orally (6.8, 7.9), pause and resume with a sealed move
//! (103–104). The sealed move may also come from the 續着方's own seat.

use baoqi_rules::{Color, Move};

use crate::board::Board;
use crate::clock;
use crate::command::{Adjudication, Command, Millis, Seat};
use crate::event::{Audience, CheckOutcome, Event, Outcome};
use crate::rejection::Rejection;
use crate::state::{Match, kind_index};
use crate::view::Phase;

impl Match {
    /// The ICCS move `mv` if it is legal on the game board now (第5章).
    fn legal_move(&self, mv: &str) -> Result<Move, Rejection> {
        let m: Move = mv.parse().map_err(|e| Rejection::BadInput {
            text: mv.into(),
            why: format!("{e}"),
        })?;
        self.game
            .position()
            .check_move(m)
            .map_err(|why| Rejection::IllegalMove {
                mv: mv.into(),
                why: why.to_string(),
            })?;
        Ok(m)
    }

    /// Commands for the referee (and the sealed move).
    pub(crate) fn referee(
        &mut self,
        seat: Seat,
        command: Command,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if let Command::SealMove { mv } = &command {
            return self.seal(seat, mv, out, now);
        }
        if seat != Seat::Referee {
            return Err(Rejection::NotAllowed {
                seat,
                what: "act as the referee".into(),
            });
        }
        match command {
            Command::ConfirmCheck => {
                self.playing(false)?;
                let a = self.core.turn.correction.ok_or(Rejection::NoPendingCheck)?;
                self.corrected(a, now, out);
            }
            Command::OverrideCheck { mv } => self.override_check(&mv, now, out)?,
            Command::CorrectBoard { board, placement } => {
                self.correct_board(board, &placement, now, out)?;
            }
            Command::RecordViolation { side, kind, note } => {
                self.playing(true)?;
                let reason = if note.is_empty() {
                    "裁判記錄".to_string()
                } else {
                    note
                };
                self.violation(side.into(), kind, reason, "126", now, out);
            }
            Command::RescindViolation { side, kind } => self.rescind(side, kind, out)?,
            Command::IssueWarning { side, text } => {
                if self.core.phase == Phase::NotStarted {
                    return Err(Rejection::NotStarted);
                }
                self.emit(out, Event::WarningIssued { side, text });
            }
            Command::Adjudicate { ruling } => self.adjudicate(ruling, now, out)?,
            Command::VerifyResult { note } => {
                if self.core.phase != Phase::Over {
                    return Err(Rejection::Invalid("the game is not over".into()));
                }
                self.emit(out, Event::ResultVerified { note, at: now });
            }
            Command::Pause => {
                self.playing(false)?;
                let side = self.core.turn.side;
                self.emit(
                    out,
                    Event::Paused {
                        at: now,
                        side: side.into(),
                    },
                );
            }
            Command::Resume => {
                if self.core.phase != Phase::Paused {
                    return Err(Rejection::Invalid("the game is not paused".into()));
                }
                self.emit(out, Event::Resumed { at: now });
                let side = self.core.turn.side;
                let clock = clock::run(&self.core.clock, side, now);
                self.emit(out, Event::Clock { clock });
            }
            other => {
                return Err(Rejection::Invalid(format!(
                    "{other:?} is not a referee command"
                )));
            }
        }
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
            return Err(Rejection::NoSuchBoard {
                board: format!("{board:?}"),
            });
        }
        let b = Board::parse(placement, &[]).map_err(|why| Rejection::BadInput {
            text: placement.to_string(),
            why,
        })?;
        self.emit(
            out,
            Event::Board {
                board,
                by: Seat::Referee,
                step: "corrected".into(),
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
        side: crate::command::Side,
        kind: crate::command::ViolationKind,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(true)?;
        let c: Color = side.into();
        let count = self.core.tallies[c.index()][kind_index(kind)];
        if count == 0 {
            return Err(Rejection::NothingToRescind {
                kind: kind.chinese().into(),
            });
        }
        self.emit(
            out,
            Event::ViolationRemoved {
                side,
                kind,
                count: count - 1,
                reason: "裁判撤銷".into(),
            },
        );
        Ok(())
    }

    fn override_check(
        &mut self,
        mv: &str,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        if self.core.turn.reannounce.is_some() {
            return Err(Rejection::Invalid(
                "the move already stands; it must be announced again (6.4(b))".into(),
            ));
        }
        let m = self.legal_move(mv)?;
        let side = self.core.turn.side;
        self.emit(
            out,
            Event::Checked {
                side: side.into(),
                outcome: CheckOutcome::RefereeRuling,
                announced: self.core.turn.bound.as_ref().map(|b| b.words.clone()),
                board_move: Some(m.to_string()),
                consequence: "監局裁判裁定此着成立".into(),
                article: "6.4, 7.5".into(),
            },
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
                self.end(out, Outcome::Draw, "官和".into(), "67", now);
            }
            Adjudication::Result {
                winner,
                both_lose,
                reason,
                article,
            } => {
                let outcome = match (both_lose, winner) {
                    (true, _) => Outcome::BothLose,
                    (false, Some(w)) => Outcome::win_for(w.into()),
                    (false, None) => Outcome::Draw,
                };
                self.end(out, outcome, reason, &article, now);
            }
        }
        Ok(())
    }

    /// 103(1)(a)-(b): the 續着方 decides a legal move on his own time; then the clock stops.
    fn seal(
        &mut self,
        seat: Seat,
        mv: &str,
        out: &mut Vec<Event>,
        now: Millis,
    ) -> Result<(), Rejection> {
        if self.core.phase != Phase::Paused {
            return Err(Rejection::Invalid(
                "a move is sealed only during a pause (103)".into(),
            ));
        }
        let side = self.core.turn.side;
        if seat != Seat::Referee && seat.side() != Some(side) {
            return Err(crate::turn::not_your_turn(seat));
        }
        if self.core.sealed.is_some() {
            return Err(Rejection::Invalid("the move is already sealed".into()));
        }
        let m = self.legal_move(mv)?;
        self.emit(
            out,
            Event::Sealed {
                side: side.into(),
                mv: m.to_string(),
                audience: Audience::Referee,
            },
        );
        let stopped = clock::stopped(&self.core.clock, now);
        self.emit(out, Event::Clock { clock: stopped });
        Ok(())
    }
}
