//! Games written as XQF (the unencrypted XQF 1.0 form) and as CBF are read
//! back by an independent reader, the Python package `cchess` (`read_from_xqf`,
//! `read_from_cbf`), with the same moves (and from XQF the same result and players): random
//! games from the start position and from a position of their own (for XQF a record type
//! other than 全局, so that the piece table is read; for CBF black to move first). Needs the
//! test command's Python (`.venv`); without it the tests fail when `BAOQI_REQUIRE_PYFFISH=1`.

use std::path::PathBuf;
use std::process::Command;

use baoqi_grammar::cbf::write_cbf;
use baoqi_grammar::record::{RecordHeader, RecordResult};
use baoqi_grammar::xqf::write_xqf;
use baoqi_rules::{Move, Position};

/// A deterministic random game of up to `plies` from `start`.
fn game(start: &Position, seed: u64, plies: usize) -> Vec<Move> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let m = legal[(s % legal.len() as u64) as usize];
        pos.make(m);
        moves.push(m);
    }
    moves
}

/// Runs one of the cchess readers (`tests/diff/cchess_*.py`) over `paths`: its standard
/// output, one line a file.
pub(crate) fn run_reader(py: &std::path::Path, script: &str, paths: &[PathBuf]) -> String {
    let out = Command::new(py)
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(script))
        .args(paths)
        .output()
        .expect("run cchess");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    [
        std::env::var_os("BAOQI_PYTHON").map(PathBuf::from),
        Some(root.join(".venv/bin/python")),
    ]
    .into_iter()
    .flatten()
    .find(|py| {
        Command::new(py)
            .args(["-c", "import cchess"])
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The Python with cchess; without one the test is skipped, unless the test command requires
/// it (`BAOQI_REQUIRE_PYFFISH=1`), when it fails.
pub(crate) fn cchess() -> Option<PathBuf> {
    let py = python();
    if py.is_none() {
        let required = std::env::var("BAOQI_REQUIRE_PYFFISH").is_ok_and(|v| v == "1");
        assert!(!required, "no Python with cchess was found");
        eprintln!("SKIPPED: no Python with cchess (run the README test command)");
    }
    py
}

#[test]
fn a_game_written_as_xqf_is_read_back_by_cchess_with_the_same_moves() {
    let Some(py) = cchess() else { return };
    let dir = std::env::temp_dir().join(format!("baoqi-xqf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let endgame = Position::from_fen("3k5/4a4/9/9/2p6/9/9/4B4/4A4/3AK2R1 w").unwrap();
    let mut cases: Vec<(Position, Vec<Move>, RecordResult)> = (0..30)
        .map(|i| {
            (
                Position::start(),
                game(&Position::start(), i, 80),
                [
                    RecordResult::Unknown,
                    RecordResult::RedWins,
                    RecordResult::BlackWins,
                    RecordResult::Draw,
                ][i as usize % 4],
            )
        })
        .collect();
    cases.push((endgame.clone(), game(&endgame, 99, 20), RecordResult::Draw));
    let mut paths = Vec::new();
    for (k, (start, moves, result)) in cases.iter().enumerate() {
        let h = RecordHeader {
            title: "測試",
            event: "2026 視障及共融象棋公開賽",
            date: "2026-11-27",
            site: "香港",
            red: "陳明",
            black: "林華",
            result: *result,
            ..RecordHeader::default()
        };
        let path = dir.join(format!("{k}.xqf"));
        std::fs::write(&path, write_xqf(&h, start, moves)).unwrap();
        paths.push(path);
    }
    let text = run_reader(&py, "tests/diff/cchess_xqf.py", &paths);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{text}");
    for ((_, moves, result), line) in cases.iter().zip(&lines) {
        let f: Vec<&str> = line.split('\t').collect();
        let score = match result {
            RecordResult::Unknown => "*",
            RecordResult::RedWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
        };
        assert_eq!((f[0], f[1], f[2]), (score, "陳明", "林華"), "{line}");
        let ours: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(f.get(3).copied().unwrap_or(""), ours.join(" "), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same games written as CBF (象棋橋's XML) are read back by cchess's
/// `read_from_cbf` with the same moves, from the start position and from one of their own.
#[test]
fn a_game_written_as_cbf_is_read_back_by_cchess_with_the_same_moves() {
    let Some(py) = cchess() else { return };
    let dir = std::env::temp_dir().join(format!("baoqi-cbf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let endgame = Position::from_fen("3k5/4a4/9/9/2p6/9/9/4B4/4A4/3AK2R1 b").unwrap();
    let mut games: Vec<(Position, Vec<Move>)> = (0..20)
        .map(|i| (Position::start(), game(&Position::start(), 100 + i, 80)))
        .collect();
    games.push((endgame.clone(), game(&endgame, 7, 20)));
    let h = RecordHeader {
        title: "測試 <1> & 2",
        event: "2026 視障及共融象棋公開賽",
        date: "2026-11-27",
        site: "香港",
        red: "陳明",
        black: "林華",
        result: RecordResult::RedWins,
        ..RecordHeader::default()
    };
    let paths: Vec<PathBuf> = games
        .iter()
        .enumerate()
        .map(|(k, (start, moves))| {
            let path = dir.join(format!("{k}.cbf"));
            std::fs::write(&path, write_cbf(&h, start, moves)).unwrap();
            path
        })
        .collect();
    let text = run_reader(&py, "tests/diff/cchess_cbf.py", &paths);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), games.len(), "{text}");
    for ((_, moves), line) in games.iter().zip(&lines) {
        let ours: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(*line, ours.join(" "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every tenth master game of the corpus that replays from PGN (`corpus/ccpd.tar.xz`, unpacked
/// under `target/corpus/`, or `$BAOQI_CORPUS`), written as XQF and as CBF, is read back by cchess with the same moves
/// (the corpus through an independent reader as well as baoqi's own).
#[test]
fn corpus_games_written_as_xqf_and_cbf_are_read_back_by_cchess() {
    let Some(py) = cchess() else { return };
    let root = crate::corpus_unpack::corpus_root();
    assert!(
        root.is_dir(),
        "corpus not found at {} (set BAOQI_CORPUS)",
        root.display()
    );
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(d) = folders.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            } else if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    files.sort();
    let games: Vec<(Position, Vec<Move>)> = files
        .iter()
        .step_by(10)
        .filter_map(|f| baoqi_grammar::pgn::replay_bytes(&std::fs::read(f).unwrap()).ok())
        .map(|r| (r.start, r.moves))
        .collect();
    assert!(games.len() > 600, "{} games", games.len());
    let dir = std::env::temp_dir().join(format!("baoqi-corpus-cchess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let h = RecordHeader::default();
    let mut xqf = Vec::new();
    let mut cbf = Vec::new();
    for (k, (start, moves)) in games.iter().enumerate() {
        xqf.push(dir.join(format!("{k}.xqf")));
        std::fs::write(&xqf[k], write_xqf(&h, start, moves)).unwrap();
        cbf.push(dir.join(format!("{k}.cbf")));
        std::fs::write(&cbf[k], write_cbf(&h, start, moves)).unwrap();
    }
    let from_xqf = run_reader(&py, "tests/diff/cchess_xqf.py", &xqf);
    let from_cbf = run_reader(&py, "tests/diff/cchess_cbf.py", &cbf);
    let (xl, cl): (Vec<&str>, Vec<&str>) = (from_xqf.lines().collect(), from_cbf.lines().collect());
    assert_eq!((xl.len(), cl.len()), (games.len(), games.len()));
    for (k, (_, moves)) in games.iter().enumerate() {
        let ours: Vec<String> = moves.iter().map(ToString::to_string).collect();
        let ours = ours.join(" ");
        assert_eq!(
            xl[k].split('\t').nth(3).unwrap_or(""),
            ours,
            "game {k} as XQF"
        );
        assert_eq!(cl[k], ours, "game {k} as CBF");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
