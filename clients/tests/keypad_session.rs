//! Every keypad command at the client level (`docs/keypad.md`): a session joined to
//! a real arbiter match, keys in, what is sent and said out.

use crate::common;

use baoqi_arbiter::{Card, Command, Seat};
use baoqi_audio::{Earcon, HelpPage, Notice, Prompt, Refusal, Sent, TimeReason, Utterance};
use baoqi_clients::keypad::Key;
use baoqi_clients::session::{ClientMsg, Input, Output, ServerMsg, Session, SessionOptions};
use baoqi_grammar::Word;
use baoqi_protocol::{EventId, TableId};
use baoqi_rules::{Color, Kind};
use common::{Table, join, press, said, sent};

fn red() -> (Table, Session) {
    let t = Table::part6();
    let s = join(&t, "red", SessionOptions::default());
    (t, s)
}

#[test]
fn s7p6_3_each_key_is_echoed_at_once_and_the_word_sent_binding() {
    let (mut t, mut s) = red();
    let first = s.handle(Input::Key(Key::Digit(0)), 0);
    assert_eq!(
        said(std::slice::from_ref(&first)),
        vec![Utterance::Client(Notice::Prompt(Prompt::Name))]
    );
    assert!(first.send.is_empty());
    let second = s.handle(Input::Key(Key::Digit(6)), 0);
    let word = Utterance::Word {
        word: Word::Piece(Kind::Cannon),
        side: Color::Red,
    };
    assert_eq!(said(std::slice::from_ref(&second)), vec![word]);
    assert_eq!(second.heard[0].earcon, Some(Earcon::Key));
    assert_eq!(
        sent(std::slice::from_ref(&second)),
        vec![Command::Word { text: "炮".into() }]
    );
    // The server's own word event is not echoed a second time.
    let answers = t.serve(&mut s, &second, Seat::Red);
    assert!(said(&answers).is_empty(), "{:?}", said(&answers));
}

#[test]
fn s7p6_3_6_the_verdict_on_each_word_touched_piece_and_impossible_prefix() {
    let (mut t, mut s) = red();
    let outs = press(&mut s, &mut t, "062", Seat::Red);
    let touched = said(&outs)
        .into_iter()
        .any(|u| matches!(u, Utterance::PieceTouched { .. }));
    assert!(touched, "{:?}", said(&outs));
    let (mut t, mut s) = red();
    // 馬 on file 5: no horse stands there, so no move can start so (6.3(6)(b)).
    let outs = press(&mut s, &mut t, "025", Seat::Red);
    // The words he said are named with the verdict (the phrasebook's shared `echo.impossible`).
    let horse_five = vec![Word::Piece(Kind::Horse), Word::Numeral(5)];
    assert!(
        said(&outs).contains(&Utterance::Impossible {
            words: horse_five,
            side: Color::Red
        }),
        "{:?}",
        said(&outs)
    );
}

#[test]
fn black_words_are_written_as_black_writes_them() {
    let mut t = Table::part6();
    t.play(Seat::Red, "炮二平五", "h2e2");
    let mut s = join(&t, "black", SessionOptions::default());
    let outs = press(&mut s, &mut t, "028+7", Seat::Black);
    let texts: Vec<Command> = sent(&outs);
    assert_eq!(
        texts,
        ["馬", "８", "進", "７"]
            .map(|w| Command::Word { text: w.into() })
            .to_vec()
    );
}

#[test]
fn s7p6_5_both_times_are_asked_of_the_server_and_the_answer_said() {
    let (mut t, mut s) = red();
    let outs = press(&mut s, &mut t, "/1", Seat::Red);
    assert_eq!(sent(&outs), vec![Command::QueryTime]);
    assert!(said(&outs).iter().any(|u| matches!(
        u,
        Utterance::Times { reason: TimeReason::Query, first, .. } if first.side == Color::Red
    )));
}

#[test]
fn the_opponents_last_move_and_the_last_message_are_repeated_locally() {
    let mut t = Table::part6();
    let mut s = join(&t, "black", SessionOptions::default());
    let none = press(&mut s, &mut t, "/2", Seat::Black);
    assert!(said(&none).contains(&Utterance::Client(Notice::Nothing)));
    let moved = t.other_plays(&mut s, Seat::Red, "炮二平五", "h2e2");
    let reading = said(&moved)
        .into_iter()
        .find(|u| matches!(u, Utterance::Move { .. }))
        .expect("the move read");
    let again = press(&mut s, &mut t, "/2", Seat::Black);
    assert!(sent(&again).is_empty(), "answered locally");
    assert_eq!(said(&again).last(), Some(&reading));
    let last = press(&mut s, &mut t, ".", Seat::Black);
    assert_eq!(said(&last), vec![reading]);
}

