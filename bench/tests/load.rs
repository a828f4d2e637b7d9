//! The load benchmark runs end to end on a few games: bots play over real WebSocket
//! connections against an in-process server, nothing is lost or reordered, no command is
//! refused, and both latencies are measured.

use baoqi_bench::{BenchOptions, run_blocking};

#[test]
fn a_small_load_runs_clean() {
    let report = run_blocking(&BenchOptions {
        games: 6,
        seconds: 2,
        url: None,
        spawn: None,
        db: None,
        rate: 10.0,
        nodes: None,
        hostile: false,
        flood: None,
        real_play: false,
        poll_live: false,
        tls: None,
        bot_threads: 1,
    })
    .unwrap();
    println!("{report}");
    assert_eq!(report.monitors, 1);
    assert!(report.commands >= 60, "{report}");
    assert_eq!(
        (report.rejected, report.lost, report.reordered),
        (0, 0, 0),
        "{report}"
    );
    // Every acknowledged command was seen by the opponent (give or take one in flight per
    // game when the bots stop).
    let games = report.games as u64;
    assert!(
        report.to_opponent.count.abs_diff(report.commands) <= games,
        "{report}"
    );
    assert!(
        report.to_monitor.count > 0 && report.events > report.commands,
        "{report}"
    );
}

/// With an adversary on one table (long words at the rate limit, 40 spectators
/// syncing it from the start), the other tables play on and lose nothing; every long word
/// is refused.
#[test]
fn an_adversary_on_one_table_leaves_the_others_whole() {
    let report = run_blocking(&BenchOptions {
        games: 4,
        seconds: 3,
        url: None,
        spawn: None,
        db: None,
        rate: 10.0,
        nodes: None,
        hostile: true,
        flood: None,
        real_play: false,
        poll_live: false,
        tls: None,
        bot_threads: 1,
    })
    .unwrap();
    println!("{report}");
    assert_eq!(
        (report.rejected, report.lost, report.reordered),
        (0, 0, 0),
        "{report}"
    );
    assert!(report.commands >= 60, "{report}");
    let (words, refused, syncs) = report.hostile.unwrap();
    assert!(words >= 20 && refused >= words / 2 - 1, "{report}");
    assert!(syncs >= 40, "{report}");
}
