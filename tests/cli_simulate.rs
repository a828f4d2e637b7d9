//! `baoqi simulate`: a scripted match prints one JSON line per event with its time.

use std::process::{Command, Output};

fn simulate(config: &str, script: &str, extra: &[&str]) -> Output {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/arbiter/examples");
    Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .arg("simulate")
        .arg("--config")
        .arg(format!("{dir}/configs/{config}"))
        .arg("--script")
        .arg(format!("{dir}/scripts/{script}"))
        .args(extra)
        .output()
        .expect("baoqi runs")
}

#[test]
fn s7p6_4_c_script_prints_events_as_json_lines_with_times() {
    let out = simulate(
        "part6.toml",
        "s7p6_4_c_restore_technical_foul.jsonl",
        &["--scoresheet"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() > 10);
    assert!(lines.iter().all(|l| l.starts_with("{\"at\":")), "{stdout}");
    assert!(stdout.contains("\"type\":\"checked\"") && stdout.contains("\"outcome\":\"c\""));
    assert!(stdout.contains("\"type\":\"restore_required\""));
    let sheet = String::from_utf8(out.stderr).unwrap();
    assert!(sheet.contains("傌二進三"), "{sheet}");
}

#[test]
fn a_bad_script_line_is_a_usage_error() {
    let dir = crate::common::Scratch::new("sim");
    let script = dir.join("bad.jsonl");
    std::fs::write(
        &script,
        "{\"at\": 0, \"seat\": \"nobody\", \"type\": \"start\"}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_baoqi"))
        .args(["simulate", "--config"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/arbiter/examples/configs/regular.toml"
        ))
        .arg("--script")
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}
