//! [`MoveView`]: a legal move as the record keeps it, with its four words and its marks
//! (附表六 第二部份), so that clients never re-derive notation.

use baoqi_rules::{Move, Position};

use crate::event::MoveView;

/// The view of a legal move in `pos`.
pub(crate) fn move_view(pos: &Position, mv: Move) -> MoveView {
    let words = baoqi_grammar::words_of(pos, mv).expect("a move on the record is legal");
    MoveView {
        iccs: mv,
        words,
        captured: pos.piece_at(mv.to).map(|p| p.kind),
        check: pos.after(mv).is_check(),
    }
}
