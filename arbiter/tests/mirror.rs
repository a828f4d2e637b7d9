//! Mirrored boards (附表七 7.4(2)(g)): each side operates its own board, the
//! opponent repeats the announcement and mirrors the move, divergences go to the referee.

use crate::common;

use baoqi_arbiter::{
    BoardId, Category, Command, Event, Owed, Rejection, Seat, Side, ViolationKind, ViolationReason,
};
use baoqi_rules::Kind;
use common::{Table, art, four, m, part7, pt};

fn regular_board(t: &Table) -> (String, bool) {
    let v = t.m.snapshot();
    let b = v
        .boards
        .iter()
        .find(|b| b.board == BoardId::Regular)
        .unwrap();
    (b.placement.clone(), b.diverging)
}

#[test]
fn s7p7_4_2_g_ii_the_opponent_repeats_and_mirrors_first() {
    let mut t = Table::started(part7());
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    let (words, mover, article, mirror) = find!(ev, Event::RepeatDue { side: Side::Black, words, mover, article, mirror } => (*words, *mover, article.clone(), *mirror));
    assert_eq!(
        (words, mover, article, mirror),
        (four("炮二平五"), Side::Red, art("7.4(2)(g)(ii)"), true)
    );
    // The regular board still shows the position before red's move: no divergence yet.
    assert!(!t.m.diverging());
    let pending = t.m.snapshot().pending;
    let owed = pending.repeat.expect("a repeat owed");
    assert_eq!((owed.words, owed.mover), (four("炮二平五"), Side::Red));
    assert!(owed.mirror, "a card UI may confirm a mirroring");
    let ev = t.repeat(Seat::Black, "炮二平五");
    assert!(has!(ev, Event::Repeated { done: true, .. }));
    t.board(Seat::Black, "h2e2");
    assert!(has!(
        t.turn(Seat::Black, "馬８進７", "h9g7"),
        Event::Moved { .. }
    ));
}

#[test]
fn s7p7_4_2_g_ii_pressing_before_mirroring_is_a_clock_press_violation() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.say(Seat::Black, "馬８進７");
    t.board(Seat::Black, "h9g7"); // his own move on a board that lacks red's
    let ev = t.press(Seat::Black);
    let reason =
        find!(ev, Event::Violation { kind: ViolationKind::Clock, reason, .. } => reason.clone());
    assert_eq!(
        reason,
        ViolationReason::PressedEarly {
            missing: vec![Owed::Move, Owed::Repeat]
        }
    );
}

#[test]
fn s7p7_4_2_g_ii_a_wrong_repeat_starts_again() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let ev = t.repeat(Seat::Black, "炮二平六");
    assert!(has!(ev, Event::Repeated { mismatch: true, .. }));
    assert!(t.m.snapshot().pending.repeat.is_some());
    let ev = t.repeat(Seat::Black, "炮二平五");
    assert!(has!(ev, Event::Repeated { done: true, .. }));
}

#[test]
fn s7p7_4_2_g_ii_a_card_ui_confirms_the_repeat() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let ev = t.ok(Seat::Black, Command::ConfirmRepeat);
    assert!(has!(ev, Event::Repeated { done: true, .. }));
}

#[test]
fn s7p7_4_2_g_iv_a_divergence_is_shown_until_corrected() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.repeat(Seat::Black, "炮二平五");
    let ev = t.board(Seat::Black, "h2f2"); // mirrored wrongly
    let points =
        find!(ev, Event::BoardDiverges { board: BoardId::Regular, points, .. } => points.clone());
    assert_eq!(points, vec![pt("e2"), pt("f2")]);
    assert!(has!(ev, Event::RefereeNeeded { .. }));
    assert!(regular_board(&t).1);
    let ev = t.board(Seat::Black, "f2e2");
    assert!(has!(
        ev,
        Event::BoardAgrees {
            board: BoardId::Regular
        }
    ));
    assert!(!t.m.diverging());
}

#[test]
fn s7p7_4_2_g_iv_the_referee_corrects_a_board() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.board(Seat::Black, "h2f2");
    assert!(t.m.diverging());
    let placement = t.m.position().fen().split(' ').next().unwrap().to_string();
    let ev = t.ok(
        Seat::Referee,
        Command::CorrectBoard {
            board: BoardId::Regular,
            placement: placement.clone(),
        },
    );
    assert!(has!(ev, Event::BoardAgrees { .. }));
    assert_eq!(regular_board(&t).0, placement);
}

#[test]
fn s7p7_4_2_g_i_each_side_operates_its_own_board() {
    let mut t = Table::started(part7());
    let r = t.try_cmd(
        Seat::Black,
        Command::BoardMove {
            board: Some(BoardId::Vi),
            mv: m("h2e2"),
        },
    );
    assert!(matches!(r, Err(Rejection::NotAllowed { .. })));
}

