//! 95(3) and 109: the start of a game and the latest arrival. A player who has not moved and
//! pressed the clock by the latest arrival time is absent (109(2)); the rules set that time,
//! where the event's rules do not, at 10 minutes after the start for games of 15 minutes or
//! more a side, else at the start itself.

use crate::common;

use baoqi_arbiter::{ClockMode, Command, Match, MatchConfig, Millis, Seat};
use common::{Table, part7, regular, tc};

#[test]
fn a109_2_ten_minutes_after_the_start_for_fifteen_minutes_or_more_a_side() {
    // 共融賽 at 20′ a side (the blind player's time by its category is the default here).
    assert_eq!(part7().latest_arrival(), Millis(10 * 60_000));
    let mut fifteen = part7();
    fifteen.time.default = tc(15 * 60_000, ClockMode::Increment, 0);
    assert_eq!(
        fifteen.latest_arrival(),
        Millis(10 * 60_000),
        "15 minutes is 15 or more"
    );
}

#[test]
fn a109_2_the_start_itself_when_one_side_has_less_than_fifteen_minutes() {
    assert_eq!(regular().latest_arrival(), Millis(0), "10′ a side");
    // One side's own time under 15 minutes: not 「每方用時有 15 分鐘以上」.
    let mut mixed = part7();
    mixed.black.time = Some(tc(12 * 60_000, ClockMode::Increment, 0));
    assert_eq!(mixed.latest_arrival(), Millis(0));
}

#[test]
fn a109_2_the_event_s_rules_may_set_the_latest_arrival() {
    let mut c = part7();
    c.latest_arrival_ms = Some(15 * 60_000);
    assert_eq!(c.latest_arrival(), Millis(15 * 60_000));
    let read = MatchConfig::from_toml("latest_arrival_ms = 300000\n").unwrap();
    assert_eq!(
        read.latest_arrival(),
        Millis(300_000),
        "5′, though 30′ a side"
    );
}

#[test]
fn a95_3_the_start_is_in_the_table_state_with_the_latest_arrival() {
    let m = Match::new(part7(), Millis(0)).unwrap();
    let before = m.snapshot();
    assert_eq!(before.started_at, None);
    assert_eq!(before.latest_arrival, Millis(10 * 60_000));
    let mut t = Table {
        m,
        now: 0,
        log: Vec::new(),
    };
    t.at(42_000).ok(Seat::Referee, Command::Start);
    assert_eq!(t.m.snapshot().started_at, Some(Millis(42_000)));
    // Kept across the match written out and read back (a server's restart).
    let copy: Match = serde_json::from_str(&serde_json::to_string(&t.m).unwrap()).unwrap();
    assert_eq!(copy.snapshot().started_at, Some(Millis(42_000)));
}

#[test]
fn a95_3_a_match_written_before_the_start_was_kept_reads_back_without_it() {
    let t = Table::started(MatchConfig::default());
    let mut json: serde_json::Value = serde_json::to_value(&t.m).unwrap();
    let core = json
        .as_object_mut()
        .and_then(|m| m.values_mut().find(|v| v.get("started_at").is_some()))
        .expect("the match's table state");
    core.as_object_mut().unwrap().remove("started_at");
    let old: Match = serde_json::from_value(json).unwrap();
    assert_eq!(old.snapshot().started_at, None);
}
