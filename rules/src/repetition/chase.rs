//! What a chase (捉) is, pair by pair (59(4)): legal captures, 真根/假根 (第3條) and the
//! exceptions of 58(2)(a)–(e).
//!
//! These helpers ask "could this piece legally capture that one?" in positions where it is
//! not that piece's turn, so they work on a copy whose side to move is switched. Such a copy
//! is only ever used for legality questions, never played on.

use crate::position::Position;
use crate::tables::ZOBRIST_BLACK;
use crate::types::{Color, Kind, Move, Point};

/// Why an attack on a piece does not count towards 長捉 (58(2)(a)–(e)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Exception {
    /// (a) the chased piece is a pawn that has not crossed the river.
    UncrossedPawn,
    /// (b) the chaser is a pawn or a general.
    PawnOrGeneral,
    /// (c) the chaser is an advisor or elephant and the chased piece is not a rook.
    AdvisorOrElephant,
    /// (d) the chased piece has a 真根 and is not a rook.
    TrueRoot,
    /// (e) the chased piece can capture the chaser, which is not a pawn.
    CanCaptureChaser,
}

impl Exception {
    /// The item of 58(2) that makes the exception.
    #[cfg(test)]
    pub(crate) const fn article(self) -> &'static str {
        match self {
            Exception::UncrossedPawn => "58(2)(a)",
            Exception::PawnOrGeneral => "58(2)(b)",
            Exception::AdvisorOrElephant => "58(2)(c)",
            Exception::TrueRoot => "58(2)(d)",
            Exception::CanCaptureChaser => "58(2)(e)",
        }
    }
}

/// A copy of `pos` with `color` to move, for legality questions only.
fn with_turn(pos: &Position, color: Color) -> Position {
    let mut probe = pos.clone();
    if probe.turn != color {
        probe.turn = color;
        probe.hash ^= ZOBRIST_BLACK;
    }
    probe
}

/// Whether the piece on `from` could capture the enemy piece on `to` with a legal move
/// (第5章 including 第30條) if it were its side's turn.
pub(crate) fn can_capture(pos: &Position, from: Point, to: Point) -> bool {
    let (Some(piece), Some(target)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return false;
    };
    if piece.color == target.color {
        return false;
    }
    let m = Move::new(from, to);
    if pos.turn() == piece.color {
        pos.is_legal(m)
    } else {
        with_turn(pos, piece.color).is_legal(m)
    }
}

/// Whether the piece on `victim` has a 真根 against the capture by the piece on `attacker`
/// (第3條): one of its roots (own pieces whose 攻擊範圍 covers it) could legally capture the
/// attacker at once after the attacker took it. Only called when that capture is legal.
pub(crate) fn has_true_root(pos: &Position, attacker: Point, victim: Point) -> bool {
    let Some(v) = pos.piece_at(victim) else {
        return false;
    };
    let roots: Vec<Point> = pos
        .points_of(v.color)
        .filter(|&r| r != victim && pos.attack_range(r).contains(&victim))
        .collect();
    if roots.is_empty() {
        return false;
    }
    let mut after = with_turn(pos, v.color.other());
    after.make(Move::new(attacker, victim));
    roots.iter().any(|&r| after.is_legal(Move::new(r, victim)))
}

/// Why the attack of the piece on `attacker` on the piece on `victim` is not a chase, or
/// `None` when it counts. Assumes the attacker can legally capture the victim.
pub(crate) fn exception(pos: &Position, attacker: Point, victim: Point) -> Option<Exception> {
    let a = pos.piece_at(attacker)?;
    let v = pos.piece_at(victim)?;
    if v.kind == Kind::Pawn && victim.on_own_side(v.color) {
        return Some(Exception::UncrossedPawn);
    }
    if matches!(a.kind, Kind::Pawn | Kind::General) {
        return Some(Exception::PawnOrGeneral);
    }
    if matches!(a.kind, Kind::Advisor | Kind::Elephant) && v.kind != Kind::Rook {
        return Some(Exception::AdvisorOrElephant);
    }
    // (e) "unless the attacker is a pawn" never matters: (b) already excludes pawn chasers.
    if can_capture(pos, victim, attacker) {
        return Some(Exception::CanCaptureChaser);
    }
    if v.kind != Kind::Rook && has_true_root(pos, attacker, victim) {
        return Some(Exception::TrueRoot);
    }
    None
}

