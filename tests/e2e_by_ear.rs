//! The blind player's game by ear, end to end: a real server, two scripted `baoqi keypad`
//! processes with text speakers (and the board simulator where a board is involved), and
//! what each player's spoken log shows. One test per fault found by ear that a keypad game
//! shows; the two that need real time (speech cut while it plays, a restart) are in
//! `e2e_by_ear_live.rs`.

use crate::common;
use common::Scratch;
use common::ear::{Pad, heard, part6, play, table};

/// Each side's setting for a table without sensor boards (the announcement is the move).
const NONE: &str = r#", board = "none""#;

/// A 視障賽 game (each side with `board`) between two text-speaker keypads playing
/// `red` and `black`; their spoken logs.
fn game(name: &str, board: &str, red: &str, black: &str) -> [String; 2] {
    let dir = Scratch::new(name);
    let (mut server, red_token, black_token) = table(&dir, &part6(board));
    let logs = play(
        &dir,
        &server,
        &Pad::text(&red_token, red),
        &Pad::text(&black_token, black),
    );
    server.kill();
    logs
}

/// "炮二平五 then Enter gave 紅方按鐘違規第一次 with no cause". A table whose blind
/// players use no sensor board (`board = "none"`: the announcement is the move, the referee
/// watches the tactile boards) is played from the keypads alone: no violation, each hears
/// the other's move. And the bound announcement is read back whole.
#[test]
fn s7p6_3_a_whole_game_from_the_keypads_alone() {
    let red_script =
        "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=black\nkeys / 0\nkeys / 0\n";
    let black_script =
        "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nkeys Enter\nawait over\n";
    let [red_said, black_said] = game("ear-keypad-alone", NONE, red_script, black_script);
    for (who, log) in [("red", &red_said), ("black", &black_said)] {
        assert!(!log.contains("違規"), "{who}: no violation\n{log}");
    }
    assert!(heard(&red_said, "Requested", "黑方 馬８進７"), "{red_said}");
    assert!(
        heard(&black_said, "Requested", "紅方 炮二平五"),
        "{black_said}"
    );
    assert!(heard(&black_said, "Spoken", "對手認負"), "{black_said}");
    // Joining, the player hears where the game stands (not yet his turn: black starts the
    // clocks, 95(3)); then that it started.
    assert!(
        heard(&red_said, "Requested", "未開鐘：黑方按鐘後由你先走"),
        "{red_said}"
    );
    assert!(
        heard(&red_said, "Requested", "對局開始，紅方先走"),
        "{red_said}"
    );
    // 6.3(6)(a): the four bound words read back whole, as an echo.
    assert!(heard(&red_said, "Echo Requested", "炮二平五"), "{red_said}");
}

/// On a table that expects the VI board's report, the keypad alone cannot finish a
/// move; the violation says why (走子未完成便按鐘, 6.3(3)), and its count.
#[test]
fn s7p6_3_3_a_press_before_the_board_shows_the_move_says_why() {
    let red_script = "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nsleep 800\n";
    let black_script = "sleep 1500\nkeys Enter\nsleep 2500\n";
    let [red_said, _] = game("ear-no-board", "", red_script, black_script);
    let line = red_said
        .lines()
        .find(|l| l.contains("違規"))
        .unwrap_or_else(|| panic!("a violation said\n{red_said}"));
    assert!(
        line.contains("走子未完成便按鐘") && line.contains("第 1 次"),
        "{line}"
    );
}

