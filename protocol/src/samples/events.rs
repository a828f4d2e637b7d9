//! Samples of every event, and of every event carrying each reason.

use baoqi_arbiter::{
    Audience, BoardId, BoardStep, Card, CardMove, CheckFinding, CheckOutcome, Decline, EndCause,
    Event, Millis, MoveView, Outcome, PauseReason, RefereeCall, Removal, ReportReason, Seat, Side,
    Speaker, Threshold, ViolationKind, ViolationReason,
};
use baoqi_grammar::{Impossible, Unspeakable, Word};
use baoqi_rules::{Kind, Piece, WarningKind};

use super::{
    announcement, art, clock, end_causes, mv, pt, times, unspeakables, violation_reasons, warnings,
    words,
};

/// Every event, then the events that carry each reason (every end cause, violation reason,
/// impossible prefix, repetition warning), so that a client's wording covers them all.
pub fn events() -> Vec<Event> {
    let mut all = base_events();
    all.extend(end_causes().into_iter().map(|cause| Event::GameOver {
        outcome: Outcome::Draw,
        cause,
        articles: vec![art("66(4)")],
        at: Millis(9_000),
    }));
    all.extend(
        violation_reasons()
            .into_iter()
            .map(|reason| Event::Violation {
                side: Side::Black,
                kind: ViolationKind::Recording,
                counted: true,
                count: 1,
                limit: 4,
                reason,
                articles: vec![art("126(1)(b)")],
            }),
    );
    all.extend(unspeakables().into_iter().map(|why| Event::Impossible {
        side: Side::Red,
        words: vec![Word::Piece(Kind::Horse)],
        why,
    }));
    all.extend(checks());
    all.extend(referee_calls());
    all.extend(said_to_both());
    all.extend(
        warnings()
            .into_iter()
            .map(|warning| Event::RepetitionWarning {
                ply: 8,
                warning,
                article: art("61(1)"),
                warned: vec![Side::Red, Side::Black],
            }),
    );
    all
}

/// Every call for the referee.
pub(super) fn referee_call_kinds() -> Vec<RefereeCall> {
    use RefereeCall as C;
    vec![
        C::AnnounceFor,
        C::BoardDivergence,
        C::CorrectionPending,
        C::RepetitionWarning,
        C::VerifyResult,
        C::DrawOffer,
        C::TouchedPiece,
    ]
}

/// Every call for the referee, about one side and about none, so that each is said.
fn referee_calls() -> Vec<Event> {
    referee_call_kinds()
        .into_iter()
        .flat_map(|call| {
            [Some(Side::Red), None]
                .into_iter()
                .map(move |side| Event::RefereeNeeded { call, side })
        })
        .collect()
}

/// A call's place among the samples ([`super::covers_all`]: a call added to the arbiter fails
/// this match until it is listed in [`referee_call_kinds`] too).
#[allow(clippy::trivially_copy_pass_by_ref)] // the shape `covers` takes
pub(super) fn referee_call_index(c: &RefereeCall) -> usize {
    match c {
        RefereeCall::AnnounceFor => 0,
        RefereeCall::BoardDivergence => 1,
        RefereeCall::CorrectionPending => 2,
        RefereeCall::RepetitionWarning => 3,
        RefereeCall::VerifyResult => 4,
        RefereeCall::DrawOffer => 5,
        RefereeCall::TouchedPiece => 6,
    }
}

/// A referee's warning to both players (128(1)(a)), and a read-back that does not match
/// then one done (7.4(2)(g)(ii)).
fn said_to_both() -> Vec<Event> {
    let read_back = |done, mismatch| Event::Repeated {
        side: Side::Black,
        at: Millis(2_500),
        text: "車".into(),
        word: Some(Word::Piece(Kind::Rook)),
        done,
        mismatch,
    };
    vec![
        Event::WarningIssued {
            side: None,
            repetition: None,
            text: "請勿交談".into(),
        },
        read_back(false, true),
        read_back(true, false),
    ]
}

