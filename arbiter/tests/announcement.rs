//! The spoken announcement and its binding (附表七 6.3(2)-(3), 6.3(6)-(7), 7.4(2)(a)-(f)),
//! clause by clause.

use crate::common;

use baoqi_arbiter::{Command, Event, Illegality, Rejection, Seat, Side, Speaker};
use baoqi_rules::Kind;
use common::{Table, art, four, m, part6, part7, pt, regular};

#[test]
fn s7p6_3_2_every_move_is_announced_word_by_word_with_the_prefix_state() {
    let mut t = Table::started(part6());
    let ev = t.say(Seat::Red, "炮二");
    let words: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Word {
                slot,
                possible,
                completions,
                next,
                ..
            } => Some((*slot, *possible, *completions, next.len())),
            _ => None,
        })
        .collect();
    assert_eq!(words.len(), 2);
    assert!(words.iter().all(|w| w.1 && w.2 > 0 && w.3 > 0));
    assert_eq!((words[0].0, words[1].0), (0, 1));
}

#[test]
fn s7p6_3_6_a_first_two_words_touch_the_piece() {
    let mut t = Table::started(part6());
    let ev = t.say(Seat::Red, "炮二");
    let (point, can) = find!(ev, Event::Touched { point, can_move, .. } => (*point, *can_move));
    assert_eq!((point, can), (pt("h2"), true));
    let touched = t.m.snapshot().touched.expect("a touched piece");
    assert_eq!((touched.point, touched.kind), (pt("h2"), Kind::Cannon));
}

#[test]
fn s7p6_3_6_a_no_word_is_withdrawn_after_the_announcement_is_complete() {
    let mut t = Table::started(part6());
    let ev = t.say(Seat::Red, "炮二平五");
    let mv = find!(ev, Event::Announced { announcement, .. } => announcement.mv);
    assert_eq!(mv, Some(m("h2e2")));
    let r = t.try_cmd(Seat::Red, Command::Word { text: "馬".into() });
    assert!(
        matches!(r, Err(Rejection::AnnouncementBound { .. })),
        "{r:?}"
    );
}

#[test]
fn s7p6_3_6_b_correction_only_after_an_impossible_prefix() {
    let mut t = Table::started(part6());
    // 馬二平三 cannot be any move: the horse never moves sideways.
    let ev = t.say(Seat::Red, "馬二平");
    assert!(has!(ev, Event::Impossible { .. }));
    // A fresh attempt is allowed, and the log keeps both.
    let ev = t.say(Seat::Red, "馬二進三");
    assert!(has!(ev, Event::Announced { announcement, .. } if announcement.mv.is_some()));
    let log = t.m.snapshot().log;
    assert_eq!(log.len(), 7);
    assert!(!log[2].possible);
    assert!(log.windows(2).all(|w| w[0].at <= w[1].at));
}

#[test]
fn s7p6_3_6_a_the_touched_piece_binds_the_new_attempt() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "炮二"); // touches the cannon on h2
    t.ok(Seat::Red, Command::Word { text: "九".into() }); // 炮二九: impossible
    t.ok(Seat::Red, Command::Word { text: "馬".into() });
    let r = t.try_cmd(Seat::Red, Command::Word { text: "二".into() });
    assert!(matches!(r, Err(Rejection::TouchedPiece { .. })), "{r:?}");
    // 馬炮 is impossible; the next attempt names the cannon and binds.
    let ev = t.say(Seat::Red, "炮");
    assert!(has!(ev, Event::Impossible { .. }));
    let ev = t.say(Seat::Red, "炮二平五");
    let mv = find!(ev, Event::Announced { announcement, .. } => announcement.mv);
    assert_eq!(mv, Some(m("h2e2")));
}

#[test]
fn s7p6_3_6_a_an_illegal_but_possible_announcement_is_still_binding() {
    // 車一平二: a rook may move sideways, but its own horse stands on h0.
    let mut t = Table::started(part6());
    let ev = t.say(Seat::Red, "車一平二");
    let illegal = find!(ev, Event::Announced { announcement, .. } => announcement.illegal);
    assert_eq!(illegal, Some(Illegality::Blocked { mv: m("i0h0") }));
    let r = t.try_cmd(Seat::Red, Command::Word { text: "車".into() });
    assert!(matches!(r, Err(Rejection::AnnouncementBound { .. })));
}

