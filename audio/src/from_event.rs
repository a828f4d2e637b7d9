//! What a player hears for each arbiter [`Event`]: [`utterances`] maps an event to the
//! [`Utterance`]s (and an [`Earcon`] to play first) for the listening side.
//!
//! Who hears what (the table client passes its own side as `me`):
//! - own announced words are echoed, and a touched piece or an impossible prefix said; the
//!   opponent's words are not echoed one by one: his move is read in full once on record;
//! - check outcomes, violations, talking-clock reports, repetition warnings, referee
//!   warnings, board divergence and game end: both sides;
//! - time alerts: the sides of the event's audience; time-query answers: the asking side;
//! - draw offers, declines and acceptances, and cards: the opponent's, not one's own;
//! - a repeat owed by the listener (mirroring, 7.4(2)(g)(ii); after the referee, 6.3(7)) and
//!   the verdict on it (complete, or a word that differs): the listener only;
//! - calls for the referee (why the referee comes), pause and resumption (103–104) and the
//!   oral verification of the result: both sides.
//!
//! Events that need no words (clock state, board placement, turn, the sealed move) give
//! nothing.

use std::time::Duration;

use baoqi_arbiter::{
    Audience, BoardId, Card, CheckOutcome as Check, Event, Outcome, RefereeCall, ViolationKind,
};
use baoqi_grammar::{Marks, parse_word, parse_words};
use baoqi_rules::{Color, EndReason, Pattern, Point, WarningKind};

use crate::earcon::Earcon;
use crate::utterance::{
    Board, Call, CheckOutcome, EndCause, GameResult, SideTime, TimeReason, Utterance, Violation,
};

/// What to play and say for one event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heard {
    /// A tone first (played at once, even while speech waits its turn).
    pub earcon: Option<Earcon>,
    /// Then these, in order.
    pub say: Vec<Utterance>,
}

impl Heard {
    fn of(earcon: Option<Earcon>, say: Vec<Utterance>) -> Heard {
        Heard { earcon, say }
    }
}

/// What the player of side `me` hears for `event`.
fn one(earcon: Option<Earcon>, u: Utterance) -> Heard {
    Heard::of(earcon, vec![u])
}

/// What the player of side `me` hears for `event`.
pub fn utterances(event: &Event, me: Color) -> Heard {
    announcement(event, me)
        .or_else(|| offer(event, me))
        .or_else(|| referee(event, me))
        .unwrap_or_else(|| table(event, me))
}

/// Repeats owed and given, calls for the referee, pause and resumption.
fn referee(event: &Event, me: Color) -> Option<Heard> {
    let mine = |side: baoqi_arbiter::Side| Color::from(side) == me;
    Some(match event {
        Event::RepeatDue {
            side,
            words,
            mirror,
            ..
        } if mine(*side) => {
            // Mirroring repeats the opponent's move (7.4(2)(g)); otherwise the player repeats
            // the referee's announcement of his own move (6.3(7), 7.4(2)(c)).
            let mover = if *mirror { me.other() } else { me };
            one(
                None,
                Utterance::RepeatDue {
                    mover,
                    words: parse_words(words),
                },
            )
        }
        Event::Repeated {
            side,
            done,
            mismatch,
            ..
        } if mine(*side) => match (mismatch, done) {
            (true, _) => one(Some(Earcon::Error), Utterance::RepeatMismatch),
            (false, true) => one(None, Utterance::Repeated),
            (false, false) => Heard::default(),
        },
        Event::RefereeNeeded { call, .. } => call_of(*call).map_or_else(Heard::default, |call| {
            one(None, Utterance::RefereeCalled { call })
        }),
        Event::ResultVerified { .. } => one(
            None,
            Utterance::RefereeCalled {
                call: Call::ResultVerified,
            },
        ),
        Event::Paused { side, .. } => one(
            Some(Earcon::Alert),
            Utterance::Paused {
                side: (*side).into(),
            },
        ),
        Event::Resumed { .. } => one(Some(Earcon::Alert), Utterance::Resumed),
        _ => return None,
    })
}

/// Why the referee comes; a board divergence is already said by its own event.
fn call_of(c: RefereeCall) -> Option<Call> {
    Some(match c {
        RefereeCall::AnnounceFor => Call::AnnounceFor,
        RefereeCall::BoardDivergence => return None,
        RefereeCall::CorrectionPending => Call::CorrectionPending,
        RefereeCall::RepetitionWarning => Call::RepetitionWarning,
        RefereeCall::VerifyResult => Call::VerifyResult,
        RefereeCall::DrawOffer => Call::DrawOffer,
        RefereeCall::TouchedPiece => Call::TouchedPiece,
    })
}