#[test]
fn board_queries_are_answered_from_the_local_position() {
    let (mut t, mut s) = red();
    let pieces = |outs: &[Output]| match said(outs).last() {
        Some(Utterance::Client(Notice::Pieces(p))) => p.list.clone(),
        other => panic!("{other:?}"),
    };
    let file5 = press(&mut s, &mut t, "/35", Seat::Red);
    assert!(sent(&file5).is_empty());
    assert_eq!(pieces(&file5).len(), 4);
    assert_eq!(pieces(&press(&mut s, &mut t, "/43", Seat::Red)).len(), 2);
    assert!(pieces(&press(&mut s, &mut t, "/45", Seat::Red)).is_empty());
    let mine = pieces(&press(&mut s, &mut t, "/56", Seat::Red));
    assert_eq!(mine.len(), 2);
    assert!(
        mine.iter()
            .all(|p| p.piece.color == Color::Red && p.rank == 3)
    );
    let theirs = pieces(&press(&mut s, &mut t, "/65", Seat::Red));
    assert_eq!(
        (theirs[0].piece.color, theirs[0].file, theirs[0].rank),
        (Color::Black, 5, 10)
    );
    assert_eq!(pieces(&press(&mut s, &mut t, "/7", Seat::Red)).len(), 32);
}

#[test]
fn a69_2_a_draw_is_offered_declined_and_accepted_from_the_keypad() {
    let mut t = Table::part6();
    let mut red = join(&t, "red", SessionOptions::default());
    let offer = press(&mut red, &mut t, "/8", Seat::Red);
    assert_eq!(sent(&offer), vec![Command::OfferDraw]);
    // Every key is heard at once: the player knows what he offered.
    assert!(said(&offer).contains(&Utterance::Client(Notice::Sent(Sent::OfferDraw))));
    t.play(Seat::Red, "炮二平五", "h2e2");
    let mut black = join(&t, "black", SessionOptions::default());
    // The offer stands: black's `/ 8` accepts it.
    let accept = press(&mut black, &mut t, "/8", Seat::Black);
    assert_eq!(sent(&accept), vec![Command::AcceptDraw]);
    assert!(said(&accept).contains(&Utterance::Client(Notice::Sent(Sent::AcceptDraw))));
    assert!(black.is_over());

    let mut t = Table::part6();
    let mut red = join(&t, "red", SessionOptions::default());
    press(&mut red, &mut t, "/8", Seat::Red);
    t.play(Seat::Red, "炮二平五", "h2e2");
    let mut black = join(&t, "black", SessionOptions::default());
    let decline = press(&mut black, &mut t, "/9", Seat::Black);
    assert_eq!(sent(&decline), vec![Command::DeclineDraw]);
    assert!(said(&decline).contains(&Utterance::Client(Notice::Sent(Sent::DeclineDraw))));
    assert!(!black.is_over());
}

#[test]
fn a69_1_resignation_needs_its_confirmation() {
    let (mut t, mut s) = red();
    let ask = press(&mut s, &mut t, "/0", Seat::Red);
    assert!(sent(&ask).is_empty());
    assert!(said(&ask).contains(&Utterance::Client(Notice::ConfirmResign)));
    // Another key takes it back.
    let other = press(&mut s, &mut t, "/1", Seat::Red);
    assert!(said(&other).contains(&Utterance::Client(Notice::ResignCancelled)));
    // So does the end of the confirmation window.
    press(&mut s, &mut t, "/0", Seat::Red);
    let deadline = s.next_deadline().expect("a window");
    let late = s.handle(Input::Tick, deadline);
    assert!(said(&[late]).contains(&Utterance::Client(Notice::ResignCancelled)));
    // `/ 0` twice resigns.
    let done = press(&mut s, &mut t, "/0/0", Seat::Red);
    assert_eq!(sent(&done), vec![Command::Resign]);
    assert!(s.is_over());
    assert!(
        said(&done)
            .iter()
            .any(|u| matches!(u, Utterance::GameEnd { .. }))
    );
}