/// Through the server and the board simulator: check (a) on a sensor board.
/// Red announces 炮二進四 and moves 炮二平五; at the press he hears what to do, what the
/// board shows and that it is not what he announced; he undoes the wrong move and makes the announced one,
/// which completes the move (6.4(a): on his time, no second press). No referee, no
/// divergence: black hears red's move and replies.
#[test]
fn s7p6_4_a_a_sensor_board_correction_clears_by_itself() {
    let red_script = "await my_turn\nkeys 0 6 2 + 4\nawait moved side=red\nawait moved side=black\n\
        --- board\nawait announced side=red\nL h2\nP e2\nsleep 600\nC\n\
        await correction_required\nL e2\nP h2\nsleep 600\nL h2\nP h6\nsleep 600\n\
        await moved side=red\nawait announced side=black\nL h9\nP g7\nsleep 600\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nawait board step.mv=h9g7\nkeys Enter\nawait moved side=black\n";
    let [red_said, black_said] = game("ear-correction", "", red_script, black_script);
    assert!(
        heard(
            &red_said,
            "Requested",
            "你須把棋盤改為炮二進四。用你的時間；棋盤走了炮二平五，與報棋不符"
        ),
        "附表七 6.4(a): what to do first, then the board and the announcement\n{red_said}"
    );
    assert!(
        heard(&black_said, "Requested", "紅方 炮二進四"),
        "{black_said}"
    );
    assert!(heard(&red_said, "Requested", "黑方 馬８進７"), "{red_said}");
    for (who, log) in [("red", &red_said), ("black", &black_said)] {
        assert!(!log.contains("違規"), "{who}: no violation\n{log}");
        assert!(!log.contains("與對局不符"), "{who}: no divergence\n{log}");
    }
    assert!(
        !red_said.contains("不合法"),
        "the undo is not called illegal\n{red_said}"
    );
    // Told that the correction finished the move, and never that the referee must act.
    assert!(
        heard(&red_said, "Requested", "棋盤已改為炮二進四。你此着完成"),
        "{red_said}"
    );
    assert!(!red_said.contains("等候裁判"), "{red_said}");
}

/// Check (c): red announces 車一平二 (illegal: his horse stands there) and moves 炮二平五,
/// a legal move of another piece. He hears that the board is restored and why, restores it
/// on the sensor board (which clears by itself), then plays 炮二平五 properly.
#[test]
fn s7p6_4_c_another_piece_moved_is_restored_and_play_goes_on() {
    let red_script = "await my_turn\nkeys 0 1 1 * 2\nawait restore_required\nsleep 1500\nkeys 0 6 2 * 5\nawait moved side=red\n\
        --- board\nawait announced side=red\nL h2\nP e2\nsleep 600\nC\n\
        await restore_required\nL e2\nP h2\nsleep 600\n\
        await announced side=red\nL h2\nP e2\nsleep 600\nC\nsleep 600\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nsleep 500\n";
    let [red_said, black_said] = game("ear-restore", "", red_script, black_script);
    // (c) as 6.4(c) words it: the board move was legal but of another piece.
    let line = red_said
        .lines()
        .find(|l| l.contains("報棋俥一平二非法"))
        .unwrap_or_else(|| panic!("the check said\n{red_said}"));
    assert!(
        line.contains("棋盤走了炮二平五") && line.contains("你須還原棋盤，可改走別子"),
        "what the board shows and what to do: {line}"
    );
    assert!(
        !line.contains("均非法"),
        "not called illegal, it was legal: {line}"
    );
    assert!(heard(&red_said, "Requested", "棋盤已還原"), "{red_said}");
    assert!(
        heard(&black_said, "Requested", "紅方 炮二平五"),
        "{black_said}"
    );
}

/// `/ 0` then `Enter` cancelled the resignation and pressed the clock. The cancel
/// key does nothing else: no press, no violation, and the cancellation is heard.
#[test]
fn a69_1_the_key_that_cancels_a_resignation_does_nothing_else() {
    let red_script = "await my_turn\nkeys / 0\nkeys Enter\nkeys / 0\nkeys 5\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=red\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nsleep 500\n";
    let [red_said, black_said] = game("ear-resign-cancel", NONE, red_script, black_script);
    assert_eq!(
        red_said.matches("Requested 取消認負").count(),
        2,
        "{red_said}"
    );
    assert!(!red_said.contains("違規"), "{red_said}");
    assert_eq!(
        red_said.matches("Requested 五 [").count(),
        1,
        "the 5 that cancelled was no word; 五 is said once, in 炮二平五\n{red_said}"
    );
    assert!(
        heard(&black_said, "Requested", "紅方 炮二平五"),
        "{black_said}"
    );
}

/// The capture names the captured piece, and a check is 將軍 apart, to both sides. 炮二平五
/// 象３進５ 炮五進四: the cannon takes the central pawn and checks through the elephant.
#[test]
fn a_capture_names_the_piece_and_check_is_said_to_both() {
    let red_script = "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=black\nkeys 0 6 5 + 4\nkeys Enter\nawait moved side=red\nsleep 500\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 3 3 + 5\nkeys Enter\nawait moved side=red\nsleep 500\n";
    let [red_said, black_said] = game("ear-capture", NONE, red_script, black_script);
    assert!(
        heard(&black_said, "Requested", "紅方 炮五進四，吃卒，將軍"),
        "{black_said}"
    );
    assert!(
        red_said.lines().any(|l| l.contains("將軍")),
        "the mover hears 將軍 too\n{red_said}"
    );
}

