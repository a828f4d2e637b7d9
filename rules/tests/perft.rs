//! Perft fixtures from `fixtures/perft.txt`, read by one loop.

use baoqi_rules::{Position, perft};

const FIXTURES: &str = include_str!("fixtures/perft.txt");

fn cases(max_depth: u32, min_depth: u32) -> Vec<(String, u32, u64)> {
    let mut out = Vec::new();
    for line in FIXTURES.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, counts) = line.split_once(';').expect("FEN ; depth=nodes");
        for item in counts.split_whitespace() {
            let (d, n) = item.split_once('=').expect("depth=nodes");
            let (d, n): (u32, u64) = (d.parse().unwrap(), n.parse().unwrap());
            if (min_depth..=max_depth).contains(&d) {
                out.push((fen.trim().to_owned(), d, n));
            }
        }
    }
    out
}

fn check(cases: Vec<(String, u32, u64)>) {
    assert!(!cases.is_empty(), "no perft fixtures were read");
    for (fen, depth, expected) in cases {
        let mut pos = Position::from_fen(&fen).expect("fixture FEN is legal");
        assert_eq!(perft(&mut pos, depth), expected, "perft {depth} of {fen}");
    }
}

#[test]
fn perft_fixtures_up_to_depth_4() {
    check(cases(4, 1));
}

#[test]
#[ignore = "depth 5 takes seconds in release, minutes in debug: cargo test --release -- --ignored"]
fn perft_deep() {
    check(cases(9, 5));
}
