//! The organiser's desk on the command line: a result entered at a board really changes it
//! (the board final, logged) or is refused, never reported without the change (第87條,
//! 附表七 7.9); a correction of a round already followed by paired rounds names the players
//! whose score group it changed.

use crate::cli_results::{Day, result, strs};
use baoqi_arbiter::Command as Act;
use baoqi_store::model::{Role, TableId};

/// 87, 附表七 7.9: a game over at its table but not yet verified there is entered from the
/// command line with the result it shows; the entry is real (the board final, the change
/// logged) and the next round pairs, without 核實結果 pressed on the monitor.
#[test]
fn a87_entering_the_result_a_game_shows_makes_it_final_and_the_next_round_pairs() {
    let day = Day::new();
    day.play(
        TableId(1),
        [(Role::Referee, Act::Start), (Role::Red, Act::Resign)],
    );
    // Table 2: the same, entered with --overwrite and a reason (as the organiser tried).
    day.play(
        TableId(2),
        [(Role::Referee, Act::Start), (Role::Black, Act::Resign)],
    );
    for t in ["3", "4"] {
        day.ok(&strs(&result(t, &["--forfeit", "black"])));
    }
    let err = day.refused(&["round", "pair", "--event", "1"]);
    assert!(err.contains("not yet verified"), "{err}");
    let out = day.ok(&strs(&result("1", &["--result", "black"])));
    assert!(out.contains("round 1 board 1: 0-1"), "{out}");
    assert!(!out.contains("nothing changed"), "{out}");
    let out = day.ok(&strs(&result(
        "2",
        &["--result", "red", "--overwrite", "--reason", "記錄卡已核對"],
    )));
    assert!(out.contains("round 1 board 2: 1-0"), "{out}");
    for board in [1, 2] {
        let line = day.line(1, board);
        assert!(line.contains("not verified, organiser's"), "{line}");
    }
    let changes = day.ok(&["changes", "--event", "1"]);
    assert!(
        changes.contains("round 1 board 1: the game's result 0-1 confirmed, by clerk"),
        "{changes}"
    );
    assert!(
        changes.contains(
            "round 1 board 2: the game's result 1-0 confirmed, by clerk; reason: 記錄卡已核對"
        ),
        "{changes}"
    );
    // Entered again: final already, so nothing changes, and it is said so.
    let out = day.ok(&strs(&result("1", &["--result", "black"])));
    assert!(
        out.contains("nothing changed") && out.contains("entered by the organiser"),
        "{out}"
    );
    let listing = day.ok(&["round", "pair", "--event", "1"]);
    assert!(listing.contains("round 2"), "{listing}");
}

/// 87 (a result put right late): correcting round 1 after round 2 was paired warns that
/// round 2 was paired on the old score groups, names each player whose score before round 2
/// changed (the old and new points), and says what the organiser may do.
#[test]
fn a87_a_late_correction_names_the_players_whose_score_group_changed() {
    let day = Day::new();
    for t in ["1", "2", "3", "4"] {
        day.ok(&strs(&result(t, &["--forfeit", "black"])));
    }
    // A correction before the next round is paired warns of nothing.
    let out = day.ok(&strs(&result(
        "4",
        &["--forfeit", "red", "--overwrite", "--reason", "紅黑記反"],
    )));
    assert!(!out.contains("warning"), "{out}");
    day.ok(&["round", "pair", "--event", "1"]);
    let names = day.line_names(1);
    let (red, black) = &names[0];
    let out = day.ok(&[
        "round",
        "result",
        "--event",
        "1",
        "--round",
        "1",
        "--board",
        "1",
        "--result",
        "black",
        "--overwrite",
        "--reason",
        "黑方其實到場，並勝",
    ]);
    assert!(out.contains("round 1 board 1: 0-1"), "{out}");
    assert!(
        out.contains("warning: round 2 was paired before this correction"),
        "{out}"
    );
    // 黃氏: 不戰而勝 12 became 負 2; 缺席 0 became 勝 13.
    let said =
        |name: &str, change: &str| out.lines().any(|l| l.contains(name) && l.contains(change));
    assert!(said(red, "12 → 2"), "{red}: {out}");
    assert!(said(black, "0 → 13"), "{black}: {out}");
    let (other_red, other_black) = &names[1];
    assert!(
        !out.contains(other_red.as_str()) && !out.contains(other_black.as_str()),
        "only the players whose group changed: {out}"
    );
    assert!(
        out.contains("baoqi round unpair --event 1") && out.contains("leave it"),
        "{out}"
    );
}

