//! The blind player's game by ear, end to end, where time matters: a reading that really
//! lasts (espeak-ng into an ALSA file tap) cut by the opponent's move and stopped by the
//! stop key, and a server restart in the middle of a move.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use common::ear::{Pad, heard, latency_ms, lines, part6, play, spawn, table, table_on, wait_all};
use common::{Scratch, Server};

/// Waits up to `limit` for the file at `path` to contain `text`.
fn until_said(path: &Path, text: &str, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if std::fs::read_to_string(path).is_ok_and(|s| s.contains(text)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The whole position (a long reading) was being read when the opponent moved; the
/// move was heard 48.6 s later. Now the move cuts the reading at once (and the reading is not
/// started again); the stop key stops a reading.
#[test]
fn the_opponents_move_cuts_a_reading_and_the_stop_key_stops_one() {
    if !baoqi_audio::Espeak::default().available() {
        eprintln!("SKIPPED: espeak-ng is not installed (scripts/setup.sh)");
        return;
    }
    let dir = Scratch::new("ear-cut");
    let (mut server, red, black) = table(&dir, &part6(r#", board = "none""#));
    // Red reads the whole position in black's turn (full: about 40 s), black moves 6 s in.
    // In his own turn red asks again and stops it with Backspace.
    let red_script = "await my_turn\nkeys 0 6 2 * 5\nkeys Enter\nsleep 300\nkeys / 7\n\
        await moved side=black\nsleep 2500\nkeys / 7\nsleep 1500\nkeys Backspace\nsleep 500\n";
    let black_script = "sleep 1500\nkeys Enter\nawait moved side=red\nsleep 6000\nkeys 0 2 8 + 7\nkeys Enter\nsleep 4000\n";
    let red_pad = Pad {
        token: &red,
        script: red_script,
        espeak: true,
    };
    let [red_said, _] = play(&dir, &server, &red_pad, &Pad::text(&black, black_script));
    server.kill();
    let cut = lines(&red_said, "Cut", "帥五線一排");
    assert_eq!(cut.len(), 1, "the full reading cut once\n{red_said}");
    let by = cut[0]
        .split("by: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("cut by an item");
    let mv = red_said
        .lines()
        .find(|l| l.contains(&format!("#{by} ")) && l.contains(" Spoken "))
        .unwrap_or_else(|| panic!("item {by} spoken\n{red_said}"));
    assert!(mv.contains("黑方 馬８進７"), "cut by black's move: {mv}");
    let ms = latency_ms(mv).expect("a latency");
    assert!(ms < 500.0, "the move heard {ms} ms after it came: {mv}");
    assert_eq!(
        lines(&red_said, "Requested", "帥五線一排").len(),
        1,
        "the cut reading is not started again\n{red_said}"
    );
    assert!(
        !lines(&red_said, "Stopped", "帥五一").is_empty(),
        "the stop key stopped the terse reading\n{red_said}"
    );
}

/// The server restarts in the middle of red's announcement. A key pressed while it
/// is down is refused aloud and not echoed as given; on reconnecting red hears where the
/// game stands (his bound words, whose turn) and that the server paused it, not that a
/// referee paused it or that anything was sealed.
#[test]
fn a_restart_is_said_as_it_is_and_the_player_hears_where_the_game_stands() {
    let dir = Scratch::new("ear-restart");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let listen = format!("127.0.0.1:{port}");
    let (mut server, red, black) = table_on(&dir, &part6(r#", board = "none""#), &listen);
    let red_script = "await my_turn\nkeys 0 6 2\nsleep 2500\nkeys *\nsleep 5000\n";
    let black_script = "sleep 1500\nkeys Enter\nsleep 8000\n";
    let (r, red_log) = spawn(&dir, &server.url, "red", &Pad::text(&red, red_script));
    let (b, _) = spawn(&dir, &server.url, "black", &Pad::text(&black, black_script));
    assert!(
        until_said(&red_log, "摸子：炮二", Duration::from_secs(10)),
        "red touched"
    );
    server.kill();
    assert!(until_said(
        &red_log,
        "未送出：未連線",
        Duration::from_secs(5)
    ));
    let db = dir.join("event.db");
    let mut again = Server::start_on(&db, false, &[], &listen);
    // Back: his turn and the words that bind him (the shared summary.words_so_far).
    assert!(until_said(
        &red_log,
        "輪到你。你本輪已報「炮二」，報棋未完",
        Duration::from_secs(10)
    ));
    std::thread::sleep(Duration::from_millis(500));
    again.kill();
    wait_all(vec![r, b]);
    let said = std::fs::read_to_string(&red_log).unwrap_or_default();
    assert!(
        !heard(&said, "Requested", "平 ["),
        "平 keyed while down is not echoed as given\n{said}"
    );
    assert!(heard(&said, "Requested", "伺服器重新啟動"), "{said}");
    assert!(
        !said.contains("封棋") && !said.contains("裁判暫停"),
        "no seal, no referee\n{said}"
    );
}
