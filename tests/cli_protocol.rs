//! The web clients' constants (`server/assets/app/protocol.js`) and their copy of the shared
//! phrasebook (`phrases.js`) are generated from the protocol and phrases crates: these tests
//! fail when a committed file is stale (regenerate it with `cargo run -- protocol js|phrases`),
//! and the samples of every message are printed as JSON for the pages' own tests.

use crate::common;

use common::baoqi;

/// What `baoqi protocol WHAT` prints, checked against the committed page module `file` (in
/// `server/assets/app/`): a test fails while the generated file is stale.
fn generated_and_committed(what: &str, file: &str) -> String {
    let out = baoqi(&["protocol", what]);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("server/assets/app")
        .join(file);
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        out == committed,
        "server/assets/app/{file} is stale: run `cargo run -- protocol {what} > server/assets/app/{file}` and build again"
    );
    out
}

#[test]
fn the_pages_constants_are_the_protocol_crates_own() {
    generated_and_committed("js", "protocol.js");
}

/// One phrasebook for the keypad and the pages: the pages' copy of the shared entries is the
/// phrasebook's own.
#[test]
fn the_pages_phrases_are_the_phrasebooks_own() {
    let out = generated_and_committed("phrases", "phrases.js");
    assert!(
        out.contains("\"refused.not_your_turn\": [\"現在不是你的輪次\""),
        "{out}"
    );
}

#[test]
fn the_samples_are_json_with_every_kind_of_message() {
    let v: serde_json::Value = serde_json::from_str(&baoqi(&["protocol", "samples"])).unwrap();
    for key in [
        "events",
        "commands",
        "rejections",
        "calls",
        "server_messages",
        "client_messages",
    ] {
        assert!(v[key].as_array().is_some_and(|a| !a.is_empty()), "{key}");
    }
}
