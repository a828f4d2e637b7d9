//! Prints each move of a record as `PLY<TAB>TEXT<TAB>ICCS` (a debugging aid for the corpus).

use baoqi_grammar::{Mode, parse_move, pgn};

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable file");
        let (text, _) = pgn::decode(&bytes);
        let game = pgn::read_game(&text).expect("a game");
        let mut pos = baoqi_rules::Position::from_fen(game.fen()).expect("legal start");
        for (i, t) in game.moves.iter().enumerate() {
            match parse_move(&pos, t, Mode::Lenient) {
                Ok(mv) => {
                    println!("{i}\t{t}\t{mv}");
                    pos.make(mv);
                }
                Err(e) => {
                    println!("{i}\t{t}\terror: {e}\t{}", pos.fen());
                    break;
                }
            }
        }
    }
}
