//! Differential test: corpus replay against the Python package `cchess`, an independent reader
//! of Chinese move text (`tests/reference/cchess_replay.py`), on every 12th file of ccpd.
//!
//! Needs a Python with `cchess` (`BAOQI_PYTHON`, `.venv/bin/python` or `python3`). Without it
//! the test is skipped with a message, unless `BAOQI_REQUIRE_CCHESS=1`, when it fails.
//! `cchess` does not know every 附表六 form (it takes 前兵 among all pawns, not those on one
//! file; it has no 一兵 or 前三) and misses some moves into check, so only games that both
//! replay, with no 前/中/後 or ordinal move, are compared, and where only `cchess` replays a
//! game, baoqi's failure must be one listed in `fixtures/corpus_failures.tsv`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use baoqi_grammar::pgn;

const EXPECTED_FAILURES: &str = include_str!("fixtures/corpus_failures.tsv");

fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        std::env::var_os("BAOQI_PYTHON").map(PathBuf::from),
        Some(root.join(".venv/bin/python")),
        Some(PathBuf::from("python3")),
    ]
    .into_iter()
    .flatten()
    .find(|py| {
        Command::new(py)
            .args(["-c", "import cchess"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("corpus folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

#[test]
fn s6p1_corpus_agrees_with_cchess() {
    let Some(py) = python() else {
        assert!(
            !std::env::var("BAOQI_REQUIRE_CCHESS").is_ok_and(|v| v == "1"),
            "no Python with cchess"
        );
        eprintln!("skipped: no Python with `cchess` (pip install cchess into .venv)");
        return;
    };
    let root = crate::corpus_unpack::corpus_root();
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let sample: Vec<PathBuf> = all.into_iter().step_by(12).collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/cchess_replay.py");
    let out = Command::new(&py)
        .arg(&script)
        .args(&sample)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let (mut compared, mut mismatches) = (0, Vec::new());
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let path = Path::new(cols[0]);
        let bytes = std::fs::read(path).unwrap();
        let (decoded, _) = pgn::decode(&bytes);
        let tandem = pgn::read_game(&decoded).is_ok_and(|g| {
            g.moves
                .iter()
                .any(|m| m.starts_with(['前', '中', '後', '一', '二', '三', '四', '五']))
        });
        match (pgn::replay_bytes(&bytes), cols[1]) {
            (Ok(r), "ok") if !tandem => {
                compared += 1;
                let fen = r.end.fen();
                let ours: Vec<&str> = fen.split(' ').take(2).collect();
                if ours.join(" ") != cols[3] {
                    mismatches.push(format!("{line}\n  baoqi: {fen}"));
                }
            }
            (Err(e), "ok") => {
                let rel = path
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                if !EXPECTED_FAILURES.contains(&format!("{rel}\t{}\t", e.ply)) {
                    mismatches.push(format!("{line}\n  baoqi fails unexpectedly: {e}"));
                }
            }
            _ => {}
        }
    }
    assert!(compared > 250, "only {compared} games compared");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
