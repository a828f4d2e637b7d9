//! What each player hears for the events of a real arbiter match (附表七 第六部分).

use baoqi_arbiter::{
    ClockMode, Command, Event, EventKind, Match, MatchConfig, Millis, Seat, SideConfig, TimeControl,
};
use baoqi_audio::from_event::{Heard, utterances};
use baoqi_audio::phrasebook::phrase;
use baoqi_audio::{Earcon, Utterance};
use baoqi_rules::Color;

struct Table {
    m: Match,
    now: u64,
}

impl Table {
    fn part6() -> Table {
        let blind = |name: &str| SideConfig {
            name: name.into(),
            categories: vec![baoqi_arbiter::Category::Blind],
            ..SideConfig::default()
        };
        let mut c = MatchConfig {
            kind: EventKind::Part6,
            red: blind("甲"),
            black: blind("乙"),
            ..MatchConfig::default()
        };
        c.time.default = TimeControl {
            base_ms: 20 * 60_000,
            mode: ClockMode::Increment,
            extra_ms: 10_000,
        };
        let mut t = Table {
            m: Match::new(c, Millis(0)).unwrap(),
            now: 0,
        };
        t.cmd(Seat::Referee, Command::Start);
        t
    }

    fn cmd(&mut self, seat: Seat, c: Command) -> Vec<Event> {
        self.m.apply(seat, c, Millis(self.now)).unwrap()
    }

    fn say(&mut self, seat: Seat, words: &str) -> Vec<Event> {
        words
            .chars()
            .flat_map(|c| {
                self.cmd(
                    seat,
                    Command::Word {
                        text: c.to_string(),
                    },
                )
            })
            .collect()
    }

    fn turn(&mut self, seat: Seat, words: &str, mv: &str) -> Vec<Event> {
        let mut ev = self.say(seat, words);
        ev.extend(self.cmd(
            seat,
            Command::BoardMove {
                board: None,
                mv: mv.parse().unwrap(),
            },
        ));
        ev.extend(self.cmd(seat, Command::PressClock));
        ev
    }
}

/// The display texts `me` hears for `events`, and the earcons.
fn heard(events: &[Event], me: Color) -> (Vec<String>, Vec<Earcon>) {
    let all: Vec<Heard> = events.iter().map(|e| utterances(e, me)).collect();
    (
        all.iter()
            .flat_map(|h| h.say.iter().map(|u| phrase(u).display))
            .collect(),
        all.iter().filter_map(|h| h.earcon).collect(),
    )
}

#[test]
fn s7p6_3_the_mover_hears_each_word_and_the_touched_piece_the_opponent_the_move() {
    let mut t = Table::part6();
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    let (red, red_tones) = heard(&ev, Color::Red);
    // 6.3(6)(a): the whole announcement, once bound, is read back.
    assert_eq!(red, ["炮", "二", "摸子：炮二", "平", "五", "炮二平五"]);
    assert!(red_tones.contains(&Earcon::Key) && red_tones.contains(&Earcon::Touched));
    let (black, black_tones) = heard(&ev, Color::Black);
    assert!(black.contains(&"紅方 炮二平五".to_string()), "{black:?}");
    assert!(
        !black.iter().any(|s| s == "炮"),
        "the opponent's words are not echoed: {black:?}"
    );
    assert!(black_tones.contains(&Earcon::OpponentMoved));
}

#[test]
fn s7p6_3_6_b_an_impossible_prefix_is_said_to_the_player_only() {
    let mut t = Table::part6();
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let ev = t.say(Seat::Black, "車5");
    let (black, tones) = heard(&ev, Color::Black);
    assert_eq!(
        black.last().map(String::as_str),
        // The words he said, then that he may correct them (the shared `echo.impossible`).
        Some("「車５」不可能，可以修正"),
        "{black:?}"
    );
    assert!(tones.contains(&Earcon::Error));
    assert!(
        !heard(&ev, Color::Red)
            .0
            .iter()
            .any(|s| s.starts_with("不可能"))
    );
}

#[test]
fn s7p6_6_alerts_say_the_triggering_side_first_to_both_players() {
    let mut t = Table::part6();
    t.now = 10 * 60_000 + 1;
    let ev = t.cmd(Seat::Referee, Command::Tick);
    for me in Color::ALL {
        let (texts, tones) = heard(&ev, me);
        // Each hears it of himself (你) or of his opponent (對手), red's time first.
        let want = if me == Color::Red {
            "你尚餘 10 分鐘。對手"
        } else {
            "對手尚餘 10 分鐘。你"
        };
        assert!(
            texts.iter().any(|s| s.starts_with(want)),
            "{me:?}: {texts:?} {ev:#?}"
        );
        assert!(tones.contains(&Earcon::Alert));
    }
}

#[test]
fn s7p7_1_2_a_resignation_ends_the_game_with_its_reason() {
    let mut t = Table::part6();
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let ev = t.cmd(Seat::Black, Command::Resign);
    let (red, tones) = heard(&ev, Color::Red);
    assert!(
        red.contains(&"對局結束：你勝。對手認負".to_string()),
        "{red:?}"
    );
    assert!(tones.contains(&Earcon::GameEnd));
    let urgent = ev
        .iter()
        .flat_map(|e| utterances(e, Color::Red).say)
        .filter(|u| matches!(u, Utterance::GameEnd { .. }))
        .count();
    assert_eq!(urgent, 1);
}

// Every event said with what it means for the listener.

