//! Perft: counting leaf nodes of the legal-move tree, the standard check of a move generator.

use crate::position::Position;
use crate::types::Move;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make(m);
        nodes += perft(pos, depth - 1);
        pos.unmake(m, undo);
    }
    nodes
}

/// Perft split by first move ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake(m, undo);
            (m, n)
        })
        .collect()
}
