//! The *possible* of an announcement (附表七 6.3, 7.4(2)), checked against a brute-force
//! oracle: every sequence of four words (22⁴ of them) is tried against the definition — it
//! names a piece of the side to move on the board (exactly one in strict mode) and a point
//! that piece's kind reaches by its pattern on an empty board — and the announcer's set of
//! completions must be exactly that set.

use crate::common;

use std::collections::BTreeSet;

use baoqi_grammar::{Announcer, Designation, Mode, Word, candidates, destination};
use baoqi_rules::Position;

fn oracle(pos: &Position, mode: Mode) -> BTreeSet<String> {
    let words = Word::all();
    let mut out = BTreeSet::new();
    for &a in &words {
        for &b in &words {
            for &c in &words {
                for &d in &words {
                    let Some(des) = Designation::from_words([a, b, c, d]) else {
                        continue;
                    };
                    let Ok(found) = candidates(pos, des.name) else {
                        continue;
                    };
                    if mode == Mode::Strict && found.len() != 1 {
                        continue;
                    }
                    if found
                        .iter()
                        .any(|&p| destination(p, pos.turn(), des.name.kind(), des.motion).is_ok())
                    {
                        out.insert(format!("{:?}", [a, b, c, d]));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn s7p6_3_possible_is_exactly_the_definition() {
    let mut positions = vec![Position::start()];
    positions.extend((0..400).filter_map(common::setup).take(14));
    positions.extend((0..10).map(|s| common::playout(s, 20 + 9 * s as usize)));
    for pos in &positions {
        for mode in [Mode::Strict, Mode::Lenient] {
            let announcer = Announcer::new(pos, mode);
            let got: BTreeSet<String> = announcer
                .completions()
                .iter()
                .map(|w| format!("{w:?}"))
                .collect();
            let want = oracle(pos, mode);
            assert!(!want.is_empty());
            assert_eq!(got, want, "{mode:?} in {}", pos.fen());
        }
    }
}
