//! 附表三, 附表七 6.5–6.7 and 7.6–7.7: clocks in the four modes of 附表三 2, time by
//! category (7.2), timeout (71(1), 97), automatic alerts (6.6, 7.7), time queries (6.5,
//! 7.6), the talking clock (7.1(1)(b)), and `next_deadline` precision.

use crate::common;

use baoqi_arbiter::{
    Audience, Category, ClockMode, Command, EndCause, Event, EventKind, MatchConfig, Millis,
    Outcome, ReportReason, Seat, Side, Threshold, TimeControl,
};
use common::{Table, art, blind, part6, part7, sighted, tc};

fn alerts(events: &[Event]) -> Vec<(Side, u64, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TimeAlert {
                side,
                threshold_ms,
                at,
                ..
            } => Some((*side, *threshold_ms, at.0)),
            _ => None,
        })
        .collect()
}

/// Ticks at each deadline with a late arrival of `late` ms, up to `until`.
fn drive(t: &mut Table, until: u64, late: u64) -> Vec<(Side, u64, u64, u64)> {
    let mut fired = Vec::new();
    while let Some(d) = t.m.next_deadline() {
        if d.0 > until {
            break;
        }
        t.at(d.0 + late);
        for e in t.tick() {
            if let Event::TimeAlert {
                side,
                threshold_ms,
                at,
                ..
            } = e
            {
                fired.push((side, threshold_ms, at.0, t.now));
            }
        }
    }
    fired
}

#[test]
fn s7p6_6_2_part6_alerts_fire_at_each_threshold_within_20_ms() {
    let mut t = Table::started(part6()); // 20 min + 10 s
    let fired = drive(&mut t, u64::MAX, 7);
    let expected: Vec<(u64, u64)> = vec![
        (900_000, 300_000),  // 15 min
        (600_000, 600_000),  // half time = 10 min (one alert)
        (300_000, 900_000),  // 5 min
        (60_000, 1_140_000), // 1 min
        (30_000, 1_170_000), // 30 s
        (10_000, 1_190_000), // 10 s
    ];
    let got: Vec<(u64, u64)> = fired.iter().map(|f| (f.1, f.2)).collect();
    assert_eq!(got, expected);
    assert!(fired.iter().all(|f| f.0 == Side::Red && f.3 - f.2 <= 20));
    // Then the flag falls: 71(1).
    let r = t.m.snapshot().result.unwrap();
    assert_eq!(
        (r.outcome, r.cause, r.articles, r.at),
        (
            Outcome::BlackWins,
            EndCause::Timeout { loser: Side::Red },
            vec![art("71(1)")],
            Millis(1_200_000)
        )
    );
}

#[test]
fn s7p6_6_2_a_half_time_is_its_own_threshold() {
    let mut cfg = part6();
    cfg.time.default = tc(90 * 60_000, ClockMode::Plain, 0);
    let mut t = Table::started(cfg);
    let fired = drive(&mut t, 45 * 60_000 + 100, 0);
    let labels: Vec<u64> = fired.iter().map(|f| f.1).collect();
    assert_eq!(labels, vec![45 * 60_000]);
    let ev = t
        .log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::TimeAlert { .. }))
        .unwrap();
    assert!(matches!(
        ev,
        Event::TimeAlert {
            threshold: Threshold::Half,
            ..
        }
    ));
}

#[test]
fn s7p6_6_3_the_triggering_side_is_spoken_first() {
    let mut t = Table::started(part6());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let fired = drive(&mut t, 300_100, 0);
    assert_eq!(fired.len(), 1);
    let times = t
        .log
        .iter()
        .find_map(|e| match e {
            Event::TimeAlert { times, .. } => Some(*times),
            _ => None,
        })
        .unwrap();
    assert_eq!((times[0].side, times[1].side), (Side::Black, Side::Red));
    assert_eq!(times[0].ms, 900_000, "black's 15 minutes are said first");
}

#[test]
fn s7p6_6_alerts_fire_once_per_downward_crossing() {
    let mut cfg = part6();
    cfg.time.default = tc(70_000, ClockMode::Increment, 20_000);
    let mut t = Table::started(cfg);
    // Red uses 15 s: 55 s left, crossing 1 min (alert), then +20 s → 75 s (re-armed).
    t.at(15_000);
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    // No tick came: the first word at 15 s catches the crossing up, stamped at 10 s.
    assert_eq!(alerts(&ev), vec![(Side::Red, 60_000, 10_000)]);
    t.at(16_000).turn(Seat::Black, "馬８進７", "h9g7");
    // Red at 75 s crosses 1 min again after 15 s of thinking: a second alert.
    let fired = drive(&mut t, 16_000 + 15_100, 3);
    assert_eq!(
        fired.iter().map(|f| (f.0, f.1, f.2)).collect::<Vec<_>>(),
        vec![(Side::Red, 60_000, 31_000)]
    );
}

