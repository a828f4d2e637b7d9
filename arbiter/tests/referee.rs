//! `docs/product.md` §10 and the referee's rulings: repetition warnings and endings through
//! the rules crate (61, 63–66), 官和 (67), oral verification (6.8, 7.9), pause and resume
//! with a sealed move (103–104, 125), recorded and rescinded violations (126), the
//! scoresheet (附表四 第三部份).

use crate::common;

use baoqi_arbiter::{
    Adjudication, Audience, CheckOutcome, Command, EndCause, Event, Millis, Outcome, PauseReason,
    Phase, Rejection, Seat, Side, ViolationKind,
};
use baoqi_rules::{EndReason, Pattern, WarningKind};
use common::{Table, art, m, part6, regular};

/// The referee's adjournment (103).
fn pause() -> Command {
    Command::Pause {
        reason: PauseReason::Adjournment,
    }
}

fn from(fen: &str) -> Table {
    let mut c = regular();
    c.start_fen = Some(fen.into());
    Table::started(c)
}

fn play(t: &mut Table, moves: &str) -> Vec<Event> {
    let mut all = Vec::new();
    for mv in moves.split_whitespace() {
        let seat = if t.m.to_move() == Side::Red {
            Seat::Red
        } else {
            Seat::Black
        };
        all.extend(t.board(seat, mv));
        all.extend(t.press(seat));
    }
    all
}

#[test]
fn a61_2_warning_with_the_exact_words_then_a65_3_ending() {
    let mut t = from("4k4/R8/9/9/9/9/9/9/9/3K5 w");
    let lp = "a8a9 e9e8 a9a8 e8e9";
    let ev = play(&mut t, &format!("{lp} {lp}"));
    let (article, warning, warned) = find!(ev, Event::RepetitionWarning { article, warning, warned, .. } => (article.clone(), *warning, warned.clone()));
    assert_eq!(article, art("61(2)"));
    assert_eq!(warning.text(), "紅方長將，紅方不變作負");
    assert_eq!(warned, vec![Side::Red]);
    let ev = play(&mut t, lp);
    let (o, cause, a) = find!(ev, Event::GameOver { outcome, cause, articles, .. } => (*outcome, cause.clone(), articles.clone()));
    assert_eq!((o, a), (Outcome::BlackWins, vec![art("65(3)")]));
    assert_eq!(
        cause,
        EndCause::Forbidden {
            offender: Side::Red,
            pattern: Pattern::PerpetualCheck
        }
    );
}

#[test]
fn a61_1_ordinary_cycle_warns_both_then_a66_4_draw() {
    let mut t = from("4k4/9/9/9/9/9/9/9/R8/5K3 w");
    let lp = "a1a2 e9d9 a2a1 d9e9";
    let ev = play(&mut t, &format!("{lp} {lp}"));
    let (article, warning, warned) = find!(ev, Event::RepetitionWarning { article, warning, warned, .. } => (article.clone(), *warning, warned.clone()));
    assert_eq!((article, warning), (art("61(1)"), WarningKind::Ordinary));
    assert_eq!(warning.text(), "一般循環盤面，雙方不變作和");
    assert_eq!(warned, vec![Side::Red, Side::Black]);
    assert!(has!(ev, Event::RefereeNeeded { .. }));
    let ev = play(&mut t, lp);
    let (o, cause) = find!(ev, Event::GameOver { outcome, cause, .. } => (*outcome, cause.clone()));
    assert_eq!((o, cause), (Outcome::Draw, EndCause::CycleDraw));
    // The snapshot lists the warning the event carried.
    let given: Vec<WarningKind> = t.m.snapshot().warnings.iter().map(|w| w.warning).collect();
    assert_eq!(given, vec![warning]);
}

#[test]
fn a65_1_checkmate_ends_the_game_at_once() {
    let mut t = from("4k4/R8/9/9/9/9/9/9/9/1R1K5 w");
    let ev = play(&mut t, "b0b9");
    let (o, cause, a) = find!(ev, Event::GameOver { outcome, cause, articles, .. } => (*outcome, cause.clone(), articles.clone()));
    assert_eq!((o, a), (Outcome::RedWins, vec![art("65(1)")]));
    assert_eq!(
        cause,
        EndCause::Board {
            reason: EndReason::Checkmate
        }
    );
    assert!(t.m.next_deadline().is_none());
    let r = t.try_cmd(Seat::Black, Command::PressClock);
    assert_eq!(r, Err(Rejection::GameOver));
}

