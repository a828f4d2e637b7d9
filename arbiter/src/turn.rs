//! The mover's announcement before the press, word by word (6.3, 7.4(2), above all 6.3(6),
//! 7.4(2)(f)): who may speak for the side, what each word binds (頭兩字摸子走子,
//! 後兩字落子無悔), and what the acting side's own board shows.

use baoqi_grammar::{Completion, ResolveError};
use baoqi_rules::{Color, IllegalMove, Move};

use crate::command::{Card, Millis, Seat, ViolationKind};
use crate::config::EventKind;
use crate::event::{Event, Speaker};
use crate::physical_board::Diff;
use crate::reasons::{AnnouncedFor, Announcement, CardMove, Decline, Illegality, ViolationReason};
use crate::rejection::{Act, Rejection, Wait};
use crate::state::Match;

/// The refusal for a seat acting out of its turn.
pub(crate) fn not_your_turn(seat: Seat) -> Rejection {
    Rejection::NotYourTurn { side: seat.side() }
}

/// Why a designated move cannot be played, typed.
pub(crate) fn illegality(mv: Move, why: &IllegalMove) -> Illegality {
    match why {
        IllegalMove::NoPiece(point) => Illegality::NoPiece { point: *point },
        IllegalMove::NotYours(point) => Illegality::NotYours { point: *point },
        IllegalMove::Pattern { .. } => Illegality::Blocked { mv },
        IllegalMove::SelfCheck(_) => Illegality::SelfCheck { mv },
    }
}

/// Why a complete designation gives no legal move.
fn unplayable(why: &ResolveError) -> Illegality {
    match why {
        ResolveError::Illegal { mv, why } => illegality(*mv, why),
        _ => Illegality::Unresolved,
    }
}

/// What the acting side's own board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoardMove {
    /// The side operates no board: the announcement is the move.
    NoBoard,
    /// The board shows no complete move.
    Incomplete,
    /// The board shows this move.
    Move(Move),
}

impl BoardMove {
    /// The move, if the board shows one.
    pub(crate) fn mv(self) -> Option<Move> {
        match self {
            BoardMove::Move(m) => Some(m),
            _ => None,
        }
    }
}

impl Match {
    /// Whether the player announces his own moves: he can speak (7.4(2)(d)) and knows
    /// notation (6.3(7), 7.4(2)(c)).
    pub(crate) fn speaks_for_self(&self, side: Color) -> bool {
        let s = self.config.side(side);
        !s.is_deaf() && s.knows_notation
    }

    /// Whether the side to act still needs the referee or proxy to announce its move.
    pub(crate) fn needs_announcer(&self) -> bool {
        let t = &self.core.turn;
        self.config.announcing() && t.bound.is_none() && !self.speaks_for_self(t.side)
    }

    /// Why another speaks for `side` when it needs an announcer.
    pub(crate) fn announced_for(&self, side: Color) -> AnnouncedFor {
        if self.config.side(side).is_deaf() {
            AnnouncedFor::Deaf
        } else if self.config.kind == EventKind::Part7 {
            AnnouncedFor::MovesFirst
        } else {
            AnnouncedFor::RefereeFirst
        }
    }

    /// Whether another must announce only after the move is on the board: part 7 without
    /// notation (7.4(2)(c): 該方先走子) and deaf players (7.4(2)(d): 走子後示意).
    pub(crate) fn moves_first(&self, side: Color) -> bool {
        let s = self.config.side(side);
        s.is_deaf() || (self.config.kind == EventKind::Part7 && !s.knows_notation)
    }

    /// Who speaks for `side` when `seat` gives a word.
    fn speaker(&self, seat: Seat, side: Color) -> Result<Speaker, Rejection> {
        let cfg = self.config.side(side);
        let not_allowed = |act| Rejection::NotAllowed { seat, act };
        match seat {
            Seat::Referee => Ok(Speaker::Referee),
            s if s.side() != Some(side) => Err(not_your_turn(s)),
            s if s.is_proxy() && cfg.is_deaf() => Ok(Speaker::Proxy),
            s if s.is_proxy() => Err(not_allowed(Act::AnnounceAsProxy)),
            _ if cfg.is_deaf() => Err(not_allowed(Act::AnnounceForDeaf)),
            _ if !cfg.knows_notation => Err(Rejection::OutOfOrder {
                wait: Wait::RefereeFirst,
            }),
            _ => Ok(Speaker::Player),
        }
    }

    /// What the acting side's own board shows.
    pub(crate) fn board_move(&self) -> BoardMove {
        let side = self.core.turn.side;
        let Some(b) = self
            .config
            .side(side)
            .board_use()
            .board()
            .and_then(|id| self.core.boards.get(&id))
        else {
            return BoardMove::NoBoard;
        };
        match b.diff(self.game.position()) {
            Diff::Move(m) if self.game.position().turn() == side => BoardMove::Move(m),
            _ => BoardMove::Incomplete,
        }
    }

