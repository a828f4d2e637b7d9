//! Classifies one cycle (循環局面) side by side: 長將 (58(1)), 長捉 (58(2)) or neither
//! (58(3)), victim by victim (59(4)), then 長將 over 長捉 (59(3)).
//!
//! A cycle is given as the positions `p[0] ..= p[n]` with `p[n]` the same 盤面 as `p[0]`,
//! and the moves `m[i]` leading from `p[i]` to `p[i + 1]`. Because the cycle closes, the
//! reply to the last move of a side is the opponent's first move of the cycle: the analysis
//! of each side starts at that side's first move and wraps around.

use super::chase::{can_capture, counts};
use super::verdict::{Classification, Pattern};
use crate::position::Position;
use crate::types::{Color, Kind, Move, Point};

/// Classifies the cycle `positions[0] ..= positions[n]` reached by `moves` (`n` moves),
/// where the last position repeats the first. Both sides are classified, then 59(3) drops a
/// 長捉 facing a 長將.
pub(crate) fn classify(positions: &[Position], moves: &[Move]) -> Classification {
    debug_assert_eq!(positions.len(), moves.len() + 1);
    let cycle = Cycle { positions, moves };
    let red = cycle.side(Color::Red);
    let black = cycle.side(Color::Black);
    match (red, black) {
        // 59(3): 長將 on one side and 長捉 without 長將 on the other: only the 長將 counts.
        (Some(Pattern::PerpetualCheck), Some(Pattern::PerpetualChase)) => {
            Classification { red, black: None }
        }
        (Some(Pattern::PerpetualChase), Some(Pattern::PerpetualCheck)) => {
            Classification { red: None, black }
        }
        _ => Classification { red, black },
    }
}

/// One cycle under analysis.
struct Cycle<'a> {
    positions: &'a [Position],
    moves: &'a [Move],
}

/// One move seen from the side being classified.
struct Step<'a> {
    before: &'a Position,
    mv: Move,
    after: &'a Position,
}

impl<'a> Cycle<'a> {
    fn len(&self) -> usize {
        self.moves.len()
    }

    /// The moves of the cycle starting at the first move of `color`, wrapping around once.
    fn steps_from(&self, color: Color) -> impl Iterator<Item = Step<'a>> + '_ {
        let n = self.len();
        let start = usize::from(self.positions[0].turn() != color);
        (0..n).map(move |k| {
            let i = (start + k) % n;
            Step {
                before: &self.positions[i],
                mv: self.moves[i],
                after: &self.positions[i + 1],
            }
        })
    }

    /// The pattern `color` plays in the cycle, before 59(3). A side that checks with every
    /// move is 長將 even if it also chases.
    fn side(&self, color: Color) -> Option<Pattern> {
        if self.len() == 0 {
            return None;
        }
        if self.perpetual_check(color) {
            return Some(Pattern::PerpetualCheck);
        }
        self.chased_victim(color).map(|_| Pattern::PerpetualChase)
    }

    /// 58(1): every move of `color` in the cycle is a 照着 (the opponent's general is
    /// attacked after it).
    fn perpetual_check(&self, color: Color) -> bool {
        let mut moved = false;
        for step in self.steps_from(color) {
            if step.before.turn() == color {
                moved = true;
                if !step.after.is_check() {
                    return false;
                }
            }
        }
        moved
    }

    /// 58(2) with 59(4): the point (at `color`'s first move) of an enemy piece that every
    /// move of `color` chases and that the opponent answers every time, if any.
    fn chased_victim(&self, color: Color) -> Option<Point> {
        let first = self.steps_from(color).next()?.before;
        first
            .points_of(color.other())
            .filter(|&v| first.piece_at(v).is_some_and(|p| p.kind != Kind::General))
            .find(|&v| self.chases_throughout(color, v))
    }

