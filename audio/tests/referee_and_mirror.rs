//! What the players hear for mirroring prompts (附表七 7.4(2)(g)(ii)), calls for the referee
//! and pause / resumption (103–104), from the events of a real 共融賽 match; and that every
//! new phrase and every keypad notice is said in both languages.

use crate::common;

use baoqi_arbiter::{
    Category, ClockMode, Command, Event, EventKind, Match, MatchConfig, Millis, Seat, SideConfig,
    TimeControl,
};
use baoqi_audio::from_event::utterances;
use baoqi_audio::phrasebook::phrase;
use baoqi_audio::{
    Along, Call, Form, HelpPage, Notice, PieceAt, Pieces, Prompt, Rate, Refusal, Urgency,
    Utterance, Verbosity,
};
use baoqi_grammar::{Word, parse_words};
use baoqi_rules::{Color, Kind, Piece};
use baoqi_tournament::RoundNumber;
use common::{cantonese_ok, pinyin_ok};

/// A part-7 table: a blind red player on the VI board, a sighted black player on the regular
/// board (mirrored boards, 7.4(2)(g)).
fn part7() -> (Match, u64) {
    let mut c = MatchConfig {
        kind: EventKind::Part7,
        red: SideConfig {
            name: "甲".into(),
            categories: vec![Category::Blind],
            ..SideConfig::default()
        },
        black: SideConfig {
            name: "乙".into(),
            categories: vec![Category::Sighted],
            ..SideConfig::default()
        },
        ..MatchConfig::default()
    };
    c.time.default = TimeControl {
        base_ms: 20 * 60_000,
        mode: ClockMode::Increment,
        extra_ms: 10_000,
    };
    let mut m = Match::new(c, Millis(0)).unwrap();
    m.apply(Seat::Referee, Command::Start, Millis(0)).unwrap();
    (m, 0)
}

fn run(m: &mut Match, now: &mut u64, seat: Seat, c: Command) -> Vec<Event> {
    *now += 300;
    m.apply(seat, c, Millis(*now)).unwrap()
}

fn words(m: &mut Match, now: &mut u64, seat: Seat, text: &str, repeat: bool) -> Vec<Event> {
    text.chars()
        .flat_map(|c| {
            let text = c.to_string();
            let cmd = if repeat {
                Command::RepeatWord { text }
            } else {
                Command::Word { text }
            };
            run(m, now, seat, cmd)
        })
        .collect()
}

fn heard(events: &[Event], me: Color) -> Vec<Utterance> {
    events.iter().flat_map(|e| utterances(e, me).say).collect()
}

#[test]
fn s7p7_4_2_g_ii_the_opponent_is_prompted_to_repeat_and_told_the_verdict() {
    let (mut m, mut now) = part7();
    let mut ev = words(&mut m, &mut now, Seat::Red, "炮二平五", false);
    ev.extend(run(
        &mut m,
        &mut now,
        Seat::Red,
        Command::BoardMove {
            board: None,
            mv: "h2e2".parse().unwrap(),
        },
    ));
    ev.extend(run(&mut m, &mut now, Seat::Red, Command::PressClock));
    let prompt = Utterance::RepeatDue {
        mover: Color::Red,
        words: parse_words("炮二平五"),
        mirror: true,
    };
    assert!(heard(&ev, Color::Black).contains(&prompt), "{ev:?}");
    assert!(!heard(&ev, Color::Red).contains(&prompt));
    // 7.4(2)(g)(ii): the opponent's move on his own board first, then the read-back.
    assert_eq!(
        phrase(&prompt).display,
        "在你的棋盤走對手的炮二平五。然後複讀「炮二平五」"
    );

    // Repeats are judged on the fourth word (another form may name the same move): a repeat
    // that names another move restarts; the right four words complete it.
    let wrong = words(&mut m, &mut now, Seat::Black, "馬二平五", true);
    assert_eq!(heard(&wrong, Color::Black), vec![Utterance::RepeatMismatch]);
    let right = words(&mut m, &mut now, Seat::Black, "炮二平五", true);
    assert!(heard(&right, Color::Black).contains(&Utterance::Repeated));
    assert!(heard(&right, Color::Red).is_empty(), "{right:?}");
}

