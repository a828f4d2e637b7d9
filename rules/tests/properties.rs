//! Invariants of the rules engine, checked on random playouts (proptest).

use baoqi_rules::{Move, Point, Position, Setup};
use proptest::prelude::*;

/// Plays a random game chosen by `choices` and returns every position on the way.
fn playout(choices: &[u16]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves[c as usize % moves.len()]);
        seen.push(pos.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// 第30條 through the fast path equals 第30條 checked move by move: the generated list is
    /// exactly the set of moves `check_move` accepts, over all 90×90 origin/destination pairs.
    #[test]
    fn a30_generated_moves_are_exactly_the_legal_moves(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let positions = playout(&choices);
        let pos = positions.last().unwrap();
        let mut generated: Vec<Move> = pos.legal_moves().to_vec();
        generated.sort();
        let mut checked = Vec::new();
        for from in Point::all() {
            for to in Point::all() {
                let m = Move::new(from, to);
                if from != to && pos.check_move(m).is_ok() {
                    checked.push(m);
                }
            }
        }
        checked.sort();
        prop_assert_eq!(generated, checked);
    }

    /// make/unmake restores everything, and the incremental hash equals a fresh one.
    #[test]
    fn make_unmake_restores_and_hash_is_incremental(choices in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in playout(&choices) {
            let fresh = Position::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(fresh.hash(), pos.hash());
            let mut probe = pos.clone();
            for &m in pos.legal_moves().iter() {
                let undo = probe.make(m);
                probe.unmake(m, undo);
                prop_assert_eq!(&probe, &pos);
            }
        }
    }

    /// The FEN of every reachable position reads back to the same position.
    #[test]
    fn fen_round_trips(choices in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in playout(&choices) {
            let again = Position::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(again.fen(), pos.fen());
        }
    }

    /// No text makes the FEN reader or the position check panic.
    #[test]
    fn fen_reader_never_panics(text in "\\PC{0,120}") {
        if let Ok(setup) = text.parse::<Setup>() {
            let _ = Position::from_setup(&setup);
        }
    }

    /// No text makes the ICCS reader panic.
    #[test]
    fn iccs_reader_never_panics(text in "\\PC{0,8}") {
        let _ = text.parse::<Move>();
    }

    /// Near-FENs (digits and piece letters) exercise the placement checks without panics.
    #[test]
    fn near_fens_never_panic(rows in prop::collection::vec("[1-9kabnrcpKABNRCPeEhH]{1,9}", 10), side in "[wbr]") {
        let fen = format!("{} {side}", rows.join("/"));
        if let Ok(setup) = fen.parse::<Setup>()
            && let Ok(pos) = Position::from_setup(&setup) {
                let _ = pos.legal_moves();
                let _ = pos.ending();
            }
    }
}
