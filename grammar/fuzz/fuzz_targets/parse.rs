//! Any text, read as a move in the start position and fed to the announcer, never panics.
#![no_main]

use baoqi_grammar::{Announcer, Mode, parse, parse_move};
use baoqi_rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let pos = Position::start();
    let _ = parse(text);
    let _ = parse_move(&pos, text, Mode::Strict);
    let _ = parse_move(&pos, text, Mode::Lenient);
    let mut a = Announcer::new(&pos, Mode::Strict);
    for w in text.split_whitespace() {
        let _ = a.push_text(w);
    }
});
