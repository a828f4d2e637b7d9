//! Any bytes, read as a game record and replayed, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = baoqi_grammar::pgn::replay_bytes(bytes);
});
