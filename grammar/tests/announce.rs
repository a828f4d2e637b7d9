//! The announcement fixtures (`fixtures/announce.txt`): 附表七 6.3 and 7.4(2) word by word —
//! possible, impossible and why, the touched piece, the completions left, and the complete
//! designation legal or illegal. One loop reads every case; after every word the announcer
//! also reads back from its JSON as the same announcer (match snapshots store it so).

use baoqi_grammar::{Announcer, Completion, Mode, Step};
use baoqi_rules::Position;

const CASES: &str = include_str!("fixtures/announce.txt");

fn touched(step: &Step) -> String {
    match step.touched {
        None => "-".into(),
        Some(p) if step.touched_can_move => p.to_string(),
        Some(p) => format!("{p}!"),
    }
}

fn check_case(name: &str, lines: &[&str], failures: &mut Vec<String>) -> usize {
    let setting = |key: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_default()
    };
    let pos = Position::from_fen(setting("fen\t")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mode = if setting("mode\t") == "lenient" {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let mut announcer = Announcer::new(&pos, mode);
    let mut checks = 0;
    let mut last: Option<Step> = None;
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        match cols[0] {
            "fen" | "mode" => {}
            "complete" => {
                checks += 1;
                let got = match last.as_ref().and_then(|s| s.complete.clone()) {
                    Some(Completion::Legal { mv, .. }) => ("legal", mv.to_string()),
                    Some(Completion::Illegal { why, .. }) => ("illegal", why.to_string()),
                    None => ("none", String::new()),
                };
                let ok = got.0 == cols[1]
                    && if got.0 == "legal" {
                        got.1 == cols[2]
                    } else {
                        got.1.contains(cols[2])
                    };
                if !ok {
                    failures.push(format!(
                        "{name}: complete gave {got:?}, expected {:?}",
                        &cols[1..]
                    ));
                }
            }
            word => {
                let step = announcer.push_text(word);
                checks += 1;
                // A match snapshot stores the announcer as JSON: it must read back the same.
                let json = serde_json::to_string(&announcer).unwrap();
                let back: Announcer = serde_json::from_str(&json).unwrap();
                if format!("{back:?}") != format!("{announcer:?}") {
                    failures.push(format!("{name}: word {word}: JSON gives another announcer"));
                }
                let status = if step.possible {
                    "possible"
                } else {
                    "impossible"
                };
                let got = [
                    status.to_string(),
                    touched(&step),
                    step.completions.to_string(),
                ];
                let why = step.why.as_ref().map(ToString::to_string);
                let why_ok = if cols[4].is_empty() {
                    why.is_none()
                } else {
                    why.is_some_and(|w| w.contains(cols[4]))
                };
                if got[..] != cols[1..4] || !why_ok {
                    failures.push(format!(
                        "{name}: word {word} gave {got:?} why {:?}, expected {:?}",
                        step.why,
                        &cols[1..]
                    ));
                }
                last = Some(step);
            }
        }
    }
    checks
}

#[test]
fn s7p6_3_fixtures_announcement_word_by_word() {
    let mut failures = Vec::new();
    let mut checks = 0;
    let mut cases = 0;
    let mut current: Option<(&str, Vec<&str>)> = None;
    for line in CASES.lines().chain(std::iter::once("case\tend")) {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("case\t") {
            if let Some((n, lines)) = current.take() {
                checks += check_case(n, &lines, &mut failures);
                cases += 1;
            }
            current = Some((name, Vec::new()));
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    assert!(
        cases >= 15 && checks >= 60,
        "{cases} cases, {checks} checks"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn s7p6_3_log_keeps_every_word_and_restarts_after_impossible() {
    let pos = Position::start();
    let mut a = Announcer::new(&pos, Mode::Strict);
    for w in ["馬", "二", "平"] {
        a.push_text(w);
    }
    // 平 was impossible: the player starts again, and the log keeps both attempts.
    for w in ["馬", "二", "進", "三"] {
        assert!(a.push_text(w).possible);
    }
    assert_eq!(a.log().len(), 7);
    assert_eq!(a.log()[2].0, 0);
    assert_eq!(a.log()[3].0, 1);
}

#[test]
fn s7p6_3_next_words_offer_what_can_still_be_said() {
    use baoqi_grammar::Word;
    use baoqi_rules::Kind;
    let pos = Position::start();
    let mut a = Announcer::new(&pos, Mode::Strict);
    let first = a.next_words();
    // Every kind starts a designation; 前/中/後 and ordinals do not (no two same pieces share
    // a file at the start).
    assert_eq!(first.len(), 7);
    assert!(Kind::ALL.iter().all(|&k| first.contains(&Word::Piece(k))));
    a.push(Word::Piece(Kind::Horse));
    assert_eq!(a.next_words(), [Word::Numeral(2), Word::Numeral(8)]);
    a.push(Word::Numeral(2));
    assert_eq!(a.next_words(), [Word::Forward]);
    a.push(Word::Forward);
    assert_eq!(
        a.next_words(),
        [Word::Numeral(1), Word::Numeral(3), Word::Numeral(4)]
    );
    let step = a.push(Word::Numeral(3));
    let Some(Completion::Legal { designation, .. }) = step.complete else {
        panic!("{step:?}")
    };
    assert_eq!(designation.text(pos.turn()), "傌二進三");
}
