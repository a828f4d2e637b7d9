//! `baoqi bench crash` in small: the 100-round run on a 10,000-entry log is a
//! benchmark (figures in docs/benchmarks.md); here two rounds on a short log exercise the same code
//! through the command line, and one round shows that its pause check can fail.

use std::path::PathBuf;
use std::process::Command;

use baoqi_bench::crash::{CrashOptions, run_blocking};
use baoqi_store::config::ResumePolicy;

use crate::common;
use common::{BIN, Scratch};

#[test]
fn s11_two_kill_9_rounds_lose_nothing_acknowledged_and_the_clocks_stand_paused() {
    let dir = Scratch::new("bench-crash");
    let db = dir.join("crash.db");
    let out = Command::new(BIN)
        .args([
            "bench",
            "crash",
            "--rounds",
            "2",
            "--entries",
            "300",
            "--db",
        ])
        .arg(&db)
        .output()
        .expect("run baoqi bench crash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("round   2: "), "{stdout}");
    assert!(stdout.contains("rounds 2 of 2"), "{stdout}");
    assert!(stdout.contains("lost 0;"), "{stdout}");
    assert!(stdout.contains("paused: flag falls 0,"), "{stdout}");
    assert!(stdout.ends_with("PASS\n"), "{stdout}");
}

#[test]
fn s11_a_server_that_restarts_the_clocks_by_itself_fails_the_benchmark() {
    let dir = Scratch::new("bench-crash-auto");
    let opts = CrashOptions {
        rounds: 1,
        entries: 100,
        db: Some(dir.join("auto.db")),
        resume: ResumePolicy::Auto { after_secs: 0 },
        ..CrashOptions::new(PathBuf::from(BIN))
    };
    let report = run_blocking(&opts, &mut |_| {}).expect("the benchmark runs");
    let round = &report.rounds[0];
    // The side to move had less time than the watch lasted: its flag fell.
    assert!(round.paused.could_fall, "{report}");
    assert_eq!(round.paused.flag_falls, 1, "{report}");
    assert!(round.paused.clocks_moved, "{report}");
    assert!(!report.passed(), "{report}");
}