    /// Follows the enemy piece starting on `victim` through the cycle: each move of `color`
    /// must create a chase of it (捉着), each reply must end every such chase (應捉).
    fn chases_throughout(&self, color: Color, victim: Point) -> bool {
        let mut victim = victim;
        let mut chasers: Vec<Point> = Vec::new();
        for step in self.steps_from(color) {
            if step.before.turn() == color {
                chasers = new_chasers(&step, victim);
                if chasers.is_empty() {
                    return false;
                }
            } else {
                if step.mv.from == victim {
                    victim = step.mv.to;
                }
                if !answers_chase(step.after, &chasers, victim) {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether the reply that led to `after` answered the chase of the piece on `victim` by the
/// pieces on `chasers` (應捉): none of them can still legally capture it, because the victim
/// left, a chaser was taken or pinned, or the attack range was blocked or lost its screen.
/// Adding a root (defending the victim) does not answer: the capture stays possible.
fn answers_chase(after: &Position, chasers: &[Point], victim: Point) -> bool {
    !chasers.iter().any(|&c| can_capture(after, c, victim))
}

/// The pieces of the mover that chase the piece on `victim` after the move and did not
/// chase it (in the sense of [`counts`]) before it: the move is a 捉着 on that piece when
/// this is not empty. A piece that moved is compared with itself on its origin.
fn new_chasers(step: &Step<'_>, victim: Point) -> Vec<Point> {
    let mover = step.before.turn();
    step.after
        .points_of(mover)
        .filter(|&a| counts(step.after, a, victim))
        .filter(|&a| {
            let origin = if a == step.mv.to { step.mv.from } else { a };
            !counts(step.before, origin, victim)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` from `fen` and classifies the whole line as one cycle.
    fn cycle(fen: &str, moves: &str) -> Classification {
        let mut positions = vec![Position::from_fen(fen).unwrap()];
        let mut list = Vec::new();
        for text in moves.split_whitespace() {
            let m: Move = text.parse().unwrap();
            let mut next = positions.last().unwrap().clone();
            next.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
            positions.push(next);
            list.push(m);
        }
        assert_eq!(positions[0].board, positions.last().unwrap().board);
        classify(&positions, &list)
    }

    #[test]
    fn a58_2_rook_chasing_unprotected_cannon_is_long_chase() {
        let c = cycle("3k5/9/1c7/9/9/9/9/2R6/9/4K4 w", "c2b2 b7c7 b2c2 c7b7");
        assert_eq!(c.red, Some(Pattern::PerpetualChase));
        assert_eq!(c.black, None);
    }

    #[test]
    fn a58_1_rook_checking_every_move_is_long_check() {
        let c = cycle("4k4/R8/9/9/9/9/9/9/9/3K5 w", "a8a9 e9e8 a9a8 e8e9");
        assert_eq!(c.red, Some(Pattern::PerpetualCheck));
        assert!(c.black.is_none());
    }

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The position after `mv` from `fen`.
    fn after(fen: &str, mv: &str) -> (Position, Position, Move) {
        let before = Position::from_fen(fen).unwrap();
        let m: Move = mv.parse().unwrap();
        let mut next = before.clone();
        next.play(m).unwrap_or_else(|e| panic!("{mv}: {e}"));
        (before, next, m)
    }

    /// Red cannon c1 (screen c3) on the black horse c6, which the black rook e6 roots along
    /// rank 6: a 真根, so no chase (58(2)(d)).
    const ROOTED_HORSE: &str = "4k4/9/9/2n1r4/9/9/2P6/R8/2C6/3K5 w";

    #[test]
    fn a3_pinning_the_root_creates_a_chase_by_the_cannon() {
        // 第3條: a root that could not legally recapture is a 假根. The red rook pins the
        // black rook against its general on the e-file, so the cannon's attack on the horse
        // now counts: the rook's move is a 捉着 on the horse, made by the cannon.
        let (before, after_pin, mv) = after(ROOTED_HORSE, "a2e2");
        let step = Step {
            before: &before,
            mv,
            after: &after_pin,
        };
        assert_eq!(new_chasers(&step, p("c6")), vec![p("c1")]);
        // The same rook move that pins nothing leaves the horse truly rooted.
        let (before, after_idle, mv) = after(ROOTED_HORSE, "a2b2");
        let step = Step {
            before: &before,
            mv,
            after: &after_idle,
        };
        assert!(new_chasers(&step, p("c6")).is_empty());
    }

    /// The red rook b2 has just attacked the unrooted black cannon b7 along the b-file.
    const CHASED_CANNON: &str = "3k5/9/1c7/9/r8/9/9/1R7/9/4K4 b";

    #[test]
    fn a58_2_defending_the_chased_piece_does_not_answer_the_chase() {
        // 應捉 lists leaving, eliminating and changing the attack range: the black rook
        // coming to a7 to root the cannon leaves the capture possible.
        let (_, defended, _) = after(CHASED_CANNON, "a5a7");
        assert!(!answers_chase(&defended, &[p("b2")], p("b7")));
        // The cannon running away and a piece put between them do answer it.
        let (_, fled, _) = after(CHASED_CANNON, "b7c7");
        assert!(answers_chase(&fled, &[p("b2")], p("c7")));
        let (_, blocked, _) = after(CHASED_CANNON, "a5b5");
        assert!(answers_chase(&blocked, &[p("b2")], p("b7")));
    }

    #[test]
    fn a58_3_shuffling_is_ordinary() {
        let c = cycle("4k4/9/9/9/9/9/9/9/9/R2K5 w", "a0a1 e9e8 a1a0 e8e9");
        assert!(c.is_ordinary());
    }
}
