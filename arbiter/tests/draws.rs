//! 附表七 7.1(2) and 第69條: resignation, draw offers (incl. 連續提和, 123(2)(c)) and the deaf
//! players' cards (附表七 7.1(2)).

use crate::common;

use baoqi_arbiter::{
    BoardStep, Card, CardMove, Category, Command, Decline, EndCause, Event, Outcome, Phase,
    Rejection, Seat, Side, ViolationKind, ViolationReason,
};
use common::{Table, art, m, part6, part7, regular};

fn deaf_black() -> baoqi_arbiter::MatchConfig {
    let mut c = part7();
    c.black.categories = vec![Category::Deaf];
    c
}

#[test]
fn a69_1_resignation_needs_no_consent_in_any_turn() {
    let mut t = Table::started(part6());
    let ev = t.ok(Seat::Black, Command::Resign);
    let (o, cause, a) = find!(ev, Event::GameOver { outcome, cause, articles, .. } => (*outcome, cause.clone(), articles.clone()));
    assert_eq!((o, a), (Outcome::RedWins, vec![art("69(1)")]));
    assert_eq!(
        cause,
        EndCause::Resigned {
            loser: Side::Black,
            card: false
        }
    );
    assert!(has!(ev, Event::RefereeNeeded { .. }));
}

#[test]
fn a69_2_b_offer_in_own_turn_valid_from_its_end() {
    let mut t = Table::started(part6());
    let r = t.try_cmd(Seat::Black, Command::OfferDraw);
    assert!(matches!(r, Err(Rejection::OutOfOrder { .. })));
    t.ok(Seat::Red, Command::OfferDraw);
    let r = t.try_cmd(Seat::Black, Command::AcceptDraw);
    assert!(
        matches!(r, Err(Rejection::OutOfOrder { .. })),
        "not yet valid"
    );
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    assert!(has!(ev, Event::DrawOfferStands { side: Side::Red }));
    assert!(has!(ev, Event::Moved { .. }));
    assert!(t.m.snapshot().moves[0].draw_offer, "附表六 第二部份 3: ＝");
    assert!(
        t.m.scoresheet().contains("炮二平五＝ "),
        "{}",
        t.m.scoresheet()
    );
    let ev = t.ok(Seat::Black, Command::AcceptDraw);
    assert!(has!(
        ev,
        Event::GameOver {
            outcome: Outcome::Draw,
            ..
        }
    ));
}

#[test]
fn a69_2_d_touching_a_piece_declines() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let ev = t.say(Seat::Black, "馬８");
    assert!(has!(
        ev,
        Event::DrawDeclined {
            side: Side::Black,
            ..
        }
    ));
    let r = t.try_cmd(Seat::Black, Command::AcceptDraw);
    assert!(
        matches!(r, Err(Rejection::NoOffer)),
        "69(2)(c)(i): no change of mind"
    );
}

/// A game without announcements (nothing is said before the move): black offers a draw with
/// his move, the offer stands, and red is to move.
fn black_offers_without_announcements() -> Table {
    let mut t = Table::started(regular());
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    t.ok(Seat::Black, Command::OfferDraw);
    t.board(Seat::Black, "h9g7");
    let ev = t.press(Seat::Black);
    assert!(has!(ev, Event::DrawOfferStands { side: Side::Black }));
    t
}

/// The events by which an offer is declined or its card sent back.
fn declines(ev: &[Event]) -> Vec<Event> {
    ev.iter()
        .filter(|e| matches!(e, Event::DrawDeclined { .. } | Event::CardMoved { .. }))
        .cloned()
        .collect()
}

/// Red's `mv` reported as a lift and a place.
fn lift_and_place(t: &mut Table, seat: Seat, mv: &str) -> Vec<Event> {
    let mv = m(mv);
    let mut ev = t.ok(
        seat,
        Command::Lift {
            board: None,
            point: mv.from,
        },
    );
    ev.extend(t.ok(
        seat,
        Command::Place {
            board: None,
            point: mv.to,
        },
    ));
    ev
}