#[test]
fn s7p7_4_2_g_a_repeat_owed_is_prompted_sent_as_repeat_words_and_confirmed() {
    // Red (blind, VI board) moves; black owes the repeat of red's announcement.
    let mut t = Table::part7();
    t.play(Seat::Red, "炮二平五", "h2e2");
    let mut black = join(&t, "black", SessionOptions::default());
    let prompt = press(&mut black, &mut t, "/-", Seat::Black);
    assert!(prompts_repeat_of(&prompt, Color::Red));
    repeats_cannon_two_to_five(&mut black, &mut t, Seat::Black);
    let confirm = press(&mut black, &mut t, "/+", Seat::Black);
    assert_eq!(sent(&confirm), vec![Command::ConfirmRepeat]);
}

#[test]
fn s7p7_4_2_c_on_mirrored_boards_the_referees_words_are_repeated_as_the_players_own_move() {
    // Red, without notation, moves on the VI board; the referee announces; red repeats.
    let mut t = Table::part7_red_without_notation();
    let mut early = join(&t, "red", SessionOptions::default());
    t.other(
        &mut early,
        Seat::Red,
        Command::BoardMove {
            board: None,
            mv: "h2e2".parse().unwrap(),
        },
    );
    for w in ["炮", "二", "平", "五"] {
        t.other(&mut early, Seat::Referee, Command::Word { text: w.into() });
    }
    // Whether the session followed the events or joined after them, the words are red's own.
    let late = join(&t, "red", SessionOptions::default());
    for mut s in [early, late] {
        let prompt = press(&mut s, &mut t, "/-", Seat::Red);
        assert!(prompts_repeat_of(&prompt, Color::Red));
    }
    let mut s = join(&t, "red", SessionOptions::default());
    repeats_cannon_two_to_five(&mut s, &mut t, Seat::Red);
}

/// Whether the outputs prompt for the repeat of `mover`'s move.
fn prompts_repeat_of(outs: &[Output], mover: Color) -> bool {
    said(outs)
        .iter()
        .any(|u| matches!(u, Utterance::RepeatDue { mover: m, .. } if *m == mover))
}

/// Keys 炮二平五 as a repeat: sent as four repeat words, and the repeat is done.
fn repeats_cannon_two_to_five(s: &mut Session, t: &mut Table, seat: Seat) {
    let repeat = press(s, t, "062*5", seat);
    assert_eq!(
        sent(&repeat),
        ["炮", "二", "平", "五"]
            .map(|w| Command::RepeatWord { text: w.into() })
            .to_vec()
    );
    assert!(said(&repeat).contains(&Utterance::Repeated));
}

#[test]
fn the_clock_the_referee_and_help() {
    let (mut t, mut s) = red();
    let clock = press(&mut s, &mut t, "E", Seat::Red);
    assert_eq!(sent(&clock), vec![Command::PressClock]);
    assert_eq!(clock[0].heard[0].earcon, Some(Earcon::ClockPress));
    let call = press(&mut s, &mut t, "/*", Seat::Red);
    assert_eq!(sent(&call), vec![Command::Signal]);
    assert!(said(&call).contains(&Utterance::Client(Notice::Sent(Sent::CallReferee))));
    let help = press(&mut s, &mut t, "/.", Seat::Red);
    assert!(said(&help).contains(&Utterance::Client(Notice::Help(HelpPage::First))));
    let cancel = press(&mut s, &mut t, "0B", Seat::Red);
    assert!(said(&cancel).contains(&Utterance::Client(Notice::Cancelled)));
    let unknown = press(&mut s, &mut t, "0.", Seat::Red);
    assert!(said(&unknown).contains(&Utterance::Client(Notice::UnknownKey)));
}

#[test]
fn a_refused_command_is_said_and_a_proxy_may_not_offer_or_resign() {
    let mut t = Table::part6();
    let mut black = join(&t, "black", SessionOptions::default());
    let early = press(&mut black, &mut t, "05", Seat::Black);
    assert!(said(&early).contains(&Utterance::Client(Notice::Refused(Refusal::NotYourTurn))));
    let proxy = join(&t, "red_proxy", SessionOptions::default());
    assert!(proxy.is_proxy() && proxy.side() == Some(Color::Red));
    let mut proxy = proxy;
    for keys in ["/8", "/9", "/0"] {
        let outs = press(&mut proxy, &mut t, keys, Seat::RedProxy);
        assert!(sent(&outs).is_empty());
        assert!(said(&outs).contains(&Utterance::Client(Notice::ProxyMayNot)));
    }
}