#[test]
fn s7p7_4_2_g_iii_a_vi_proxy_operates_both_boards_and_the_clock() {
    let mut cfg = part7();
    cfg.red.proxy = Some("丙".into());
    let mut t = Table::started(cfg);
    t.say(Seat::Red, "炮二平五");
    t.ok(
        Seat::RedProxy,
        Command::BoardMove {
            board: Some(BoardId::Vi),
            mv: m("h2e2"),
        },
    );
    t.ok(
        Seat::RedProxy,
        Command::BoardMove {
            board: Some(BoardId::Regular),
            mv: m("h2e2"),
        },
    );
    assert!(has!(t.press(Seat::RedProxy), Event::Moved { .. }));
    assert!(!t.m.diverging());
}

#[test]
fn s7p7_4_2_g_lift_and_place_steps_report_a_move() {
    let mut t = Table::started(part7());
    t.say(Seat::Red, "炮二平五");
    t.ok(
        Seat::Red,
        Command::Lift {
            board: None,
            point: pt("h2"),
        },
    );
    let hand = &t.m.snapshot().boards[0].hand;
    assert_eq!((hand[0].piece.kind, hand[0].from), (Kind::Cannon, pt("h2")));
    t.ok(
        Seat::Red,
        Command::Place {
            board: None,
            point: pt("e2"),
        },
    );
    assert!(has!(t.press(Seat::Red), Event::Moved { .. }));
}

/// Red offers a draw and captures black's horse with 炮二進七; the offer stands at the press.
fn red_offers_and_captures() -> Table {
    let mut t = Table::started(part7());
    t.ok(Seat::Red, Command::OfferDraw);
    let ev = t.turn(Seat::Red, "炮二進七", "h2h9");
    assert!(has!(ev, Event::DrawOfferStands { side: Side::Red }));
    t.repeat(Seat::Black, "炮二進七");
    t
}

fn offer_stands(t: &Table) -> bool {
    t.m.snapshot().offer.is_some_and(|o| o.stands)
}

#[test]
fn s7p7_4_2_g_ii_mirroring_never_declines_an_offer_lift_and_place() {
    let mut t = red_offers_and_captures();
    // 7.4(2)(g)(ii): black owes red's move on his board before his own. Lifting his captured
    // horse and red's cannon, and placing the cannon, is that duty, not a touch (69(2)(d)).
    let mut ev = Vec::new();
    for point in ["h9", "h2"] {
        ev.extend(t.ok(
            Seat::Black,
            Command::Lift {
                board: None,
                point: pt(point),
            },
        ));
    }
    ev.extend(t.ok(
        Seat::Black,
        Command::Place {
            board: None,
            point: pt("h9"),
        },
    ));
    assert!(!has!(ev, Event::DrawDeclined { .. }), "{ev:#?}");
    assert!(offer_stands(&t));
    assert!(!t.m.diverging());
    // Once his board shows the game, lifting a piece is a touch again: it declines.
    let ev = t.ok(
        Seat::Black,
        Command::Lift {
            board: None,
            point: pt("b9"),
        },
    );
    assert!(has!(
        ev,
        Event::DrawDeclined {
            side: Side::Black,
            ..
        }
    ));
}

#[test]
fn s7p7_4_2_g_ii_mirroring_never_declines_an_offer_whole_board_move() {
    let mut t = red_offers_and_captures();
    let ev = t.board(Seat::Black, "h2h9");
    assert!(!has!(ev, Event::DrawDeclined { .. }), "{ev:#?}");
    assert!(offer_stands(&t));
    let ev = t.ok(Seat::Black, Command::AcceptDraw);
    assert!(has!(ev, Event::GameOver { .. }));
}

#[test]
fn s7p7_4_2_g_ii_mirroring_selects_no_piece() {
    // Mirrored boards without announcements (a deaf player and a sighted one): 31(1) makes the
    // first own piece touched the selected piece, but black's own horse, lifted off his board
    // because red's cannon took it, is mirroring, not his touch.
    let mut cfg = part7();
    cfg.red.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.board(Seat::Red, "h2h9");
    t.press(Seat::Red);
    let mut ev = Vec::new();
    for point in ["h9", "h2"] {
        ev.extend(t.ok(
            Seat::Black,
            Command::Lift {
                board: None,
                point: pt(point),
            },
        ));
    }
    ev.extend(t.ok(
        Seat::Black,
        Command::Place {
            board: None,
            point: pt("h9"),
        },
    ));
    assert!(!has!(ev, Event::Touched { .. }), "{ev:#?}");
    let ev = t.ok(
        Seat::Black,
        Command::Lift {
            board: None,
            point: pt("b9"),
        },
    );
    let (point, can_move) =
        find!(ev, Event::Touched { side: Side::Black, point, can_move, .. } => (*point, *can_move));
    assert_eq!((point, can_move), (pt("b9"), true));
}
