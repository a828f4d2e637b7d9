//! `baoqi notation`, `baoqi announce` and `baoqi replay` end to end: their command-line
//! contract (output lines, tabs, exit codes).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn baoqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .args(args)
        .output()
        .expect("the baoqi binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 output")
}

#[test]
fn s6p1_notation_parse_prints_the_iccs_move() {
    let out = baoqi(&["notation", "parse", "炮二平五"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "h2e2\n");
    let out = baoqi(&[
        "notation",
        "parse",
        "--fen",
        "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
        "中兵平四",
    ]);
    assert_eq!(stdout(&out), "e6f6\n");
    let out = baoqi(&["notation", "parse", "馬二平三"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn s6p1_notation_parse_batch_reads_fen_tab_text_lines() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .args(["notation", "parse", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the baoqi binary runs");
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let input = format!("{start}\t炮二平五\n{start}\tC2=5\n{start}\t車三進一\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["h2e2", "h2e2"]);
    assert!(
        lines[2].starts_with("error: ") && lines[2].contains("file 3"),
        "{text}"
    );
}

#[test]
fn s6p1_notation_render_every_style() {
    let render = |style: &str| stdout(&baoqi(&["notation", "render", "h2h9", "--style", style]));
    assert_eq!(render("traditional"), "炮二進七×\n");
    assert_eq!(render("axf"), "C2+7×\n");
    assert_eq!(render("wxf"), "C2+7\n");
    assert_eq!(render("iccs"), "h2h9\n");
    assert_eq!(render("spoken-cmn"), "pao4 er4 jin4 qi1\n");
    assert_eq!(render("spoken-yue"), "paau3 二 進 七\n");
}

#[test]
fn s7p6_3_announce_prints_one_line_per_word_and_the_completion() {
    let out = baoqi(&["announce", "馬二進三"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0][..4], ["馬", "possible", "-", "6"]);
    assert_eq!(lines[1][..4], ["二", "possible", "h0", "3"]);
    assert_eq!(lines[4], ["complete", "legal", "h0g2"]);
}

/// The lines of `baoqi announce WORDS…`, split at the tabs.
fn announce(words: &[&str]) -> Vec<Vec<String>> {
    let out = baoqi(&[&["announce"], words].concat());
    assert!(out.status.success());
    stdout(&out)
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

#[test]
fn s7p6_3_6_b_announce_completes_after_a_correction() {
    // 車二 is impossible (no rook on file 2): the player may correct, and 炮二平五 binds.
    let lines = announce(&["車", "二", "炮", "二", "平", "五"]);
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(lines[1][..2], ["二", "impossible"]);
    assert_eq!(lines[6], ["complete", "legal", "h2e2"]);
}

#[test]
fn s7p6_3_6_b_announce_an_impossible_last_word_completes_nothing() {
    // 平 is impossible for a horse and 三 starts a new attempt: nothing binds yet.
    let lines = announce(&["馬", "二", "平", "三"]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[2][..4], ["平", "impossible", "-", "0"]);
    assert!(lines.iter().all(|l| l[0] != "complete"), "{lines:?}");
}

#[test]
fn s7p6_3_6_a_announce_refuses_what_the_arbiter_refuses() {
    // 頭兩字摸子走子: 炮二 touched the cannon on h2; after the impossible 平二 the next
    // attempt may not name the horse. The refused word changes nothing.
    let lines = announce(&["炮", "二", "平", "二", "馬", "二", "進", "三"]);
    assert_eq!(lines[5][..2], ["二", "refused"], "{lines:?}");
    assert!(lines[5][4].contains("h2"), "{lines:?}");
    assert_eq!(lines[6][..2], ["進", "impossible"], "{lines:?}");
    assert!(lines.iter().all(|l| l[0] != "complete"), "{lines:?}");
    // 後兩字落子無悔: a word after a complete announcement is refused; it stays bound.
    let lines = announce(&["炮", "二", "平", "五", "馬"]);
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[4][..2], ["馬", "refused"]);
    assert_eq!(lines[5], ["complete", "legal", "h2e2"]);
}

#[test]
fn s6p1_replay_reports_each_file_and_the_totals() {
    let dir = std::env::temp_dir().join(format!("baoqi-replay-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("a.pgn"),
        "[Game \"Chinese Chess\"]\n1. 炮二平五 馬８進７\n2. 馬二進三 *\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/b.pgn"), "1. 炮二平五 馬８進７ 2. 馬二平三\n").unwrap();
    let out = baoqi(&["replay", "--format", "tsv", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].ends_with(
            "a.pgn\tok\t3\trnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
        ),
        "{text}"
    );
    assert!(
        lines[1].contains("b.pgn\tfail\t2\t") && lines[1].contains("never 平"),
        "{text}"
    );
    assert_eq!(lines[2], "1 passed, 1 failed");
    std::fs::remove_dir_all(dir).ok();
}

/// A folder of its own under the system's temporary one.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("baoqi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn replay_never_prints_a_terminal_control_from_a_record_or_a_file_name() {
    let dir = scratch("replay-escapes");
    // ESC[2J clears the organiser's terminal; BEL rings it; U+202E reverses the line.
    let name = dir.join("clear\u{1b}[2J\u{7}\u{202E}.pgn");
    std::fs::write(&name, "1. 炮二平五 馬８進７ 2. 馬二\u{1b}[2J平三\n").unwrap();
    let out = baoqi(&["replay", "--format", "tsv", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    for c in ['\u{1b}', '\u{7}', '\u{202E}'] {
        assert!(!text.contains(c), "{c:?} printed raw: {text:?}");
    }
    assert!(
        text.contains("\\u{1b}[2J"),
        "the escape shown as text: {text}"
    );
    assert!(text.contains("\tfail\t"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn replay_reports_a_symlink_loop_for_that_file_and_reads_the_others() {
    let dir = scratch("replay-loop");
    std::fs::write(dir.join("a.pgn"), "1. 炮二平五 馬８進７\n").unwrap();
    std::os::unix::fs::symlink(dir.join("loop.pgn"), dir.join("loop.pgn")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("again")).unwrap();
    let out = baoqi(&["replay", "--format", "tsv", dir.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.iter().any(|l| l.contains("a.pgn\tok\t2\t")), "{text}");
    let looped = lines
        .iter()
        .find(|l| l.contains("loop.pgn"))
        .expect("the loop's line");
    assert!(
        looped.contains("\tfail\t0\t") && looped.contains("symbolic links"),
        "{looped}"
    );
    assert_eq!(
        lines.last(),
        Some(&"1 passed, 1 failed"),
        "the folder linked into itself is read once: {text}"
    );
    std::fs::remove_dir_all(dir).ok();
}
