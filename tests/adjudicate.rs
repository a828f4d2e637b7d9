//! `baoqi adjudicate` end to end: the binary, its output lines and its exit codes.

use std::process::{Command, Output};

fn adjudicate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .arg("adjudicate")
        .args(args)
        .output()
        .expect("the baoqi binary runs")
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("utf-8 output")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a65_3_perpetual_chase_is_warned_then_lost() {
    let out = adjudicate(&[
        "--fen",
        "3k5/9/1c7/9/9/9/9/2R6/9/4K4 w",
        "--moves",
        "c2b2 b7c7 b2c2 c7b7 c2b2 b7c7 b2c2 c7b7 c2b2 b7c7 b2c2 c7b7",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout_lines(&out),
        [
            "ply 8 61(2) 紅方長捉，紅方不變作負",
            "ply 12 65(3) 紅方長捉犯禁，黑方勝",
            "black wins 65(3)",
        ]
    );
}

#[test]
fn a62_renewed_warning_then_a66_4_draw() {
    let out = adjudicate(&[
        "--fen",
        "3k5/9/1c7/9/9/9/9/2R6/9/4K4 w",
        "--moves",
        "c2b2 b7c7 b2c2 c7b7 c2b2 b7c7 b2c2 c7b7 c2c3 b7b8 c3c2 b8b7 c2c3 b7b8 c3c2 b8b7",
    ]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    assert_eq!(lines[1], "ply 12 62 一般循環盤面，雙方不變作和");
    assert_eq!(lines.last().map(String::as_str), Some("draw 66(4)"));
}

#[test]
fn a65_1_checkmate_ends_at_once() {
    // The rook to b9 checks along rank 9; the rook on a8 sweeps rank 8: 將死.
    let out = adjudicate(&["--fen", "4k4/R8/1R7/9/9/9/9/9/9/3K5 w", "--moves", "b7b9"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout_lines(&out),
        ["ply 1 65(1) 將死，紅方勝", "red wins 65(1)"]
    );
}

#[test]
fn ongoing_game_from_the_start_position() {
    let out = adjudicate(&["--moves", "h2e2 h9g7"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_lines(&out), ["ongoing"]);
}

#[test]
fn bad_move_text_is_a_usage_error() {
    let out = adjudicate(&["--moves", "h2e2 z9z9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 2"), "{err}");
}

#[test]
fn illegal_move_is_a_usage_error() {
    let out = adjudicate(&["--moves", "h2e2 h2h3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2 `h2h3`"));
}

#[test]
fn move_after_the_end_is_a_usage_error() {
    let out = adjudicate(&[
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/3K5 w",
        "--moves",
        "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("game is over"));
}

#[test]
fn bad_fen_is_a_usage_error() {
    let out = adjudicate(&["--fen", "4k4/9 w", "--moves", ""]);
    assert_eq!(out.status.code(), Some(2));
}
