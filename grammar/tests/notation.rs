//! The notation fixtures (`fixtures/notation.tsv`): every form of 附表六 read in a position,
//! checked against the expected ICCS move or error kind. One loop reads them all.

use std::collections::HashMap;

use baoqi_grammar::{Mode, parse_move};
use baoqi_rules::Position;

const CASES: &str = include_str!("fixtures/notation.tsv");

#[test]
fn s6p1_fixtures_every_form_of_the_notation_appendix() {
    let mut defs: HashMap<&str, &str> = HashMap::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in CASES.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[0] == "def" {
            defs.insert(cols[1], cols[2]);
            continue;
        }
        let [pos, mode, text, expected] = cols[..] else {
            panic!("line {}: {line:?}", n + 1)
        };
        let fen = defs.get(pos).copied().unwrap_or(pos);
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let mode = if mode == "strict" {
            Mode::Strict
        } else {
            Mode::Lenient
        };
        let got = match parse_move(&pos, text, mode) {
            Ok(mv) => mv.to_string(),
            Err(e) => format!("error:{}", e.kind()),
        };
        count += 1;
        if got != expected {
            let detail =
                parse_move(&pos, text, mode).map_or_else(|e| e.to_string(), |m| m.to_string());
            failures.push(format!(
                "line {}: {text:?} gave {got} ({detail}), expected {expected}",
                n + 1
            ));
        }
    }
    assert!(count >= 140, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
