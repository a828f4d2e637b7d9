//! The deafblind player (附表七 第六部分, a 視障賽 table) plays a whole game on a braille
//! display alone: `baoqi keypad --braille zh-hk --speaker text`, BRLTTY with a virtual
//! 40-cell display (`braille/display.rs`), and nothing heard. He reads every message by
//! panning, types his announcement and his resignation on the display's braille keyboard
//! (dots, read by BRLTTY's text table), and every message the keypad says appears on the
//! display in contracted Hong Kong braille, with cells computed by liblouis itself (the
//! oracle; the keypad uses a Rust reading of the same tables).
//!
//! Also: the Rust reading gives liblouis's cells for every message of the phrasebook, in
//! the three tables. Skipped, with a message, without `brltty` and `python3-louis`, unless
//! `BAOQI_REQUIRE_BRAILLE=1` (the test command), when they fail.

mod display;

use std::fmt::Write as _;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use baoqi_clients::braille::Table;
use baoqi_clients::braille::contract::Contractor;

use crate::common;
use common::ear::{Pad, part6, spawn, table};
use common::{BIN, Scratch};
use display::{CELLS, Display, braille};

/// Whether the tools are here; panics when they must be.
fn tools() -> bool {
    let here = Command::new("brltty").arg("--version").output().is_ok()
        && Command::new("/usr/bin/python3")
            .args(["-c", "import louis"])
            .status()
            .is_ok_and(|s| s.success());
    let required = std::env::var("BAOQI_REQUIRE_BRAILLE").is_ok_and(|v| v == "1");
    assert!(
        here || !required,
        "BAOQI_REQUIRE_BRAILLE=1 but brltty or python3-louis is missing"
    );
    if !here {
        eprintln!("skipped: brltty or python3-louis is not installed");
    }
    here
}

/// `texts` in `table`'s braille by liblouis itself (python3-louis), as dots.
fn liblouis(table: &str, texts: &[String]) -> Vec<Vec<u8>> {
    let script = "import json,sys,louis\n\
        t=sys.argv[1]\n\
        print(json.dumps([[ord(c)-0x2800 if ord(c)>=0x2800 else 0 for c in \
        louis.translateString(['unicode.dis',t],s)] for s in json.load(sys.stdin)]))";
    let mut child = Command::new("/usr/bin/python3")
        .args(["-c", script, table])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = serde_json::to_vec(texts).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).expect("liblouis's cells")
}

/// The dots a braille keyboard types for the keypad's characters in BRLTTY's default text
/// table (North American computer braille): digits in the lower half of the cell.
fn dots_of_key(c: char) -> u8 {
    match c {
        '1' => 0x02,
        '2' => 0x06,
        '3' => 0x12,
        '4' => 0x32,
        '5' => 0x22,
        '6' => 0x16,
        '7' => 0x36,
        '8' => 0x26,
        '9' => 0x14,
        '0' => 0x34,
        '*' => 0x21,
        '/' => 0x0c,
        other => panic!("no dots for {other:?}"),
    }
}

