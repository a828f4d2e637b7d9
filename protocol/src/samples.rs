//! One sample of every message, command, event, refusal and reason, for the protocol's own
//! tests, the generated JS constants (`baoqi protocol js`) and the pages' tests (`baoqi
//! protocol samples`). Each list is checked by an exhaustive `match` ([`covers_all`]), so a
//! new variant does not compile until it has a sample, and the JS file (checked for
//! staleness) then names it.

use baoqi_arbiter::{
    Act, Adjudication, AnnouncedFor, Announcement, Article, Audience, BoardError, BoardId,
    BoardStep, CallAction, Card, CardMove, CardProblem, CheckFinding, CheckOutcome, ClockView,
    Command, Decline, EndCause, Event, Illegality, Matter, Millis, MoveView, OpenCall, Outcome,
    Owed, PauseReason, PlacementError, RefereeCall, Rejection, Removal, ReportReason, RestoreCause,
    Seat, Side, SideTime, Speaker, Tally, Threshold, ViolationKind, ViolationReason, Wait,
};
use baoqi_grammar::{Impossible, Unspeakable, Word};
use baoqi_rules::{EndReason, Kind, Move, Pattern, Piece, Point, WarningKind};

use crate::envelope::{ClientMsg, ErrorCode, ServerMsg};
use crate::recording::{RecorderState, SeatStatus, TableRecording};
use crate::seat::Role;

fn mv(s: &str) -> Move {
    s.parse().expect("a sample move")
}

fn pt(s: &str) -> Point {
    s.parse().expect("a sample point")
}

fn words() -> [Word; 4] {
    [
        Word::Piece(Kind::Cannon),
        Word::Numeral(2),
        Word::Across,
        Word::Numeral(5),
    ]
}

fn art(s: &'static str) -> Article {
    Article::of(s)
}

/// Every command.
pub fn commands() -> Vec<Command> {
    vec![
        Command::Tick,
        Command::Start,
        Command::Word { text: "炮".into() },
        Command::RepeatWord { text: "二".into() },
        Command::ConfirmRepeat,
        Command::Signal,
        Command::BoardMove {
            board: Some(BoardId::Vi),
            mv: mv("h2e2"),
        },
        Command::Lift {
            board: None,
            point: pt("h2"),
        },
        Command::Place {
            board: None,
            point: pt("e2"),
        },
        Command::PressClock,
        Command::QueryTime,
        Command::OfferDraw,
        Command::AcceptDraw,
        Command::DeclineDraw,
        Command::Resign,
        Command::HandCard { card: Card::Draw },
        Command::ReturnCard,
        Command::ExchangeCards,
        Command::ConfirmCheck,
        Command::OverrideCheck { mv: mv("h2e2") },
        Command::CorrectBoard {
            board: BoardId::Regular,
            placement: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR".into(),
        },
        Command::RecordViolation {
            side: Side::Red,
            kind: ViolationKind::Clock,
            note: "未按鐘".into(),
        },
        Command::RescindViolation {
            side: Side::Red,
            kind: ViolationKind::Clock,
        },
        Command::IssueWarning {
            side: None,
            repetition: Some(WarningKind::Ordinary),
            text: String::new(),
        },
        Command::Adjudicate {
            ruling: Adjudication::Result {
                winner: Some(Side::Black),
                both_lose: false,
                reason: "強制認負".into(),
                article: art("70(1)"),
            },
        },
        Command::VerifyResult {
            note: "雙方確認".into(),
        },
        Command::Pause {
            reason: PauseReason::Adjournment,
        },
        Command::SealMove { mv: mv("h2e2") },
        Command::Resume,
    ]
}

fn command_index(c: &Command) -> usize {
    match c {
        Command::Tick => 0,
        Command::Start => 1,
        Command::Word { .. } => 2,
        Command::RepeatWord { .. } => 3,
        Command::ConfirmRepeat => 4,
        Command::Signal => 5,
        Command::BoardMove { .. } => 6,
        Command::Lift { .. } => 7,
        Command::Place { .. } => 8,
        Command::PressClock => 9,
        Command::QueryTime => 10,
        Command::OfferDraw => 11,
        Command::AcceptDraw => 12,
        Command::DeclineDraw => 13,
        Command::Resign => 14,
        Command::HandCard { .. } => 15,
        Command::ReturnCard => 16,
        Command::ExchangeCards => 17,
        Command::ConfirmCheck => 18,
        Command::OverrideCheck { .. } => 19,
        Command::CorrectBoard { .. } => 20,
        Command::RecordViolation { .. } => 21,
        Command::RescindViolation { .. } => 22,
        Command::IssueWarning { .. } => 23,
        Command::Adjudicate { .. } => 24,
        Command::VerifyResult { .. } => 25,
        Command::Pause { .. } => 26,
        Command::SealMove { .. } => 27,
        Command::Resume => 28,
    }
}

