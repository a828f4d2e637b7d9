//! The records agree with the day (附表四 第三部份; 108; 87): an event's archive holds the
//! game that counts at a board replayed under 108, not the one set aside (and is written
//! once both have begun); a name corrected in the register reaches the PGN and the
//! scoresheet; a result the organiser entered is the record's result.

use std::io::Read;
use std::process::Command;

use crate::cli_results::{Day, result, strs};
use crate::common::BIN;
use baoqi_arbiter::Command as Act;
use baoqi_store::model::{Role, TableId};

/// `baoqi export --archive 1` on `day`: the ZIP's files, each with its text.
fn archive(day: &Day) -> Vec<(String, String)> {
    let out = Command::new(BIN)
        .args([
            "export",
            "--archive",
            "1",
            "--format",
            "pgn",
            "--db",
            &day.db,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(out.stdout)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            (f.name().unwrap().into_owned(), text)
        })
        .collect()
}

/// 108: board 1's game (over: red resigned) is replayed at table 5 after colours reversed;
/// once the replay has begun too, the archive holds the replay alone, under the board's
/// name.
#[test]
fn a108_the_archive_holds_the_replay_not_the_game_set_aside() {
    let day = Day::new();
    day.play(
        TableId(1),
        [(Role::Referee, Act::Start), (Role::Red, Act::Resign)],
    );
    let out = day.ok(&[
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
    assert!(out.contains("board 1 (table 5)"), "{out}");
    day.play(
        TableId(5),
        [(Role::Referee, Act::Start), (Role::Black, Act::Resign)],
    );
    let files = archive(&day);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].ends_with("-r1-t1.pgn"), "{names:?}");
    assert!(files[0].1.contains("[Result \"1-0\"]"), "{}", files[0].1);
}

/// 附表四 3(6)–(7), 87: a name put right with `players edit` after the pairing is the
/// name the PGN and the scoresheet give; the organiser's entered result is the result they
/// give (the scoresheet says it is his, and what the table showed).
#[test]
fn a87_a_corrected_name_and_an_entered_result_reach_the_records() {
    let day = Day::new();
    let (red, _) = day.line_names(1)[1].clone();
    let number = day.player_number(&red);
    day.ok(&[
        "players",
        "edit",
        "--event",
        "1",
        "--player",
        &number,
        "--name",
        "李小明",
    ]);
    day.ok(&strs(&result("2", &["--result", "red"])));
    let pgn = day.ok(&["export", "--pgn", "2"]);
    assert!(pgn.contains("[Red \"李小明\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    let sheet = day.ok(&["export", "--scoresheet", "2"]);
    assert!(sheet.contains("紅方：李小明"), "{sheet}");
    assert!(
        sheet.contains("結果：1-0（裁判長登記）　對局：*"),
        "{sheet}"
    );
    // An absence is the win it scores in PGN, and +/- on the scoresheet.
    day.ok(&strs(&result("3", &["--forfeit", "black"])));
    let pgn = day.ok(&["export", "--pgn", "3"]);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    let sheet = day.ok(&["export", "--scoresheet", "3"]);
    assert!(sheet.contains("結果：+/-（裁判長登記）"), "{sheet}");
}