/// 87, 109(5): the command printed to withdraw an absentee runs as printed (it names the
/// event).
#[test]
fn a87_the_suggested_withdrawal_names_its_event() {
    let day = Day::new();
    for t in ["1", "2", "3", "4"] {
        day.ok(&strs(&result(t, &["--forfeit", "black"])));
    }
    let preview = day.ok(&["round", "pair", "--event", "1", "--dry-run"]);
    let line = preview
        .lines()
        .find(|l| l.starts_with("absent in round 1"))
        .unwrap_or_else(|| panic!("{preview}"));
    assert!(
        line.contains("baoqi players withdraw --event 1 --player "),
        "{line}"
    );
}

/// 附表二 第二部份 1 (byes) and the register's same names: `round pair` says the bye before
/// the tables' links and tokens, and tells two players of one name apart by number and club.
#[test]
fn a_round_listing_says_the_bye_first_and_tells_namesakes_apart() {
    let dir = crate::common::Scratch::new("cli-namesakes");
    let csv = dir.join("players.csv");
    std::fs::write(
        &csv,
        "姓名,所屬團體,種子\n陳大文,東區,1\n陳大文,西區,2\n陳奕迅,南區,3\n李明,北區,4\n王芳,中區,5\n",
    )
    .unwrap();
    let db = dir.join("t.db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(crate::common::BIN)
            .args(args)
            .args(["--db", db])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let fix = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/web/fixtures/tournament.toml"
    );
    run(&["event", "create", "--config", fix]);
    run(&["players", "import", "--event", "1", csv.to_str().unwrap()]);
    let out = run(&["round", "pair", "--event", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    let bye = lines.iter().position(|l| l.contains("bye (輪空)"));
    let token = lines.iter().position(|l| l.contains("token"));
    assert!(
        matches!((bye, token), (Some(b), Some(t)) if b < t),
        "the bye before the tokens:\n{out}"
    );
    for who in ["陳大文（#1 東區）", "陳大文（#2 西區）"] {
        assert!(out.contains(who), "{who}:\n{out}");
    }
    assert!(
        !out.contains("陳奕迅（"),
        "a name nobody shares is left alone:\n{out}"
    );
}

/// 108(1): 「無論如何雙方均記技術犯規 1 次」. Colours reversed within the window: the
/// replay's table starts with one technical foul a side, and its scoresheet says so; past
/// the window the game stands and the organiser is told the referee records the two fouls
/// at the table.
#[test]
fn a108_1_a_replay_carries_one_technical_foul_a_side() {
    let e = crate::cli_tournament::Event::new("foul", None);
    e.ok(&["round", "pair", "--event", "1"]);
    let out = e.ok(&[
        "round",
        "override",
        "--event",
        "1",
        "--round",
        "1",
        "--table",
        "1",
        "--swap-colours",
    ]);
    assert!(
        out.contains("108(1): the replay starts with one technical foul a side"),
        "{out}"
    );
    assert!(out.contains("board 1 (table 5)"), "{out}");
    let sheet = e.ok(&["export", "--scoresheet", "5"]);
    assert!(
        sheet.contains("開局前已記（第108(1)條重賽）：紅方 技術犯規 1 次、違反記錄規則 0 次、違反按棋鐘規則 0 次；黑方 技術犯規 1 次"),
        "{sheet}"
    );
    // Another board's game is untouched.
    let other = e.ok(&["export", "--scoresheet", "2"]);
    assert!(!other.contains("108(1)"), "{other}");
    let short = crate::cli_tournament::Event::new("foul-short", Some(10));
    short.ok(&["round", "pair", "--event", "1"]);
    let out = short.ok(&[
        "round",
        "override",
        "--event",
        "1",
        "--round",
        "1",
        "--table",
        "3",
        "--swap-colours",
    ]);
    assert!(
        out.contains("the game stands")
            && out.contains("108(1): each side is given one technical foul")
            && out.contains("the referee records it at table 3"),
        "{out}"
    );
}