#[test]
fn s7p7_7_2_part7_alerts_only_for_the_vi_side_and_to_the_vi_player() {
    let mut t = Table::started(part7()); // red blind, black sighted, 20 min each
    t.turn(Seat::Red, "炮二平五", "h2e2");
    // Black thinks for 19 min: no alert for the sighted side.
    let fired = drive(&mut t, 19 * 60_000, 0);
    assert!(fired.is_empty(), "{fired:?}");
    let mut t = Table::started(part7());
    let fired = drive(&mut t, u64::MAX, 2);
    let thresholds: Vec<u64> = fired.iter().map(|f| f.1).collect();
    assert_eq!(
        thresholds,
        vec![900_000, 600_000, 300_000, 60_000, 30_000, 10_000]
    );
    assert!(t.log.iter().all(|e| !matches!(e, Event::TimeAlert { audience, .. } if *audience != Audience::Side(Side::Red))));
}

/// `docs/product.md` §7: a deaf player receives every alert visually. With 7.7's VI-only
/// alerts a deaf side gets alerts on its own clock too, addressed to itself alone: they are
/// shown on its page and spoken to nobody, so the VI player hears only his own (7.7(2)).
/// Decision in docs/decisions.md.
#[test]
fn s7p7_7_2_a_deaf_side_sees_alerts_on_its_own_clock_and_the_vi_player_hears_none_of_them() {
    let mut cfg = part7();
    cfg.black.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let fired = drive(&mut t, 19 * 60_000, 0);
    let black: Vec<u64> = fired
        .iter()
        .filter(|f| f.0 == Side::Black)
        .map(|f| f.1)
        .collect();
    assert_eq!(black, vec![900_000, 600_000, 300_000, 60_000]);
    for e in &t.log {
        if let Event::TimeAlert { side, audience, .. } = e {
            assert_eq!(*audience, Audience::Side(*side), "{e:?}");
        }
    }
}

#[test]
fn s7p7_7_2_a_60_and_30_minute_thresholds_for_long_controls() {
    let mut cfg = part7();
    cfg.time.blind = Some(tc(90 * 60_000, ClockMode::Increment, 30_000));
    let mut t = Table::started(cfg);
    let fired = drive(&mut t, 61 * 60_000, 0);
    let thresholds: Vec<u64> = fired.iter().map(|f| f.1).collect();
    assert_eq!(thresholds, vec![3_600_000, 1_800_000]);
}

#[test]
fn s7p6_5_2_part6_query_the_side_to_move_first() {
    let mut t = Table::started(part6());
    t.at(1_000);
    let ev = t.ok(Seat::Black, Command::QueryTime);
    let first =
        find!(ev, Event::TimeReport { times, reason: ReportReason::Query, .. } => times[0].side);
    assert_eq!(first, Side::Red);
}

#[test]
fn s7p7_6_2_part7_query_the_asking_player_first() {
    let mut t = Table::started(part7());
    let ev = t.ok(Seat::Black, Command::QueryTime);
    let first = find!(ev, Event::TimeReport { times, .. } => times[0].side);
    assert_eq!(first, Side::Black);
}

#[test]
fn s7p7_1_1_b_talking_clock_speaks_both_times_on_every_press() {
    let mut cfg = part6();
    cfg.talking_clock = true;
    let mut t = Table::started(cfg);
    t.at(2_000);
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    let (times, reason) = find!(ev, Event::TimeReport { times, reason, .. } => (*times, *reason));
    assert_eq!(reason, ReportReason::Press);
    assert_eq!((times[0].side, times[0].ms), (Side::Black, 20 * 60_000));
    assert_eq!(
        (times[1].side, times[1].ms),
        (Side::Red, 20 * 60_000 - 2_000 + 10_000)
    );
}

#[test]
fn a71_1_timeout_loses_even_when_the_tick_comes_late() {
    let mut cfg = part6();
    cfg.time.default = tc(30_000, ClockMode::Plain, 0);
    let mut t = Table::started(cfg);
    t.at(45_000);
    let r = t.try_cmd(Seat::Red, Command::Word { text: "炮".into() });
    assert!(r.is_err(), "a command after the flag fall is refused");
    let ev = t.tick();
    let (outcome, at) = find!(ev, Event::GameOver { outcome, at, .. } => (*outcome, *at));
    assert_eq!((outcome, at), (Outcome::BlackWins, Millis(30_000)));
    assert_eq!(t.m.time_left(Side::Red, Millis(50_000)), 0);
    assert_eq!(t.m.next_deadline(), None);
}

