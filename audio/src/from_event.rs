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
    Audience, BoardId, Card, CardMove, CheckFinding, CheckOutcome as Check, Decline,
    EndCause as Cause, Event, Outcome, Owed, PauseReason, RefereeCall, ViolationKind,
    ViolationReason,
};
use baoqi_rules::{Color, Kind, Piece, Point};

use crate::earcon::Earcon;
use crate::utterance::{
    Because, Board, Call, CheckOutcome, Declined, EndCause, GameResult, Missing, PauseWhy,
    SideTime, TimeReason, Utterance, Violation, Warned,
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
    let mine = |side: baoqi_arbiter::Side| side == me;
    Some(match event {
        Event::RepeatDue {
            side,
            words,
            mover,
            mirror,
            ..
        } if mine(*side) => {
            // Mirroring repeats the opponent's move (7.4(2)(g)); otherwise the player repeats
            // the referee's announcement of his own move (6.3(7), 7.4(2)(c)).
            one(
                None,
                Utterance::RepeatDue {
                    mover: *mover,
                    words: words.to_vec(),
                    mirror: *mirror,
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
        Event::RefereeNeeded { call, side } => call_of(*call, *side, me)
            .map_or_else(Heard::default, |call| {
                one(None, Utterance::RefereeCalled { call })
            }),
        Event::ResultVerified { .. } => one(
            None,
            Utterance::RefereeCalled {
                call: Call::ResultVerified,
            },
        ),
        Event::Paused { side, reason, .. } => one(
            Some(Earcon::Alert),
            Utterance::Paused {
                side: *side,
                why: match reason {
                    PauseReason::Adjournment => PauseWhy::Adjournment,
                    PauseReason::ServerRestart => PauseWhy::ServerRestart,
                },
            },
        ),
        Event::Resumed { .. } => one(Some(Earcon::Alert), Utterance::Resumed),
        _ => return None,
    })
}

/// Why the referee comes (and for whom, said as "you" to that side); a board divergence is
/// already said by its own event.
fn call_of(c: RefereeCall, side: Option<Color>, me: Color) -> Option<Call> {
    Some(match c {
        RefereeCall::AnnounceFor => Call::AnnounceFor {
            side,
            you: side == Some(me),
        },
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
    let mine = |side: baoqi_arbiter::Side| side == me;
    Some(match event {
        Event::Word {
            side,
            word: Some(word),
            ..
        } if mine(*side) => one(
            Some(Earcon::Key),
            Utterance::Word {
                word: *word,
                side: me,
            },
        ),
        Event::Word { side, .. } if mine(*side) => Heard::default(),
        Event::Touched {
            side, point, kind, ..
        } if mine(*side) => one(Some(Earcon::Touched), touched(*point, *kind, me)),
        // 6.3(6)(a): every word binds; the whole announcement is read back once complete.
        Event::Announced {
            side, announcement, ..
        } if mine(*side) => one(
            None,
            Utterance::ReadBack {
                side: *side,
                words: announcement.words.to_vec(),
            },
        ),
        Event::Impossible { side, words, .. } if mine(*side) => one(
            Some(Earcon::Error),
            Utterance::Impossible {
                words: words.clone(),
                side: *side,
            },
        ),
        Event::Moved { side, mv, .. } if !mine(*side) => one(
            Some(Earcon::OpponentMoved),
            Utterance::Move {
                side: *side,
                words: mv.words.to_vec(),
                captured: mv.captured.map(|k| Piece::new(side.other(), k)),
                check: mv.check,
            },
        ),
        Event::Moved { side, mv, .. } if mv.check || mv.captured.is_some() => one(
            None,
            Utterance::YourMove {
                captured: mv.captured.map(|k| Piece::new(side.other(), k)),
                check: mv.check,
            },
        ),
        Event::Started { clock, .. } => one(
            None,
            Utterance::Started {
                first: clock.running.unwrap_or(Color::Red),
            },
        ),
        _ => return None,
    })
}

/// The opponent's draw offers, declines and acceptances.
fn offer(event: &Event, me: Color) -> Option<Heard> {
    let mine = |side: baoqi_arbiter::Side| side == me;
    Some(match event {
        Event::DrawOffered { side, .. } if !mine(*side) => {
            one(Some(Earcon::Card), Utterance::DrawOffered { by: (*side) })
        }
        // 69(2)(d): a touch declines; the toucher must hear it as much as the offerer.
        Event::DrawDeclined {
            side,
            how: Decline::TouchedPiece,
        } => one(
            Some(Earcon::Card),
            Utterance::DrawDeclined {
                by: *side,
                you: mine(*side),
                how: Declined::Touched,
            },
        ),
        Event::DrawDeclined { side, how } if !mine(*side) => one(
            Some(Earcon::Card),
            Utterance::DrawDeclined {
                by: *side,
                you: false,
                how: match how {
                    Decline::CardReturned => Declined::CardReturned,
                    _ => Declined::Said,
                },
            },
        ),
        Event::CardMoved {
            owner,
            card: Card::Draw,
            how: CardMove::Exchanged,
            ..
        } if !mine(*owner) => one(Some(Earcon::Card), Utterance::DrawAccepted { by: (*owner) }),
        _ => return None,
    })
}

/// What both players hear: checks, violations, times, warnings, boards, game end.
fn table(event: &Event, me: Color) -> Heard {
    match event {
        Event::Checked {
            side,
            outcome,
            finding,
            ..
        } => check(*outcome, finding).map_or_else(Heard::default, |o| {
            one(
                Some(Earcon::Error),
                Utterance::Check {
                    side: *side,
                    you: *side == me,
                    outcome: o,
                    announced: finding
                        .announced
                        .as_ref()
                        .map(|a| a.words.to_vec())
                        .unwrap_or_default(),
                    board: finding.board_words.map(|w| w.to_vec()),
                },
            )
        }),
        Event::Violation {
            side,
            kind,
            counted: true,
            count,
            limit,
            reason,
            ..
        } => one(
            Some(Earcon::Error),
            Utterance::Violation {
                side: *side,
                you: *side == me,
                violation: violation(*kind),
                because: because(reason),
                count: *count,
                limit: *limit,
            },
        ),
        Event::TimeAlert {
            times, audience, ..
        } if hears(*audience, me) => {
            one(Some(Earcon::Alert), times_of(TimeReason::Alert, times, me))
        }
        Event::TimeReport {
            reason, by, times, ..
        } => match reason {
            baoqi_arbiter::ReportReason::Press => {
                one(None, times_of(TimeReason::ClockPress, times, me))
            }
            baoqi_arbiter::ReportReason::Query
                if by.and_then(baoqi_arbiter::Seat::side) == Some(me) =>
            {
                one(None, times_of(TimeReason::Query, times, me))
            }
            baoqi_arbiter::ReportReason::Query => Heard::default(),
        },
        Event::RepetitionWarning { warning, .. }
        | Event::WarningIssued {
            repetition: Some(warning),
            ..
        } => one(
            Some(Earcon::Alert),
            Utterance::Repetition { kind: *warning },
        ),
        Event::WarningIssued { text, side, .. } => one(
            Some(Earcon::Alert),
            Utterance::Referee {
                text: text.clone(),
                warned: match side {
                    None => Warned::Both,
                    Some(s) if *s == me => Warned::You,
                    Some(_) => Warned::Opponent,
                },
            },
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
        Event::GameOver { outcome, cause, .. } => {
            one(Some(Earcon::GameEnd), game_end(*outcome, cause, me))
        }
        _ => Heard::default(),
    }
}

/// The end of a game as `me` hears it (你勝, 你負 … and why): said when it comes, and again
/// to a player who joins a game already over.
pub fn game_end(outcome: Outcome, cause: &Cause, me: Color) -> Utterance {
    Utterance::GameEnd {
        result: result(outcome),
        cause: end_cause(cause),
        me,
    }
}

fn hears(a: Audience, me: Color) -> bool {
    match a {
        Audience::All => true,
        Audience::Side(s) => s == me,
        Audience::Referee => false,
    }
}

/// The touched piece as its kind and file, as the player names it (`炮二`).
fn touched(point: Point, kind: Kind, me: Color) -> Utterance {
    Utterance::PieceTouched {
        words: vec![
            baoqi_grammar::Word::Piece(kind),
            baoqi_grammar::Word::Numeral(point.file_number_for(me)),
        ],
        side: me,
    }
}

/// The outcome to say; (c) tells a legal move of another piece from an illegal move
/// (6.4(c): 走子非所報子，或雖是所報子但同為非法着法).
fn check(o: Check, finding: &CheckFinding) -> Option<CheckOutcome> {
    match o {
        Check::A => Some(CheckOutcome::CorrectBoard),
        Check::B => Some(CheckOutcome::AnnounceAgain),
        Check::C if finding.board_words.is_some() => Some(CheckOutcome::RestoreOtherPiece),
        Check::C => Some(CheckOutcome::RestoreIllegalMove),
        Check::SealedMoveBroken => Some(CheckOutcome::SealedMoveBroken),
        Check::Corrected => Some(CheckOutcome::Corrected),
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

/// Why a violation was recorded, as the player is told.
fn because(r: &ViolationReason) -> Because {
    match r {
        ViolationReason::PressedEarly { missing } => Because::PressedEarly(
            missing
                .iter()
                .map(|o| match o {
                    Owed::Move => Missing::Move,
                    Owed::Announcement => Missing::Announcement,
                    Owed::Repeat => Missing::Repeat,
                })
                .collect(),
        ),
        ViolationReason::PressedBeforeReannouncing => Because::PressedBeforeReannouncing,
        ViolationReason::PressedBeforeCorrecting => Because::PressedBeforeCorrecting,
        ViolationReason::IllegalAnnouncement { words } => {
            Because::IllegalAnnouncement(words.clone())
        }
        ViolationReason::WrongReannouncement { words, .. } => {
            Because::WrongReannouncement(words.to_vec())
        }
        ViolationReason::SealedMoveNotPlayed { .. } => Because::SealedMoveNotPlayed,
        ViolationReason::ConsecutiveDrawOffer => Because::ConsecutiveDrawOffer,
        ViolationReason::Referee { note } => Because::Referee(note.clone()),
    }
}

fn times_of(reason: TimeReason, t: &[baoqi_arbiter::SideTime; 2], me: Color) -> Utterance {
    let of = |s: &baoqi_arbiter::SideTime| SideTime {
        side: s.side,
        left: Duration::from_millis(s.ms),
    };
    Utterance::Times {
        reason,
        first: of(&t[0]),
        second: of(&t[1]),
        me,
    }
}

fn board_of(b: BoardId) -> Board {
    match b {
        BoardId::Vi => Board::Special,
        BoardId::Regular => Board::Regular,
    }
}

fn result(o: Outcome) -> GameResult {
    match o {
        Outcome::RedWins => GameResult::RedWins,
        Outcome::BlackWins => GameResult::BlackWins,
        Outcome::Draw => GameResult::Draw,
        Outcome::BothLose => GameResult::BothLose,
    }
}

/// Why the game ended, as it is said.
fn end_cause(c: &Cause) -> EndCause {
    match c {
        Cause::Board { reason } => EndCause::Board(*reason),
        Cause::Forbidden { offender, pattern } => EndCause::Forbidden {
            offender: *offender,
            pattern: *pattern,
        },
        Cause::MutualForbidden => EndCause::MutualForbidden,
        Cause::CycleDraw => EndCause::CycleDraw,
        Cause::OfficialDraw => EndCause::OfficialDraw,
        Cause::Timeout { loser } => EndCause::Timeout { loser: *loser },
        Cause::ViolationLimit { loser, kind, count } => EndCause::ViolationLimit {
            loser: *loser,
            violation: violation(*kind),
            count: *count,
        },
        Cause::Resigned { loser, card } => EndCause::Resignation {
            loser: *loser,
            card: *card,
        },
        Cause::DrawAgreed { card } => EndCause::DrawAgreed { card: *card },
        Cause::Adjudicated { reason } => EndCause::Stated(reason.clone()),
    }
}