fn clock() -> ClockView {
    ClockView {
        red_ms: 1_200_000,
        black_ms: 1_190_000,
        running: Some(Side::Red),
        since: Millis(5_000),
        delay_until: None,
    }
}

fn times() -> [SideTime; 2] {
    [
        SideTime {
            side: Side::Black,
            ms: 900_000,
        },
        SideTime {
            side: Side::Red,
            ms: 1_100_000,
        },
    ]
}

fn announcement() -> Announcement {
    Announcement {
        words: words(),
        mv: None,
        illegal: Some(Illegality::SelfCheck { mv: mv("h2e2") }),
        from: Some(pt("h2")),
    }
}

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

fn end_cause_index(c: &EndCause) -> usize {
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

fn violation_reason_index(r: &ViolationReason) -> usize {
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

fn unspeakable_index(u: &Unspeakable) -> usize {
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
fn illegality_index(i: &Illegality) -> usize {
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
fn warning_index(w: &WarningKind) -> usize {
    match w {
        WarningKind::Ordinary => 0,
        WarningKind::Forbidden { .. } => 1,
        WarningKind::Mutual { .. } => 2,
    }
}

/// Every matter a referee is called to.
pub fn calls() -> Vec<OpenCall> {
    let tally = Tally { count: 1, limit: 2 };
    let matters = vec![
        Matter::CheckCorrection {
            side: Side::Red,
            announced: Some(words()),
            played: Some(mv("h2f2")),
            target: mv("h2e2"),
        },
        Matter::CheckReannounce {
            side: Side::Red,
            announced: Some(words()),
            stands: mv("i0i1"),
            words: words(),
            tally,
        },
        Matter::CheckRestore {
            side: Side::Red,
            cause: RestoreCause::CheckC,
            announced: Some(words()),
            mv: mv("h2e2"),
            tally,
        },
        Matter::AnnounceFor {
            side: Side::Black,
            why: AnnouncedFor::Deaf,
            proxy: false,
            signalled: true,
            mv: Some(mv("h9g7")),
            words: Some(words()),
        },
        Matter::RepetitionWarning {
            side: None,
            ply: 8,
            warning: WarningKind::Ordinary,
        },
        Matter::BoardDivergence {
            board: BoardId::Regular,
            placement: "9/9/9/9/9/9/9/9/9/9".into(),
            points: vec![pt("e2"), pt("f2")],
        },
        Matter::DrawOffer {
            side: Side::Red,
            stands: true,
            card: true,
        },
        Matter::Paused {
            side: Side::Black,
            reason: PauseReason::ServerRestart,
            sealed: false,
        },
        Matter::VerifyResult {
            outcome: Outcome::RedWins,
            cause: EndCause::Timeout { loser: Side::Black },
        },
    ];
    matters
        .into_iter()
        .map(|matter| OpenCall {
            matter,
            action: Some(CallAction::ConfirmCheck),
            articles: vec![art("6.4(a)")],
        })
        .collect()
}

fn matter_index(m: &Matter) -> usize {
    match m {
        Matter::CheckCorrection { .. } => 0,
        Matter::CheckReannounce { .. } => 1,
        Matter::CheckRestore { .. } => 2,
        Matter::AnnounceFor { .. } => 3,
        Matter::RepetitionWarning { .. } => 4,
        Matter::BoardDivergence { .. } => 5,
        Matter::DrawOffer { .. } => 6,
        Matter::Paused { .. } => 7,
        Matter::VerifyResult { .. } => 8,
    }
}

/// Every refusal of the arbiter.
pub fn rejections() -> Vec<Rejection> {
    let mut all = vec![
        Rejection::NotStarted,
        Rejection::AlreadyStarted,
        Rejection::GameOver,
        Rejection::Paused,
        Rejection::NotPaused,
        Rejection::NotOver,
        Rejection::NoProxy {
            seat: Seat::RedProxy,
        },
        Rejection::NotYourTurn {
            side: Some(Side::Black),
        },
        Rejection::BadPlacement {
            text: "9/9".into(),
            why: PlacementError::Ranks { found: 2 },
        },
        Rejection::BadPlacement {
            text: "x".into(),
            why: PlacementError::Letter { letter: 'x' },
        },
        Rejection::BadPlacement {
            text: "10/9".into(),
            why: PlacementError::Files { rank: 9, files: 10 },
        },
        Rejection::AnnouncementBound { words: words() },
        Rejection::TouchedPiece {
            point: pt("h2"),
            kind: Kind::Cannon,
        },
        Rejection::NothingToRepeat,
        Rejection::NoSuchBoard { board: None },
        Rejection::BoardStep {
            why: BoardError::NoPiece { point: pt("e4") },
        },
        Rejection::BoardStep {
            why: BoardError::NothingInHand,
        },
        Rejection::NoOffer,
        Rejection::OfferPending,
        Rejection::Card {
            why: CardProblem::NotUsed,
        },
        Rejection::Card {
            why: CardProblem::NotInHand { card: Card::Resign },
        },
        Rejection::Card {
            why: CardProblem::NotByCard,
        },
        Rejection::NoPendingCheck,
        Rejection::MoveStands,
        Rejection::OfficialDrawNotAgreed,
        Rejection::NothingToRescind {
            kind: ViolationKind::Recording,
        },
        Rejection::NotAnnouncing,
        Rejection::NothingToPress,
        Rejection::AlreadySealed,
        Rejection::NotARefereeCommand,
    ];
    for act in crate::variants::names::<Act>() {
        let act: Act = serde_json::from_value(serde_json::Value::from(*act)).expect("an act");
        all.push(Rejection::NotAllowed {
            seat: Seat::Red,
            act,
        });
    }
    for wait in crate::variants::names::<Wait>() {
        let wait: Wait = serde_json::from_value(serde_json::Value::from(*wait)).expect("a wait");
        all.push(Rejection::OutOfOrder { wait });
    }
    all.extend(
        illegalities()
            .into_iter()
            .map(|why| Rejection::IllegalMove {
                mv: mv("h2e2"),
                why,
            }),
    );
    all
}

fn rejection_index(r: &Rejection) -> usize {
    match r {
        Rejection::NotStarted => 0,
        Rejection::AlreadyStarted => 1,
        Rejection::GameOver => 2,
        Rejection::Paused => 3,
        Rejection::NotPaused => 4,
        Rejection::NotOver => 5,
        Rejection::NotAllowed { .. } => 6,
        Rejection::NoProxy { .. } => 7,
        Rejection::NotYourTurn { .. } => 8,
        Rejection::BadPlacement { .. } => 9,
        Rejection::AnnouncementBound { .. } => 10,
        Rejection::TouchedPiece { .. } => 11,
        Rejection::OutOfOrder { .. } => 12,
        Rejection::NothingToRepeat => 13,
        Rejection::NoSuchBoard { .. } => 14,
        Rejection::BoardStep { .. } => 15,
        Rejection::NoOffer => 16,
        Rejection::OfferPending => 17,
        Rejection::Card { .. } => 18,
        Rejection::NoPendingCheck => 19,
        Rejection::MoveStands => 20,
        Rejection::IllegalMove { .. } => 21,
        Rejection::OfficialDrawNotAgreed => 22,
        Rejection::NothingToRescind { .. } => 23,
        Rejection::NotAnnouncing => 24,
        Rejection::NothingToPress => 25,
        Rejection::AlreadySealed => 26,
        Rejection::NotARefereeCommand => 27,
    }
}

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

fn event_index(e: &Event) -> usize {
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

/// Every client message.
pub fn client_messages() -> Vec<ClientMsg> {
    vec![
        ClientMsg::Hello {
            token: "0f3a…".into(),
            since: Some(41),
        },
        ClientMsg::Command {
            id: Some("c7".into()),
            table: Some(1),
            command: Command::Word { text: "炮".into() },
        },
        ClientMsg::Sync {
            table: Some(1),
            since: Some(41),
        },
        ClientMsg::Recording {
            id: None,
            state: RecorderState::On,
            microphone: true,
            reason: None,
        },
        ClientMsg::Ping {
            id: Some("p1".into()),
        },
    ]
}

fn client_index(m: &ClientMsg) -> usize {
    match m {
        ClientMsg::Hello { .. } => 0,
        ClientMsg::Command { .. } => 1,
        ClientMsg::Sync { .. } => 2,
        ClientMsg::Recording { .. } => 3,
        ClientMsg::Ping { .. } => 4,
    }
}

/// Every server message (the snapshot of a new part 6 match in `state`).
pub fn server_messages() -> Vec<ServerMsg> {
    let config = baoqi_arbiter::MatchConfig {
        kind: baoqi_arbiter::EventKind::Part6,
        ..baoqi_arbiter::MatchConfig::default()
    };
    let view = baoqi_arbiter::Match::new(config, Millis(0))
        .expect("the default configuration makes a match")
        .snapshot();
    let recording = TableRecording {
        red: SeatStatus::Recording {
            since: Millis(10),
            microphone: true,
        },
        black: SeatStatus::Missing,
    };
    let mut all = vec![
        ServerMsg::Welcome {
            role: Role::Red,
            name: "陳大文".into(),
            event: 1,
            tables: vec![1],
        },
        ServerMsg::State {
            table: 1,
            seq: 0,
            at: Millis(0),
            snapshot: Box::new(view),
            recording: Some(Box::new(recording.clone())),
        },
        ServerMsg::Event {
            table: 1,
            seq: 1,
            at: Millis(0),
            event: Box::new(Event::Turn {
                side: Side::Red,
                ply: 1,
            }),
        },
        ServerMsg::Ack {
            id: Some("c7".into()),
            table: 1,
            seq: 3,
        },
        ServerMsg::Recording {
            table: 1,
            seats: recording,
        },
        ServerMsg::Pong {
            id: Some("p1".into()),
            at: Millis(1_000),
        },
    ];
    all.extend(
        rejections()
            .into_iter()
            .map(|rejection| ServerMsg::Rejected {
                id: Some("c8".into()),
                table: 1,
                rejection,
            }),
    );
    for code in crate::variants::names::<ErrorCode>() {
        let code: ErrorCode =
            serde_json::from_value(serde_json::Value::from(*code)).expect("an error code");
        all.push(ServerMsg::Error {
            id: None,
            code,
            message: "details".into(),
        });
    }
    all
}

fn server_index(m: &ServerMsg) -> usize {
    match m {
        ServerMsg::Welcome { .. } => 0,
        ServerMsg::State { .. } => 1,
        ServerMsg::Event { .. } => 2,
        ServerMsg::Ack { .. } => 3,
        ServerMsg::Rejected { .. } => 4,
        ServerMsg::Error { .. } => 5,
        ServerMsg::Recording { .. } => 6,
        ServerMsg::Pong { .. } => 7,
    }
}

/// Whether `samples`, indexed by an exhaustive `match`, cover all `n` variants.
fn covers<T>(samples: &[T], index: fn(&T) -> usize, n: usize) -> Result<(), String> {
    let mut seen = vec![false; n];
    for s in samples {
        let i = index(s);
        *seen
            .get_mut(i)
            .ok_or_else(|| format!("index {i} out of {n}"))? = true;
    }
    match seen.iter().position(|s| !s) {
        Some(i) => Err(format!("variant {i} of {n} has no sample")),
        None => Ok(()),
    }
}

/// Checks that every list has a sample of every variant (see the module documentation).
pub fn covers_all() -> Result<(), String> {
    covers(&commands(), command_index, 29)?;
    covers(&events(), event_index, 35)?;
    covers(&rejections(), rejection_index, 28)?;
    covers(&end_causes(), end_cause_index, 10)?;
    covers(&violation_reasons(), violation_reason_index, 8)?;
    covers(&unspeakables(), unspeakable_index, 21)?;
    covers(&illegalities(), illegality_index, 5)?;
    covers(&warnings(), warning_index, 3)?;
    let matters: Vec<Matter> = calls().into_iter().map(|c| c.matter).collect();
    covers(&matters, matter_index, 9)?;
    covers(&client_messages(), client_index, 5)?;
    covers(&server_messages(), server_index, 8)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_sample() {
        covers_all().unwrap();
    }

    #[test]
    fn every_sample_round_trips_through_json() {
        for e in events() {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e, "{json}");
        }
        for c in commands() {
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Command>(&json).unwrap(), c, "{json}");
        }
        for m in server_messages() {
            let text = crate::encode(&m);
            assert_eq!(crate::decode_server(&text).unwrap(), m, "{text}");
        }
        for m in client_messages() {
            let text = crate::encode_client(&m);
            assert_eq!(crate::decode(&text).unwrap(), m, "{text}");
        }
    }
}
