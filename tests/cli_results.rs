//! The organiser's result grid from the command line (`baoqi round results`,
//! `baoqi round result`). A result that counts (a game played to its end and verified,
//! 附表七 7.9; an absence entered, 第87條) is never replaced silently: the organiser is
//! told what it is and replaces it only by saying so, with a reason; every entry is in the
//! change log with who made it and why; a result can be cleared; a board of an earlier
//! round can be put right after later rounds are paired.

use std::process::Command;

use crate::common;
use baoqi_arbiter::Command as Act;
use baoqi_arbiter::Millis;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use common::{BIN, Scratch};

const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/fixtures");

/// The fixtures' 8-player Swiss in a scratch database, round 1 paired.
pub(crate) struct Day {
    _dir: Scratch,
    pub(crate) db: String,
}

impl Day {
    pub(crate) fn new() -> Day {
        let dir = Scratch::new("cli-results");
        let db = dir.join("t.db").to_str().unwrap().to_string();
        let day = Day { _dir: dir, db };
        day.ok(&[
            "event",
            "create",
            "--config",
            &format!("{FIX}/tournament.toml"),
        ]);
        day.ok(&[
            "players",
            "import",
            "--event",
            "1",
            &format!("{FIX}/players.csv"),
        ]);
        day.ok(&["round", "pair", "--event", "1"]);
        day
    }

    pub(crate) fn run(&self, args: &[&str]) -> (bool, String, String) {
        let out = Command::new(BIN)
            .args(args)
            .args(["--db", &self.db])
            .env("USER", "clerk")
            .output()
            .expect("run baoqi");
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.success(), text(&out.stdout), text(&out.stderr))
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(ok, "{args:?}: {err}");
        out
    }

    pub(crate) fn refused(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(!ok, "{args:?} was accepted: {out}");
        err
    }

    /// Table `table`'s game played to its end: red resigns at once, the referee verifies
    /// (7.9).
    pub(crate) fn resigned_and_verified(&self, table: TableId) {
        let verify = Act::VerifyResult {
            note: "雙方確認".into(),
        };
        let steps = [
            (Role::Referee, Act::Start),
            (Role::Red, Act::Resign),
            (Role::Referee, verify),
        ];
        self.play(table, steps);
    }

    /// Table `table`'s log as its task would have written it for `steps`, 50 ms apart.
    pub(crate) fn play(&self, table: TableId, steps: impl IntoIterator<Item = (Role, Act)>) {
        let store = SqliteStore::open(std::path::Path::new(&self.db), false).unwrap();
        let row = store
            .tables(Some(EventId(1)))
            .unwrap()
            .into_iter()
            .find(|t| t.id == table)
            .unwrap();
        let timed = steps
            .into_iter()
            .zip(1u64..)
            .map(|((r, c), k)| (Millis(1_000 + k * 50), r, c));
        let (_, log) = baoqi_store::testing::played_log(&row, timed);
        let last = log.last().unwrap().at;
        store.append(&log, Some(last)).unwrap();
    }

    /// The grid's line of board `board` of round `round`.
    pub(crate) fn line(&self, round: u32, board: u32) -> String {
        let grid = self.ok(&[
            "round",
            "results",
            "--event",
            "1",
            "--round",
            &round.to_string(),
        ]);
        grid.lines()
            .find(|l| l.trim_start().starts_with(&format!("board {board:>2} ")))
            .unwrap_or_else(|| panic!("no board {board}: {grid}"))
            .to_string()
    }
}