#[test]
fn s7p6_3_7_without_notation_the_referee_announces_first_and_the_player_repeats() {
    let mut cfg = part6();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    let r = t.try_cmd(Seat::Red, Command::Word { text: "炮".into() });
    assert!(matches!(r, Err(Rejection::OutOfOrder { .. })));
    let ev = t.say(Seat::Referee, "炮二平五");
    assert!(has!(
        ev,
        Event::Announced {
            by: Speaker::Referee,
            ..
        }
    ));
    let words = find!(ev, Event::RepeatDue { words, article, .. } => (*words, article.clone()));
    assert_eq!(words, (four("炮二平五"), art("6.3(7)")));
    t.board(Seat::Red, "h2e2");
    // Pressing before the repeat is a clock-press violation.
    let ev = t.press(Seat::Red);
    assert!(has!(ev, Event::Violation { .. }));
    let ev = t.repeat(Seat::Red, "炮二平五");
    assert!(has!(ev, Event::Repeated { done: true, .. }));
    let ev = t.press(Seat::Red);
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn s7p7_4_2_c_without_notation_the_player_moves_first() {
    let mut cfg = part7();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    let r = t.try_cmd(Seat::Referee, Command::Word { text: "炮".into() });
    assert!(matches!(r, Err(Rejection::OutOfOrder { .. })), "{r:?}");
    t.board(Seat::Red, "h2e2");
    let ev = t.say(Seat::Referee, "炮二平五");
    let due = find!(ev, Event::RepeatDue { article, mirror, .. } => (article.clone(), *mirror));
    assert_eq!(
        due,
        (art("7.4(2)(c)"), false),
        "his own move, not a mirroring"
    );
    // Two boards, yet the repeat is of the referee's words: no confirmation by card.
    let owed = t.m.snapshot().pending.repeat.expect("a repeat owed");
    assert!(!owed.mirror);
    assert_eq!(owed.mover, Side::Red);
    t.repeat(Seat::Red, "炮二平五");
    let ev = t.press(Seat::Red);
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn s7p7_4_2_d_i_a_deaf_player_signals_and_the_referee_announces() {
    let mut cfg = part7();
    cfg.black.categories = vec![baoqi_arbiter::Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.repeat(Seat::Black, "炮二平五");
    t.board(Seat::Black, "h2e2");
    let r = t.try_cmd(Seat::Black, Command::Word { text: "馬".into() });
    assert!(matches!(r, Err(Rejection::NotAllowed { .. })));
    let ev = t.ok(Seat::Black, Command::Signal);
    assert!(has!(ev, Event::RefereeNeeded { .. }));
    t.board(Seat::Black, "h9g7");
    t.say(Seat::Referee, "馬８進７");
    let ev = t.press(Seat::Black);
    assert!(has!(
        ev,
        Event::Moved {
            by: Some(Speaker::Referee),
            ..
        }
    ));
}

#[test]
fn s7p7_4_2_d_ii_the_proxy_announces_and_presses_for_a_deaf_player() {
    let mut cfg = part7();
    cfg.black.categories = vec![baoqi_arbiter::Category::Deaf];
    cfg.black.proxy = Some("丙".into());
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    t.board(Seat::Black, "h2e2");
    t.board(Seat::Black, "h9g7");
    t.say(Seat::BlackProxy, "馬８進７");
    let ev = t.press(Seat::BlackProxy);
    assert!(has!(
        ev,
        Event::Moved {
            by: Some(Speaker::Proxy),
            ..
        }
    ));
}

#[test]
fn s7p7_4_2_f_i_the_proxys_words_bind_like_the_players() {
    let mut cfg = part7();
    cfg.black.categories = vec![baoqi_arbiter::Category::Deaf];
    cfg.black.proxy = Some("丙".into());
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    t.board(Seat::Black, "h2e2");
    t.board(Seat::Black, "h9g7");
    t.say(Seat::BlackProxy, "馬２進３");
    // Announced b9c7 but the board shows h9g7: check (a), the board is corrected.
    let ev = t.press(Seat::BlackProxy);
    assert!(has!(ev, Event::CorrectionRequired { .. }));
}

#[test]
fn s7p7_4_2_f_iii_when_the_referee_announces_the_board_move_governs() {
    let mut cfg = part7();
    cfg.black.categories = vec![baoqi_arbiter::Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.repeat(Seat::Black, "炮二平五");
    t.board(Seat::Black, "h2e2");
    t.board(Seat::Black, "h9g7");
    t.say(Seat::Referee, "馬２進３"); // the referee misreads
    let ev = t.press(Seat::Black);
    let mv = find!(ev, Event::Moved { mv, .. } => mv.iccs);
    assert_eq!(mv, m("h9g7"));
    assert!(has!(
        ev,
        Event::Checked {
            outcome: baoqi_arbiter::CheckOutcome::BoardGoverns,
            ..
        }
    ));
}

#[test]
fn s7p7_4_2_a_no_announcement_in_a_regular_game() {
    let mut t = Table::started(regular());
    let r = t.try_cmd(Seat::Red, Command::Word { text: "炮".into() });
    assert_eq!(r, Err(Rejection::NotAnnouncing));
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn s7p7_4_3_a_physical_disability_without_a_vi_opponent_needs_no_announcement() {
    let mut cfg = regular();
    cfg.kind = baoqi_arbiter::EventKind::Part7;
    cfg.red.categories = vec![baoqi_arbiter::Category::Physical];
    assert!(!cfg.announcing());
    let mut t = Table::started(cfg);
    t.board(Seat::Red, "h2e2");
    assert!(has!(t.press(Seat::Red), Event::Moved { .. }));
}

#[test]
fn s7p6_3_5_the_referee_or_helper_moves_and_presses_for_a_player() {
    let mut cfg = part6();
    cfg.red.categories.push(baoqi_arbiter::Category::Physical);
    cfg.red.proxy = Some("助手".into());
    let mut t = Table::started(cfg);
    t.say(Seat::Red, "炮二平五");
    t.board(Seat::RedProxy, "h2e2");
    assert!(has!(t.press(Seat::RedProxy), Event::Moved { .. }));
    t.say(Seat::Black, "馬８進７");
    t.board(Seat::Referee, "h9g7");
    assert!(has!(t.press(Seat::Referee), Event::Moved { .. }));
}

#[test]
fn s7p6_3_5_an_unnamed_proxy_is_refused() {
    let mut t = Table::started(part6());
    let r = t.try_cmd(Seat::RedProxy, Command::PressClock);
    assert!(matches!(r, Err(Rejection::NoProxy { .. })));
}

/// 附表七 6.3(6)(a): a word after the announcement is complete is refused, and the refusal
/// changes nothing — not the words already said, not the scoresheet, not the clocks' catch-up
/// (the undo no longer copies the words and the scoresheet, it cuts them back).
#[test]
fn s7p6_3_6_a_a_refused_word_leaves_the_words_and_the_scoresheet_as_they_were() {
    let mut t = Table::started(part6());
    for (seat, text, mv) in [
        (Seat::Red, "炮二平五", "h2e2"),
        (Seat::Black, "馬８進７", "h9g7"),
        (Seat::Red, "馬二進三", "h0g2"),
    ] {
        t.say(seat, text);
        t.board(seat, mv);
        t.press(seat);
    }
    t.say(Seat::Black, "車９平８");
    let before = t.m.clone();
    let words = t.m.snapshot().log.len();
    // Time passes (the catch-up would stamp alerts), then a word past the announcement.
    t.wait(30_000);
    let r = t.try_cmd(Seat::Black, Command::Word { text: "馬".into() });
    assert!(
        matches!(r, Err(Rejection::AnnouncementBound { .. })),
        "{r:?}"
    );
    assert!(t.m == before, "a refused word changed the match");
    let after = t.m.snapshot();
    assert_eq!(after.log.len(), words);
    assert_eq!(after.moves.len(), 3);
    // And the next accepted command still sees every word and move.
    t.board(Seat::Black, "i9h9");
    assert_eq!(
        t.m.snapshot().moves.len(),
        3,
        "the move is on the sheet once pressed"
    );
    t.press(Seat::Black);
    assert_eq!(t.m.snapshot().moves.len(), 4);
}
