//! The blind player's game by ear, end to end (issue 14): a real server, two scripted
//! `baoqi keypad` processes with text speakers, and what each player's spoken log shows.
//! No sound card: the text speaker logs what would be said, with its fate.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{BIN, Scratch, Server, baoqi, token_of};

/// A 視障賽 table; `boards` is each side's `board = …` setting (empty: the default, the VI
/// board a sensor reports).
fn event(boards: &str) -> String {
    format!(
        r#"
name = "e2e by ear"
spectators = 0
[settings]
resume = {{ mode = "referee" }}
[[referees]]
name = "裁判"
tables = []
[[tables]]
round = 1
name = "視障賽"
red = "李明"
black = "張華"
[tables.match]
kind = "part6"
red = {{ name = "李明", categories = ["blind"]{boards} }}
black = {{ name = "張華", categories = ["blind"]{boards} }}
time.default = {{ base_ms = 600_000, mode = "plain" }}
"#
    )
}

/// A server with the event of `toml`; red's and black's tokens.
fn table(dir: &Scratch, toml: &str) -> (Server, String, String) {
    let db = dir.join("ear.db");
    let file = dir.join("event.toml");
    std::fs::write(&file, toml).unwrap();
    let printed = baoqi(&[
        "event",
        "create",
        "--config",
        file.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    let seats = common::seat_lines(&printed);
    let server = Server::start(&db, false);
    let red = token_of(&seats, "red", Some(1));
    let black = token_of(&seats, "black", Some(1));
    (server, red, black)
}

/// A keypad with a text speaker playing `script` (and a simulated sensor board playing what
/// follows a `--- board` line, when there is one); the process and its spoken log.
fn keypad(dir: &Scratch, url: &str, name: &str, token: &str, script: &str) -> (Child, PathBuf) {
    let (script, board) = script.split_once("--- board\n").unwrap_or((script, ""));
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, script).unwrap();
    let mut extra = Vec::new();
    if !board.is_empty() {
        let b = dir.join(format!("{name}-board.txt"));
        std::fs::write(&b, board).unwrap();
        extra.push(format!("--board=sim:{}", b.display()));
    }
    let log = dir.join(format!("{name}.log"));
    let child = Command::new(BIN)
        .args([
            "keypad",
            "--speaker",
            "text",
            "--url",
            url,
            "--token",
            token,
        ])
        .arg("--script")
        .arg(&path)
        .arg("--spoken-log")
        .arg(&log)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("baoqi keypad");
    (child, log)
}

/// Waits for both keypads (each ends after its script, or at the game's end); their logs.
fn play(dir: &Scratch, server: &Server, red: (&str, &str), black: (&str, &str)) -> [String; 2] {
    let (r, red_log) = keypad(dir, &server.url, "red", red.0, red.1);
    let (b, black_log) = keypad(dir, &server.url, "black", black.0, black.1);
    let deadline = Instant::now() + Duration::from_secs(30);
    for mut child in [r, b] {
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    [red_log, black_log].map(|p| read(&p))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// Item 5: "炮二平五 then Enter gave 紅方按鐘違規第一次 with no cause". A table whose blind
/// players use no sensor board (`board = "none"`: the announcement is the move, the referee
/// watches the tactile boards) is played from the keypads alone: no violation, each hears
/// the other's move.
#[test]
fn s7p6_3_item5_a_whole_game_from_the_keypads_alone() {
    let dir = Scratch::new("ear-keypad-alone");
    let (mut server, red, black) = table(&dir, &event(", board = \"none\""));
    let red_script =
        "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nawait moved side=black\nkeys / 0\nkeys / 0\n";
    let black_script = "sleep 1500\n# 95(3): black's press starts the clocks\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nkeys Enter\nawait over\n";
    let [red_said, black_said] = play(&dir, &server, (&red, red_script), (&black, black_script));
    server.kill();
    for (who, log) in [("red", &red_said), ("black", &black_said)] {
        assert!(!log.contains("違規"), "{who}: no violation\n{log}");
    }
    assert!(
        red_said.contains("黑方：馬８進７"),
        "red hears black's move\n{red_said}"
    );
    assert!(
        black_said.contains("紅方：炮二平五"),
        "black hears red's move\n{black_said}"
    );
    assert!(black_said.contains("紅方認負"), "{black_said}");
}

/// Item 5: on a table that expects the VI board's report, the keypad alone cannot finish a
/// move; the violation says why (走子未完成便按鐘, 6.3(3)), and its count.
#[test]
fn s7p6_3_3_item5_a_press_before_the_board_shows_the_move_says_why() {
    let dir = Scratch::new("ear-no-board");
    let (mut server, red, black) = table(&dir, &event(""));
    let red_script = "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nsleep 800\n";
    let black_script = "sleep 1500\nkeys Enter\nsleep 2500\n";
    let [red_said, _] = play(&dir, &server, (&red, red_script), (&black, black_script));
    server.kill();
    let line = red_said
        .lines()
        .find(|l| l.contains("違規"))
        .unwrap_or_else(|| panic!("a violation said\n{red_said}"));
    assert!(
        line.contains("走子未完成便按鐘") && line.contains("第一次"),
        "{line}"
    );
}

/// Item 4, through the server and the board simulator: check (a) on a sensor board. Red
/// announces 炮二進四 and moves 炮二平五; at the press he is told to correct the board; he
/// undoes the wrong move and makes the announced one, which completes the move (6.4(a): on
/// his time, no second press). The game goes on with no referee and no divergence: black
/// hears red's move and replies.
#[test]
fn s7p6_4_a_item4_a_sensor_board_correction_clears_by_itself() {
    let dir = Scratch::new("ear-correction");
    let (mut server, red, black) = table(&dir, &event(""));
    let red_script = "await my_turn\nkeys 0 6 2 + 4\nawait moved side=red\nawait moved side=black\n\
        --- board\nawait announced side=red\nL h2\nP e2\nsleep 600\nC\n\
        await correction_required\nL e2\nP h2\nsleep 600\nL h2\nP h6\nsleep 600\n\
        await moved side=red\nawait announced side=black\nL h9\nP g7\nsleep 600\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nawait board step.mv=h9g7\nkeys Enter\nawait moved side=black\n";
    let [red_said, black_said] = play(&dir, &server, (&red, red_script), (&black, black_script));
    server.kill();
    assert!(
        black_said.contains("紅方：炮二進四"),
        "black hears the announced move\n{black_said}"
    );
    assert!(
        red_said.contains("黑方：馬８進７"),
        "the game went on\n{red_said}"
    );
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
        red_said.contains("紅方棋盤已改正為炮二進四，此着完成"),
        "{red_said}"
    );
    assert!(!red_said.contains("等候裁判"), "{red_said}");
}