#[test]
fn a_lost_connection_is_said_nothing_is_sent_and_the_hello_asks_for_what_was_missed() {
    let (mut t, mut s) = red();
    let lost = s.handle(Input::Disconnected, 10);
    assert!(said(&[lost]).contains(&Utterance::Client(Notice::Disconnected)));
    let key = press(&mut s, &mut t, "1", Seat::Red);
    assert!(sent(&key).is_empty());
    let back = s.handle(Input::Connected, 20);
    assert_eq!(
        back.send,
        vec![ClientMsg::Hello {
            token: "tok".into(),
            since: Some(t.seq)
        }]
    );
    // Events already in the state are not applied twice.
    let (seq, e) = t.log.last().cloned().expect("an event");
    let dup = s.handle(
        Input::Server(ServerMsg::Event {
            table: TableId(1),
            seq,
            at: baoqi_arbiter::Millis(0),
            event: Box::new(e),
        }),
        30,
    );
    assert!(dup.heard.is_empty());
}

#[test]
fn the_status_line_shows_turn_clocks_last_move_and_words() {
    use baoqi_clients::session::{StatusInfo, render_status};
    let mut t = Table::part6();
    let mut s = join(&t, "black", SessionOptions::default());
    for c in "炮二".chars() {
        t.other(
            &mut s,
            Seat::Red,
            Command::Word {
                text: c.to_string(),
            },
        );
    }
    let info = StatusInfo::of(&s, t.now);
    assert_eq!(info.to_move, Some(Color::Red));
    assert_eq!(info.words, "炮二");
    assert!(info.clocks[0] <= 20 * 60_000 && info.clocks[1] == 20 * 60_000);
    let text = render_status(&info, 80);
    assert!(
        text.contains("\x1b#3") && text.contains("報炮二"),
        "{text:?}"
    );
}

#[test]
fn a_script_waits_on_the_table_and_presses_its_keys() {
    use baoqi_clients::session::{Action, Runner, parse_script};
    let mut t = Table::part6();
    let mut s = join(&t, "black", SessionOptions::default());
    let steps = parse_script("await my_turn\nkeys 0 2\nawait moved side=black").unwrap();
    let mut r = Runner::new(steps, 100);
    assert_eq!(r.poll(&s, 0), Action::Blocked, "red is to move");
    t.other_plays(&mut s, Seat::Red, "炮二平五", "h2e2");
    assert_eq!(r.poll(&s, 10), Action::Key(Key::Digit(0)));
    assert_eq!(r.poll(&s, 20), Action::WaitUntil(110));
    assert_eq!(r.poll(&s, 110), Action::Key(Key::Digit(2)));
    assert_eq!(r.poll(&s, 120), Action::Blocked, "no move of black's yet");
    assert!(!r.is_done());
}

#[test]
fn s7p7_4_2_g_iii_the_proxy_operates_board_and_clock_for_the_vi_player() {
    // A proxy named before the game operates the VI player's boards and clock; the words
    // stay the player's, and offers and resignations too (69).
    let mut t = Table::part7_proxy_and_deaf();
    t.say_and_move(Seat::Red, "炮二平五", "h2e2");
    let mut proxy = join(&t, "red_proxy", SessionOptions::default());
    let clock = press(&mut proxy, &mut t, "E", Seat::RedProxy);
    assert_eq!(sent(&clock), vec![Command::PressClock]);
    assert_eq!(clock[0].heard[0].earcon, Some(Earcon::ClockPress));
    assert!(
        !said(&clock)
            .iter()
            .any(|u| matches!(u, Utterance::Client(Notice::Refused(_)))),
        "the proxy's press is accepted: {:?}",
        said(&clock)
    );
    assert_eq!(t.m.snapshot().to_move, Color::Black, "the turn passed");
}

#[test]
fn s7p7_1_2_the_deaf_opponents_cards_are_spoken_to_the_vi_player() {
    // 7.1(2): a deaf player offers a draw and resigns by handing his cards over; the blind
    // player hears each card as it is handed, and answers by key.
    let mut t = Table::part7_proxy_and_deaf();
    t.play(Seat::Red, "炮二平五", "h2e2");
    let mut red = join(&t, "red", SessionOptions::default());
    // 69(2): in his own turn.
    let opened = t.other(
        &mut red,
        Seat::Black,
        Command::HandCard { card: Card::Draw },
    );
    assert!(
        said(&opened).contains(&Utterance::DrawOffered { by: Color::Black }),
        "{:?}",
        said(&opened)
    );
    assert!(
        opened
            .iter()
            .any(|o| o.heard.iter().any(|h| h.earcon == Some(Earcon::Card)))
    );
    let resigned = t.other(
        &mut red,
        Seat::Black,
        Command::HandCard { card: Card::Resign },
    );
    assert!(
        said(&resigned)
            .iter()
            .any(|u| matches!(u, Utterance::GameEnd { .. })),
        "{:?}",
        said(&resigned)
    );
    assert!(red.is_over());
}