impl Table {
    /// A part-6 table from `fen`, started.
    fn part6_from(fen: &str) -> Table {
        let mut t = Table::part6_unstarted();
        t.m = Match::new(
            MatchConfig {
                start_fen: Some(fen.into()),
                ..t.m.config().clone()
            },
            Millis(0),
        )
        .unwrap();
        t.cmd(Seat::Referee, Command::Start);
        t
    }

    fn part6_unstarted() -> Table {
        let mut t = Table::part6();
        t.m = Match::new(t.m.config().clone(), Millis(0)).unwrap();
        t
    }
}

fn all_heard(events: &[Event], me: Color) -> String {
    heard(events, me).0.join(" / ")
}

#[test]
fn s7p6_4_a_the_check_says_what_was_announced_what_the_board_shows_and_what_to_do() {
    let mut t = Table::part6();
    let ev = t.turn(Seat::Red, "炮二平五", "h2f2");
    let red = all_heard(&ev, Color::Red);
    assert!(
        red.contains("炮二平五") && red.contains("炮二平四") && red.contains("改正"),
        "{red}"
    );
}

#[test]
fn s7p6_4_b_the_check_says_which_move_to_announce_again() {
    let mut t = Table::part6();
    // 車一平二 is blocked by the horse: illegal; the board shows the rook's legal i0i1.
    let ev = t.turn(Seat::Red, "車一平二", "i0i1");
    let red = all_heard(&ev, Color::Red);
    assert!(
        red.contains("重新報棋") && red.contains("俥一進一"),
        "{red}"
    );
}

#[test]
fn s7p6_4_c_a_legal_board_move_of_another_piece_is_not_called_illegal() {
    let mut t = Table::part6();
    let ev = t.turn(Seat::Red, "車一平二", "h2e2");
    let red = all_heard(&ev, Color::Red);
    assert!(
        !red.contains("均非法"),
        "6.4(c): the board move was legal: {red}"
    );
    assert!(
        red.contains("非所報之子") && red.contains("可改走別子"),
        "{red}"
    );
}

#[test]
fn a126_a_violation_is_said_with_its_reason() {
    let mut t = Table::part6();
    let mut ev = t.say(Seat::Red, "炮二平五");
    ev.extend(t.cmd(Seat::Red, Command::PressClock));
    let red = all_heard(&ev, Color::Red);
    assert!(
        red.contains("按鐘違規") && red.contains("走子未完成"),
        "{red}"
    );
    // Said to him in the second person, the tally first; the opponent hears it of his
    // opponent.
    assert!(red.contains("你被判按鐘違規。第"), "{red}");
    let black = all_heard(&ev, Color::Black);
    assert!(
        black.contains("對手被判按鐘違規") && black.contains("走子未完成便按鐘"),
        "{black}"
    );
}

#[test]
fn captures_name_the_piece_and_check_is_said_to_both_sides() {
    let mut t = Table::part6_from("n3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    let ev = t.turn(Seat::Red, "俥九進九", "a0a9");
    let black = all_heard(&ev, Color::Black);
    assert!(black.contains("吃馬") && black.contains("將軍"), "{black}");
    assert!(
        !black.contains("吃將軍"),
        "heard as 'captures the general': {black}"
    );
    let red = all_heard(&ev, Color::Red);
    assert!(red.contains("將軍"), "the mover hears his check: {red}");
    // …and his own capture, as his opponent does.
    assert!(red.contains("吃馬"), "the mover hears his capture: {red}");
}

#[test]
fn a95_3_both_players_hear_the_game_start_and_who_moves() {
    let mut t = Table::part6_unstarted();
    let ev = t.cmd(Seat::Referee, Command::Start);
    for me in Color::ALL {
        let said = all_heard(&ev, me);
        assert!(
            said.contains("對局開始") && said.contains("紅方先走"),
            "{me:?}: {said}"
        );
    }
}

#[test]
fn a69_2_d_touching_a_piece_declines_the_offer_and_both_hear_it() {
    let mut t = Table::part6();
    t.say(Seat::Red, "炮二平五");
    t.cmd(Seat::Red, Command::OfferDraw);
    t.cmd(
        Seat::Red,
        Command::BoardMove {
            board: None,
            mv: "h2e2".parse().unwrap(),
        },
    );
    t.cmd(Seat::Red, Command::PressClock);
    let ev = t.say(Seat::Black, "馬８");
    for me in Color::ALL {
        let said = all_heard(&ev, me);
        assert!(
            // To each in the second person: 你摸子 / 對手摸子，即不接受提和.
            said.contains("摸子，即不接受提和"),
            "{me:?}: {said}"
        );
    }
}

#[test]
fn a_server_restart_pause_is_not_called_a_referee_adjournment() {
    let mut t = Table::part6();
    let ev = t.cmd(
        Seat::Referee,
        Command::Pause {
            reason: baoqi_arbiter::PauseReason::ServerRestart,
        },
    );
    let red = all_heard(&ev, Color::Red);
    assert!(red.contains("伺服器"), "{red}");
    assert!(!red.contains("封棋") && !red.contains("裁判暫停"), "{red}");
}

/// 「已請裁判代為報棋」 sounded, to the VI player, as if it concerned him; the side the
/// referee announces for is named, and the listener hears "you" for himself.
#[test]
fn s7p7_4_2_d_the_call_to_announce_names_the_side_it_is_for() {
    let call = Event::RefereeNeeded {
        call: baoqi_arbiter::RefereeCall::AnnounceFor,
        side: Some(Color::Black),
    };
    let red = all_heard(std::slice::from_ref(&call), Color::Red);
    assert!(red.contains("黑方"), "{red}");
    let black = all_heard(&[call], Color::Black);
    assert!(black.contains("你"), "{black}");
}