pub(crate) fn result(table: &str, extra: &[&'static str]) -> Vec<String> {
    let mut v: Vec<String> = ["round", "result", "--event", "1", "--table", table]
        .iter()
        .map(ToString::to_string)
        .collect();
    v.extend(extra.iter().map(ToString::to_string));
    v
}

pub(crate) fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a87_a_played_and_verified_result_is_replaced_only_when_asked_with_a_reason_and_logged() {
    let day = Day::new();
    day.resigned_and_verified(TableId(1));
    assert!(
        day.line(1, 1).contains("0-1  (game 0-1 verified)"),
        "{}",
        day.line(1, 1)
    );
    // The wrong entry (a forfeit over a game played and verified): refused, naming what it
    // would replace.
    let err = day.refused(&strs(&result("1", &["--forfeit", "black"])));
    assert!(
        err.contains("0-1")
            && err.contains("verified by the referee")
            && err.contains("--overwrite"),
        "{err}"
    );
    let err = day.refused(&strs(&result("1", &["--forfeit", "black", "--overwrite"])));
    assert!(err.contains("--reason"), "{err}");
    day.ok(&strs(&result(
        "1",
        &[
            "--forfeit",
            "black",
            "--overwrite",
            "--reason",
            "黑方未到，誤記為對局",
            "--by",
            "王裁判長",
        ],
    )));
    let line = day.line(1, 1);
    assert!(
        line.contains("+/-  (game 0-1 verified, organiser's +/-)"),
        "{line}"
    );
    let changes = day.ok(&["changes", "--event", "1"]);
    assert!(
        changes.contains("round 1 board 1: result entered, +/- (was 0-1), by 王裁判長; reason: 黑方未到，誤記為對局"),
        "{changes}"
    );
    // Cleared: the game's result counts again; nothing left to clear after.
    day.ok(&strs(&result("1", &["--clear"])));
    assert!(
        day.line(1, 1).contains("0-1  (game 0-1 verified)"),
        "{}",
        day.line(1, 1)
    );
    let err = day.refused(&strs(&result("1", &["--clear"])));
    assert!(
        err.contains("no result of the organiser's to clear"),
        "{err}"
    );
    let changes = day.ok(&["changes", "--event", "1"]);
    assert!(
        changes.contains("the organiser's result cleared (was +/-), by clerk"),
        "{changes}"
    );
}

#[test]
fn a87_an_earlier_rounds_board_is_put_right_after_the_next_round_is_paired() {
    let day = Day::new();
    for t in ["1", "2", "3", "4"] {
        day.ok(&strs(&result(t, &["--forfeit", "black"])));
    }
    // An entered absence counts: entering another result over it asks first too.
    let err = day.refused(&strs(&result("2", &["--result", "draw"])));
    assert!(
        err.contains("+/-") && err.contains("entered by the organiser"),
        "{err}"
    );
    day.ok(&["round", "pair", "--event", "1"]);
    day.ok(&[
        "round",
        "result",
        "--event",
        "1",
        "--round",
        "1",
        "--board",
        "2",
        "--result",
        "draw",
        "--overwrite",
        "--reason",
        "記錄卡寫和局",
    ]);
    assert!(
        day.line(1, 2)
            .contains("½-½  (no result at the table, organiser's ½-½)"),
        "{}",
        day.line(1, 2)
    );
    let standings = day.ok(&["standings", "--event", "1", "--format", "text"]);
    assert!(standings.contains("½-½"), "{standings}");
    // A board that does not exist is refused in words.
    let err = day.refused(&[
        "round", "result", "--event", "1", "--round", "1", "--board", "9", "--result", "red",
    ]);
    assert!(err.contains("round 1 has no board 9"), "{err}");
}

/// 87, 109(5), 89(2) and 附表二 第二部份 1: before round 2 the organiser sees who was
/// absent in round 1 (`--dry-run` writes nothing), withdraws one of them, and pairs: the
/// listing names the absentees still in the event, and the bye (12 under 黃氏, a win
/// without play) goes to nobody who was absent. A round whose games have not started is
/// taken back and paired again; once a game has started it is refused.
#[test]
fn a87_absentees_are_named_before_pairing_and_given_no_bye_and_a_round_is_unpaired() {
    let day = Day::new();
    // Round 1: the black players of boards 1–3 absent, board 4 red wins.
    for t in ["1", "2", "3"] {
        day.ok(&strs(&result(t, &["--forfeit", "black"])));
    }
    day.ok(&strs(&result("4", &["--result", "red"])));
    let absent: Vec<String> = day
        .line_names(1)
        .into_iter()
        .take(3)
        .map(|(_, black)| black)
        .collect();
    let preview = day.ok(&["round", "pair", "--event", "1", "--dry-run"]);
    assert!(
        preview.contains("round 2 as it would be paired (nothing written)"),
        "{preview}"
    );
    for name in &absent {
        assert!(
            preview
                .lines()
                .any(|l| l.starts_with("absent in round 1 (缺席, 87): ")
                    && l.contains(name.as_str())),
            "{name}: {preview}"
        );
    }
    let err = day.refused(&["round", "results", "--event", "1", "--round", "2"]);
    assert!(
        err.contains("round 2 is not paired"),
        "the dry run wrote nothing: {err}"
    );
    // One absentee withdrawn (109(5): absent without good reason); seven players, one bye.
    let gone = day.player_number(&absent[0]);
    day.ok(&[
        "players",
        "withdraw",
        "--event",
        "1",
        "--player",
        &gone,
        "--reason",
        "缺席，無理由",
    ]);
    let listing = day.ok(&["round", "pair", "--event", "1"]);
    // The absentees still in the event are named again; the one withdrawn is not.
    assert!(
        !listing.contains(&format!("(缺席, 87): #{gone} ")),
        "{listing}"
    );
    assert!(
        listing.contains(&format!(
            "(缺席, 87): #{} {}",
            day.player_number(&absent[1]),
            absent[1]
        )),
        "{listing}"
    );
    let bye = listing
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("bye (輪空): "))
        .unwrap_or_else(|| panic!("a bye: {listing}"))
        .to_string();
    assert!(
        absent.iter().all(|a| !bye.contains(a.as_str())),
        "the bye went to an absentee: {bye}\n{listing}"
    );
    // Taken back before any game starts, then paired again.
    let out = day.ok(&["round", "unpair", "--event", "1"]);
    assert!(
        out.contains("round 2 un-paired") && out.contains("set aside"),
        "{out}"
    );
    let err = day.refused(&["round", "results", "--event", "1", "--round", "2"]);
    assert!(err.contains("round 2 is not paired"), "{err}");
    let again = day.ok(&["round", "pair", "--event", "1"]);
    assert!(again.contains("round 2"), "{again}");
    let changes = day.ok(&["changes", "--event", "1"]);
    assert!(
        changes.contains("round 2 un-paired before its games started"),
        "{changes}"
    );
    // A game of the round started: no longer taken back.
    let table = again
        .lines()
        .find_map(|l| {
            l.trim_start()
                .strip_prefix("table ")?
                .split_once(' ')
                .map(|(t, _)| t.to_string())
        })
        .unwrap();
    day.started(table.parse().unwrap());
    let err = day.refused(&["round", "unpair", "--event", "1"]);
    assert!(
        err.contains(&format!("the game at table {table} has started")),
        "{err}"
    );
}

impl Day {
    /// Each board's (red, black) names of round `round`, from the grid.
    pub(crate) fn line_names(&self, round: u32) -> Vec<(String, String)> {
        let grid = self.ok(&[
            "round",
            "results",
            "--event",
            "1",
            "--round",
            &round.to_string(),
        ]);
        grid.lines()
            .filter(|l| l.trim_start().starts_with("board "))
            .filter_map(|l| {
                let (left, right) = l.split_once(" v ")?;
                let red = left.split_whitespace().last()?;
                let black = right.split_whitespace().next()?;
                Some((red.to_string(), black.to_string()))
            })
            .collect()
    }

    /// A player's register number by name.
    pub(crate) fn player_number(&self, name: &str) -> String {
        let list = self.ok(&["players", "list", "--event", "1"]);
        list.lines()
            .find(|l| l.contains(name))
            .and_then(|l| l.split_whitespace().next())
            .map_or_else(
                || panic!("no {name}: {list}"),
                |n| n.trim_start_matches('#').to_string(),
            )
    }

    /// Table `table`'s clocks started by its referee.
    pub(crate) fn started(&self, table: TableId) {
        self.play(table, [(Role::Referee, Act::Start)]);
    }
}
