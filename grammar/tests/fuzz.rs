//! No input panics a parser (STYLE habit 6): arbitrary text, text built from the notation's
//! own alphabet (which reaches deeper into the grammar), and arbitrary bytes as a record.

use crate::common;

use baoqi_grammar::{Announcer, Mode, parse, parse_move, pgn};
use proptest::prelude::*;

/// Characters of every notation, plus a few strangers.
const ALPHABET: &str = "帥帅將将俥車车傌馬马炮砲包仕士相象兵卒一二三四五六七八九１２３４５６７８９123456789前中後后進进退平上下KRHCEAPNBkrhcaepnb+-=.•°×○＝xo ah09{}()[];\"*$\n\t十零";

fn notation_text() -> impl Strategy<Value = String> {
    let chars: Vec<char> = ALPHABET.chars().collect();
    prop::collection::vec(prop::sample::select(chars), 0..14).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn s6p1_no_text_panics_the_move_parser(text in any::<String>(), alpha in notation_text(), seed in any::<u64>()) {
        let pos = common::playout(seed, (seed % 60) as usize);
        for t in [&text, &alpha] {
            let _ = parse(t);
            for mode in [Mode::Strict, Mode::Lenient] {
                let _ = parse_move(&pos, t, mode);
            }
        }
    }

    #[test]
    fn s7p6_3_no_word_panics_the_announcer(words in prop::collection::vec(notation_text(), 0..9), seed in any::<u64>()) {
        let pos = common::setup(seed).unwrap_or_else(|| common::playout(seed, (seed % 80) as usize));
        for mode in [Mode::Strict, Mode::Lenient] {
            let mut a = Announcer::new(&pos, mode);
            for w in &words {
                let step = a.push_text(w);
                prop_assert!(step.possible == step.why.is_none(), "impossible without a reason, or a reason when possible: {w:?}");
            }
            for c in words.concat().chars() {
                let _ = a.push_text(&c.to_string());
            }
        }
    }

    #[test]
    fn s6p1_no_bytes_panic_the_record_reader(bytes in prop::collection::vec(any::<u8>(), 0..400), alpha in notation_text()) {
        let _ = pgn::replay_bytes(&bytes);
        let text = format!("[FEN \"{alpha}\"]\n1. {alpha} 2. {alpha}\n");
        if let Ok(games) = pgn::read_games(&text) {
            for g in &games {
                let _ = pgn::replay(g, Mode::Lenient);
            }
        }
        let _ = pgn::replay_bytes(alpha.as_bytes());
    }
}
