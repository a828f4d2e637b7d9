//! 走子檢查 (附表七 6.4, 7.5), the clock-press rule (6.3(3), 7.4(2)(b)) and the
//! violation tallies (126–127, 70(4)).

use crate::common;

use baoqi_arbiter::{
    CheckOutcome, ClockMode, Command, EndCause, Event, Outcome, Owed, Phase, Seat, Side,
    ViolationKind, ViolationReason,
};
use common::{Table, art, four, m, part6};

fn tallies(t: &Table, side: usize) -> (u32, u32, u32) {
    let all = t.m.snapshot().tallies;
    let v = if side == 0 { all.red } else { all.black };
    (v.technical, v.recording, v.clock)
}

#[test]
fn s7p6_3_3_press_before_the_move_is_a_clock_press_violation_and_the_turn_goes_on() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "炮二平五");
    let ev = t.press(Seat::Red);
    let (kind, counted, count) =
        find!(ev, Event::Violation { kind, counted, count, .. } => (*kind, *counted, *count));
    assert_eq!((kind, counted, count), (ViolationKind::Clock, true, 1));
    assert!(!has!(ev, Event::Moved { .. }));
    assert_eq!(t.m.to_move(), Side::Red);
    assert_eq!(t.m.snapshot().clock.running, Some(Side::Red));
}

#[test]
fn s7p6_3_3_press_before_the_announcement_is_a_clock_press_violation() {
    let mut t = Table::started(part6());
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    let reason = find!(ev, Event::Violation { reason, .. } => reason.clone());
    assert_eq!(
        reason,
        ViolationReason::PressedEarly {
            missing: vec![Owed::Announcement]
        }
    );
    t.say(Seat::Red, "炮二平五");
    assert!(has!(t.press(Seat::Red), Event::Moved { .. }));
    assert_eq!(tallies(&t, 0), (0, 0, 1));
}

#[test]
fn s7p6_4_a_legal_announcement_other_board_move_is_corrected_on_the_movers_time() {
    let mut t = Table::started(part6());
    t.at(5_000).say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::A,
            ..
        }
    ));
    let (mv, words) = find!(ev, Event::CorrectionRequired { mv, words, .. } => (*mv, *words));
    assert_eq!((mv, words), (m("h2h6"), four("炮二進四")));
    let finding = find!(ev, Event::Checked { finding, .. } => finding.clone());
    assert_eq!(finding.board, Some(m("h2e2")), "what the board showed");
    assert_eq!(finding.board_words, Some(four("炮二平五")));
    assert_eq!(t.m.snapshot().clock.running, Some(Side::Red));
    // The correction takes 3 s of red's time, then the move stands and black's clock runs.
    let ev = t.at(8_000).board(Seat::Red, "e2h6");
    let (iccs, clock_ms) = find!(ev, Event::Moved { mv, clock_ms, .. } => (mv.iccs, *clock_ms));
    assert_eq!(iccs, m("h2h6"));
    assert_eq!(clock_ms, 20 * 60_000 - 8_000 + 10_000);
    assert_eq!(t.m.to_move(), Side::Black);
    assert_eq!(tallies(&t, 0), (0, 0, 0));
}

#[test]
fn s7p6_4_a_the_referee_may_confirm_the_correction() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    let ev = t.ok(Seat::Referee, Command::ConfirmCheck);
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn s7p6_4_b_illegal_announcement_legal_board_move_of_that_piece_stands() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二"); // illegal: the horse stands on h0
    t.board(Seat::Red, "i0i1");
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::B,
            ..
        }
    ));
    let iccs = find!(ev, Event::Moved { mv, .. } => mv.iccs);
    assert_eq!(iccs, m("i0i1"));
    assert_eq!(tallies(&t, 0), (0, 1, 0));
    let words = find!(ev, Event::ReannounceRequired { words, .. } => *words);
    assert_eq!(words, four("車一進一"), "the words to announce again");
    // Still red's turn until the move is announced again and the clock pressed.
    assert_eq!(t.m.to_move(), Side::Red);
    let ev = t.say(Seat::Red, "車一進一");
    assert!(has!(ev, Event::Announced { announcement, .. } if announcement.mv.is_some()));
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Turn {
            side: Side::Black,
            ..
        }
    ));
}

#[test]
fn s7p6_4_b_a_wrong_reannouncement_is_another_recording_violation() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "i0i1");
    t.press(Seat::Red);
    let ev = t.say(Seat::Red, "車一進二");
    assert!(has!(
        ev,
        Event::Violation {
            kind: ViolationKind::Recording,
            count: 2,
            ..
        }
    ));
    t.say(Seat::Red, "車一進一");
    assert!(has!(
        t.press(Seat::Red),
        Event::Turn {
            side: Side::Black,
            ..
        }
    ));
}

