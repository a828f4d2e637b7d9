//! [`Match::fold`], the only place that changes a match: every change is an [`Event`], so
//! folding the event log rebuilds the match exactly. Split by the part of the state touched.

use baoqi_grammar::{Announcer, Mode, Word, parse_words};
use baoqi_rules::{Color, Move, Point};

use crate::board::Board;
use crate::command::ViolationKind;
use crate::event::{Event, Speaker};
use crate::state::{
    Bound, CheckNote, DueWarning, Match, RepeatDue, Turn, card_index, kind_index, material,
};
use crate::view::{LoggedWord, Phase, ResultView, SheetMove};

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
            // The sealed move is spent once played (104(b)).
            self.core.sealed = None;
        }
    }

    /// The clock, the turn, the phase and the result.
    fn fold_time(&mut self, e: &Event) -> bool {
        let c = &mut self.core;
        match e {
            Event::Started { clock, .. } => {
                c.phase = Phase::Playing;
                c.clock = *clock;
                for side in Color::ALL {
                    let left = crate::clock::stored(clock, side);
                    c.alerted[side.index()] = self
                        .config
                        .alert_thresholds(side)
                        .into_iter()
                        .map(|(t, _)| t)
                        .filter(|&t| t >= left)
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
                let side: Color = (*side).into();
                let start = crate::clock::stored(&c.clock, side);
                c.turn = Turn::new(side, *ply, self.game.position(), start);
            }
            Event::TimeAlert {
                side, threshold_ms, ..
            } => {
                c.alerted[Color::from(*side).index()].insert(*threshold_ms);
            }
            Event::Paused { .. } => {
                c.phase = Phase::Paused;
                c.sealed = None;
            }
            Event::Sealed { mv, .. } => c.sealed = mv.parse().ok(),
            Event::Resumed { .. } => c.phase = Phase::Playing,
            Event::GameOver {
                outcome,
                result,
                reason,
                article,
                at,
            } => {
                c.phase = Phase::Over;
                c.offer = None;
                c.result = Some(ResultView {
                    outcome: *outcome,
                    result: result.clone(),
                    reason: reason.clone(),
                    article: article.clone(),
                    at: *at,
                });
                if article == "67" {
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
                possible,
                ..
            } => {
                let t = &mut c.turn;
                if t.attempt.len() >= 4 {
                    t.attempt.clear();
                }
                t.announcer.push_text(text);
                t.attempt.push(text.clone());
                c.log.push(LoggedWord {
                    ply: t.ply,
                    side: *side,
                    by: *by,
                    at: *at,
                    text: text.clone(),
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
                if let (Ok(p), true) = (point.parse::<Point>(), Color::from(*side) == c.turn.side) {
                    c.turn.touched = Some((p, *can_move));
                }
            }
            Event::Impossible { .. } => c.turn.attempt.clear(),
            Event::Announced {
                by,
                words,
                mv,
                point,
                ..
            } => {
                c.turn.bound = Some(Bound {
                    words: words.clone(),
                    by: *by,
                    mv: mv.as_deref().and_then(|m| m.parse().ok()),
                    point: point.as_deref().and_then(|p| p.parse().ok()),
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
                placement,
                hand,
                ..
            } => {
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
                if let Ok(m) = mv.iccs.parse::<Move>() {
                    let before = self.game.position().clone();
                    if let Ok(review) = self.game.play(m) {
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
            }
            Event::RestoreRequired { mv, .. } => {
                let t = &mut c.turn;
                t.restore = mv.as_deref().and_then(|m| m.parse().ok());
                t.bound = None;
                t.touched = None;
                t.attempt.clear();
                t.signalled = false;
                t.announcer = Announcer::new(self.game.position(), Mode::Strict);
                self.clear_restore();
            }
            Event::CorrectionRequired { mv, .. } => c.turn.correction = mv.parse().ok(),
            Event::ReannounceRequired { mv, .. } => {
                if let Some(prev) = &c.prev {
                    let t = &mut c.turn;
                    t.reannounce = mv.parse().ok();
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
                let side: Color = (*side).into();
                c.tallies[side.index()][kind_index(*kind)] = *count;
                if side == c.turn.side && *counted {
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
                let side: Color = (*side).into();
                c.tallies[side.index()][kind_index(*kind)] = *count;
                if side == c.turn.side && *kind == ViolationKind::Clock {
                    c.turn.clock_violations = c.turn.clock_violations.saturating_sub(1);
                }
            }
            Event::DrawOffered { side, card } => {
                c.offer = Some(((*side).into(), false, *card));
                c.turn.offered = true;
            }
            Event::DrawOfferStands { .. } => {
                if let Some(o) = &mut c.offer {
                    o.1 = true;
                }
            }
            Event::DrawDeclined { side, .. } => {
                let decliner: Color = (*side).into();
                c.offer = None;
                c.offer_guard[decliner.other().index()] =
                    Some(material(self.game.position(), decliner));
                c.offer_guard[decliner.index()] = None;
            }
            Event::CardMoved {
                owner,
                card,
                holder,
                ..
            } => {
                c.cards[Color::from(*owner).index()][card_index(*card)] = (*holder).into();
            }
            Event::RepetitionWarning {
                ply,
                article,
                text,
                warned,
            } => {
                c.due.push(DueWarning {
                    ply: *ply,
                    article: article.clone(),
                    text: text.clone(),
                    warned: warned.clone(),
                });
            }
            Event::WarningIssued { text, .. } => {
                // 121(2): the warning given settles the oldest due one whose words it says.
                if let Some(i) = c.due.iter().position(|d| text.contains(&d.text)) {
                    c.due.remove(i);
                }
                c.notes.push(text.clone());
            }
            Event::Checked {
                outcome,
                announced,
                board_move,
                ..
            } => {
                c.last_check = Some(CheckNote {
                    outcome: *outcome,
                    announced: announced.clone(),
                    board_move: board_move.clone(),
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
            Event::RepeatDue { side, words, .. } => {
                let side: Color = (*side).into();
                let mirror = side != c.turn.side || c.turn.bound.is_none();
                let pos = if mirror {
                    c.prev.clone()
                } else {
                    Some(self.game.position().clone())
                };
                if let Some(pos) = pos {
                    let ws = parse_words(words);
                    let mv = <[Word; 4]>::try_from(ws.clone())
                        .ok()
                        .and_then(baoqi_grammar::Designation::from_words)
                        .and_then(|d| d.resolve_with(&pos, Mode::Lenient).ok());
                    c.repeats.push(RepeatDue {
                        side,
                        text: words.clone(),
                        pos,
                        words: ws,
                        mv,
                        got: Vec::new(),
                        mirror,
                    });
                }
            }
            Event::Repeated {
                side,
                at,
                text,
                done,
                mismatch,
            } => {
                let side: Color = (*side).into();
                if let Some(i) = c.repeats.iter().position(|r| r.side == side) {
                    let r = &mut c.repeats[i];
                    if *done {
                        c.repeats.remove(i);
                    } else if *mismatch {
                        r.got.clear();
                    } else if let Some(w) = baoqi_grammar::parse_word(text, r.got.len()) {
                        r.got.push(w);
                    }
                }
                if !text.is_empty() {
                    c.log.push(LoggedWord {
                        ply: c.turn.ply,
                        side: side.into(),
                        by: Speaker::Player,
                        at: *at,
                        text: text.clone(),
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
