//! The mover's actions before the press: announcement words (SPEC §5, 6.3(6), 7.4(2)(f)),
//! repeats (6.3(7), 7.4(2)(c), 7.4(2)(g)(ii)), the deaf player's signal (7.4(2)(d)) and the
//! board steps with divergence tracking (SPEC §8).

use baoqi_grammar::{Completion, Designation, Mode, Word, parse_word};
use baoqi_rules::{Color, Move};

use crate::board::Diff;
use crate::command::{Millis, Seat};
use crate::config::EventKind;
use crate::event::{Event, RefereeCall, Speaker};
use crate::rejection::Rejection;
use crate::render::{side_name, word_view};
use crate::state::Match;

/// Why another speaks a side's move for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnnouncedFor {
    /// A deaf player moves, signals, and the referee or his proxy announces (7.4(2)(d)).
    Deaf,
    /// 共融賽 without notation: the player moves first, the referee announces, the player
    /// repeats (7.4(2)(c)).
    MovesFirst,
    /// 視障賽 without notation: the referee announces first, the player repeats (6.3(7)).
    RefereeFirst,
}

/// The refusal for a seat acting out of its turn.
pub(crate) fn not_your_turn(seat: Seat) -> Rejection {
    Rejection::NotYourTurn {
        side: seat.side().map_or("the referee".into(), side_name),
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
        match seat {
            Seat::Referee => Ok(Speaker::Referee),
            s if s.side() != Some(side) => Err(not_your_turn(s)),
            s if s.is_proxy() => {
                if cfg.is_deaf() {
                    Ok(Speaker::Proxy)
                } else {
                    Err(Rejection::NotAllowed {
                        seat,
                        what: "announce: a proxy announces only for a player who cannot (7.4(2)(d)(ii))"
                            .into(),
                    })
                }
            }
            _ if cfg.is_deaf() => Err(Rejection::NotAllowed {
                seat,
                what: "announce: the referee or the proxy announces after the signal (7.4(2)(d))"
                    .into(),
            }),
            _ if !cfg.knows_notation => Err(Rejection::OutOfOrder {
                why: "the referee announces, then the player repeats (6.3(7), 7.4(2)(c))".into(),
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
            return Err(Rejection::Invalid(
                "moves are not announced in this game (7.4(2)(a), 7.4(3)(a))".into(),
            ));
        }
        let side = self.core.turn.side;
        let by = self.speaker(seat, side)?;
        let t = &self.core.turn;
        if t.correction.is_some() {
            return Err(Rejection::OutOfOrder {
                why: "the announcement is binding: the board must be corrected (6.4(a))".into(),
            });
        }
        if let Some(b) = &t.bound {
            return Err(Rejection::AnnouncementBound {
                words: b.words.clone(),
            });
        }
        if by != Speaker::Player
            && t.reannounce.is_none()
            && self.moves_first(side)
            && self.board_move() == BoardMove::Incomplete
        {
            return Err(Rejection::OutOfOrder {
                why: "the player moves first, then the move is announced (7.4(2)(c)-(d))".into(),
            });
        }
        Ok((side, by))
    }

    /// One announced word (SPEC §5).
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
        {
            let piece = self.announced_position().piece_at(p);
            return Err(Rejection::TouchedPiece {
                touched: format!("{}{p}", piece.map_or('?', baoqi_rules::Piece::chinese)),
            });
        }
        let attempt = a.log().last().map_or(0, |l| l.0);
        let mut words = t.attempt.clone();
        if words.len() >= 4 {
            words.clear();
        }
        words.push(text.to_string());
        let next = if step.possible && step.complete.is_none() {
            a.next_words()
                .into_iter()
                .map(|w| word_view(w, side).display)
                .collect()
        } else {
            Vec::new()
        };
        self.emit(
            out,
            Event::Word {
                side: side.into(),
                by,
                at: now,
                text: text.to_string(),
                word: step.word.map(|w| word_view(w, side)),
                cmn: step
                    .word
                    .map(|w| crate::render::word_in(w, side, baoqi_grammar::speech::Lang::Cmn)),
                attempt,
                slot: step.slot,
                possible: step.possible,
                why: step.why.clone(),
                completions: step.completions,
                next,
            },
        );
        if let Some(p) = step.touched.filter(|_| step.slot == 1 && step.possible) {
            let piece = self.announced_position().piece_at(p);
            self.emit(
                out,
                Event::Touched {
                    side: side.into(),
                    point: p.to_string(),
                    piece: piece.map(|x| x.chinese().to_string()).unwrap_or_default(),
                    can_move: step.touched_can_move,
                },
            );
            if by != Speaker::Referee {
                self.touch_declines(side, out);
            }
        }
        if !step.possible {
            self.emit(
                out,
                Event::Impossible {
                    side: side.into(),
                    words: words.concat(),
                    why: step.why.clone(),
                },
            );
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
            Completion::Illegal { designation, why } => (designation, None, Some(why.to_string())),
        };
        let words = designation.text(side);
        let point = self.core.turn.touched.map(|(p, _)| p.to_string());
        self.emit(
            out,
            Event::Announced {
                side: side.into(),
                by,
                words: words.clone(),
                mv: mv.map(|m| m.to_string()),
                illegal,
                point,
            },
        );
        if let Some(expected) = self.core.turn.reannounce
            && mv != Some(expected)
        {
            // 6.4(b): the move stands; a wrong re-announcement is one more 記錄違例 (126(4)).
            self.violation(
                side,
                crate::command::ViolationKind::Recording,
                format!("重新報棋「{words}」與走子 {expected} 不符"),
                "6.4(b), 126(4)",
                now,
                out,
            );
            if self.core.phase == crate::view::Phase::Playing {
                self.emit(
                    out,
                    Event::ReannounceRequired {
                        side: side.into(),
                        mv: expected.to_string(),
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
                    side: side.into(),
                    words,
                    article: article.into(),
                    mirror: false,
                },
            );
        }
    }

    /// 69(2)(d): touching a piece without answering a standing offer declines it.
    pub(crate) fn touch_declines(&mut self, side: Color, out: &mut Vec<Event>) {
        if let Some((by, true, card)) = self.core.offer
            && by != side
        {
            if card {
                self.emit(
                    out,
                    Event::CardMoved {
                        owner: by.into(),
                        card: crate::command::Card::Draw,
                        holder: by.into(),
                        how: "returned".into(),
                    },
                );
            }
            self.emit(
                out,
                Event::DrawDeclined {
                    side: side.into(),
                    how: "touched a piece (69(2)(d))".into(),
                },
            );
        }
    }

    /// A repeat word, or (`None`) a card-UI confirmation of a mirrored announcement.
    pub(crate) fn repeat_word(
        &mut self,
        seat: Seat,
        text: Option<&str>,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = seat.side().ok_or(Rejection::NotAllowed {
            seat,
            what: "repeat: the players repeat (6.3(7), 7.4(2)(g)(ii))".into(),
        })?;
        let r = self
            .core
            .repeats
            .iter()
            .find(|r| r.side == side)
            .ok_or(Rejection::NothingToRepeat)?;
        let (done, mismatch, text) = match text {
            None if r.mirror => (true, false, String::new()),
            None => {
                return Err(Rejection::NotAllowed {
                    seat,
                    what: "confirm: the referee's words are repeated aloud (6.3(7))".into(),
                });
            }
            Some(t) => match parse_word(t, r.got.len()) {
                None => (false, true, t.to_string()),
                // A different form may name the same move: judged on the fourth word.
                Some(_) if r.got.len() < 3 => (false, false, t.to_string()),
                Some(w) => {
                    let mut got = r.got.clone();
                    got.push(w);
                    let same = got == r.words || names_same_move(&got, r);
                    (same, !same, t.to_string())
                }
            },
        };
        self.emit(
            out,
            Event::Repeated {
                side: side.into(),
                at: now,
                text,
                done,
                mismatch,
            },
        );
        Ok(())
    }

    /// 7.4(2)(d): the deaf player signals that the move is made.
    pub(crate) fn signal(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), Rejection> {
        self.playing(false)?;
        let side = self.core.turn.side;
        if seat.side() != Some(side) {
            return Err(crate::turn::not_your_turn(seat));
        }
        self.emit(out, Event::Signalled { side: side.into() });
        let who = if self.config.side(side).proxy.is_some() {
            "代理"
        } else {
            "監局裁判"
        };
        self.emit(
            out,
            Event::RefereeNeeded {
                call: RefereeCall::AnnounceFor,
                text: format!("{}已走子示意，請{who}代為報棋 (7.4(2)(d))", side_name(side)),
            },
        );
        Ok(())
    }
}

/// Whether repeat words name the same move as the words to repeat (another correct form).
fn names_same_move(got: &[Word], r: &crate::state::RepeatDue) -> bool {
    let Ok(ws) = <[Word; 4]>::try_from(got.to_vec()) else {
        return false;
    };
    r.mv.is_some()
        && Designation::from_words(ws).and_then(|d| d.resolve_with(&r.pos, Mode::Lenient).ok())
            == r.mv
}
