//! The `baoqi perft`, `baoqi moves` and `baoqi demo` command-line contracts.

use std::process::{Command, Output};

fn baoqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .args(args)
        .output()
        .expect("run baoqi")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn perft_prints_the_node_count_last() {
    let o = baoqi(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("79666"));
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = baoqi(&["perft", "2", "--divide"]);
    let text = stdout(&o);
    let sum: u64 = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.parse::<baoqi_rules::Move>().is_ok())
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1920);
    assert_eq!(text.lines().last(), Some("1920"));
}

#[test]
fn moves_prints_44_sorted_moves_from_the_start() {
    let o = baoqi(&["moves", "--fen", START]);
    assert!(o.status.success());
    let text = stdout(&o);
    let moves: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(moves.len(), 44);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"h2e2"));
    assert_eq!(text.lines().count(), 1);
}

#[test]
fn bad_fen_is_a_clear_error_with_exit_code_2() {
    for (fen, words) in [
        ("rnbakabnr/9/1c5c1", "10 ranks"),
        ("4k4/9/9/9/9/9/9/9/9/4X4 w", "piece letter"),
        ("4k4/9/9/9/9/9/9/9/9/9 w", "generals"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face"),
    ] {
        let o = baoqi(&["moves", "--fen", fen]);
        assert_eq!(o.status.code(), Some(2), "{fen}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(words), "{fen}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn help_is_available_everywhere() {
    for args in [
        &["--help"][..],
        &["perft", "--help"],
        &["moves", "--help"],
        &["demo", "--help"],
    ] {
        let o = baoqi(args);
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).contains("Usage"), "{args:?}");
    }
}

#[test]
fn demo_plays_the_opening_and_finds_the_mate() {
    let o = baoqi(&["demo", "--perft-depth", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("將死 (65(1))"), "{text}");
    assert!(text.contains("79666 nodes"), "{text}");
}

/// `baoqi … | head` panicked with a backtrace when `head` had gone. The reader here goes
/// before the first line: the program ends quietly, as a program killed by SIGPIPE does
/// (status 141), and says nothing on stderr.
#[test]
fn a_reader_that_has_gone_is_no_panic() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .args(["perft", "2", "--divide"])
        .stdout(writer)
        .output()
        .expect("run baoqi");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(o.status.code(), Some(141));
}
