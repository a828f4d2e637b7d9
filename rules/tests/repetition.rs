//! Repetition and game-end cases from `fixtures/repetition.txt`, read by one loop: each case
//! is replayed with [`Game`] and its warnings and verdict compared with the expected ones.

use baoqi_rules::{Game, Move, Position};

const FIXTURES: &str = include_str!("fixtures/repetition.txt");

/// One block of the fixture file.
#[derive(Debug, Default)]
struct Case {
    name: String,
    fen: String,
    moves: Vec<String>,
    warnings: Vec<String>,
    verdict: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut case: Option<Case> = None;
    for (n, raw) in FIXTURES.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            out.extend(case.take());
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("line {}: expected `key: value`", n + 1));
        let value = value.trim().to_owned();
        let c = case.get_or_insert_with(Case::default);
        match key {
            "case" => c.name = value,
            "fen" => c.fen = value,
            "moves" => c.moves.extend(value.split_whitespace().map(str::to_owned)),
            "warn" => c.warnings.push(value),
            "verdict" => c.verdict = value,
            other => panic!("line {}: unknown key `{other}`", n + 1),
        }
    }
    out.extend(case);
    out
}

/// Replays a case; panics loudly on an illegal move or a move after the end of the game.
fn run(case: &Case) -> (Vec<String>, String) {
    let start = Position::from_fen(&case.fen)
        .unwrap_or_else(|e| panic!("{}: bad FEN `{}`: {e}", case.name, case.fen));
    let mut game = Game::new(start);
    for (i, text) in case.moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: move {} `{text}`: {e}", case.name, i + 1));
        game.play(mv).unwrap_or_else(|e| {
            panic!(
                "{}: move {} `{text}` refused: {e}\n{}",
                case.name,
                i + 1,
                game.position()
            )
        });
    }
    let warnings = game
        .warnings()
        .iter()
        .map(|w| format!("{} {} {}", w.ply, w.article(), w.text()))
        .collect();
    let verdict = game.ending().map_or_else(
        || "ongoing".to_owned(),
        |r| format!("{} {} {}", r.ply, r.outcome, r.article()),
    );
    (warnings, verdict)
}

#[test]
fn repetition_fixtures() {
    let cases = cases();
    assert!(
        cases.len() >= 20,
        "only {} repetition cases were read",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        assert!(
            !case.name.is_empty() && !case.fen.is_empty() && !case.verdict.is_empty(),
            "incomplete case {case:?}"
        );
        let (warnings, verdict) = run(case);
        if warnings != case.warnings || verdict != case.verdict {
            failures.push(format!(
                "{}:\n  expected warnings {:?}, verdict {:?}\n  got      warnings {:?}, verdict {:?}",
                case.name, case.warnings, case.verdict, warnings, verdict
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_article_of_the_issue_has_a_case() {
    let names: Vec<String> = cases().into_iter().map(|c| c.name).collect();
    for prefix in [
        "a58_1_", "a58_2_a_", "a58_2_b_", "a58_2_c_", "a58_2_d_", "a58_2_e_", "a59_3_", "a59_4_",
        "a61_3_", "a62_", "a63_", "a66_2_a_", "a66_2_b_",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(prefix)),
            "no repetition case for {prefix}"
        );
    }
}
