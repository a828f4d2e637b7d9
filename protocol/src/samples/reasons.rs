//! Samples of every reason: end causes, violations, unspeakable words, illegal moves,
//! repetition warnings.

use baoqi_arbiter::{EndCause, Illegality, Owed, Side, ViolationKind, ViolationReason};
use baoqi_grammar::{Impossible, Unspeakable};
use baoqi_rules::{EndReason, Kind, Pattern, Piece, WarningKind};

use super::{mv, pt, words};

/// Every reason a game ends.
pub fn end_causes() -> Vec<EndCause> {
    vec![
        EndCause::Board {
            reason: EndReason::Checkmate,
        },
        EndCause::Forbidden {
            offender: Side::Red,
            pattern: Pattern::PerpetualChase,
        },
        EndCause::MutualForbidden,
        EndCause::CycleDraw,
        EndCause::OfficialDraw,
        EndCause::Timeout { loser: Side::Black },
        EndCause::ViolationLimit {
            loser: Side::Red,
            kind: ViolationKind::Technical,
            count: 2,
        },
        EndCause::Resigned {
            loser: Side::Black,
            card: true,
        },
        EndCause::DrawAgreed { card: false },
        EndCause::Adjudicated {
            reason: "雙方違規".into(),
        },
    ]
}

pub(super) fn end_cause_index(c: &EndCause) -> usize {
    match c {
        EndCause::Board { .. } => 0,
        EndCause::Forbidden { .. } => 1,
        EndCause::MutualForbidden => 2,
        EndCause::CycleDraw => 3,
        EndCause::OfficialDraw => 4,
        EndCause::Timeout { .. } => 5,
        EndCause::ViolationLimit { .. } => 6,
        EndCause::Resigned { .. } => 7,
        EndCause::DrawAgreed { .. } => 8,
        EndCause::Adjudicated { .. } => 9,
    }
}

/// Every reason a violation is recorded.
pub fn violation_reasons() -> Vec<ViolationReason> {
    vec![
        ViolationReason::PressedEarly {
            missing: vec![Owed::Move, Owed::Announcement, Owed::Repeat],
        },
        ViolationReason::PressedBeforeReannouncing,
        ViolationReason::PressedBeforeCorrecting,
        ViolationReason::IllegalAnnouncement {
            words: words().to_vec(),
        },
        ViolationReason::WrongReannouncement {
            words: words(),
            stands: mv("h2e2"),
        },
        ViolationReason::SealedMoveNotPlayed { sealed: mv("h2e2") },
        ViolationReason::ConsecutiveDrawOffer,
        ViolationReason::Referee {
            note: "漏記".into(),
        },
    ]
}

pub(super) fn violation_reason_index(r: &ViolationReason) -> usize {
    match r {
        ViolationReason::PressedEarly { .. } => 0,
        ViolationReason::PressedBeforeReannouncing => 1,
        ViolationReason::PressedBeforeCorrecting => 2,
        ViolationReason::IllegalAnnouncement { .. } => 3,
        ViolationReason::WrongReannouncement { .. } => 4,
        ViolationReason::SealedMoveNotPlayed { .. } => 5,
        ViolationReason::ConsecutiveDrawOffer => 6,
        ViolationReason::Referee { .. } => 7,
    }
}