#[test]
fn s7p7_1_1_b_the_talking_clock_speaks_both_times_at_every_press() {
    let mut t = Table::part6_talking();
    let mut black = join(&t, "black", SessionOptions::default());
    t.say_and_move(Seat::Red, "炮二平五", "h2e2");
    let press = t.other(&mut black, Seat::Red, Command::PressClock);
    assert!(
        said(&press).iter().any(|u| matches!(
            u,
            Utterance::Times {
                reason: TimeReason::ClockPress,
                ..
            }
        )),
        "{:?}",
        said(&press)
    );
}

// A key that takes back the resignation does nothing else; a key pressed while
// the connection is down is refused aloud, never echoed as if it were given.

#[test]
fn a69_1_the_key_that_cancels_a_resignation_does_nothing_else() {
    for (keys, what) in [("E", "the clock"), ("5", "a word"), ("/1", "a query")] {
        let (mut t, mut s) = red();
        press(&mut s, &mut t, "/0", Seat::Red);
        let cancel = press(&mut s, &mut t, keys, Seat::Red);
        assert!(
            said(&cancel).contains(&Utterance::Client(Notice::ResignCancelled)),
            "{what}: {:?}",
            said(&cancel)
        );
        assert!(
            sent(&cancel).is_empty(),
            "{what} was sent: {:?}",
            sent(&cancel)
        );
        let heard_word = said(&cancel)
            .iter()
            .any(|u| matches!(u, Utterance::Word { .. }));
        assert!(!heard_word, "{what}: {:?}", said(&cancel));
        // The next key is itself again.
        let next = press(&mut s, &mut t, "/1", Seat::Red);
        assert_eq!(sent(&next), vec![Command::QueryTime], "{what}");
    }
}

#[test]
fn a_word_keyed_while_disconnected_is_refused_aloud_not_echoed() {
    let (mut t, mut s) = red();
    s.handle(Input::Disconnected, 10);
    let keys = press(&mut s, &mut t, "06", Seat::Red);
    assert!(sent(&keys).is_empty());
    let heard = said(&keys);
    assert!(
        !heard.iter().any(|u| matches!(u, Utterance::Word { .. })),
        "echoed as if given: {heard:?}"
    );
    assert!(
        heard.contains(&Utterance::Client(Notice::NotSent)),
        "{heard:?}"
    );
}

/// Keys typed quickly cut each other's echo (only 六 was heard of 0 1 2 + 6); every word
/// binds (6.3(6)(a)), so the whole announcement is read back once it is complete.
#[test]
fn s7p6_3_6_a_the_bound_announcement_is_read_back_whole() {
    let (mut t, mut s) = red();
    let outs = press(&mut s, &mut t, "062*5", Seat::Red);
    let back = Utterance::ReadBack {
        side: Color::Red,
        words: vec![
            Word::Piece(Kind::Cannon),
            Word::Numeral(2),
            Word::Across,
            Word::Numeral(5),
        ],
    };
    assert_eq!(
        said(&outs).iter().filter(|u| **u == back).count(),
        1,
        "{:?}",
        said(&outs)
    );
}

/// A stop key (Backspace with nothing pending, or `/ /`) silences what is being read;
/// nothing is sent.
#[test]
fn the_stop_key_stops_speech_and_sends_nothing() {
    for keys in ["B", "//"] {
        let (mut t, mut s) = red();
        let outs = press(&mut s, &mut t, keys, Seat::Red);
        assert!(outs.iter().any(|o| o.stop_speech), "{keys}");
        assert!(sent(&outs).is_empty(), "{keys}");
    }
}