#[test]
fn s7p6_4_c_illegal_announcement_other_piece_restores_and_is_a_technical_foul() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::C,
            ..
        }
    ));
    assert!(has!(ev, Event::RestoreRequired { .. }));
    assert_eq!(tallies(&t, 0), (1, 0, 0));
    assert_eq!(t.m.snapshot().pending.restore, Some(m("h2e2")));
    // The position is restored and another piece may be moved.
    t.board(Seat::Red, "e2h2");
    assert_eq!(t.m.snapshot().pending.restore, None);
    assert!(has!(
        t.turn(Seat::Red, "馬二進三", "h0g2"),
        Event::Moved { .. }
    ));
}

#[test]
fn s7p6_4_c_illegal_announcement_and_illegal_board_move_of_the_same_piece() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "i0i5"); // the rook jumps over the pawn on i3: illegal
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::C,
            ..
        }
    ));
}

#[test]
fn a126_2_several_technical_fouls_in_one_turn_count_once() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    t.board(Seat::Red, "e2h2");
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Violation {
            kind: ViolationKind::Technical,
            counted: false,
            count: 1,
            ..
        }
    ));
    assert_eq!(tallies(&t, 0), (1, 0, 0));
    assert_eq!(t.m.phase(), Phase::Playing);
}

#[test]
fn a126_3_a_technical_foul_absorbs_the_clock_press_violations_of_the_turn() {
    let mut t = Table::started(part6());
    t.press(Seat::Red); // nothing done: 按鐘違規
    assert_eq!(tallies(&t, 0), (0, 0, 1));
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "h2e2");
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::ViolationRemoved {
            kind: ViolationKind::Clock,
            count: 0,
            ..
        }
    ));
    assert_eq!(tallies(&t, 0), (1, 0, 0));
    // A later clock violation of the same turn is absorbed too.
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::Violation {
            kind: ViolationKind::Clock,
            counted: false,
            ..
        }
    ));
    assert_eq!(tallies(&t, 0), (1, 0, 0));
}

#[test]
fn a127_2_a70_4_reaching_the_technical_limit_loses() {
    let mut t = Table::started(part6());
    for _ in 0..2 {
        t.say(Seat::Red, "車一平二");
        t.board(Seat::Red, "h2e2");
        t.press(Seat::Red);
        if t.m.phase() == Phase::Over {
            break;
        }
        t.board(Seat::Red, "e2h2");
        t.turn(Seat::Red, "兵七進一", "c3c4");
        t.turn(Seat::Black, "卒３進１", "c6c5");
    }
    let r = t.m.snapshot().result.unwrap();
    assert_eq!(
        (r.outcome, r.articles),
        (Outcome::BlackWins, vec![art("70(4)"), art("127")])
    );
}

#[test]
fn a127_2_clock_limit_is_configurable_and_zero_means_none() {
    let mut cfg = part6();
    cfg.limits.clock = 1;
    let mut t = Table::started(cfg);
    let ev = t.press(Seat::Red);
    assert!(has!(
        ev,
        Event::GameOver {
            outcome: Outcome::BlackWins,
            ..
        }
    ));

    let mut cfg = part6();
    cfg.limits.clock = 0;
    let mut t = Table::started(cfg);
    for _ in 0..10 {
        t.press(Seat::Red);
    }
    assert_eq!(t.m.phase(), Phase::Playing);
    assert_eq!(tallies(&t, 0).2, 10);
}

#[test]
fn a126_4_every_recording_violation_counts() {
    let mut cfg = part6();
    cfg.limits.recording = 2;
    let mut t = Table::started(cfg);
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "i0i1");
    t.press(Seat::Red);
    let ev = t.say(Seat::Red, "車一進二");
    assert!(has!(
        ev,
        Event::GameOver {
            cause: EndCause::ViolationLimit {
                kind: ViolationKind::Recording,
                count: 2,
                ..
            },
            ..
        }
    ));
}

#[test]
fn s7p6_4_no_board_then_the_announcement_is_the_move() {
    let mut cfg = part6();
    cfg.red.board = Some(baoqi_arbiter::BoardUse::None);
    cfg.black.board = Some(baoqi_arbiter::BoardUse::None);
    cfg.time.default = common::tc(60_000, ClockMode::Plain, 0);
    let mut t = Table::started(cfg);
    t.say(Seat::Red, "炮二平五");
    assert!(has!(t.press(Seat::Red), Event::Moved { .. }));
}