/// Types `keys` on the display's braille keyboard, one character at a time, as a player
/// does: each key, then the feel of its answer on the display (an echo, a prompt), up to
/// 2 s, before the next.
fn type_keys(d: &Display, keys: &str) {
    for c in keys.chars().filter(|c| !c.is_whitespace()) {
        let before = d.now();
        d.press(&format!("PASSDOTS 0x{:02x}", dots_of_key(c)));
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while d.now() == before && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether a line shows the start of `expected` (the marks of dots 7 and 8 left out):
/// all of it when it fits, else as much as fits without splitting a character.
fn shows(line: &[u8], expected: &[u8]) -> bool {
    let line: Vec<u8> = line.iter().map(|d| d & 0x3f).collect();
    let text_end = line.iter().rposition(|d| *d != 0).map_or(0, |i| i + 1);
    if expected.len() <= CELLS {
        return line[..expected.len()] == *expected && text_end <= expected.len();
    }
    text_end + 3 >= CELLS && expected.starts_with(&line[..text_end])
}

/// Reads on (pans right) until the display shows `expected`, as a player reading; panics
/// after 40 pans or 15 s.
fn read_until(d: &Display, what: &str, expected: &[u8]) {
    for _ in 0..40 {
        let now = d.now();
        if shows(&now, expected) {
            return;
        }
        // Either a message that has not come yet, or one behind those still unread.
        let changed = std::time::Instant::now() + Duration::from_millis(400);
        while d.now() == now && std::time::Instant::now() < changed {
            std::thread::sleep(Duration::from_millis(20));
        }
        if d.now() == now {
            d.press("FWINRT");
            std::thread::sleep(Duration::from_millis(80));
        }
    }
    let what = format!("{what} ({})", braille(expected));
    d.wait_until(Duration::from_secs(15), &what, |l| shows(l, expected));
}

/// The texts of a spoken log's requested lines that are not word echoes or prompts.
fn messages(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains(" Requested ") && !l.contains(" Prompt "))
        .filter_map(|l| l.split_once(" Requested ").map(|(_, t)| t))
        // What the speech queue adds: how many were to be said before it.
        .map(|t| {
            t.rsplit_once(" [")
                .map_or(t, |(text, _)| text)
                .trim()
                .to_owned()
        })
        .filter(|t| t.chars().count() > 1)
        .collect()
}

#[test]
fn s7p6_a_deafblind_player_plays_a_whole_game_on_a_braille_display_alone() {
    if !tools() {
        return;
    }
    let dir = Scratch::new("braille-game");
    let (mut server, red, black) = table(&dir, &part6(r#", board = "none""#));
    let display = Display::start(&dir.0);
    let log = dir.join("red.log");
    let mut keypad = Command::new(BIN)
        .args(["keypad", "--url", &server.url, "--token", &red])
        .args(["--speaker", "text", "--braille", "zh-hk", "--stay"])
        .args([
            "--brlapi-host",
            &display.brlapi_host,
            "--brlapi-auth",
            "none",
        ])
        .arg("--spoken-log")
        .arg(&log)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("baoqi keypad --braille");
    // What the keypad says on its standard error, in the test's output (shown on a failure)
    // and kept for the end.
    let errors = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let (stderr, kept) = (keypad.stderr.take().unwrap(), errors.clone());
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            eprintln!("keypad: {line}");
            kept.lock().unwrap().push_str(&line);
        }
    });
    let black_script =
        "sleep 1500\nkeys Enter\nawait moved side=red\nkeys 0 2 8 + 7\nkeys Enter\nawait over\n";
    let (opponent, _) = spawn(&dir, &server.url, "black", &Pad::text(&black, black_script));
    // Both keypads end with the test, whether it passes or not.
    let _keypads = (Ended(keypad), Ended(opponent));

    let c = Contractor::new(Table::HongKong).unwrap();
    let texts: Vec<String> = [
        "對局開始，紅方先走",
        "炮二平五",
        "黑方 馬８進７",
        "對局結束：你負。你認負",
    ]
    .iter()
    .map(|t| c.prepared(t))
    .collect();
    let cells = liblouis("zh-hk.ctb", &texts);
    read_until(&display, "the game's start", &cells[0]);
    type_keys(&display, "0 6 2 * 5");
    // 6.3(6)(a): the four bound words, read back at once.
    display.wait_until(Duration::from_secs(5), "the read-back", |l| {
        shows(l, &cells[1])
    });
    display.press("KEY_ENTER");
    read_until(&display, "black's move", &cells[2]);
    type_keys(&display, "/0/0");
    read_until(&display, "the resignation", &cells[3]);

    // Everything said, read to the end: each message was on the display.
    for _ in 0..30 {
        display.press("FWINRT");
        std::thread::sleep(Duration::from_millis(60));
    }
    let said = std::fs::read_to_string(&log).unwrap();
    let all = messages(&said);
    let expected = liblouis(
        "zh-hk.ctb",
        &all.iter().map(|t| c.prepared(t)).collect::<Vec<_>>(),
    );
    let history = display.history();
    let mut transcript = String::new();
    for s in &history {
        let _ = writeln!(
            transcript,
            "{:>7.3}s {}",
            s.at.as_secs_f64(),
            braille(&s.dots)
        );
    }
    std::fs::write(dir.join("braille-transcript.txt"), &transcript).unwrap();
    for (text, cells) in all.iter().zip(&expected) {
        assert!(
            history.iter().any(|s| shows(&s.dots, cells)),
            "never on the display: {text} ({})\n{transcript}",
            braille(cells)
        );
    }
    assert!(!said.contains("違規"), "no violation\n{said}");
    let errors = errors.lock().unwrap().clone();
    assert!(
        !errors.contains("braille display"),
        "the display's errors: {errors}"
    );
    assert!(all.len() >= 6, "a whole game says more than that: {all:?}");
    server.kill();
}

/// A process killed when the test ends, passed or failed (a failed test would leave it
/// running).
struct Ended(std::process::Child);

impl Drop for Ended {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The display form of every entry of the phrasebook, each slot filled as a game would
/// (a side, a move, a piece, a time, a number).
fn phrasebook_texts() -> Vec<String> {
    fn walk(v: &toml::Value, out: &mut Vec<String>) {
        match v {
            toml::Value::Table(t) => t.values().for_each(|v| walk(v, out)),
            toml::Value::Array(a) => {
                if let Some(display) = a.first().and_then(toml::Value::as_str) {
                    out.push(fill(display));
                }
            }
            _ => {}
        }
    }
    fn fill(template: &str) -> String {
        let mut out = String::new();
        let mut slot: Option<String> = None;
        for ch in template.chars() {
            match (ch, slot.as_mut()) {
                ('{', _) => slot = Some(String::new()),
                ('}', Some(name)) => {
                    out.push_str(match name.as_str() {
                        "side" | "first" | "second" => "紅方",
                        "move" => "俥九平八",
                        "piece" => "馬",
                        n if n.contains("time") || n.contains("left") => "五分三十秒",
                        _ => "２",
                    });
                    slot = None;
                }
                (c, Some(name)) => name.push(c),
                (c, None) => out.push(c),
            }
        }
        out
    }
    let text = std::fs::read_to_string("phrases/data/phrases.toml").unwrap();
    let mut out = Vec::new();
    walk(&text.parse::<toml::Table>().unwrap().into(), &mut out);
    out
}

#[test]
fn the_keypads_braille_is_liblouiss_for_every_phrase_in_every_table() {
    if !tools() {
        return;
    }
    let texts = phrasebook_texts();
    assert!(texts.len() > 100, "the phrasebook's texts: {}", texts.len());
    for table in [Table::HongKong, Table::Taiwan, Table::Mainland] {
        let c = Contractor::new(table).unwrap();
        let prepared: Vec<String> = texts.iter().map(|t| c.prepared(t)).collect();
        let oracle = liblouis(table.file(), &prepared);
        for ((text, ours), theirs) in texts
            .iter()
            .zip(texts.iter().map(|t| c.cells(t)))
            .zip(&oracle)
        {
            assert_eq!(
                braille(&ours.dots),
                braille(theirs),
                "{}: {text}",
                table.file()
            );
        }
    }
}