#[test]
fn a67_official_draw_only_when_agreed_before_the_game() {
    let mut t = Table::started(part6());
    let r = t.try_cmd(
        Seat::Referee,
        Command::Adjudicate {
            ruling: Adjudication::OfficialDraw,
        },
    );
    assert!(matches!(r, Err(Rejection::OfficialDrawNotAgreed)));
    let mut c = part6();
    c.official_draw = true;
    let mut t = Table::started(c);
    let ev = t.ok(
        Seat::Referee,
        Command::Adjudicate {
            ruling: Adjudication::OfficialDraw,
        },
    );
    assert!(
        has!(ev, Event::GameOver { outcome: Outcome::Draw, cause: EndCause::OfficialDraw, articles, .. } if *articles == vec![art("67")])
    );
}

#[test]
fn a70_5_the_referee_may_rule_both_lose() {
    let mut t = Table::started(part6());
    let ruling = Adjudication::Result {
        winner: None,
        both_lose: true,
        reason: "雙方造成無法回復的非法局面".into(),
        article: art("70(5)"),
    };
    let ev = t.ok(Seat::Referee, Command::Adjudicate { ruling });
    assert!(has!(
        ev,
        Event::GameOver {
            outcome: Outcome::BothLose,
            ..
        }
    ));
}

#[test]
fn s7p6_8_result_is_verified_orally() {
    let mut t = Table::started(part6());
    let r = t.try_cmd(
        Seat::Referee,
        Command::VerifyResult {
            note: "雙方確認".into(),
        },
    );
    assert!(r.is_err(), "nothing to verify before the end");
    t.ok(Seat::Black, Command::Resign);
    let ev = t.ok(
        Seat::Referee,
        Command::VerifyResult {
            note: "雙方口頭確認紅勝".into(),
        },
    );
    assert!(has!(ev, Event::ResultVerified { .. }));
    assert!(t.m.scoresheet().contains("結果口頭核實：雙方口頭確認紅勝"));
}

#[test]
fn a103_104_pause_seal_and_resume() {
    let mut t = Table::started(part6());
    t.at(1_000);
    t.ok(Seat::Referee, pause());
    // 103(1)(a): the 續着方 decides on his own time; the clock still runs.
    assert!(t.m.next_deadline().is_some());
    let r = t.try_cmd(Seat::Red, Command::SealMove { mv: m("h2h8") });
    assert!(matches!(r, Err(Rejection::IllegalMove { .. })));
    t.at(4_000);
    let ev = t.ok(Seat::Red, Command::SealMove { mv: m("h2e2") });
    let sealed = find!(ev, e @ Event::Sealed { .. } => e.clone());
    assert_eq!(sealed.audience(), Audience::Referee, "103(1)(b)");
    assert_eq!(
        t.m.next_deadline(),
        None,
        "the clock is stopped while sealed"
    );
    assert!(matches!(
        t.try_cmd(Seat::Red, Command::Word { text: "炮".into() }),
        Err(Rejection::Paused)
    ));
    t.at(100_000);
    t.ok(Seat::Referee, Command::Resume);
    assert_eq!(
        t.m.time_left(Side::Red, Millis(100_000)),
        20 * 60_000 - 4_000
    );
    // 125: another move is put back and costs a technical foul.
    let ev = t.turn(Seat::Red, "炮二平四", "h2f2");
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::SealedMoveBroken,
            ..
        }
    ));
    assert!(has!(
        ev,
        Event::Violation {
            kind: ViolationKind::Technical,
            ..
        }
    ));
    t.board(Seat::Red, "f2h2");
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn a104_b_the_sealed_move_is_played_after_resuming() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, pause());
    t.ok(Seat::Referee, Command::SealMove { mv: m("h2e2") });
    t.ok(Seat::Referee, Command::Resume);
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    assert!(has!(ev, Event::Moved { .. }));
}

#[test]
fn a126_the_referee_records_and_rescinds_violations() {
    let mut t = Table::started(part6());
    let ev = t.ok(
        Seat::Referee,
        Command::RecordViolation {
            side: Side::Black,
            kind: ViolationKind::Recording,
            note: "漏記".into(),
        },
    );
    assert!(has!(
        ev,
        Event::Violation {
            count: 1,
            limit: 4,
            ..
        }
    ));
    let ev = t.ok(
        Seat::Referee,
        Command::RescindViolation {
            side: Side::Black,
            kind: ViolationKind::Recording,
        },
    );
    assert!(has!(ev, Event::ViolationRemoved { count: 0, .. }));
    let r = t.try_cmd(
        Seat::Referee,
        Command::RescindViolation {
            side: Side::Black,
            kind: ViolationKind::Recording,
        },
    );
    assert!(matches!(r, Err(Rejection::NothingToRescind { .. })));
    let r = t.try_cmd(
        Seat::Red,
        Command::RecordViolation {
            side: Side::Black,
            kind: ViolationKind::Recording,
            note: String::new(),
        },
    );
    assert!(matches!(r, Err(Rejection::NotAllowed { .. })));
}