#[test]
fn s7p6_3_7_a_player_without_notation_repeats_his_own_move_after_the_referee() {
    // 視障賽, red does not know the notation: the referee announces red's move first and red
    // repeats it with his own time; the prompt names red's own move, not the opponent's.
    let (mut m, mut now) = part7();
    let mut c = m.config().clone();
    c.kind = EventKind::Part6;
    c.red.knows_notation = false;
    c.black.categories = vec![Category::Blind];
    c.red.board = None;
    m = Match::new(c, Millis(0)).unwrap();
    run(&mut m, &mut now, Seat::Referee, Command::Start);
    let ev = words(&mut m, &mut now, Seat::Referee, "炮二平五", false);
    let prompt = Utterance::RepeatDue {
        mover: Color::Red,
        words: parse_words("炮二平五"),
        mirror: false,
    };
    assert!(heard(&ev, Color::Red).contains(&prompt), "{ev:?}");
    assert_eq!(phrase(&prompt).display, "複讀裁判的報棋「炮二平五」");
    let done = words(&mut m, &mut now, Seat::Red, "炮二平五", true);
    assert!(
        heard(&done, Color::Red).contains(&Utterance::Repeated),
        "{done:?}"
    );
}

#[test]
fn s7p7_4_2_d_a_call_for_the_referee_is_said_to_both_sides() {
    let (mut m, mut now) = part7();
    let ev = run(&mut m, &mut now, Seat::Red, Command::Signal);
    for me in Color::ALL {
        let call = Utterance::RefereeCalled {
            call: Call::AnnounceFor {
                side: Some(Color::Red),
                you: me == Color::Red,
            },
        };
        assert!(heard(&ev, me).contains(&call), "{me:?}: {ev:?}");
        let want = if me == Color::Red {
            "已請裁判代你報棋"
        } else {
            "已請裁判代紅方報棋"
        };
        assert_eq!(phrase(&call).display, want);
    }
}

#[test]
fn a103_104_pause_and_resumption_are_urgent_for_both() {
    let (mut m, mut now) = part7();
    let paused = run(
        &mut m,
        &mut now,
        Seat::Referee,
        Command::Pause {
            reason: baoqi_arbiter::PauseReason::Adjournment,
        },
    );
    let said = heard(&paused, Color::Black);
    assert_eq!(
        said,
        vec![Utterance::Paused {
            side: Color::Red,
            why: baoqi_audio::PauseWhy::Adjournment
        }]
    );
    assert_eq!(said[0].urgency(), Urgency::Urgent);
    assert_eq!(phrase(&said[0]).display, "裁判暫停對局，紅方封棋");
    run(
        &mut m,
        &mut now,
        Seat::Red,
        Command::SealMove {
            mv: "h2e2".parse().unwrap(),
        },
    );
    let resumed = run(&mut m, &mut now, Seat::Referee, Command::Resume);
    assert!(heard(&resumed, Color::Red).contains(&Utterance::Resumed));
}

