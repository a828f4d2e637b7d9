//! `baoqi round pair` on the sample tournament (docs/tournament.toml): the round's referees
//! (監局, 附表七 6.2(1)) from the event file and from `--referee` get monitor links printed
//! with the pairings.

use std::process::Command;

use crate::common;
use common::BIN;

fn ok(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn s7p6_2_1_round_pair_prints_the_monitor_links_of_the_rounds_referees() {
    let dir = std::env::temp_dir().join(format!("baoqi-cli-rounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("t.db");
    let db = db.to_str().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let sample = format!("{root}/docs/tournament.toml");
    ok(&["event", "create", "--config", &sample, "--db", db]);
    let csv = format!("{root}/tests/web/fixtures/players.csv");
    ok(&["players", "import", "--event", "1", &csv, "--db", db]);
    let out = ok(&[
        "round",
        "pair",
        "--event",
        "1",
        "--referee",
        "林裁判",
        "--db",
        db,
        "--url",
        "http://h",
    ]);
    for name in ["陳監局", "黃監局", "林裁判"] {
        let line = format!("referee monitor ({name}): http://h/monitor#token=");
        assert!(out.contains(&line), "{name}:\n{out}");
    }
    // 陳監局 supervises boards 1 and 2 of the sample: two tables.
    let chen = out
        .lines()
        .find(|l| l.contains("referee") && l.contains("陳監局") && l.contains("table "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(chen.matches(',').count(), 1, "{chen}");
    let _ = std::fs::remove_dir_all(&dir);
}
