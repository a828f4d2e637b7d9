//! Differential test: our legal moves against Fairy-Stockfish (`pyffish`) on thousands of
//! positions from random playouts.
//!
//! Needs a Python with `pyffish` (the test command sets one up in `.venv`). Without it the
//! test is skipped with a message, unless `BAOQI_REQUIRE_PYFFISH=1`, when it fails.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use baoqi_rules::Position;

/// A tiny deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("BAOQI_PYTHON").map(PathBuf::from),
        Some(root.join(".venv/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|py| {
        Command::new(py)
            .args(["-c", "import pyffish"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Positions from random playouts: every position along 60 games of up to 120 plies.
fn playout_positions() -> Vec<Position> {
    let mut rng = Rng(0x00C0_FFEE_1234_5678);
    let mut out = Vec::new();
    for _ in 0..60 {
        let mut pos = Position::start();
        for _ in 0..120 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so that the material thins out.
            let captures: Vec<_> = moves
                .iter()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(3) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make(m);
        }
    }
    out
}

fn ours(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves.join(" ")
}

#[test]
fn a22_to_a30_legal_moves_agree_with_fairy_stockfish() {
    let Some(py) = python() else {
        let required = std::env::var("BAOQI_REQUIRE_PYFFISH").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "BAOQI_REQUIRE_PYFFISH=1 but no Python with pyffish was found"
        );
        eprintln!(
            "SKIPPED: no Python with pyffish (set BAOQI_PYTHON or run the README test command)"
        );
        return;
    };
    let positions = playout_positions();
    assert!(positions.len() > 3000, "only {} positions", positions.len());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/diff/pyffish_moves.py");
    let mut child = Command::new(py)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python");
    let input: String = positions.iter().map(|p| p.fen() + "\n").collect();
    // Write from a thread: the script answers line by line and would block on a full pipe.
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python output");
    writer.join().expect("writer thread").expect("write FENs");
    assert!(output.status.success(), "the pyffish script failed");
    let theirs: Vec<&str> = std::str::from_utf8(&output.stdout)
        .expect("utf-8")
        .lines()
        .collect();
    assert_eq!(theirs.len(), positions.len());
    let mut differing = 0;
    for (pos, reference) in positions.iter().zip(&theirs) {
        let mine = ours(pos);
        if mine != *reference {
            differing += 1;
            eprintln!("{}\n  ours:   {mine}\n  pyffish: {reference}", pos.fen());
        }
    }
    assert_eq!(
        differing,
        0,
        "{differing} of {} positions differ",
        positions.len()
    );
    eprintln!("{} positions agree with pyffish", positions.len());
}