/// `.` repeated a stale time (9:04 read when the clock showed 8:49). A time repeated is
/// read from the live clock.
#[test]
fn s7p6_5_a_repeated_time_is_read_from_the_live_clock() {
    let (mut t, mut s) = red();
    let asked = press(&mut s, &mut t, "/1", Seat::Red);
    let first_left = |u: &Utterance| match u {
        Utterance::Times { first, .. } => Some((first.side, first.left)),
        _ => None,
    };
    let (side, then) = said(&asked)
        .iter()
        .find_map(first_left)
        .expect("the times were said");
    assert_eq!(side, Color::Red, "6.5(2): the side to move first");
    t.now += 15_000;
    let again = press(&mut s, &mut t, ".", Seat::Red);
    let (_, now) = said(&again).iter().find_map(first_left).expect("repeated");
    let lost = then.saturating_sub(now).as_millis();
    assert!(
        (14_000..=16_000).contains(&lost),
        "red's running clock lost {lost} ms"
    );
}

/// After a reconnection only 「已連線，你是紅方」 was said. The player hears where the game
/// stands: whose turn, the words he has already bound himself to, an offer waiting for his
/// answer.
#[test]
fn after_a_reconnection_the_player_hears_whose_turn_and_his_bound_words() {
    let mut t = Table::part6();
    t.say(Seat::Red, "炮二");
    let mut s = Session::new("tok", SessionOptions::default());
    s.handle(Input::Connected, 0);
    s.handle(
        Input::Server(ServerMsg::Welcome {
            role: baoqi_protocol::Role::Red,
            name: "甲".into(),
            event: EventId(1),
            tables: vec![TableId(1)],
        }),
        0,
    );
    let state = s.handle(Input::Server(t.state()), 0);
    let texts: Vec<String> = said(std::slice::from_ref(&state))
        .iter()
        .map(|u| baoqi_audio::phrasebook::phrase(u).display)
        .collect();
    let all = texts.join(" / ");
    assert!(all.contains("輪到你") && all.contains("炮二"), "{all}");
}

/// After any pause (a referee's adjournment, 103; a server's restart or a node's takeover)
/// the player hears at once, with 對局繼續, whose move it is and which of his words already
/// bind (每一字不得反悔, 6.3(6)(a)): a blind player cannot glance at the clock or the board.
#[test]
fn a103_104_on_resumption_the_player_hears_whose_move_and_his_bound_words() {
    let (mut t, mut s) = red();
    press(&mut s, &mut t, "062", Seat::Red);
    let pause = Command::Pause {
        reason: baoqi_arbiter::PauseReason::ServerRestart,
    };
    t.other(&mut s, Seat::Referee, pause);
    let resumed = said(&t.other(&mut s, Seat::Referee, Command::Resume));
    let standing = resumed.iter().find_map(|u| match u {
        Utterance::Client(Notice::Standing(st)) => Some(st.clone()),
        _ => None,
    });
    let st = standing.unwrap_or_else(|| panic!("no standing after 對局繼續: {resumed:?}"));
    assert_eq!(
        resumed[0],
        Utterance::Resumed,
        "對局繼續 first: {resumed:?}"
    );
    assert!(st.you, "輪到你走");
    assert_eq!(st.words, vec![Word::Piece(Kind::Cannon), Word::Numeral(2)]);
    // The opponent hears whose move it is too.
    let mut black = join(&t, "black", SessionOptions::default());
    let pause = Command::Pause {
        reason: baoqi_arbiter::PauseReason::ServerRestart,
    };
    t.other(&mut black, Seat::Referee, pause);
    let heard = said(&t.other(&mut black, Seat::Referee, Command::Resume));
    assert!(
        heard.iter().any(|u| matches!(u, Utterance::Client(Notice::Standing(st)) if !st.you && st.to_move == Color::Red)),
        "{heard:?}"
    );
}

#[test]
fn a_table_that_does_not_answer_is_said_as_such_not_as_a_refused_command() {
    let (_t, mut s) = red();
    // The server could not join the table (a federation's node late): it says so, and
    // joins it again by itself; the player pressed nothing.
    let out = s.handle(
        Input::Server(ServerMsg::Error {
            id: None,
            code: baoqi_protocol::ErrorCode::Unavailable,
            message: "table 1 does not answer now: joining it again in 1 s".into(),
        }),
        0,
    );
    let heard = said(&[out]);
    assert!(
        heard.contains(&Utterance::Client(Notice::Refused(Refusal::TableAway))),
        "{heard:?}"
    );
    assert_eq!(
        Notice::Refused(Refusal::TableAway).phrase().display,
        "此台暫時沒有回應"
    );
}
