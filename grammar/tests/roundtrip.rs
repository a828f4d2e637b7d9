//! 附表六: parse(render(m)) == m for every legal move, in every style, on thousands of
//! random positions — random playouts from the start and random setups rich in same pieces
//! on one file. The announcer must agree: the rendered words of a legal move are possible
//! after every word, touch the moving piece after two, and complete to the move.

use crate::common;

use baoqi_grammar::{
    Announcer, Completion, Mode, Style, parse_move, render, render_marked, words_of,
};
use baoqi_rules::Position;
use proptest::prelude::*;

const STYLES: [Style; 4] = [Style::Traditional, Style::Axf, Style::Wxf, Style::Iccs];

fn check_all(pos: &Position) -> Result<(), TestCaseError> {
    let mut announcer = Announcer::new(pos, Mode::Strict);
    for &mv in pos.legal_moves().iter() {
        for style in STYLES {
            for text in [
                render(pos, mv, style).unwrap(),
                render_marked(pos, mv, style).unwrap(),
            ] {
                let back = parse_move(pos, &text, Mode::Strict);
                prop_assert_eq!(
                    back,
                    Ok(mv),
                    "{} in {:?} is {:?} in {}",
                    mv,
                    style,
                    text,
                    pos.fen()
                );
            }
        }
        let words = words_of(pos, mv).unwrap();
        for (i, &w) in words.iter().enumerate() {
            let step = announcer.push(w);
            prop_assert!(
                step.possible,
                "word {} of {:?} ({}) impossible in {}: {}",
                i,
                words,
                mv,
                pos.fen(),
                step.why.map(|w| w.to_string()).unwrap_or_default()
            );
            if i >= 1 {
                prop_assert_eq!(step.touched, Some(mv.from), "{:?} in {}", words, pos.fen());
            }
            if i == 3 {
                match step.complete {
                    Some(Completion::Legal { mv: got, .. }) => prop_assert_eq!(got, mv),
                    other => prop_assert!(
                        false,
                        "{:?} completed to {:?} in {}",
                        words,
                        other,
                        pos.fen()
                    ),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn s6p1_render_then_parse_gives_the_move_after_random_playouts(seed in any::<u64>(), plies in 0usize..200) {
        check_all(&common::playout(seed, plies))?;
    }

    #[test]
    fn s6p1_render_then_parse_gives_the_move_with_pieces_sharing_files(seed in any::<u64>()) {
        if let Some(pos) = common::setup(seed) {
            check_all(&pos)?;
        }
    }
}

#[test]
fn s6p1_setups_do_produce_tandem_pawns() {
    // Guards the generator: without three pawns on a file the property above proves less.
    let mut three = 0;
    let mut two_files = 0;
    for seed in 0..3000 {
        if let Some(pos) = common::setup(seed) {
            let color = pos.turn();
            let mut counts = [0; 10];
            for p in pos.points_of_piece(baoqi_rules::Piece::new(color, baoqi_rules::Kind::Pawn)) {
                counts[usize::from(p.file_number_for(color))] += 1;
            }
            three += usize::from(counts.iter().any(|&c| c >= 3));
            two_files += usize::from(counts.iter().filter(|&&c| c >= 2).count() >= 2);
        }
    }
    assert!(
        three > 50 && two_files > 50,
        "three on a file: {three}, two files: {two_files}"
    );
}