/// Whether the piece on `attacker` chases the piece on `victim` in `pos` in the sense that
/// counts for 長捉: a legal capture, no exception of 58(2), and the victim not a general.
pub(crate) fn counts(pos: &Position, attacker: Point, victim: Point) -> bool {
    pos.piece_at(victim)
        .is_some_and(|v| v.kind != Kind::General)
        && can_capture(pos, attacker, victim)
        && exception(pos, attacker, victim).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn a3_pinned_root_is_a_false_root() {
        // Black horse e7 covers c6 but is the only screen between the generals: 假根.
        let q = pos("4k4/9/4n4/2c4R1/9/9/9/9/9/4K4 w");
        assert!(can_capture(&q, p("h6"), p("c6")));
        assert!(!has_true_root(&q, p("h6"), p("c6")));
        assert_eq!(exception(&q, p("h6"), p("c6")), None);
        // With a red pawn on e3 the horse may leave the file: 真根.
        let q = pos("4k4/9/4n4/2c4R1/9/9/4P4/9/9/4K4 w");
        assert!(has_true_root(&q, p("h6"), p("c6")));
        assert_eq!(
            exception(&q, p("h6"), p("c6")).map(Exception::article),
            Some("58(2)(d)")
        );
    }

    #[test]
    fn a58_2_d_a_rook_with_a_true_root_is_still_chased() {
        let q = pos("4k4/9/4n4/n1r6/9/9/4P4/1N7/9/2C1K4 w").after("b2c4".parse().unwrap());
        assert!(has_true_root(&q, p("c0"), p("c6")));
        assert_eq!(exception(&q, p("c0"), p("c6")), None);
    }

    #[test]
    fn a58_2_e_rook_facing_rook_is_not_a_chase() {
        let q = pos("4k4/9/1r7/9/9/9/9/1R7/9/3K5 b");
        assert!(can_capture(&q, p("b2"), p("b7")));
        assert_eq!(
            exception(&q, p("b2"), p("b7")),
            Some(Exception::CanCaptureChaser)
        );
    }

    #[test]
    fn a30_pinned_attacker_cannot_capture() {
        // The red rook on e3 shields its general from the black rook on e8.
        let q = pos("3k5/4r4/9/9/9/9/4R1n2/9/9/4K4 b");
        assert!(!can_capture(&q, p("e3"), p("g3")));
        assert!(q.attack_range(p("e3")).contains(&p("g3")));
    }

    /// (FEN, move played first, attacker, victim, expected exception) for the positions of
    /// the repetition fixtures: each case ends the way it does for the intended reason.
    const PAIRS: [(&str, &str, &str, &str, Option<&str>); 8] = [
        (
            "3k5/9/9/n1p6/9/9/9/1N7/9/2C1K4 w",
            "b2c4",
            "c0",
            "c6",
            Some("58(2)(a)"),
        ),
        ("3k5/9/9/9/9/2p1n4/9/9/N8/2C1K4 w", "a1c2", "c0", "c4", None),
        (
            "4k4/9/4r4/3P5/9/9/9/9/9/5K3 w",
            "d6e6",
            "e6",
            "e7",
            Some("58(2)(b)"),
        ),
        (
            "5k3/9/9/9/9/9/9/3c5/4K4/9 w",
            "e1d1",
            "d1",
            "d2",
            Some("58(2)(b)"),
        ),
        (
            "4k4/9/9/9/9/2c6/3R5/4B4/9/3K5 w",
            "d3f3",
            "e2",
            "c4",
            Some("58(2)(c)"),
        ),
        ("4k4/9/9/9/9/2r6/3R5/4B4/9/3K5 w", "d3f3", "e2", "c4", None),
        (
            "4k4/9/4n4/n1r6/9/9/4P4/1N7/9/2C1K4 w",
            "b2c4",
            "c0",
            "c6",
            None,
        ),
        (
            "3k5/9/1r7/9/9/9/9/2R6/9/4K4 w",
            "c2b2",
            "b2",
            "b7",
            Some("58(2)(e)"),
        ),
    ];

    #[test]
    fn a58_2_each_fixture_pair_has_the_intended_exception() {
        for (fen, mv, attacker, victim, expected) in PAIRS {
            let q = pos(fen).after(mv.parse().unwrap());
            assert!(can_capture(&q, p(attacker), p(victim)), "{fen} {mv}");
            let found = exception(&q, p(attacker), p(victim)).map(Exception::article);
            assert_eq!(found, expected, "{fen} {mv}: {attacker} on {victim}");
        }
    }
}
