//! Event files with absurd values were accepted (a resume after `u64::MAX` seconds resumed
//! at once, a knock-out of 0 games paired round 1 as tie-breaks, 4,294,967,295 rounds, a
//! tie-break base of 2.6×10¹⁴ ms, empty referee names, boards `[0]`, every violation
//! limit 0, a million alert thresholds, a million-character name, a start position that is
//! no position). Each is refused when the file is read, naming the field and the reason.

use baoqi_store::config::EventFile;

/// One table of a 視障賽, to which each case adds or changes one thing.
fn event(top: &str, table_match: &str, tournament: &str) -> String {
    format!(
        r#"name = "公開賽"
{top}
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[tables.match]
kind = "part6"
{table_match}
{tournament}
"#
    )
}

/// The refusal of a file, as the organiser reads it.
fn refusal(text: &str) -> String {
    match EventFile::with_tournament(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn absurd_values_are_refused_with_the_field_and_the_reason() {
    let million = "x".repeat(1_000_000);
    let thresholds = vec!["1000"; 1_000_000].join(",");
    let cases: Vec<(String, &str)> = vec![
        (
            event(
                "[settings]\nresume = { mode = \"auto\", after_secs = 9223372036854775807 }",
                "",
                "",
            ),
            "settings.resume.after_secs: 9223372036854775807 is more than 86400",
        ),
        (
            event(
                "",
                "",
                "[tournament]\nsystem = \"knockout\"\nknockout = { games = 0, tiebreak_pairs = 1, decider = \"lot\" }",
            ),
            "tournament.knockout.games: 0 is less than 1",
        ),
        (
            event("", "", "[tournament]\nrounds = 4294967295"),
            "tournament.rounds: 4294967295 is more than 99",
        ),
        (
            event(
                "",
                "",
                "[tournament]\nsystem = \"knockout\"\nknockout = { games = 2, tiebreak_pairs = 1, decider = \"lot\", tie_break_minutes = 4294967295 }",
            ),
            "tournament.knockout.tie_break_minutes: 4294967295 is more than 1440",
        ),
        (
            event("[[referees]]\nname = \"\"", "", ""),
            "referees[1].name: is empty",
        ),
        (
            event(
                "",
                "",
                "[tournament]\nrounds = 3\n[[tournament.referees]]\nname = \"陳\"\nboards = [0]",
            ),
            "tournament.referees[1].boards: 0 is less than 1",
        ),
        (
            event(
                "",
                "limits = { technical = 0, recording = 0, clock = 0 }",
                "",
            ),
            "tables[1].match: every violation limit is 0",
        ),
        (
            event(
                "",
                &format!("alerts = {{ set = \"custom\", thresholds_ms = [{thresholds}] }}"),
                "",
            ),
            "tables[1].match.alerts.thresholds_ms: 1000000 is more than the 1000 allowed",
        ),
        (
            event("", &format!("red = {{ name = \"{million}\" }}"), ""),
            "tables[1].match.red.name: 1000000 is more than the 100 allowed",
        ),
        (
            event(
                "",
                "",
                "[tournament]\nrounds = 3\n[tournament.match]\nstart_fen = \"not a fen\"",
            ),
            "tournament.match.start_fen: not a legal position",
        ),
        (
            event(
                "",
                "time.default = { base_ms = 260000000000000, mode = \"plain\" }",
                "",
            ),
            "tables[1].match.time.default.base_ms: 260000000000000 is more than 86400000",
        ),
    ];
    for (text, expected) in cases {
        let why = refusal(&text);
        assert!(why.contains(expected), "expected «{expected}», got «{why}»");
    }
    // A million-character event name is refused too, by its field.
    let why = refusal(&event("", "", "").replace("公開賽", &million));
    assert!(why.starts_with("name: 1000000 is more than"), "{why}");
}

#[test]
fn a_name_with_a_bidi_control_or_a_zero_width_character_is_refused() {
    let cases = [
        (
            event("", "", "").replace("公開賽", "公開\u{202E}賽"),
            "name:",
        ),
        (
            event("", "", "").replace("red = \"r1\"", "red = \"r\u{200B}1\""),
            "tables[1].red:",
        ),
        (
            event("", "red = { name = \"陳\u{2067}大文\" }", ""),
            "tables[1].match.red.name:",
        ),
        (
            event("[[referees]]\nname = \"\u{FEFF}裁判\"", "", ""),
            "referees[1].name:",
        ),
    ];
    for (text, field) in cases {
        let why = refusal(&text);
        assert!(
            why.contains(field) && why.contains("U+"),
            "{field}: «{why}»"
        );
    }
}

#[test]
fn the_sample_event_files_are_within_every_bound() {
    for text in [
        include_str!("../../docs/event.toml"),
        include_str!("../../docs/tournament.toml"),
    ] {
        EventFile::with_tournament(text).unwrap();
    }
}

mod fuzz {
    use baoqi_store::config::EventFile;
    use proptest::prelude::*;

    /// Pieces of an event file: its tables, keys and values, some absurd.
    const PIECES: &[&str] = &[
        "name = \"e\"\n",
        "[[tables]]\n",
        "name = \"t\"\nred = \"r\"\nblack = \"b\"\n",
        "[tables.match]\n",
        "kind = \"part6\"\n",
        "kind = \"part7\"\n",
        "[tournament]\n",
        "rounds = 4294967295\n",
        "rounds = 0\n",
        "[settings]\n",
        "resume = { mode = \"auto\", after_secs = 18446744073709551615 }\n",
        "[[referees]]\n",
        "name = \"\"\n",
        "tables = [0]\n",
        "spectators = 9\n",
        "limits = { clock = 0 }\n",
        "start_fen = \"9/9\"\n",
        "time.default = { base_ms = 1, mode = \"plain\" }\n",
        "knockout = { games = 0, tiebreak_pairs = 1, decider = \"lot\" }\n",
        "=",
        "\"",
        "\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// No event file panics its reader.
        #[test]
        fn no_event_file_panics_the_reader(
            random in any::<String>(),
            built in prop::collection::vec(prop::sample::select(PIECES), 0..30),
        ) {
            let _ = EventFile::with_tournament(&random);
            let _ = EventFile::with_tournament(&built.concat());
        }
    }
}