#[test]
fn a69_2_d_own_whole_board_move_declines_the_offer() {
    // 69(2)(d): red moves a piece without answering black's offer; reported as one whole move
    // it is the same touch as a lift and a place.
    let mut t = black_offers_without_announcements();
    let ev = t.board(Seat::Red, "h0g2");
    let how = find!(ev, Event::DrawDeclined { side: Side::Red, how } => *how);
    assert_eq!(how, Decline::TouchedPiece);
    let r = t.try_cmd(Seat::Red, Command::AcceptDraw);
    assert!(
        matches!(r, Err(Rejection::NoOffer)),
        "69(2)(c)(i): no change of mind"
    );
    let mut lifted = black_offers_without_announcements();
    let by_steps = lift_and_place(&mut lifted, Seat::Red, "h0g2");
    assert_eq!(declines(&ev), declines(&by_steps));
    assert!(has!(t.press(Seat::Red), Event::Moved { .. }));
}

#[test]
fn a69_2_d_deaf_players_whole_board_move_returns_the_draw_card() {
    // Deaf players on mirrored boards, no announcements (7.4(2)(g)): black hands the draw
    // card with his move. Red mirrors black's move first (7.4(2)(g)(ii)): not a touch; then
    // his own move, reported whole, declines and sends the card back (69(2)(d), 7.1(2)).
    let mut cfg = part7();
    cfg.red.categories = vec![Category::Deaf];
    cfg.black.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    t.board(Seat::Black, "h2e2");
    t.ok(Seat::Black, Command::HandCard { card: Card::Draw });
    t.board(Seat::Black, "h9g7");
    let ev = t.press(Seat::Black);
    assert!(has!(ev, Event::DrawOfferStands { side: Side::Black }));
    let ev = t.board(Seat::Red, "h9g7");
    assert!(declines(&ev).is_empty(), "mirroring: {ev:#?}");
    let ev = t.board(Seat::Red, "h0g2");
    assert_eq!(
        declines(&ev),
        vec![
            Event::CardMoved {
                owner: Side::Black,
                card: Card::Draw,
                holder: Side::Black,
                how: CardMove::Returned,
            },
            Event::DrawDeclined {
                side: Side::Red,
                how: Decline::TouchedPiece,
            },
        ]
    );
    let step = find!(ev, Event::Board { step, .. } => *step);
    assert_eq!(step, BoardStep::Move { mv: m("h0g2") });
}

#[test]
fn a69_2_c_second_offer_is_consecutive() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    // Black's material has not changed and black made no offer: 連續提和.
    let ev = t.ok(Seat::Red, Command::OfferDraw);
    let (kind, reason, cited) = find!(ev, Event::Violation { kind, reason, articles, .. } => (*kind, reason.clone(), articles.clone()));
    assert_eq!(kind, ViolationKind::Technical);
    assert_eq!(reason, ViolationReason::ConsecutiveDrawOffer);
    assert!(cited.contains(&art("123(2)(c)")));
    assert!(!has!(ev, Event::DrawOffered { .. }));
}

/// 69(2)(c)(ii): the snapshot says in advance when an offer would be 連續提和, so that a page
/// can warn before the draw card is handed.
#[test]
fn a69_2_c_ii_the_snapshot_says_when_a_reoffer_would_be_consecutive() {
    let mut t = Table::started(part6());
    assert!(t.m.snapshot().draw_barred.is_empty());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    assert_eq!(t.m.snapshot().draw_barred, vec![Side::Red]);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    assert_eq!(t.m.snapshot().draw_barred, vec![Side::Red]);
    t.turn(Seat::Red, "炮五進四", "e2e6"); // takes the middle pawn: black's material changed
    assert!(t.m.snapshot().draw_barred.is_empty());
}

#[test]
fn a69_2_c_ii_offer_again_after_the_opponents_material_changed() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    t.turn(Seat::Red, "炮五進四", "e2e6"); // takes the middle pawn: black's material changed
    t.turn(Seat::Black, "車９平８", "i9h9");
    let ev = t.ok(Seat::Red, Command::OfferDraw);
    assert!(has!(ev, Event::DrawOffered { .. }));
}

#[test]
fn a69_2_c_reoffer_after_material_change_stands() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    // 6.3(3): the capture is complete once the words and the board move are done; the
    // material of black has changed before red offers again (69(2)(c)(ii)), and the offer is
    // formal at the end of the turn (69(2)(b)).
    t.say(Seat::Red, "炮五進四");
    t.board(Seat::Red, "e2e6");
    let ev = t.ok(Seat::Red, Command::OfferDraw);
    assert!(!has!(ev, Event::Violation { .. }), "not 連續提和: {ev:#?}");
    assert!(has!(
        ev,
        Event::DrawOffered {
            side: Side::Red,
            ..
        }
    ));
    let ev = t.press(Seat::Red);
    assert!(has!(ev, Event::DrawOfferStands { side: Side::Red }));
    let ev = t.ok(Seat::Black, Command::DeclineDraw);
    assert!(has!(
        ev,
        Event::DrawDeclined {
            side: Side::Black,
            ..
        }
    ));
}