/// Own words, touched piece, impossible prefix; the opponent's move on record.
fn announcement(event: &Event, me: Color) -> Option<Heard> {
    let mine = |side: baoqi_arbiter::Side| Color::from(side) == me;
    Some(match event {
        Event::Word {
            side, text, slot, ..
        } if mine(*side) => parse_word(text, *slot).map_or_else(Heard::default, |word| {
            one(Some(Earcon::Key), Utterance::Word { word, side: me })
        }),
        Event::Touched {
            side, point, piece, ..
        } if mine(*side) => {
            touched(point, piece, me).map_or_else(Heard::default, |u| one(Some(Earcon::Touched), u))
        }
        Event::Impossible { side, .. } if mine(*side) => {
            one(Some(Earcon::Error), Utterance::Impossible)
        }
        Event::Moved { side, mv, .. } if !mine(*side) => {
            let words = parse_words(&mv.traditional);
            let marks = Marks {
                capture: mv.capture,
                check: mv.check,
                draw_offer: false,
            };
            let side = Color::from(*side);
            one(
                Some(Earcon::OpponentMoved),
                Utterance::Move { side, words, marks },
            )
        }
        _ => return None,
    })
}

/// The opponent's draw offers, declines and acceptances.
fn offer(event: &Event, me: Color) -> Option<Heard> {
    let mine = |side: baoqi_arbiter::Side| Color::from(side) == me;
    Some(match event {
        Event::DrawOffered { side, .. } if !mine(*side) => one(
            Some(Earcon::Card),
            Utterance::DrawOffered { by: (*side).into() },
        ),
        Event::DrawDeclined { side, .. } if !mine(*side) => one(
            Some(Earcon::Card),
            Utterance::DrawDeclined { by: (*side).into() },
        ),
        Event::CardMoved {
            owner,
            card: Card::Draw,
            how,
            ..
        } if how == "exchanged" && !mine(*owner) => one(
            Some(Earcon::Card),
            Utterance::DrawAccepted {
                by: (*owner).into(),
            },
        ),
        _ => return None,
    })
}

/// What both players hear: checks, violations, times, warnings, boards, game end.
fn table(event: &Event, me: Color) -> Heard {
    match event {
        Event::Checked { side, outcome, .. } => check(*outcome).map_or_else(Heard::default, |o| {
            one(
                Some(Earcon::Error),
                Utterance::Check {
                    side: (*side).into(),
                    outcome: o,
                },
            )
        }),
        Event::Violation {
            side,
            kind,
            counted: true,
            count,
            limit,
            ..
        } => one(
            Some(Earcon::Error),
            Utterance::Violation {
                side: (*side).into(),
                violation: violation(*kind),
                count: *count,
                limit: *limit,
            },
        ),
        Event::TimeAlert {
            times, audience, ..
        } if hears(*audience, me) => one(Some(Earcon::Alert), times_of(TimeReason::Alert, times)),
        Event::TimeReport {
            reason, by, times, ..
        } => match reason {
            baoqi_arbiter::ReportReason::Press => {
                one(None, times_of(TimeReason::ClockPress, times))
            }
            baoqi_arbiter::ReportReason::Query
                if by.and_then(baoqi_arbiter::Seat::side) == Some(me) =>
            {
                one(None, times_of(TimeReason::Query, times))
            }
            baoqi_arbiter::ReportReason::Query => Heard::default(),
        },
        Event::RepetitionWarning { text, .. } => repetition(text).map_or_else(
            || {
                one(
                    Some(Earcon::Alert),
                    Utterance::Referee { text: text.clone() },
                )
            },
            |kind| one(Some(Earcon::Alert), Utterance::Repetition { kind }),
        ),
        Event::WarningIssued { text, .. } => one(
            Some(Earcon::Alert),
            Utterance::Referee { text: text.clone() },
        ),
        Event::BoardDiverges { board, .. } => one(
            Some(Earcon::Error),
            Utterance::BoardDiverged {
                board: board_of(*board),
            },
        ),
        Event::BoardAgrees { board } => one(
            None,
            Utterance::BoardAgrees {
                board: board_of(*board),
            },
        ),
        Event::GameOver {
            outcome,
            reason,
            article,
            ..
        } => one(
            Some(Earcon::GameEnd),
            Utterance::GameEnd {
                result: result(*outcome),
                cause: cause(*outcome, reason, article),
            },
        ),
        _ => Heard::default(),
    }
}

fn hears(a: Audience, me: Color) -> bool {
    match a {
        Audience::All => true,
        Audience::Side(s) => Color::from(s) == me,
        Audience::Referee => false,
    }
}

/// The touched piece as its kind and file, as the player names it (`炮二`).
fn touched(point: &str, piece: &str, me: Color) -> Option<Utterance> {
    let p: Point = point.parse().ok()?;
    let kind = parse_word(piece, 0).and_then(|w| match w {
        baoqi_grammar::Word::Piece(k) => Some(k),
        _ => None,
    })?;
    Some(Utterance::PieceTouched {
        words: vec![
            baoqi_grammar::Word::Piece(kind),
            baoqi_grammar::Word::Numeral(p.file_number_for(me)),
        ],
        side: me,
    })
}

