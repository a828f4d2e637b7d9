//! Repeats and the deaf player's signal: the opponent's move repeated to mirror it
//! (7.4(2)(g)(ii)), the referee's announcement repeated by a player who does not know
//! notation (6.3(7), 7.4(2)(c)), and the signal that asks for an announcement (7.4(2)(d)).

use baoqi_grammar::{Designation, Mode, Word, parse_word};
use baoqi_rules::Color;

use crate::command::{Millis, Seat};
use crate::event::{Event, RefereeCall};
use crate::rejection::{Act, Rejection};
use crate::state::{Match, RepeatDue};

impl Match {
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
            act: Act::Repeat,
        })?;
        let r = self
            .core
            .repeats
            .iter()
            .find(|r| r.side == side)
            .ok_or(Rejection::NothingToRepeat)?;
        let (done, mismatch, word) = match text {
            None if r.mirror => (true, false, None),
            None => {
                return Err(Rejection::NotAllowed {
                    seat,
                    act: Act::ConfirmRepeat,
                });
            }
            Some(t) => match parse_word(t, r.got.len()) {
                None => (false, true, None),
                // A different form may name the same move: judged on the fourth word.
                Some(w) if r.got.len() < 3 => (false, false, Some(w)),
                Some(w) => {
                    let mut got = r.got.clone();
                    got.push(w);
                    let same = got == r.words || names_same_move(&got, r);
                    (same, !same, Some(w))
                }
            },
        };
        self.emit(
            out,
            Event::Repeated {
                side,
                at: now,
                text: text.unwrap_or_default().to_string(),
                word,
                done,
                mismatch,
            },
        );
        Ok(())
    }

    /// 7.4(2)(d): the deaf player signals that the move is made.
    pub(crate) fn signal(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), Rejection> {
        self.playing(false)?;
        let side: Color = self.core.turn.side;
        if seat.side() != Some(side) {
            return Err(crate::turn::not_your_turn(seat));
        }
        self.emit(out, Event::Signalled { side });
        self.emit(
            out,
            Event::RefereeNeeded {
                call: RefereeCall::AnnounceFor,
                side: Some(side),
            },
        );
        Ok(())
    }
}

/// Whether repeat words name the same move as the words to repeat (another correct form).
fn names_same_move(got: &[Word], r: &RepeatDue) -> bool {
    let Ok(ws) = <[Word; 4]>::try_from(got.to_vec()) else {
        return false;
    };
    r.mv.is_some()
        && Designation::from_words(ws).and_then(|d| d.resolve_with(&r.pos, Mode::Lenient).ok())
            == r.mv
}
