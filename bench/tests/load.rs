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