fn check(o: Check) -> Option<CheckOutcome> {
    match o {
        Check::A => Some(CheckOutcome::CorrectBoard),
        Check::B => Some(CheckOutcome::AnnounceAgain),
        Check::C | Check::SealedMoveBroken => Some(CheckOutcome::RestorePosition),
        Check::Agree | Check::BoardGoverns | Check::BoardOnly | Check::RefereeRuling => None,
    }
}

fn violation(k: ViolationKind) -> Violation {
    match k {
        ViolationKind::Technical => Violation::Technical,
        ViolationKind::Recording => Violation::Recording,
        ViolationKind::Clock => Violation::ClockPress,
    }
}

fn times_of(reason: TimeReason, t: &[baoqi_arbiter::SideTime; 2]) -> Utterance {
    let of = |s: &baoqi_arbiter::SideTime| SideTime {
        side: s.side.into(),
        left: Duration::from_millis(s.ms),
    };
    Utterance::Times {
        reason,
        first: of(&t[0]),
        second: of(&t[1]),
    }
}

fn board_of(b: BoardId) -> Board {
    match b {
        BoardId::Vi => Board::Special,
        BoardId::Regular => Board::Regular,
    }
}

/// The warning whose words of 第61條 are `text`.
fn repetition(text: &str) -> Option<WarningKind> {
    let mut kinds = vec![WarningKind::Ordinary];
    for side in Color::ALL {
        for pattern in [Pattern::PerpetualCheck, Pattern::PerpetualChase] {
            kinds.push(WarningKind::Forbidden { side, pattern });
            kinds.push(WarningKind::Mutual {
                first: side,
                pattern,
            });
        }
    }
    kinds.into_iter().find(|k| k.text() == text)
}

fn result(o: Outcome) -> GameResult {
    match o {
        Outcome::RedWins => GameResult::RedWins,
        Outcome::BlackWins => GameResult::BlackWins,
        Outcome::Draw => GameResult::Draw,
        Outcome::BothLose => GameResult::BothLose,
    }
}

/// The cause by the article the arbiter cites; its own words when the article is another.
fn cause(o: Outcome, reason: &str, article: &str) -> EndCause {
    let loser = match o {
        Outcome::RedWins => Some(Color::Black),
        Outcome::BlackWins => Some(Color::Red),
        Outcome::Draw | Outcome::BothLose => None,
    };
    let stated = || EndCause::Stated(reason.to_owned());
    let with_loser = |f: &dyn Fn(Color) -> EndCause| loser.map_or_else(stated, f);
    match article {
        "65(1)" => EndCause::Board(EndReason::Checkmate),
        "65(2)" => EndCause::Board(EndReason::Stalemate),
        "66(1)" => EndCause::Board(EndReason::DeadDraw),
        "66(2)" => EndCause::Board(EndReason::NaturalLimit),
        "65(3)" => with_loser(&|offender| EndCause::Forbidden {
            offender,
            pattern: if reason.contains("長捉") {
                Pattern::PerpetualChase
            } else {
                Pattern::PerpetualCheck
            },
        }),
        "66(3)" => EndCause::MutualForbidden,
        "66(4)" => EndCause::CycleDraw,
        "67" => EndCause::OfficialDraw,
        "71(1)" => with_loser(&|loser| EndCause::Timeout { loser }),
        "70(4)" => with_loser(&|loser| EndCause::ViolationLimit {
            loser,
            violation: if reason.contains("技術") {
                Violation::Technical
            } else if reason.contains("記錄") {
                Violation::Recording
            } else {
                Violation::ClockPress
            },
        }),
        a if a.starts_with("69(1)") => with_loser(&|loser| EndCause::Resignation { loser }),
        a if a.starts_with("69(2)(e)") => EndCause::DrawAgreed,
        _ => stated(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_map_to_causes() {
        let c = cause(Outcome::BlackWins, "紅方長捉犯禁，黑方勝", "65(3)");
        assert_eq!(
            c,
            EndCause::Forbidden {
                offender: Color::Red,
                pattern: Pattern::PerpetualChase
            }
        );
        let c = cause(
            Outcome::RedWins,
            "黑方技術犯規達 2 次上限，犯規作負 (127)",
            "70(4)",
        );
        assert_eq!(
            c,
            EndCause::ViolationLimit {
                loser: Color::Black,
                violation: Violation::Technical
            }
        );
        assert_eq!(
            cause(Outcome::Draw, "雙方同意議和", "69(2)(e), 7.1(2)"),
            EndCause::DrawAgreed
        );
        assert_eq!(
            cause(Outcome::BothLose, "雙方違規", "70(5)"),
            EndCause::Stated("雙方違規".into())
        );
    }

    #[test]
    fn warnings_are_recognised_by_their_words() {
        assert_eq!(
            repetition("一般循環盤面，雙方不變作和"),
            Some(WarningKind::Ordinary)
        );
        assert_eq!(repetition("whatever"), None);
    }
}
