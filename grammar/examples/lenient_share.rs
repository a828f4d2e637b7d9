//! Counts, over record files, the moves that only the lenient reading accepts (a plain name
//! for one of two same pieces on a file), e.g. `cargo run --release -p baoqi-grammar
//! --example lenient_share -- target/corpus/ccpd/*/*.pgn`.

use baoqi_grammar::{Mode, parse_move, pgn};

fn main() {
    let (mut moves, mut lenient_only) = (0usize, 0usize);
    let mut kinds = std::collections::BTreeMap::new();
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
            moves += 1;
            if let Err(e) = parse_move(&pos, t, Mode::Strict) {
                lenient_only += 1;
                let piece = pos
                    .piece_at(mv.from)
                    .map_or('?', baoqi_rules::Piece::chinese);
                *kinds
                    .entry(format!("{} {piece}", e.kind()))
                    .or_insert(0usize) += 1;
            }
            pos.make(mv);
        }
    }
    println!("{lenient_only} of {moves} moves need the lenient reading");
    for (k, n) in kinds {
        println!("{n}\t{k}");
    }
}
