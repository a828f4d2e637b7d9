//! Compares, move by move, the record's own text with baoqi's canonical traditional rendering
//! (characters normalised to one set), and prints how often and where they differ, e.g.
//! `cargo run --release -p baoqi-grammar --example render_agreement -- target/corpus/ccpd/*/*.pgn`.

use std::collections::BTreeMap;

use baoqi_grammar::{Mode, Style, parse_move, pgn, render};

fn normalise(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '俥' => '車',
            '傌' => '馬',
            '砲' => '炮',
            '帥' => '將',
            '仕' => '士',
            '相' => '象',
            '兵' => '卒',
            _ => c,
        })
        .collect()
}

fn main() {
    let (mut moves, mut same) = (0usize, 0usize);
    let mut differences: BTreeMap<String, usize> = BTreeMap::new();
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let (text, _) = pgn::decode(&bytes);
        let Ok(game) = pgn::read_game(&text) else {
            continue;
        };
        let Ok(mut pos) = baoqi_rules::Position::from_fen(game.fen()) else {
            continue;
        };
        for t in &game.moves {
            let Ok(mv) = parse_move(&pos, t, Mode::Lenient) else {
                break;
            };
            let ours = render(&pos, mv, Style::Traditional).expect("legal");
            moves += 1;
            if normalise(&ours) == normalise(t) {
                same += 1;
            } else {
                let key = format!(
                    "{} -> {}",
                    t.chars().take(2).collect::<String>(),
                    ours.chars().take(2).collect::<String>()
                );
                *differences.entry(key).or_insert(0) += 1;
            }
            pos.make(mv);
        }
    }
    println!("{same} of {moves} moves are written as baoqi writes them");
    let mut v: Vec<_> = differences.into_iter().collect();
    v.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (k, n) in v.iter().take(25) {
        println!("{n}\t{k}");
    }
}