#[test]
fn a128_1_a_the_referee_warns() {
    let mut t = Table::started(part6());
    let ev = t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: Some(Side::Red),
            repetition: None,
            text: "口頭警告".into(),
        },
    );
    assert!(has!(ev, Event::WarningIssued { .. }));
}

#[test]
fn s7p6_4_the_referee_overrides_a_pending_check() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    let ev = t.ok(Seat::Referee, Command::OverrideCheck { mv: m("h2e2") });
    assert!(has!(
        ev,
        Event::Checked {
            outcome: CheckOutcome::RefereeRuling,
            ..
        }
    ));
    assert_eq!(
        t.m.position().fen().split(' ').next().unwrap(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"
    );
}

#[test]
fn appendix4_3_scoresheet_has_the_fields_marks_and_clock_times() {
    let mut c = part6();
    c.header.event = "視障象棋賽".into();
    c.header.date = "2026-11-22".into();
    c.header.venue = "香港".into();
    c.header.round = "1".into();
    c.header.table = "3".into();
    c.header.referee = "丁".into();
    let mut t = Table::started(c);
    t.at(3_000).turn(Seat::Red, "炮二平五", "h2e2");
    t.at(5_000).turn(Seat::Black, "馬８進７", "h9g7");
    t.at(9_000).turn(Seat::Red, "炮五進四", "e2e6");
    t.ok(Seat::Black, Command::Resign);
    let sheet = t.m.scoresheet();
    for needle in [
        "比賽名稱：視障象棋賽",
        "對賽日期：2026-11-22",
        "對賽輪數：1",
        "對賽枱號：3",
        "紅方：甲",
        "黑方：乙",
        "炮二平五 (20分7秒)",
        "馬８進７",
        "炮五進四× (20分13秒)",
        "終局原因：黑方認負",
        "終局裁判：丁",
    ] {
        assert!(sheet.contains(needle), "{needle} missing in\n{sheet}");
    }
    let pgn = t.m.pgn();
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("炮二平五"),
        "{pgn}"
    );
    assert_eq!(t.m.phase(), Phase::Over);
}

#[test]
fn a103_a_server_restart_is_no_adjournment_both_clocks_stop_and_no_seal_is_owed() {
    let mut cfg = part6();
    cfg.time.default = common::tc(15_000, baoqi_arbiter::ClockMode::Plain, 0);
    let mut t = Table::started(cfg);
    t.at(2_000).turn(Seat::Red, "炮二平五", "h2e2");
    t.at(3_000).ok(
        Seat::Referee,
        Command::Pause {
            reason: PauseReason::ServerRestart,
        },
    );
    assert_eq!(t.m.snapshot().clock.running, None, "no clock runs");
    assert_eq!(t.m.next_deadline(), None, "no flag can fall");
    // Black's 15 s would be gone by now under an adjournment (103(1)(a)).
    t.at(30_000).tick();
    assert_eq!(t.m.phase(), Phase::Paused);
    let r = t.try_cmd(Seat::Black, Command::SealMove { mv: m("h9g7") });
    assert_eq!(r, Err(Rejection::NotPaused), "no move is sealed");
    t.ok(Seat::Referee, Command::Resume);
    assert_eq!(t.m.time_left(Side::Black, Millis(30_000)), 14_000);
    assert_eq!(t.m.snapshot().clock.running, Some(Side::Black));
}

/// 108(1): 「無論如何雙方均記技術犯規 1 次」. A replay's configuration carries one technical
/// foul a side: the view shows it before the first move, and one more reaches the limit of
/// 127(2) (2 by default) and loses the game (70(4)).
#[test]
fn a108_1_a_replay_starts_with_one_technical_foul_a_side() {
    let mut config = regular();
    config.carried.red.technical = 1;
    config.carried.black.technical = 1;
    let mut table = Table::started(config);
    let view = table.m.snapshot();
    assert_eq!(
        (view.tallies.red.technical, view.tallies.black.technical),
        (1, 1)
    );
    assert_eq!(
        (view.tallies.red.clock, view.tallies.black.recording),
        (0, 0)
    );
    let ev = table.ok(
        Seat::Referee,
        Command::RecordViolation {
            side: Side::Black,
            kind: ViolationKind::Technical,
            note: "摸子不走".into(),
        },
    );
    let (outcome, cited) =
        find!(ev, Event::GameOver { outcome, articles, .. } => (*outcome, articles.clone()));
    assert_eq!(outcome, Outcome::RedWins);
    assert!(cited.contains(&art("70(4)")), "{cited:?}");
}

/// 108(1): a configuration cannot carry more than a limit may be (127(2)'s bound).
#[test]
fn a108_1_a_carried_count_is_held_to_the_limits_bound() {
    let mut c = regular();
    c.carried.red.technical = 1_000;
    let e = baoqi_arbiter::Match::new(c, Millis(0)).unwrap_err();
    assert!(e.to_string().contains("carried.red.technical"), "{e}");
}