/// Every notice the table client says by itself, one of each kind and setting.
fn client_notices() -> Vec<Notice> {
    let prompts = [
        Prompt::Name,
        Prompt::Command,
        Prompt::File,
        Prompt::Rank,
        Prompt::Mine,
        Prompt::Theirs,
    ];
    let refusals = [
        Refusal::NotYourTurn,
        Refusal::AnnouncementBound,
        Refusal::TouchedPiece,
        Refusal::GameOver,
        Refusal::OutOfOrder,
        Refusal::NotAllowed,
        Refusal::Other,
    ];
    let rook_9_1 = PieceAt {
        piece: Piece::new(Color::Red, Kind::Rook),
        file: 9,
        rank: 1,
    };
    let mut notices: Vec<Notice> = prompts.into_iter().map(Notice::Prompt).collect();
    notices.extend(refusals.into_iter().map(Notice::Refused));
    notices.extend([
        Notice::Cancelled,
        Notice::UnknownKey,
        Notice::ConfirmResign,
        Notice::ResignCancelled,
        Notice::Help(HelpPage::First),
        Notice::Help(HelpPage::Second),
        Notice::Help(HelpPage::Third),
        Notice::Help(HelpPage::Last),
        Notice::RateSet(Rate::DEFAULT.faster()),
        Notice::RateSet(Rate::DEFAULT.slower()),
        Notice::RateSet(Rate::MAX.faster()),
        Notice::RateSet(Rate::MIN.slower()),
        Notice::VerbositySet(Verbosity::Auto),
        Notice::VerbositySet(Verbosity::Terse),
        Notice::VerbositySet(Verbosity::Full),
        Notice::Connected {
            side: Color::Red,
            proxy: true,
        },
        Notice::Connected {
            side: Color::Black,
            proxy: false,
        },
        Notice::Disconnected,
        Notice::Nothing,
        Notice::ProxyMayNot,
        Notice::BoardIllegal,
        Notice::BoardRestored,
        Notice::Pieces(Pieces::full(vec![rook_9_1])),
        Notice::Pieces(Pieces {
            list: vec![rook_9_1],
            form: Form::Terse,
            along: Along::Anywhere,
        }),
        Notice::Pieces(Pieces::default()),
        Notice::Sent(baoqi_audio::Sent::AskStanding),
        Notice::Ranking(baoqi_audio::Ranking::Placed {
            after_round: RoundNumber(3),
            place: 3,
            shared: true,
            halves: 9,
            players: 8,
        }),
        Notice::Ranking(baoqi_audio::Ranking::Placed {
            after_round: RoundNumber(7),
            place: 12,
            shared: false,
            halves: 2 * 49,
            players: 40,
        }),
        Notice::Ranking(baoqi_audio::Ranking::NoRoundFinished),
        Notice::Ranking(baoqi_audio::Ranking::NoStandings),
        Notice::Ranking(baoqi_audio::Ranking::NotRegistered),
    ]);
    notices
}

#[test]
fn every_new_phrase_is_said_in_both_languages() {
    let calls = [
        Call::AnnounceFor {
            side: None,
            you: false,
        },
        Call::AnnounceFor {
            side: Some(Color::Black),
            you: false,
        },
        Call::AnnounceFor {
            side: Some(Color::Red),
            you: true,
        },
        Call::CorrectionPending,
        Call::RepetitionWarning,
        Call::VerifyResult,
        Call::DrawOffer,
        Call::TouchedPiece,
        Call::ResultVerified,
    ];
    let mut all: Vec<Utterance> = calls
        .into_iter()
        .map(|call| Utterance::RefereeCalled { call })
        .collect();
    all.extend([
        Utterance::RepeatDue {
            mover: Color::Black,
            words: vec![Word::Piece(Kind::Horse), Word::Numeral(8), Word::Forward],
            mirror: true,
        },
        Utterance::Repeated,
        Utterance::RepeatMismatch,
        Utterance::Paused {
            side: Color::Black,
            why: baoqi_audio::PauseWhy::Adjournment,
        },
        Utterance::Resumed,
    ]);
    all.extend(client_notices().into_iter().map(Utterance::Client));
    let mut displays = std::collections::HashSet::new();
    for u in &all {
        let p = phrase(u);
        assert!(!p.display.is_empty() && !p.display.contains('{'), "{u:?}");
        assert!(cantonese_ok(&p.yue), "{u:?}: {}", p.yue);
        assert!(pinyin_ok(&p.cmn), "{u:?}: {}", p.cmn);
        assert!(displays.insert(p.display.clone()), "said alike: {u:?}");
    }
}
