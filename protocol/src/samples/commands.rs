//! Samples of every command, referee call and refusal.

use baoqi_arbiter::{
    Act, Adjudication, AnnouncedFor, BoardError, BoardId, CallAction, Card, CardProblem, Command,
    EndCause, Matter, OpenCall, Outcome, PauseReason, PlacementError, Rejection, RestoreCause,
    Seat, Side, Tally, ViolationKind, Wait,
};
use baoqi_rules::{Kind, WarningKind};

use super::{art, illegalities, mv, pt, words};

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

pub(super) fn command_index(c: &Command) -> usize {
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

pub(super) fn matter_index(m: &Matter) -> usize {
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

pub(super) fn rejection_index(r: &Rejection) -> usize {
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
