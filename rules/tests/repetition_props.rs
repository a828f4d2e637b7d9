//! Properties of [`Game`] on random games in small positions, where repetitions are frequent:
//! 循環次數 as counted independently, warnings only at a 3rd (or later) occurrence, rulings of 第10章 only when the 警誡盤面
//! recurs, the winner of 65(3) is the offender's opponent, and nothing is played after the end.

use baoqi_rules::{Color, Game, Outcome, PlayError, Position, RulingReason};
use proptest::prelude::*;

/// Small positions with few legal moves, so that random play repeats itself.
const STARTS: [&str; 4] = [
    "4k4/R8/9/9/9/9/6p2/9/9/3K5 w",
    "3k5/9/1c7/9/9/9/9/2R6/9/4K4 w",
    "9/4k4/9/9/4N4/9/4r4/4N4/9/4K4 w",
    "5k1nc/3R3nc/9/9/9/9/9/9/9/4K4 w",
];

/// The 盤面 part of a FEN: pieces and side to move, without the counters.
fn board(p: &Position) -> String {
    p.fen()
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a60_a63_rulings_follow_the_history(
        start in 0..STARTS.len(),
        picks in prop::collection::vec(any::<u16>(), 1..300),
    ) {
        let mut game = Game::new(Position::from_fen(STARTS[start]).unwrap());
        let mut history = vec![board(game.position())];
        for pick in picks {
            let legal = game.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[pick as usize % legal.len()];
            if game.ending().is_some() {
                prop_assert!(matches!(game.play(mv), Err(PlayError::GameOver(_))));
                break;
            }
            let review = game.play(mv).unwrap();
            history.push(board(game.position()));
            let ply = history.len() - 1;
            prop_assert_eq!(review.ply, ply);
            let count = history.iter().filter(|b| **b == history[ply]).count();
            // 循環次數 as counted independently (captures and pawn steps make earlier
            // positions differ anyway, so the whole history can be searched).
            match review.repetition {
                None => prop_assert_eq!(count, 1),
                Some(r) => {
                    prop_assert_eq!(r.count, count);
                    prop_assert_eq!(&history[r.previous], &history[ply]);
                    prop_assert!(history[r.previous + 1..ply].iter().all(|b| *b != history[ply]));
                }
            }
            for w in &review.warnings {
                prop_assert!(count >= 3, "warning at ply {} on occurrence {}", ply, count);
                prop_assert!(["61(1)", "61(2)", "61(3)", "62"].contains(&w.article()));
            }
            if let Some(r) = review.ending {
                match r.reason {
                    RulingReason::Forbidden { .. }
                    | RulingReason::MutualForbidden
                    | RulingReason::CycleDraw => {
                        let warned = game.warnings().iter().rev().find(|w| w.ply < ply);
                        prop_assert!(
                            warned.is_some_and(|w| history[w.ply] == history[ply]),
                            "{} at ply {} without its 警誡盤面",
                            r.article(),
                            ply
                        );
                    }
                    _ => {}
                }
                if let RulingReason::Forbidden { offender, .. } = r.reason {
                    prop_assert_eq!(r.outcome, Outcome::win_for(offender.other()));
                    prop_assert_ne!(r.outcome.winner(), Some(offender));
                }
                if r.outcome == Outcome::Draw {
                    prop_assert!(r.outcome.winner().is_none());
                } else {
                    prop_assert!(Color::ALL.iter().any(|c| r.outcome == Outcome::win_for(*c)));
                }
            }
        }
    }
}
