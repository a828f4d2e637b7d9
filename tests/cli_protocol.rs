//! The web clients' constants (`server/assets/app/protocol.js`) are generated from the
//! protocol crate: this test fails when the committed file is stale (regenerate it with
//! `cargo run -- protocol js > server/assets/app/protocol.js`), and the samples of every
//! message are printed as JSON for the pages' own tests.

use crate::common;

use common::baoqi;

#[test]
fn the_pages_constants_are_the_protocol_crates_own() {
    let out = baoqi(&["protocol", "js"]);
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("server/assets/app/protocol.js"),
    )
    .unwrap();
    assert!(
        out == committed,
        "server/assets/app/protocol.js is stale: run `cargo run -- protocol js > server/assets/app/protocol.js`"
    );
}

/// One phrasebook for the keypad and the pages: the pages' copy of the shared entries is the
/// phrasebook's own (`cargo run -- protocol phrases > server/assets/app/phrases.js`).
#[test]
fn the_pages_phrases_are_the_phrasebooks_own() {
    let out = baoqi(&["protocol", "phrases"]);
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("server/assets/app/phrases.js"),
    )
    .unwrap();
    assert!(
        out == committed,
        "server/assets/app/phrases.js is stale: run `cargo run -- protocol phrases > server/assets/app/phrases.js`"
    );
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