    /// Whether `seat` may give a word now, and for whom it speaks.
    fn may_announce(&self, seat: Seat) -> Result<(Color, Speaker), Rejection> {
        self.playing(false)?;
        if !self.config.announcing() {
            return Err(Rejection::NotAnnouncing);
        }
        let side = self.core.turn.side;
        let by = self.speaker(seat, side)?;
        let t = &self.core.turn;
        if t.correction.is_some() {
            return Err(Rejection::OutOfOrder {
                wait: Wait::CorrectBoard,
            });
        }
        if let Some(b) = &t.bound {
            return Err(Rejection::AnnouncementBound {
                words: b.announcement.words,
            });
        }
        if by != Speaker::Player
            && t.reannounce.is_none()
            && self.moves_first(side)
            && self.board_move() == BoardMove::Incomplete
        {
            return Err(Rejection::OutOfOrder {
                wait: Wait::MoveFirst,
            });
        }
        Ok((side, by))
    }

    /// One announced word (附表七 6.3, 7.4(2)).
    pub(crate) fn word(
        &mut self,
        seat: Seat,
        text: &str,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (side, by) = self.may_announce(seat)?;
        let t = &self.core.turn;
        let mut a = t.announcer.clone();
        let step = a.push_text(text);
        if by != Speaker::Referee
            && let (Some((p, true)), Some(q)) = (t.touched, step.touched)
            && p != q
            && let Some(piece) = self.announced_position().piece_at(p)
        {
            return Err(Rejection::TouchedPiece {
                point: p,
                kind: piece.kind,
            });
        }
        let attempt = a.log().last().map_or(0, |l| l.0);
        let mut words = if t.attempt.len() >= 4 {
            Vec::new()
        } else {
            t.attempt.clone()
        };
        words.extend(step.word);
        let next = if step.possible && step.complete.is_none() {
            a.next_words()
        } else {
            Vec::new()
        };
        self.emit(
            out,
            Event::Word {
                side,
                by,
                at: now,
                text: text.to_string(),
                word: step.word,
                attempt,
                slot: step.slot,
                possible: step.possible,
                why: step.why.clone(),
                completions: step.completions,
                next,
            },
        );
        if let Some(p) = step.touched.filter(|_| step.slot == 1 && step.possible)
            && let Some(piece) = self.announced_position().piece_at(p)
        {
            self.emit(
                out,
                Event::Touched {
                    side,
                    point: p,
                    kind: piece.kind,
                    can_move: step.touched_can_move,
                },
            );
            if by != Speaker::Referee {
                self.touch_declines(side, out);
            }
        }
        if let Some(why) = step.why {
            self.emit(out, Event::Impossible { side, words, why });
        }
        if let Some(done) = step.complete {
            self.announced(side, by, done, now, out);
        }
        Ok(())
    }

    /// The position the current announcement refers to (before the move after check (b)).
    pub(crate) fn announced_position(&self) -> &baoqi_rules::Position {
        match (&self.core.turn.reannounce, &self.core.prev) {
            (Some(_), Some(prev)) => prev,
            _ => self.game.position(),
        }
    }

    /// Four words complete: binding (後兩字落子無悔).
    fn announced(
        &mut self,
        side: Color,
        by: Speaker,
        done: Completion,
        now: Millis,
        out: &mut Vec<Event>,
    ) {
        let (designation, mv, illegal) = match done {
            Completion::Legal { designation, mv } => (designation, Some(mv), None),
            Completion::Illegal { designation, why } => (designation, None, Some(unplayable(&why))),
        };
        let words = designation.words();
        let announcement = Announcement {
            words,
            mv,
            illegal,
            from: self.core.turn.touched.map(|(p, _)| p),
        };
        self.emit(
            out,
            Event::Announced {
                side,
                by,
                announcement,
            },
        );
        if let Some((stands, stands_words)) = self.core.turn.reannounce
            && mv != Some(stands)
        {
            // 6.4(b): the move stands; a wrong re-announcement is one more 記錄違例 (126(4)).
            let reason = ViolationReason::WrongReannouncement { words, stands };
            let articles = crate::article::articles(&["6.4(b)", "126(4)"]);
            self.violation(side, ViolationKind::Recording, reason, articles, now, out);
            if self.core.phase == crate::view::Phase::Playing {
                self.emit(
                    out,
                    Event::ReannounceRequired {
                        side,
                        mv: stands,
                        words: stands_words,
                    },
                );
            }
            return;
        }
        if by == Speaker::Referee
            && !self.speaks_for_self(side)
            && !self.config.side(side).is_deaf()
        {
            let article = if self.config.kind == EventKind::Part7 {
                "7.4(2)(c)"
            } else {
                "6.3(7)"
            };
            self.emit(
                out,
                Event::RepeatDue {
                    side,
                    words,
                    mover: side,
                    article: crate::article::Article::of(article),
                    mirror: false,
                },
            );
        }
    }

    /// 69(2)(d): touching a piece without answering a standing offer declines it.
    pub(crate) fn touch_declines(&mut self, side: Color, out: &mut Vec<Event>) {
        let Some(offer) = self.core.offer.filter(|o| o.stands && o.side != side) else {
            return;
        };
        if offer.card {
            self.emit(
                out,
                Event::CardMoved {
                    owner: offer.side,
                    card: Card::Draw,
                    holder: offer.side,
                    how: CardMove::Returned,
                },
            );
        }
        self.emit(
            out,
            Event::DrawDeclined {
                side,
                how: Decline::TouchedPiece,
            },
        );
    }
}
