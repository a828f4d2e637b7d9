//! The example scripts (`examples/scripts`, one per provision of 附表七 parts 6–7 and the
//! articles they lean on): each runs with its configuration and must produce the events its
//! `# expect:` lines name; folding its events and replaying its commands rebuild the match.
//!
//! An expectation is `TYPE path=value ...` (`rejected` for a refused command): `path` is a
//! dotted path into the event's JSON (`mv.iccs`, `times.0.side`), `=` compares exactly,
//! `~` checks that the value contains the text.

use std::path::Path;

use baoqi_arbiter::script::{Output, parse_script, simulate};
use baoqi_arbiter::{Match, MatchConfig, Millis};
use serde_json::Value;

fn at_path<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.')
        .try_fold(v, |v, k| match k.parse::<usize>() {
            Ok(i) => v.get(i),
            Err(_) => v.get(k),
        })
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn matches(out: &Output, expect: &str) -> bool {
    let mut parts = expect.split_whitespace();
    let kind = parts.next().unwrap_or_default();
    let v = match out {
        Output::Rejected { rejected, .. } if kind == "rejected" => {
            serde_json::to_value(rejected).unwrap()
        }
        Output::Event { event, .. } => {
            let v = serde_json::to_value(event).unwrap();
            if v["type"] != kind {
                return false;
            }
            v
        }
        Output::Rejected { .. } => return false,
    };
    parts.all(|cond| {
        let (path, op, want) = if let Some((p, w)) = cond.split_once('=') {
            (p, '=', w)
        } else {
            let (p, w) = cond.split_once('~').expect("path=value or path~text");
            (p, '~', w)
        };
        at_path(&v, path).is_some_and(|got| {
            let got = text(got);
            if op == '=' {
                got == want
            } else {
                got.contains(want)
            }
        })
    })
}

#[test]
fn every_example_script_produces_what_it_expects() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut names = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir.join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let body = std::fs::read_to_string(&path).unwrap();
        let config_name = body
            .lines()
            .find_map(|l| l.strip_prefix("# config:"))
            .unwrap_or_else(|| panic!("{name}: no # config: line"))
            .trim();
        let config_text = std::fs::read_to_string(dir.join("configs").join(config_name)).unwrap();
        let config =
            MatchConfig::from_toml(&config_text).unwrap_or_else(|e| panic!("{config_name}: {e}"));
        let expects: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("# expect:"))
            .map(str::trim)
            .collect();
        assert!(!expects.is_empty(), "{name}: no # expect: line");
        let script = parse_script(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (m, out) = simulate(config.clone(), &script).unwrap();
        for e in &expects {
            assert!(
                out.iter().any(|o| matches(o, e)),
                "{name}: nothing matches `{e}` in\n{}",
                out.iter().map(Output::json).collect::<Vec<_>>().join("\n")
            );
        }
        let events: Vec<_> = out
            .iter()
            .filter_map(|o| match o {
                Output::Event { event, .. } => Some(event.clone()),
                Output::Rejected { .. } => None,
            })
            .collect();
        assert!(
            Match::from_events(config.clone(), Millis(0), &events).unwrap() == m,
            "{name}: from_events"
        );
        names.push(name);
    }
    for provision in [
        "s7p6_3_2",
        "s7p6_3_3",
        "s7p6_3_5",
        "s7p6_3_6_a",
        "s7p6_3_6_b",
        "s7p6_3_7",
        "s7p6_4_a",
        "s7p6_4_b",
        "s7p6_4_c",
        "s7p6_5",
        "s7p6_6",
        "s7p6_8",
        "s7p7_1_1_b",
        "s7p7_1_2",
        "s7p7_2_2",
        "s7p7_4_2_c",
        "s7p7_4_2_d_i",
        "s7p7_4_2_d_ii",
        "s7p7_4_2_f_iii",
        "s7p7_4_2_g",
        "s7p7_4_3_c",
        "s7p7_5",
        "s7p7_6",
        "s7p7_7",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(provision)),
            "no script for {provision}"
        );
    }
}

#[test]
fn example_configs_all_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/configs");
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let c = MatchConfig::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(Match::new(c, Millis(0)).is_ok());
    }
}
