//! Game end by the position alone (第11章, in the order of 第35(a)–(b)項): 正和, 將死, 困斃
//! and the counter of 自然限着.

use crate::position::Position;
use crate::types::{Color, Kind};

/// How a game ended by the board. JSON: `"checkmate"`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// 正和 (66(1)): no sequence of legal moves can ever end the game for either side.
    DeadDraw,
    /// 將死 (65(1)): in check with no legal answer.
    Checkmate,
    /// 困斃 (65(2)): not in check, but no legal move at all; the stalemated side loses.
    Stalemate,
    /// 自然限着 (66(2)): 120 consecutive moves without a capture (checks capped).
    NaturalLimit,
}

impl EndReason {
    /// The article of the 通用象棋規則 that defines this ending.
    pub const fn article(self) -> &'static str {
        match self {
            EndReason::DeadDraw => "66(1)",
            EndReason::Checkmate => "65(1)",
            EndReason::Stalemate => "65(2)",
            EndReason::NaturalLimit => "66(2)",
        }
    }

    /// The name the rule text gives this ending.
    pub const fn chinese(self) -> &'static str {
        match self {
            EndReason::DeadDraw => "正和",
            EndReason::Checkmate => "將死",
            EndReason::Stalemate => "困斃",
            EndReason::NaturalLimit => "自然限着",
        }
    }
}

/// A finished game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Position {
    /// Whether `color` still has a piece that could ever attack the other general: a rook,
    /// horse, cannon or pawn (advisors, elephants and the general never leave home, 第26–29條).
    /// See `docs/decisions.md` (66(1)) for why this is the material rule for 正和.
    pub fn has_attacking_material(&self, color: Color) -> bool {
        self.points_of(color).any(|p| {
            self.piece_at(p)
                .is_some_and(|piece| piece.kind.crosses_river())
        })
    }

    /// The ending the position itself imposes, checked in the order of 第35(a)項:
    /// 正和 (66(1)), then 將死 (65(1)), then 困斃 (65(2)). `None` while play goes on.
    pub fn ending(&self) -> Option<Ending> {
        if !self.has_attacking_material(Color::Red) && !self.has_attacking_material(Color::Black) {
            return Some(Ending {
                winner: None,
                reason: EndReason::DeadDraw,
            });
        }
        if self.has_legal_move() {
            return None;
        }
        let reason = if self.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(Ending {
            winner: Some(self.turn().other()),
            reason,
        })
    }

    /// Whether `kind` pieces of `color` remain on the board.
    pub fn has_piece(&self, color: Color, kind: Kind) -> bool {
        self.points_of(color)
            .any(|p| self.piece_at(p).is_some_and(|x| x.kind == kind))
    }
}

/// Plies that make 自然限着 (66(2)(a)): 120 consecutive moves (着) of both sides.
pub const NATURAL_LIMIT_PLIES: u32 = 120;
/// The most checks of one side that count towards the 120 (66(2)(b)).
pub const NATURAL_LIMIT_CHECKS: u32 = 10;

/// The running count for 自然限着 (66(2)): moves since the last capture (or since the start),
/// and how many of them were checks by each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NaturalLimit {
    plies: u32,
    checks: [u32; 2],
}

impl NaturalLimit {
    /// A count starting now (the start of the game, 66(2)(a) "由開局開始").
    pub fn new() -> NaturalLimit {
        NaturalLimit::default()
    }

    /// Records one move: a capture restarts the count; otherwise the move counts, and a
    /// check is noted for its side.
    pub fn record(&mut self, mover: Color, captured: bool, gave_check: bool) {
        if captured {
            *self = NaturalLimit::default();
            return;
        }
        self.plies += 1;
        if gave_check {
            self.checks[mover.index()] += 1;
        }
    }

    /// Moves without capture so far, all of them counted.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Checks by `color` among them.
    pub fn checks(&self, color: Color) -> u32 {
        self.checks[color.index()]
    }

    /// The moves that count towards the 120: checks of a capped side count at most 10.
    /// When a player claims (66(2)(b) 提出方), only the claimant's checks are capped; when
    /// nobody claims or the referee raises it, both sides' checks are capped.
    pub fn counted(&self, claimant: Option<Color>) -> u32 {
        let capped = |c: Color| claimant.is_none_or(|k| k == c);
        let mut total = self.plies;
        for c in Color::ALL {
            let checks = self.checks[c.index()];
            if capped(c) && checks > NATURAL_LIMIT_CHECKS {
                total -= checks - NATURAL_LIMIT_CHECKS;
            }
        }
        total
    }

    /// Whether the 120 counted moves of 66(2) are reached.
    pub fn reached(&self, claimant: Option<Color>) -> bool {
        self.counted(claimant) >= NATURAL_LIMIT_PLIES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn a65_1_checkmate_is_a_loss_for_the_mated_side() {
        // Black general e9 checked along the 9th rank, the 8th rank swept, d9 faces: mate.
        let p = pos("R3k4/R8/9/9/9/9/9/9/9/3K5 b");
        let end = p.ending().unwrap();
        assert_eq!(end.reason, EndReason::Checkmate);
        assert_eq!(end.winner, Some(Color::Red));
    }

    #[test]
    fn a65_2_no_legal_move_without_check_loses() {
        // Black general d9 hemmed in: d8 and e9 covered, not in check.
        // Black general d9: d8 swept by the rook on the 8th rank, e9 faces the red general.
        let p = pos("3k5/5R3/9/9/9/9/9/9/9/4K4 b");
        assert!(!p.is_check());
        let end = p.ending().unwrap();
        assert_eq!(end.reason, EndReason::Stalemate);
        assert_eq!(end.winner, Some(Color::Red));
    }

    #[test]
    fn a66_1_only_generals_advisors_and_elephants_is_a_dead_draw() {
        let p = pos("2bak4/4a4/4b4/9/9/9/9/9/4A4/2B1K1B2 w");
        assert_eq!(p.ending().map(|e| e.reason), Some(EndReason::DeadDraw));
        let p = pos("2bak4/4a4/4b4/9/9/9/4P4/9/4A4/2B1K1B2 w");
        assert_eq!(p.ending(), None);
    }

    #[test]
    fn a66_2_a_120_moves_without_capture_draw() {
        let mut n = NaturalLimit::new();
        for i in 0..119 {
            n.record(
                if i % 2 == 0 { Color::Red } else { Color::Black },
                false,
                false,
            );
        }
        assert!(!n.reached(None));
        n.record(Color::Black, false, false);
        assert!(n.reached(None));
        n.record(Color::Red, true, false);
        assert_eq!(n.plies(), 0);
    }

    #[test]
    fn a66_2_b_at_most_10_checks_of_a_side_count() {
        let mut n = NaturalLimit::new();
        for i in 0..120 {
            let red = i % 2 == 0;
            // Red checks on 15 of its moves.
            n.record(
                if red { Color::Red } else { Color::Black },
                false,
                red && i < 30,
            );
        }
        assert_eq!(n.checks(Color::Red), 15);
        assert_eq!(n.counted(None), 115);
        assert!(!n.reached(None));
        // Black claims: only black's checks are capped, red's all count.
        assert!(n.reached(Some(Color::Black)));
        // Red claims: red's own checks are capped.
        assert!(!n.reached(Some(Color::Red)));
    }
}