/// Every reason the words of an attempt are impossible.
pub fn unspeakables() -> Vec<Unspeakable> {
    let cannon = Piece::new(Side::Red, Kind::Cannon);
    let reasons = [
        Impossible::DiagonalAcross {
            piece: Piece::new(Side::Red, Kind::Horse),
        },
        Impossible::SameFile {
            piece: cannon,
            file: 2,
        },
        Impossible::FileOutOfReach {
            piece: Piece::new(Side::Black, Kind::Elephant),
            from: 3,
            to: 8,
        },
        Impossible::OneStep {
            piece: Piece::new(Side::Red, Kind::General),
        },
        Impossible::PawnRetreat {
            piece: Piece::new(Side::Black, Kind::Pawn),
        },
        Impossible::OffBoard { piece: cannon },
    ];
    let mut all = vec![
        Unspeakable::NotAWord { text: "x".into() },
        Unspeakable::DirectionFirst,
        Unspeakable::NoSuchPiece { piece: cannon },
        Unspeakable::SayFrontOrRear { piece: cannon },
        Unspeakable::NotAnOrdinal { numeral: 7 },
        Unspeakable::OrderNamesNone,
        Unspeakable::NoSamePiecesOnAFile,
        Unspeakable::NotAPiece,
        Unspeakable::NoneOnFile {
            piece: cannon,
            file: 3,
        },
        Unspeakable::BadOrder {
            piece: cannon,
            count: 2,
        },
        Unspeakable::Several {
            piece: cannon,
            count: 2,
        },
        Unspeakable::CannotMove,
        Unspeakable::NotAMotion,
        Unspeakable::NotADirection,
        Unspeakable::CannotComplete,
    ];
    all.extend(reasons.map(|reason| Unspeakable::Unreachable { reason }));
    all
}

pub(super) fn unspeakable_index(u: &Unspeakable) -> usize {
    match u {
        Unspeakable::NotAWord { .. } => 0,
        Unspeakable::DirectionFirst => 1,
        Unspeakable::NoSuchPiece { .. } => 2,
        Unspeakable::SayFrontOrRear { .. } => 3,
        Unspeakable::NotAnOrdinal { .. } => 4,
        Unspeakable::OrderNamesNone => 5,
        Unspeakable::NoSamePiecesOnAFile => 6,
        Unspeakable::NotAPiece => 7,
        Unspeakable::NoneOnFile { .. } => 8,
        Unspeakable::BadOrder { .. } => 9,
        Unspeakable::Several { .. } => 10,
        Unspeakable::CannotMove => 11,
        Unspeakable::NotAMotion => 12,
        Unspeakable::NotADirection => 13,
        Unspeakable::CannotComplete => 14,
        Unspeakable::Unreachable { reason } => {
            15 + match reason {
                Impossible::DiagonalAcross { .. } => 0,
                Impossible::SameFile { .. } => 1,
                Impossible::FileOutOfReach { .. } => 2,
                Impossible::OneStep { .. } => 3,
                Impossible::PawnRetreat { .. } => 4,
                Impossible::OffBoard { .. } => 5,
            }
        }
    }
}

/// Every why an announced or given move cannot be played.
pub fn illegalities() -> Vec<Illegality> {
    vec![
        Illegality::Blocked { mv: mv("i0h0") },
        Illegality::SelfCheck { mv: mv("e3e4") },
        Illegality::Unresolved,
        Illegality::NoPiece { point: pt("e4") },
        Illegality::NotYours { point: pt("e9") },
    ]
}

#[allow(clippy::trivially_copy_pass_by_ref)] // the shape `covers` takes
pub(super) fn illegality_index(i: &Illegality) -> usize {
    match i {
        Illegality::Blocked { .. } => 0,
        Illegality::SelfCheck { .. } => 1,
        Illegality::Unresolved => 2,
        Illegality::NoPiece { .. } => 3,
        Illegality::NotYours { .. } => 4,
    }
}

/// Every repetition warning of 第61條.
pub fn warnings() -> Vec<WarningKind> {
    let mut all = vec![WarningKind::Ordinary];
    for side in [Side::Red, Side::Black] {
        for pattern in [Pattern::PerpetualCheck, Pattern::PerpetualChase] {
            all.push(WarningKind::Forbidden { side, pattern });
            all.push(WarningKind::Mutual {
                first: side,
                pattern,
            });
        }
    }
    all
}

#[allow(clippy::trivially_copy_pass_by_ref)] // the shape `covers` takes
pub(super) fn warning_index(w: &WarningKind) -> usize {
    match w {
        WarningKind::Ordinary => 0,
        WarningKind::Forbidden { .. } => 1,
        WarningKind::Mutual { .. } => 2,
    }
}