/// A move check of every outcome (附表七 6.4, 7.5; (c) with a legal board move of another
/// piece and with an illegal one), so that what each asks of the mover is said.
fn checks() -> Vec<Event> {
    let finding = |board: &str, legal: bool| CheckFinding {
        announced: Some(announcement()),
        board: Some(mv(board)),
        board_words: legal.then(words),
    };
    [
        (CheckOutcome::Agree, finding("h2e2", true), "6.4"),
        (CheckOutcome::A, finding("h2f2", true), "6.4(a)"),
        (CheckOutcome::A, finding("h2h9", false), "6.4(a)"),
        (CheckOutcome::B, finding("h2e2", true), "6.4(b)"),
        (CheckOutcome::C, finding("b2e2", true), "6.4(c)"),
        (CheckOutcome::C, finding("h2h9", false), "6.4(c)"),
        (CheckOutcome::SealedMoveBroken, finding("h2h6", true), "125"),
        (CheckOutcome::Corrected, finding("h2e2", true), "6.4(a)"),
    ]
    .into_iter()
    .map(|(outcome, finding, article)| Event::Checked {
        side: Side::Red,
        outcome,
        finding,
        articles: vec![art(article)],
    })
    .collect()
}

#[allow(clippy::too_many_lines)]
fn base_events() -> Vec<Event> {
    vec![
        Event::Started {
            at: Millis(0),
            clock: clock(),
        },
        Event::Turn {
            side: Side::Red,
            ply: 1,
        },
        Event::Clock { clock: clock() },
        Event::Word {
            side: Side::Red,
            by: Speaker::Player,
            at: Millis(1_000),
            text: "炮".into(),
            word: Some(Word::Piece(Kind::Cannon)),
            attempt: 0,
            slot: 0,
            possible: true,
            why: None,
            completions: 34,
            next: vec![Word::Numeral(2), Word::Numeral(8)],
        },
        Event::Touched {
            side: Side::Red,
            point: pt("h2"),
            kind: Kind::Cannon,
            can_move: true,
        },
        Event::Impossible {
            side: Side::Red,
            words: vec![Word::Piece(Kind::Horse), Word::Numeral(2), Word::Across],
            why: Unspeakable::Unreachable {
                reason: Impossible::DiagonalAcross {
                    piece: Piece::new(Side::Red, Kind::Horse),
                },
            },
        },
        Event::Announced {
            side: Side::Red,
            by: Speaker::Player,
            announcement: announcement(),
        },
        Event::Repeated {
            side: Side::Black,
            at: Millis(2_000),
            text: "炮".into(),
            word: Some(Word::Piece(Kind::Cannon)),
            done: false,
            mismatch: false,
        },
        Event::RepeatDue {
            side: Side::Black,
            words: words(),
            mover: Side::Red,
            article: art("7.4(2)(g)(ii)"),
            mirror: true,
        },
        Event::RepeatDue {
            side: Side::Red,
            words: words(),
            mover: Side::Red,
            article: art("6.3(7)"),
            mirror: false,
        },
        Event::Signalled { side: Side::Black },
        Event::Board {
            board: BoardId::Vi,
            by: Seat::Red,
            step: BoardStep::Lift { point: pt("h2") },
            placement: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR".into(),
            hand: vec![baoqi_arbiter::InHand {
                piece: Piece::new(Side::Red, Kind::Cannon),
                from: pt("h2"),
            }],
        },
        Event::BoardDiverges {
            board: BoardId::Regular,
            expected: "9/9/9/9/9/9/9/9/9/9".into(),
            found: "9/9/9/9/9/9/9/9/9/9".into(),
            points: vec![pt("e2")],
        },
        Event::BoardDiverges {
            board: BoardId::Vi,
            expected: "9/9/9/9/9/9/9/9/9/9".into(),
            found: "9/9/9/9/9/9/9/9/9/9".into(),
            points: vec![pt("b0"), pt("b4")],
        },
        Event::BoardAgrees {
            board: BoardId::Regular,
        },
        Event::Pressed {
            side: Side::Red,
            by: Seat::Red,
            at: Millis(3_000),
        },
        Event::Checked {
            side: Side::Red,
            outcome: CheckOutcome::A,
            finding: CheckFinding {
                announced: Some(announcement()),
                board: Some(mv("h2f2")),
                board_words: Some(words()),
            },
            articles: vec![art("6.4(a)"), art("7.5(a)")],
        },
        Event::Violation {
            side: Side::Red,
            kind: ViolationKind::Clock,
            counted: false,
            count: 0,
            limit: 4,
            reason: ViolationReason::PressedBeforeCorrecting,
            articles: vec![art("6.4(a)")],
        },
        Event::ViolationRemoved {
            side: Side::Red,
            kind: ViolationKind::Clock,
            count: 0,
            why: Removal::AbsorbedByFoul,
        },
        Event::Moved {
            side: Side::Red,
            ply: 1,
            at: Millis(3_000),
            mv: MoveView {
                iccs: mv("h2e2"),
                words: words(),
                captured: Some(Kind::Pawn),
                check: true,
            },
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".into(),
            clock_ms: 1_190_000,
            by: Some(Speaker::Player),
        },
        Event::RestoreRequired {
            side: Side::Red,
            mv: Some(mv("h2e2")),
        },
        Event::CorrectionRequired {
            side: Side::Red,
            mv: mv("h2e2"),
            words: words(),
        },
        Event::ReannounceRequired {
            side: Side::Red,
            mv: mv("i0i1"),
            words: words(),
        },
        Event::TimeAlert {
            side: Side::Black,
            threshold_ms: 900_000,
            threshold: Threshold::Half,
            at: Millis(4_000),
            times: times(),
            audience: Audience::Side(Side::Black),
        },
        Event::TimeReport {
            reason: ReportReason::Query,
            by: Some(Seat::Black),
            at: Millis(4_000),
            times: times(),
        },
        Event::DrawOffered {
            side: Side::Red,
            card: false,
        },
        Event::DrawOfferStands { side: Side::Red },
        Event::DrawDeclined {
            side: Side::Black,
            how: Decline::TouchedPiece,
        },
        Event::CardMoved {
            owner: Side::Black,
            card: Card::Draw,
            holder: Side::Red,
            how: CardMove::Handed,
        },
        Event::RepetitionWarning {
            ply: 8,
            warning: WarningKind::Ordinary,
            article: art("61(1)"),
            warned: vec![Side::Red, Side::Black],
        },
        Event::WarningIssued {
            side: Some(Side::Red),
            repetition: None,
            text: "口頭警告".into(),
        },
        Event::RefereeNeeded {
            call: RefereeCall::CorrectionPending,
            side: Some(Side::Red),
        },
        Event::Paused {
            at: Millis(4_500),
            side: Side::Black,
            reason: PauseReason::Adjournment,
        },
        Event::Resumed { at: Millis(4_800) },
        Event::Paused {
            at: Millis(5_000),
            side: Side::Red,
            reason: PauseReason::ServerRestart,
        },
        Event::Sealed {
            side: Side::Red,
            mv: mv("h2e2"),
        },
        Event::Resumed { at: Millis(6_000) },
        Event::GameOver {
            outcome: Outcome::BlackWins,
            cause: EndCause::Timeout { loser: Side::Red },
            articles: vec![art("71(1)")],
            at: Millis(7_000),
        },
        Event::ResultVerified {
            note: "雙方口頭確認".into(),
            at: Millis(8_000),
        },
    ]
}

