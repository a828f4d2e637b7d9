//! No frame panics the WebSocket message decoder, whatever a client sends, and a
//! decoded command always keeps to the bounds of its text. Arbitrary text, and frames built
//! from the protocol's own pieces (which reach deeper than random text does).

use baoqi_protocol::{ClientMsg, decode, text};
use proptest::prelude::*;

/// Pieces of client frames: keys, values and punctuation of the protocol's JSON.
const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"v\"",
    "2",
    "1",
    "\"type\"",
    "\"command\"",
    "\"hello\"",
    "\"sync\"",
    "\"ping\"",
    "\"id\"",
    "\"c1\"",
    "\"table\"",
    "7",
    "\"since\"",
    "0",
    "null",
    "\"word\"",
    "\"text\"",
    "\"炮\"",
    "\"\\u0000\"",
    "\"repeat_word\"",
    "\"board_move\"",
    "\"mv\"",
    "\"h2e2\"",
    "\"adjudicate\"",
    "\"ruling\"",
    "\"result\"",
    "\"reason\"",
    "\"article\"",
    "\"70(3)\"",
    "\"note\"",
    "\"token\"",
    "true",
    "-1",
    "1e309",
    "\"\\ud800\"",
];

fn frame() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn no_frame_panics_the_decoder(random in any::<String>(), built in frame()) {
        for t in [&random, &built] {
            if let Ok(ClientMsg::Command { command, .. }) = decode(t) {
                prop_assert!(text::check(&command).is_ok(), "{t}");
            }
        }
    }
}

#[test]
fn a_frame_nested_beyond_reason_is_refused_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(decode(&deep).is_err());
    let deep_object = format!(
        "{{\"v\":2,\"type\":\"ping\",\"id\":{}1{}}}",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    assert!(decode(&deep_object).is_err());
}
