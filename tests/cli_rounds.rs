//! `baoqi round pair` on the sample tournament (docs/tournament.toml): the round's referees
//! (監局, 附表七 6.2(1)) from the event file and from `--referee` get monitor links printed
//! with the pairings.

use std::process::Command;

use crate::common;
use common::{BIN, Scratch};

fn ok(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn s7p6_2_1_round_pair_prints_the_monitor_links_of_the_rounds_referees() {
    let dir = Scratch::new("cli-rounds");
    let root = env!("CARGO_MANIFEST_DIR");
    let db = created(
        &dir,
        &format!("{root}/docs/tournament.toml"),
        &format!("{root}/tests/web/fixtures/players.csv"),
    );
    let db = db.as_str();
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
}

/// `baoqi event create` of `config` in `dir`'s database, then the register of `csv`
/// imported as event 1; the database's path.
fn created(dir: &Scratch, config: &str, csv: &str) -> String {
    let db = dir.join("t.db").to_str().unwrap().to_string();
    ok(&["event", "create", "--config", config, "--db", &db]);
    ok(&["players", "import", "--event", "1", csv, "--db", &db]);
    db
}

/// Runs baoqi on `db`: success, stdout, stderr.
fn on(db: &str, args: &[&str]) -> (bool, String, String) {
    let mut all = args.to_vec();
    all.extend(["--db", db]);
    let out = Command::new(BIN).args(&all).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

fn refused(db: &str, args: &[&str]) -> String {
    let (ok, out, err) = on(db, args);
    assert!(!ok, "{args:?} was accepted: {out}");
    err
}

/// A database with a knock-out of four decided by lot after one game and a pair of
/// tie-break games, its register imported; the directory and the database's path.
fn lot_event() -> (Scratch, String) {
    let dir = Scratch::new("cli-lot");
    let config = dir.join("event.toml");
    std::fs::write(
        &config,
        "name = \"淘汰賽\"\n[tournament]\nsystem = \"knockout\"\n[tournament.knockout]\n\
         games = 1\ntiebreak_pairs = 1\ndecider = \"lot\"\n[tournament.match]\n\
         time.default = { base_ms = 600_000, mode = \"plain\" }\n",
    )
    .unwrap();
    let csv = dir.join("players.csv");
    std::fs::write(
        &csv,
        "姓名,種子,類別\n李明,1,全失明\n張華,2,部份失明\n王芳,3,健視\n趙強,4,健視\n",
    )
    .unwrap();
    let db = created(&dir, config.to_str().unwrap(), csv.to_str().unwrap());
    (dir, db)
}

/// The games are recorded as absences (87): 趙強 loses to 李明, and 張華 and 王芳 are both
/// absent every time, which leaves their tie level.
#[test]
fn fu2_3_a_round_lot_draws_a_level_ties_lot_once_and_only_after_its_tie_break_games() {
    let (_dir, db) = lot_event();
    let db = db.as_str();
    let pair = ["round", "pair", "--event", "1"];
    let lot = ["round", "lot", "--event", "1", "--table", "2"];
    let both_absent = |table: &str| {
        let args = ["round", "result", "--event", "1", "--table", table];
        ok(&[&args[..], &["--forfeit", "both", "--db", db]].concat());
    };
    assert!(on(db, &pair).0);
    // Tables 1 (李明 v 趙強) and 2 (張華 v 王芳).
    ok(&[
        "round",
        "result",
        "--event",
        "1",
        "--table",
        "1",
        "--forfeit",
        "black",
        "--db",
        db,
    ]);
    let err = refused(db, &lot);
    assert!(err.contains("table(s) 2 have no final result"), "{err}");
    both_absent("2");
    let err = refused(db, &lot);
    assert!(
        err.contains("2 game(s) of it are still to be played before the lot")
            && err.contains("baoqi round pair --event 1"),
        "{err}"
    );
    let err = refused(db, &["round", "lot", "--event", "1", "--table", "1"]);
    assert!(
        err.contains("decided by its games: 李明 goes through"),
        "{err}"
    );
    // The pair of tie-break games, tables 3 and 4, both absent again.
    let (_, out, _) = on(db, &pair);
    assert!(out.contains("加賽"), "{out}");
    both_absent("3");
    both_absent("4");
    let err = refused(db, &pair);
    assert!(
        err.contains("draw it with `baoqi round lot --event 1 --table 2`"),
        "{err}"
    );
    let (drew, out, err) = on(db, &["round", "lot", "--event", "1", "--table", "4"]);
    assert!(drew, "{err}");
    assert!(
        out.contains("round 1: the lot (抽籤) of the tie 張華 v 王芳: "),
        "{out}"
    );
    let winner = if out.contains("張華 goes through") {
        "張華"
    } else {
        "王芳"
    };
    assert!(out.contains(&format!("{winner} goes through")), "{out}");
    let err = refused(db, &lot);
    assert!(
        err.contains(&format!("was drawn already: {winner} goes through")),
        "{err}"
    );
    let (_, log, _) = on(db, &["changes", "--event", "1"]);
    assert!(
        log.contains("round 1: the lot (抽籤) of the tie #2 張華 v #3 王芳, drawn by the server")
            && log.contains(&format!("{winner} goes through")),
        "{log}"
    );
    // The final: 李明 v the lot's winner.
    let (_, out, _) = on(db, &pair);
    assert!(out.contains("round 2"), "{out}");
    assert!(out.contains("李明") && out.contains(winner), "{out}");
}
