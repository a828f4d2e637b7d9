//! [`Match::fold`], the only place that changes a match: every change is an [`Event`], so
//! folding the event log rebuilds the match exactly. Split by the part of the state touched.

use baoqi_grammar::{Announcer, Designation, Mode};
use baoqi_rules::Color;

use crate::command::ViolationKind;
use crate::event::{Event, Speaker};
use crate::physical_board::Board;
use crate::reasons::{BoardStep, EndCause};
use crate::state::{Bound, CheckNote, DueWarning, Match, RepeatDue, Turn, material};
use crate::view::{LoggedWord, OfferView, Phase, ResultView, SheetMove};

impl Match {
    /// Applies one event to the state. Events come from [`Match::apply`] (which folds each as
    /// it emits it) or from a stored log; events that do not fit are ignored.
    pub(crate) fn fold(&mut self, e: &Event) {
        let _ = self.fold_time(e)
            || self.fold_words(e)
            || self.fold_repeats(e)
            || self.fold_board(e)
            || self.fold_record(e);
        if let Event::Moved { .. } = e {
            // The sealed move is spent once played (104(b)); a move the game took is no
            // longer taken back on a board.
            self.core.sealed = None;
            self.core.takeable.clear();
        }
    }

    /// The clock, the turn, the phase and the result.
    fn fold_time(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::Started { clock, at } => {
                c.phase = Phase::Playing;
                c.clock = *clock;
                c.started_at = Some(*at);
                for side in Color::ALL {
                    let left = crate::clock::stored(clock, side);
                    c.alerted[side.index()] = self.alerts[side.index()]
                        .iter()
                        .map(|&(t, _)| t)
                        .take_while(|&t| t >= left)
                        .collect();
                }
            }
            Event::Clock { clock } => {
                c.clock = *clock;
                for side in Color::ALL {
                    let left = crate::clock::stored(clock, side);
                    c.alerted[side.index()].retain(|&t| t >= left);
                }
            }
            Event::Turn { side, ply } => {
                let start = crate::clock::stored(&c.clock, *side);
                c.turn = Turn::new(*side, *ply, self.game.position(), start);
            }
            Event::TimeAlert {
                side, threshold_ms, ..
            } => {
                c.alerted[side.index()].insert(*threshold_ms);
            }
            Event::Paused { reason, .. } => {
                c.phase = Phase::Paused;
                c.paused = Some(*reason);
                c.sealed = None;
            }
            Event::Sealed { mv, .. } => c.sealed = Some(*mv),
            Event::Resumed { .. } => {
                c.phase = Phase::Playing;
                c.paused = None;
            }
            Event::GameOver {
                outcome,
                cause,
                articles,
                at,
            } => {
                c.phase = Phase::Over;
                c.paused = None;
                c.offer = None;
                c.result = Some(ResultView {
                    outcome: *outcome,
                    cause: cause.clone(),
                    articles: articles.clone(),
                    at: *at,
                });
                if *cause == EndCause::OfficialDraw {
                    let _ = self.game.official_draw();
                }
            }
            Event::ResultVerified { note, .. } => c.verified = Some(note.clone()),
            _ => return false,
        }
        true
    }

    /// The announcement and the repeats.
    fn fold_words(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::Word {
                side,
                by,
                at,
                text,
                word,
                possible,
                ..
            } => {
                let t = &mut c.turn;
                if t.attempt.len() >= 4 {
                    t.attempt.clear();
                }
                t.announcer.push_text(text);
                t.attempt.extend(*word);
                c.log.push(LoggedWord {
                    ply: t.ply,
                    side: *side,
                    by: *by,
                    at: *at,
                    text: text.clone(),
                    word: *word,
                    possible: *possible,
                    repeat: false,
                });
            }
            Event::Touched {
                side,
                point,
                can_move,
                ..
            } => {
                if *side == c.turn.side {
                    c.turn.touched = Some((*point, *can_move));
                }
            }
            Event::Impossible { .. } => c.turn.attempt.clear(),
            Event::Announced {
                by, announcement, ..
            } => {
                c.turn.bound = Some(Bound {
                    announcement: announcement.clone(),
                    by: *by,
                });
            }
            Event::Signalled { .. } => c.turn.signalled = true,
            _ => return false,
        }
        true
    }

    /// The boards and the game record.
    fn fold_board(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::Board {
                board,
                step,
                placement,
                hand,
                ..
            } => {
                note_takeable(c, *board, *step);
                if let Ok(b) = Board::parse(placement, hand) {
                    c.boards.insert(*board, b);
                }
                self.clear_restore();
            }
            Event::BoardDiverges { board, .. } => {
                c.diverging.insert(*board);
            }
            Event::BoardAgrees { board } => {
                c.diverging.remove(board);
            }
            Event::Moved {
                side,
                ply,
                mv,
                clock_ms,
                ..
            } => {
                let before = self.game.position().clone();
                if let Ok(review) = self.game.play(mv.iccs) {
                    self.last_review = Some(review);
                    c.prev = Some(before);
                    c.sheet.push(SheetMove {
                        ply: *ply,
                        side: *side,
                        mv: mv.clone(),
                        draw_offer: c.turn.offered,
                        clock_ms: *clock_ms,
                    });
                    c.turn.bound = None;
                    c.turn.correction = None;
                    c.turn.restore = None;
                }
            }
            Event::RestoreRequired { mv, .. } => {
                let t = &mut c.turn;
                t.restore = *mv;
                t.bound = None;
                t.touched = None;
                t.attempt.clear();
                t.signalled = false;
                t.announcer = Announcer::new(self.game.position(), Mode::Strict);
                self.clear_restore();
            }
            Event::CorrectionRequired { mv, .. } => c.turn.correction = Some(*mv),
            Event::ReannounceRequired { mv, words, .. } => {
                if let Some(prev) = &c.prev {
                    let t = &mut c.turn;
                    t.reannounce = Some((*mv, *words));
                    t.bound = None;
                    t.attempt.clear();
                    t.announcer = Announcer::new(prev, Mode::Strict);
                }
            }
            _ => return false,
        }
        true
    }

    /// Violations, offers, cards and warnings.
    fn fold_record(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::Violation {
                side,
                kind,
                counted,
                count,
                ..
            } => {
                c.tallies.set(*side, *kind, *count);
                if *side == c.turn.side && *counted {
                    match kind {
                        ViolationKind::Technical => c.turn.technical = true,
                        ViolationKind::Clock => c.turn.clock_violations += 1,
                        ViolationKind::Recording => {}
                    }
                }
            }
            Event::ViolationRemoved {
                side, kind, count, ..
            } => {
                c.tallies.set(*side, *kind, *count);
                if *side == c.turn.side && *kind == ViolationKind::Clock {
                    c.turn.clock_violations = c.turn.clock_violations.saturating_sub(1);
                }
            }
            Event::DrawOffered { side, card } => {
                c.offer = Some(OfferView {
                    side: *side,
                    stands: false,
                    card: *card,
                });
                c.turn.offered = true;
            }
            Event::DrawOfferStands { .. } => {
                if let Some(o) = &mut c.offer {
                    o.stands = true;
                }
            }
            Event::DrawDeclined { side, .. } => {
                c.offer = None;
                c.offer_guard[side.other().index()] = Some(material(self.game.position(), *side));
                c.offer_guard[side.index()] = None;
            }
            Event::CardMoved {
                owner,
                card,
                holder,
                ..
            } => c.cards.give(*owner, *card, *holder),
            Event::RepetitionWarning {
                ply,
                warning,
                article,
                warned,
            } => c.due.push(DueWarning {
                ply: *ply,
                warning: *warning,
                article: article.clone(),
                warned: warned.clone(),
            }),
            Event::WarningIssued {
                repetition, text, ..
            } => {
                // 121(2): the 61 warning given settles the oldest due one of its kind.
                if let Some(i) = repetition.and_then(|w| c.due.iter().position(|d| d.warning == w))
                {
                    c.due.remove(i);
                }
                c.notes.push(text.clone());
            }
            Event::Checked {
                outcome, finding, ..
            } => {
                c.last_check = Some(CheckNote {
                    outcome: *outcome,
                    finding: finding.clone(),
                });
            }
            _ => return false,
        }
        true
    }

    /// The repeats owed (6.3(7), 7.4(2)(c), 7.4(2)(g)(ii)).
    fn fold_repeats(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::RepeatDue {
                side,
                words,
                mover,
                mirror,
                ..
            } => {
                let pos = if *mirror {
                    c.prev.clone()
                } else {
                    Some(self.game.position().clone())
                };
                if let Some(pos) = pos {
                    let mv = Designation::from_words(*words)
                        .and_then(|d| d.resolve_with(&pos, Mode::Lenient).ok());
                    c.repeats.push(RepeatDue {
                        side: *side,
                        words: *words,
                        mover: *mover,
                        pos,
                        mv,
                        got: Vec::new(),
                        mirror: *mirror,
                    });
                }
            }
            Event::Repeated {
                side,
                at,
                text,
                word,
                done,
                mismatch,
            } => {
                if let Some(i) = c.repeats.iter().position(|r| r.side == *side) {
                    let r = &mut c.repeats[i];
                    if *done {
                        c.repeats.remove(i);
                    } else if *mismatch {
                        r.got.clear();
                    } else if let Some(w) = word {
                        r.got.push(*w);
                    }
                }
                if !text.is_empty() {
                    c.log.push(LoggedWord {
                        ply: c.turn.ply,
                        side: *side,
                        by: Speaker::Player,
                        at: *at,
                        text: text.clone(),
                        word: *word,
                        possible: !*mismatch,
                        repeat: true,
                    });
                }
            }
            _ => return false,
        }
        true
    }
}

/// Before a board step is folded: a move is remembered with the piece it takes (what stood
/// on its destination), unless it is itself the take-back of the move remembered; any other
/// step ends what may be taken back.
fn note_takeable(c: &mut crate::state::Core, board: crate::config::BoardId, step: BoardStep) {
    let BoardStep::Move { mv } = step else {
        c.takeable.remove(&board);
        return;
    };
    let undoes = c
        .takeable
        .get(&board)
        .is_some_and(|(last, _)| mv == baoqi_rules::Move::new(last.to, last.from));
    if undoes {
        c.takeable.remove(&board);
    } else {
        let taken = c.boards.get(&board).and_then(|b| b.piece_at(mv.to));
        c.takeable.insert(board, (mv, taken));
    }
}