fn two_moves(mode: ClockMode, extra: u64) -> (u64, u64) {
    let mut cfg = part6();
    cfg.time.default = tc(60_000, mode, extra);
    let mut t = Table::started(cfg);
    t.at(7_000);
    let ev = t.turn(Seat::Red, "炮二平五", "h2e2");
    let red = find!(ev, Event::Moved { clock_ms, .. } => *clock_ms);
    let black = t.m.time_left(Side::Black, Millis(8_000));
    (red, black)
}

#[test]
fn appendix3_2_all_four_modes_in_a_match() {
    assert_eq!(two_moves(ClockMode::Increment, 5_000), (58_000, 59_000));
    assert_eq!(two_moves(ClockMode::Bronstein, 5_000), (58_000, 59_000));
    assert_eq!(two_moves(ClockMode::Bronstein, 10_000), (60_000, 59_000));
    assert_eq!(two_moves(ClockMode::Delay, 3_000), (53_000, 60_000));
    assert_eq!(two_moves(ClockMode::Hourglass, 0), (53_000, 66_000));
}

#[test]
fn s7p7_2_time_by_category_and_blindfold_counts_as_blind() {
    let mut cfg = MatchConfig {
        kind: EventKind::Part7,
        red: blind("甲"),
        black: sighted("乙"),
        ..MatchConfig::default()
    };
    cfg.time.blind = Some(tc(60 * 60_000, ClockMode::Increment, 30_000));
    cfg.time.partially_sighted = Some(tc(45 * 60_000, ClockMode::Increment, 20_000));
    cfg.time.sighted = Some(tc(30 * 60_000, ClockMode::Increment, 10_000));
    cfg.time.vi_with_proxy = Some(tc(50 * 60_000, ClockMode::Increment, 20_000));
    assert_eq!(cfg.time.for_side(&cfg.red).base_ms, 60 * 60_000);
    assert_eq!(cfg.time.for_side(&cfg.black).base_ms, 30 * 60_000);
    let mut partial = sighted("丙");
    partial.categories = vec![Category::PartiallySighted];
    assert_eq!(cfg.time.for_side(&partial).base_ms, 45 * 60_000);
    partial.blindfold = true; // 7.2(2)
    assert_eq!(cfg.time.for_side(&partial).base_ms, 60 * 60_000);
    partial.proxy = Some("丁".into()); // 7.4(2)(g)(iii)
    assert_eq!(cfg.time.for_side(&partial).base_ms, 50 * 60_000);
    partial.time = Some(TimeControl {
        base_ms: 1,
        mode: ClockMode::Plain,
        extra_ms: 0,
    });
    assert_eq!(cfg.time.for_side(&partial).base_ms, 1);
    let t = Table::started(cfg);
    assert_eq!(t.m.snapshot().clock.red_ms, 60 * 60_000);
    assert_eq!(t.m.snapshot().clock.black_ms, 30 * 60_000);
}

#[test]
fn a95_3_black_starts_the_clock() {
    let mut m = baoqi_arbiter::Match::new(part6(), Millis(0)).unwrap();
    assert!(m.apply(Seat::Red, Command::PressClock, Millis(5)).is_err());
    let ev = m
        .apply(Seat::Black, Command::PressClock, Millis(10))
        .unwrap();
    assert!(matches!(ev[0], Event::Started { at: Millis(10), .. }));
    assert_eq!(m.snapshot().clock.running, Some(Side::Red));
}

#[test]
fn s7p6_6_deadline_precision_under_random_play() {
    // A simulated server: ticks at each deadline (late by 0–19 ms), moves at random instants.
    let mut cfg = part6();
    cfg.time.default = tc(3 * 60_000, ClockMode::Increment, 2_000);
    let mut t = Table::started(cfg);
    let moves = [
        (Seat::Red, "炮二平五", "h2e2"),
        (Seat::Black, "馬８進７", "h9g7"),
        (Seat::Red, "馬二進三", "h0g2"),
        (Seat::Black, "車９平８", "i9h9"),
    ];
    let mut late = 0;
    let mut fired = Vec::new();
    for (i, (seat, words, mv)) in moves.iter().enumerate() {
        let think = 10_000 + 9_000 * i as u64;
        let until = t.now + think;
        fired.extend(drive(&mut t, until, late));
        late = (late + 7) % 20;
        t.at(until.max(t.now));
        t.turn(*seat, words, mv);
    }
    fired.extend(drive(&mut t, u64::MAX, 19));
    assert!(!fired.is_empty());
    for f in &fired {
        assert!(f.3 >= f.2 && f.3 - f.2 <= 20, "{f:?}");
    }
    // Each alert's instant is exact: the threshold is what the clock showed then.
    for e in &t.log {
        if let Event::TimeAlert {
            times,
            threshold_ms,
            ..
        } = e
        {
            assert_eq!(times[0].ms, *threshold_ms);
        }
    }
}