#[test]
fn a69_2_c_ii_reoffer_before_the_capture_is_complete_is_consecutive() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    // The capture is announced but not yet made on the board (6.3(3)): black's material has
    // not changed when red speaks.
    t.say(Seat::Red, "炮五進四");
    let ev = t.ok(Seat::Red, Command::OfferDraw);
    let reason = find!(ev, Event::Violation { reason, .. } => reason.clone());
    assert_eq!(reason, ViolationReason::ConsecutiveDrawOffer);
    assert!(!has!(ev, Event::DrawOffered { .. }));
}

#[test]
fn a69_2_c_ii_offer_again_after_the_opponents_offer_was_declined() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::DeclineDraw);
    t.ok(Seat::Black, Command::OfferDraw);
    t.turn(Seat::Black, "馬８進７", "h9g7");
    t.ok(Seat::Red, Command::DeclineDraw);
    let ev = t.ok(Seat::Red, Command::OfferDraw);
    assert!(has!(ev, Event::DrawOffered { .. }));
}

#[test]
fn s7p7_1_2_resignation_card_is_final() {
    let mut t = Table::started(deaf_black());
    let ev = t.ok(Seat::Black, Command::HandCard { card: Card::Resign });
    assert!(has!(
        ev,
        Event::CardMoved {
            card: Card::Resign,
            holder: Side::Red,
            ..
        }
    ));
    assert!(has!(
        ev,
        Event::GameOver {
            outcome: Outcome::RedWins,
            ..
        }
    ));
    assert_eq!(t.m.phase(), Phase::Over);
}

#[test]
fn s7p7_1_2_draw_card_returned_declines() {
    let mut t = Table::started(deaf_black());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    t.board(Seat::Black, "h2e2");
    t.ok(Seat::Black, Command::HandCard { card: Card::Draw });
    t.board(Seat::Black, "h9g7");
    t.say(Seat::Referee, "馬８進７");
    t.press(Seat::Black);
    let ev = t.ok(Seat::Red, Command::DeclineDraw);
    assert!(has!(
        ev,
        Event::CardMoved {
            owner: Side::Black,
            card: Card::Draw,
            holder: Side::Black,
            ..
        }
    ));
    assert!(has!(ev, Event::DrawDeclined { .. }));
}

#[test]
fn s7p7_1_2_exchanging_draw_cards_accepts() {
    let mut cfg = deaf_black();
    cfg.red.categories = vec![Category::Deaf, Category::Blind];
    let mut t = Table::started(cfg);
    let r = t.try_cmd(Seat::Black, Command::ReturnCard);
    assert!(matches!(r, Err(Rejection::NoOffer)));
    t.ok(Seat::Red, Command::HandCard { card: Card::Draw });
    t.board(Seat::Red, "h2e2");
    t.say(Seat::Referee, "炮二平五");
    t.press(Seat::Red);
    let ev = t.ok(Seat::Black, Command::ExchangeCards);
    assert!(has!(
        ev,
        Event::CardMoved {
            owner: Side::Black,
            card: Card::Draw,
            holder: Side::Red,
            ..
        }
    ));
    assert!(has!(
        ev,
        Event::GameOver {
            outcome: Outcome::Draw,
            ..
        }
    ));
}

#[test]
fn s7p7_1_2_cards_only_at_a_table_with_a_deaf_player() {
    let mut t = Table::started(part6());
    let r = t.try_cmd(Seat::Red, Command::HandCard { card: Card::Draw });
    assert!(matches!(r, Err(Rejection::Card { .. })));
}

#[test]
fn s7p7_1_2_a_proxy_cannot_resign_for_the_player() {
    let mut cfg = deaf_black();
    cfg.black.proxy = Some("丙".into());
    let mut t = Table::started(cfg);
    let r = t.try_cmd(Seat::BlackProxy, Command::Resign);
    assert!(matches!(r, Err(Rejection::NotAllowed { .. })));
}