/// In his own turn the player hears the position terse; he speeds speech up; help
/// comes in pages, `.` the next.
#[test]
fn terse_readings_a_rate_key_and_help_in_pages() {
    let red_script = "await my_turn\nkeys / 7\nkeys 0 +\nkeys / .\nkeys .\nsleep 300\n";
    let black_script = "sleep 1500\nkeys Enter\nsleep 2500\n";
    let [red_said, _] = game("ear-brevity", NONE, red_script, black_script);
    assert!(
        heard(&red_said, "Requested", "紅方 帥五一 仕四一 六一"),
        "{red_said}"
    );
    assert!(
        heard(&red_said, "Requested", "語速加快：一百一十四"),
        "{red_said}"
    );
    assert!(
        heard(&red_said, "Requested", "報棋：數字一至九"),
        "{red_said}"
    );
    assert!(heard(&red_said, "Requested", "零八前"), "{red_said}");
}

/// Touching a piece silently declined the opponent's standing draw offer (69(2)(c)).
/// Now both players hear it, in the second person: who touched.
#[test]
fn a69_2_touching_a_piece_declines_the_offer_and_both_hear_it() {
    let red_script = "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=black\nkeys 0 6 5\nsleep 800\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nkeys / 8\nkeys Enter\nsleep 2500\n";
    let [red_said, black_said] = game("ear-touch-declines", NONE, red_script, black_script);
    assert!(heard(&red_said, "Requested", "對手提和"), "{red_said}");
    for (who, log, said) in [
        ("red", &red_said, "你摸子，即不接受提和"),
        ("black", &black_said, "對手摸子，即不接受提和"),
    ] {
        assert!(heard(log, "Requested", said), "{who}\n{log}");
    }
}

/// Check (b): red announces 炮二進六 (illegal: black's cannon on h7 blocks it) and
/// moves 炮二平五, a legal move of the announced piece. He hears that the board move stands
/// and which move to announce again; he does, presses, and the game goes on.
#[test]
fn s7p6_4_b_the_player_hears_which_move_to_announce_again() {
    let red_script = "await my_turn\nkeys 0 6 2 + 6\nsleep 2500\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=red\n\
        --- board\nawait announced side=red\nL h2\nP e2\nsleep 600\nC\nsleep 3000\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nsleep 500\n";
    let [red_said, black_said] = game("ear-reannounce", "", red_script, black_script);
    assert!(
        heard(&red_said, "Requested", "你須重新報棋：炮二平五"),
        "which move to announce again\n{red_said}"
    );
    assert!(
        heard(&black_said, "Requested", "紅方 炮二平五"),
        "{black_said}"
    );
}

/// 正規棋盤與對局不符，請改正 told the VI player to fix his opponent's board. In a 共融賽
/// game the sighted player's board (reported by his sensor board) loses a piece; the VI
/// player hears that the referee is told, not that he must fix it.
#[test]
fn s7p7_the_vi_player_is_not_told_to_fix_the_sighted_players_board() {
    let dir = Scratch::new("ear-regular-diverges");
    let toml = common::ear::event(
        "part7",
        r#"name = "王芳", categories = ["blind"], board = "none""#,
        r#"name = "趙強", categories = ["sighted"], board = "regular""#,
    );
    let (mut server, red, black) = table(&dir, &toml);
    let red_script = "sleep 4000\n";
    let black_script =
        "sleep 1000\nkeys Enter\nsleep 500\n--- board\nsleep 1200\nL a6\nP a5\nsleep 1500\n";
    let [red_said, black_said] = play(
        &dir,
        &server,
        &Pad::text(&red, red_script),
        &Pad::text(&black, black_script),
    );
    server.kill();
    assert!(
        heard(&red_said, "Requested", "正規棋盤與對局不符。已請裁判處理"),
        "red\n{red_said}\nblack\n{black_said}"
    );
    assert!(!red_said.contains("請改正"), "{red_said}");
}
