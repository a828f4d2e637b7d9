//! The Chinese Chess Practical Dataset (ccpd, 6,196 Big5 PGN files, CC BY 4.0, by Yu-Han
//! Tseng): every consistent game replays to its end; the broken ones fail at the move (or
//! start position) listed in `fixtures/corpus_failures.tsv`, with a reason naming the problem.
//!
//! Each consistent game also goes through XQF, CBF and `DhtmlXQ` to the same end.
//!
//! The corpus is shipped as `corpus/ccpd.tar.xz` and unpacked under `target/corpus/` (or read
//! from `$BAOQI_CORPUS`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use baoqi_grammar::record::{RecordGame, RecordHeader};
use baoqi_grammar::{cbf, dhtmlxq, pgn, xqf};

const EXPECTED_FAILURES: &str = include_str!("fixtures/corpus_failures.tsv");
const EXPECTED_PASSED: usize = 6183;
const EXPECTED_FILES: usize = 6196;

use crate::corpus_unpack::corpus_root;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable corpus folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

/// Every file of the corpus, sorted, with its path from the corpus's root.
fn records() -> Vec<(String, Vec<u8>)> {
    let root = corpus_root();
    assert!(
        root.is_dir(),
        "corpus not found at {} (set BAOQI_CORPUS)",
        root.display()
    );
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read(f).unwrap())
        })
        .collect()
}

/// A position's board and side to move: its FEN without the move counters.
fn placement(pos: &baoqi_rules::Position) -> String {
    pos.fen().split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Every master game that replays from PGN, written as XQF, CBF and
/// `DhtmlXQ` and read back by baoqi's readers, gives the same moves and the same final
/// position as from PGN — from the start or from its own `[FEN]`.
#[test]
fn corpus_games_replay_to_the_same_end_from_xqf_cbf_and_dhtmlxq() {
    let header = RecordHeader::default();
    let mut checked = 0;
    for (rel, bytes) in records() {
        let Ok(r) = pgn::replay_bytes(&bytes) else {
            continue;
        };
        let reads: [(&str, Result<RecordGame, String>); 3] = [
            (
                "xqf",
                xqf::read_xqf(&xqf::write_xqf(&header, &r.start, &r.moves))
                    .map_err(|e| e.to_string()),
            ),
            (
                "cbf",
                cbf::read_cbf(&cbf::write_cbf(&header, &r.start, &r.moves))
                    .map_err(|e| e.to_string()),
            ),
            (
                "dhtmlxq",
                dhtmlxq::read_dhtmlxq(&dhtmlxq::write_dhtmlxq(&header, &r.start, &r.moves))
                    .map_err(|e| e.to_string()),
            ),
        ];
        for (format, read) in reads {
            let g = read.unwrap_or_else(|e| panic!("{rel} as {format}: {e}"));
            assert_eq!(g.moves, r.moves, "{rel} as {format}");
            // The formats carry no move counters: the board and the side to move must agree.
            assert_eq!(placement(&g.end()), placement(&r.end), "{rel} as {format}");
        }
        checked += 1;
    }
    assert_eq!(checked, EXPECTED_PASSED);
}

#[test]
#[allow(clippy::cast_precision_loss)] // a speed figure for the log
fn s6p1_corpus_replays_and_broken_records_fail_with_their_reason() {
    let records = records();
    assert_eq!(records.len(), EXPECTED_FILES);

    let started = Instant::now();
    let mut failures = Vec::new();
    let (mut passed, mut plies) = (0, 0);
    for (rel, bytes) in &records {
        match pgn::replay_bytes(bytes) {
            Ok(r) => {
                passed += 1;
                plies += r.moves.len();
            }
            Err(e) => failures.push(format!("{rel}\t{}\t{}", e.ply, e.reason)),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{passed} passed, {} failed; {plies} moves in {secs:.3} s ({:.2} M moves/s)",
        failures.len(),
        plies as f64 / secs / 1e6
    );

    let expected: Vec<&str> = EXPECTED_FAILURES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert_eq!(failures, expected);
    assert_eq!(passed, EXPECTED_PASSED);
    assert!(plies > 300_000, "only {plies} moves replayed");
}
