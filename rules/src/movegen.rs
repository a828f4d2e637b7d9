//! Move generation (第5章) and attack detection (攻擊範圍, 第3條; 第30條).

use std::ops::Deref;

use crate::position::{BitIter, Position};
use crate::tables::{ADVISOR, ELEPHANT, GENERAL, HORSE, HORSE_ATTACKERS, PAWN, RAYS};
use crate::types::{Color, Kind, Move, Piece, Point};

/// More than the largest number of legal moves any Xiangqi position has.
const CAPACITY: usize = 192;

/// A list of moves on the stack, filled by [`Position::legal_moves`].
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; CAPACITY],
}

impl MoveList {
    fn new() -> MoveList {
        let dummy = Move::new(
            Point::from_index_unchecked(0),
            Point::from_index_unchecked(1),
        );
        MoveList {
            len: 0,
            moves: [dummy; CAPACITY],
        }
    }

    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        self.moves[self.len] = Move::new(
            Point::from_index_unchecked(from),
            Point::from_index_unchecked(to),
        );
        self.len += 1;
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Decides cheaply which pseudo-legal moves need the full 第30條 test. When the mover is not
/// in check, a move of a piece other than the general can expose the general only if it
/// leaves or enters a line (file or rank) through the general — rook, cannon and facing
/// generals attack along lines — or leaves a point diagonally next to the general, where it
/// may have been blocking a horse's leg (絆馬腳). Every other move is legal as generated.
struct SafetyGuard {
    in_check: bool,
    general: usize,
}

impl SafetyGuard {
    fn new(pos: &Position) -> SafetyGuard {
        SafetyGuard {
            in_check: pos.is_check(),
            general: pos.generals[pos.turn.index()] as usize,
        }
    }

    #[inline]
    fn may_expose(&self, m: Move) -> bool {
        let g = self.general;
        let (from, to) = (m.from.index(), m.to.index());
        if self.in_check || from == g {
            return true;
        }
        let (gf, gr) = (g % 9, g / 9);
        let on_line = |sq: usize| sq % 9 == gf || sq / 9 == gr;
        let diagonal_neighbour = (from % 9).abs_diff(gf) == 1 && (from / 9).abs_diff(gr) == 1;
        on_line(from) || on_line(to) || diagonal_neighbour
    }
}

#[inline]
const fn code(color: usize, kind: Kind) -> u8 {
    1 + kind as u8 + 7 * color as u8
}

#[inline]
fn color_of(code: u8) -> usize {
    ((code - 1) / 7) as usize
}

impl Position {
    /// Every legal move of the side to move (合法着法), in generation order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = self.pseudo_moves();
        let mut probe = self.clone();
        let guard = SafetyGuard::new(self);
        let mut kept = 0;
        for i in 0..list.len {
            let m = list.moves[i];
            if !guard.may_expose(m) || !probe.leaves_general_attacked_mut(m) {
                list.moves[kept] = m;
                kept += 1;
            }
        }
        list.len = kept;
        list
    }