pub(super) fn event_index(e: &Event) -> usize {
    match e {
        Event::Started { .. } => 0,
        Event::Turn { .. } => 1,
        Event::Clock { .. } => 2,
        Event::Word { .. } => 3,
        Event::Touched { .. } => 4,
        Event::Impossible { .. } => 5,
        Event::Announced { .. } => 6,
        Event::Repeated { .. } => 7,
        Event::RepeatDue { .. } => 8,
        Event::Signalled { .. } => 9,
        Event::Board { .. } => 10,
        Event::BoardDiverges { .. } => 11,
        Event::BoardAgrees { .. } => 12,
        Event::Pressed { .. } => 13,
        Event::Checked { .. } => 14,
        Event::Violation { .. } => 15,
        Event::ViolationRemoved { .. } => 16,
        Event::Moved { .. } => 17,
        Event::RestoreRequired { .. } => 18,
        Event::CorrectionRequired { .. } => 19,
        Event::ReannounceRequired { .. } => 20,
        Event::TimeAlert { .. } => 21,
        Event::TimeReport { .. } => 22,
        Event::DrawOffered { .. } => 23,
        Event::DrawOfferStands { .. } => 24,
        Event::DrawDeclined { .. } => 25,
        Event::CardMoved { .. } => 26,
        Event::RepetitionWarning { .. } => 27,
        Event::WarningIssued { .. } => 28,
        Event::RefereeNeeded { .. } => 29,
        Event::Paused { .. } => 30,
        Event::Sealed { .. } => 31,
        Event::Resumed { .. } => 32,
        Event::GameOver { .. } => 33,
        Event::ResultVerified { .. } => 34,
    }
}