    /// The legal moves of the piece on `from` (empty if none or not the mover's).
    pub fn legal_moves_from(&self, from: Point) -> Vec<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from == from)
            .collect()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let list = self.pseudo_moves();
        let mut probe = self.clone();
        let guard = SafetyGuard::new(self);
        list.iter()
            .any(|&m| !guard.may_expose(m) || !probe.leaves_general_attacked_mut(m))
    }

    /// The number of legal moves, counted without building a second list.
    pub fn count_legal_moves(&self) -> usize {
        let list = self.pseudo_moves();
        let mut probe = self.clone();
        let guard = SafetyGuard::new(self);
        list.iter()
            .filter(|&&m| !guard.may_expose(m) || !probe.leaves_general_attacked_mut(m))
            .count()
    }

    /// Moves that follow each piece's movement rule, ignoring 第30條.
    pub(crate) fn pseudo_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let us = self.turn.index();
        for from in BitIter(self.occ[us]) {
            self.piece_moves(from, us, &mut list);
        }
        list
    }

    #[inline]
    fn free_for(&self, to: usize, us: usize) -> bool {
        let c = self.board[to];
        c == 0 || color_of(c) != us
    }

    fn piece_moves(&self, from: usize, us: usize, list: &mut MoveList) {
        let code = self.board[from];
        match (code - 1) % 7 {
            0 => {
                for &to in GENERAL[from].as_slice() {
                    if self.free_for(to as usize, us) {
                        list.push(from, to as usize);
                    }
                }
            }
            1 => {
                for &to in ADVISOR[from].as_slice() {
                    if self.free_for(to as usize, us) {
                        list.push(from, to as usize);
                    }
                }
            }
            2 => self.blockable_moves(&ELEPHANT[from], from, us, list),
            3 => self.blockable_moves(&HORSE[from], from, us, list),
            4 => self.slider_moves(from, us, false, list),
            5 => self.slider_moves(from, us, true, list),
            _ => {
                for &to in PAWN[us][from].as_slice() {
                    if self.free_for(to as usize, us) {
                        list.push(from, to as usize);
                    }
                }
            }
        }
    }

    #[inline]
    fn blockable_moves(
        &self,
        pairs: &crate::tables::Pairs,
        from: usize,
        us: usize,
        list: &mut MoveList,
    ) {
        for &(block, to) in pairs.as_slice() {
            if self.board[block as usize] == 0 && self.free_for(to as usize, us) {
                list.push(from, to as usize);
            }
        }
    }

    /// Rook (第23條) and cannon (第24條) moves along the four rays.
    fn slider_moves(&self, from: usize, us: usize, cannon: bool, list: &mut MoveList) {
        for ray in &RAYS[from] {
            let mut iter = ray.as_slice().iter();
            for &to in iter.by_ref() {
                let c = self.board[to as usize];
                if c == 0 {
                    list.push(from, to as usize);
                    continue;
                }
                if !cannon && color_of(c) != us {
                    list.push(from, to as usize);
                }
                break;
            }
            if cannon {
                // After the screen (砲台) the first piece may be captured if it is the enemy's.
                for &to in iter {
                    let c = self.board[to as usize];
                    if c != 0 {
                        if color_of(c) != us {
                            list.push(from, to as usize);
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Whether the move follows its piece's movement rule (第5章 第2節), ignoring 第30條.
    pub(crate) fn pseudo_legal(&self, m: Move) -> bool {
        let from = m.from.index();
        let code = self.board[from];
        if code == 0 {
            return false;
        }
        let mut list = MoveList::new();
        self.piece_moves(from, color_of(code), &mut list);
        list.iter().any(|x| x.to == m.to)
    }

    /// Whether playing the pseudo-legal `m` would leave the mover's general attacked.
    pub(crate) fn leaves_general_attacked(&self, m: Move) -> bool {
        self.clone().leaves_general_attacked_mut(m)
    }

    /// As [`Position::leaves_general_attacked`], trying the move on `self` and undoing it.
    #[inline]
    pub(crate) fn leaves_general_attacked_mut(&mut self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let us = self.turn.index();
        let moving = self.board[from];
        let captured = self.board[to];
        self.board[to] = moving;
        self.board[from] = 0;
        let general = if moving == code(us, Kind::General) {
            to
        } else {
            self.generals[us] as usize
        };
        let attacked = self.point_attacked_for_general(general, 1 - us);
        self.board[from] = moving;
        self.board[to] = captured;
        attacked
    }

    /// Whether `color`'s general is attacked (in check), counting facing generals (30(2)).
    pub(crate) fn general_attacked(&self, color: Color) -> bool {
        self.point_attacked_for_general(
            self.generals[color.index()] as usize,
            color.other().index(),
        )
    }

    /// Whether a general standing on `sq` (inside its palace) is attacked by side `by`.
    /// The enemy general counts as attacking along an open file (照面, 30(2)).
    #[inline]
    fn point_attacked_for_general(&self, sq: usize, by: usize) -> bool {
        let (rook, cannon, general) = (
            code(by, Kind::Rook),
            code(by, Kind::Cannon),
            code(by, Kind::General),
        );
        for ray in &RAYS[sq] {
            let mut iter = ray.as_slice().iter();
            let mut first = 0;
            for &p in iter.by_ref() {
                first = self.board[p as usize];
                if first != 0 {
                    break;
                }
            }
            if first == 0 {
                continue;
            }
            if first == rook || first == general {
                return true;
            }
            for &p in iter {
                let c = self.board[p as usize];
                if c != 0 {
                    if c == cannon {
                        return true;
                    }
                    break;
                }
            }
        }
        let horse = code(by, Kind::Horse);
        for &(leg, from) in HORSE_ATTACKERS[sq].as_slice() {
            if self.board[from as usize] == horse && self.board[leg as usize] == 0 {
                return true;
            }
        }
        let pawn = code(by, Kind::Pawn);
        // An enemy pawn attacks the general from the point in front of it (seen from the
        // general's side) and from either side; inside a palace every enemy pawn has crossed.
        let front = if by == 1 { sq + 9 } else { sq.wrapping_sub(9) };
        (front < 90 && self.board[front] == pawn)
            || (!sq.is_multiple_of(9) && self.board[sq - 1] == pawn)
            || (sq % 9 < 8 && self.board[sq + 1] == pawn)
    }

    /// The points the piece on `from` could capture on by its movement rule (攻擊範圍,
    /// 第3條), whoever stands there; ignores 第30條. Empty if `from` is empty.
    pub fn attack_range(&self, from: Point) -> Vec<Point> {
        let f = from.index();
        let code = self.board[f];
        if code == 0 {
            return Vec::new();
        }
        let us = color_of(code);
        // Pretend every other piece is the enemy's by generating from a copy where the
        // targets are judged only by occupancy: generate moves, then keep pattern targets.
        let mut list = MoveList::new();
        let mut probe = self.clone();
        // Flip ownership of own pieces so that they appear capturable: only occupancy and
        // blocking matter for 攻擊範圍.
        for sq in BitIter(self.occ[us]) {
            if sq != f {
                probe.board[sq] = code_flip(self.board[sq]);
            }
        }
        probe.piece_moves(f, us, &mut list);
        let mut out: Vec<Point> = list.iter().map(|m| m.to).collect();
        if Piece::from_code(code).map(|p| p.kind) == Some(Kind::General) {
            // 照面: a general also "attacks" the enemy general along an open file.
            let enemy = Point::from_index_unchecked(self.generals[1 - us] as usize);
            if enemy.file() == from.file() && self.file_clear_between(from, enemy) {
                out.push(enemy);
            }
        }
        out
    }

    /// Whether no piece stands strictly between two points of the same file.
    fn file_clear_between(&self, a: Point, b: Point) -> bool {
        let (lo, hi) = if a.rank() < b.rank() { (a, b) } else { (b, a) };
        (lo.rank() + 1..hi.rank()).all(|r| {
            let p = Point::new(lo.file(), r).expect("on board");
            self.board[p.index()] == 0
        })
    }

    /// The points of `by`'s pieces that have `target` in their attack range.
    pub fn attackers_of(&self, target: Point, by: Color) -> Vec<Point> {
        self.points_of(by)
            .filter(|&p| self.attack_range(p).contains(&target))
            .collect()
    }
}

/// The same kind of the other colour.
fn code_flip(code: u8) -> u8 {
    if code <= 7 { code + 7 } else { code - 7 }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Setup};

    fn pos(fen: &str) -> Position {
        Position::from_setup(&fen.parse::<Setup>().unwrap()).unwrap()
    }

    fn moves(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        v.sort();
        v
    }

    #[test]
    fn a17_start_position_has_44_moves() {
        assert_eq!(Position::start().legal_moves().len(), 44);
    }

    #[test]
    fn a30_2_generals_may_not_face() {
        // Red general e0, black general d9: stepping to d0 would face the black general.
        let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w");
        let m = moves(&p);
        assert!(!m.contains(&"e0d0".to_string()));
        assert!(m.contains(&"e0f0".to_string()));
    }

    #[test]
    fn a30_2_a_screen_between_generals_may_not_leave_the_file() {
        // The red horse on e5 is the only piece between the generals: it may not move.
        let p = pos("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
        assert!(p.legal_moves_from("e5".parse().unwrap()).is_empty());
        assert!(!p.legal_moves().is_empty());
    }

    #[test]
    fn a30_1_b_general_may_not_step_into_attack() {
        // Black rook on d9 attacks the whole d-file: the red general may not go to d0.
        let p = pos("3r1k3/9/9/9/9/9/9/9/9/4K4 w");
        assert!(!moves(&p).contains(&"e0d0".to_string()));
    }

    #[test]
    fn a30_1_a_in_check_only_answers_to_the_check() {
        // Black rook gives check on the e-file; red must answer it.
        let p = pos("3k5/9/9/9/4r4/9/9/9/9/R3K4 w");
        assert!(p.is_check());
        for m in p.legal_moves().iter() {
            assert!(!p.after(*m).general_attacked(crate::Color::Red));
        }
        assert!(!moves(&p).contains(&"a0a1".to_string()));
    }

    #[test]
    fn a24_2_cannon_captures_over_exactly_one_screen() {
        let p = pos("4k4/9/9/9/4c4/9/9/9/4R4/3K5 b");
        assert!(!moves(&p).contains(&"e5e1".to_string()));
        let p = pos("4k4/9/9/9/4c4/9/4P4/9/4R4/3K5 b");
        assert!(moves(&p).contains(&"e5e1".to_string()));
        assert!(!moves(&p).contains(&"e5e3".to_string()));
    }

    #[test]
    fn a25_2_a_blocked_horse_leg_stops_the_horse() {
        let p = pos("4k4/9/9/9/9/9/9/9/1p7/1N1K5 w");
        let m = moves(&p);
        assert!(!m.contains(&"b0a2".to_string()));
        assert!(!m.contains(&"b0c2".to_string()));
        assert!(m.contains(&"b0d1".to_string()));
    }

    #[test]
    fn a26_2_a_blocked_elephant_eye_stops_the_elephant() {
        let p = pos("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w");
        let m = moves(&p);
        assert!(!m.contains(&"c0e2".to_string()));
        assert!(m.contains(&"c0a2".to_string()));
    }

    #[test]
    fn attack_range_covers_own_and_enemy_pieces() {
        let p = Position::start();
        let range: Vec<String> = p
            .attack_range("b2".parse().unwrap())
            .iter()
            .map(ToString::to_string)
            .collect();
        // b7 is the screen, b9 the first piece beyond it; b0 is a first piece, not beyond one.
        assert!(range.contains(&"b9".to_string()));
        assert!(!range.contains(&"b0".to_string()));
    }
}
