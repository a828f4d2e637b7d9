//! Position generators shared by the property tests: random playouts from the start, and
//! random legal setups biased towards same pieces on one file (tandem rooks, three to five
//! pawns on a file, two files of tandem pawns), which playouts reach only rarely.

#![allow(dead_code)]

use baoqi_rules::{Color, Kind, Piece, Point, Position, Setup};

/// A small deterministic generator (splitmix64), so that a failing seed can be replayed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The position after up to `plies` random legal moves from the start.
pub(crate) fn playout(seed: u64, plies: usize) -> Position {
    let mut rng = Rng(seed);
    let mut pos = Position::start();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos.make(mv);
    }
    pos
}

fn can_stand(piece: Piece, p: Point) -> bool {
    let own = p.on_own_side(piece.color);
    match piece.kind {
        Kind::General => p.in_palace(piece.color),
        Kind::Advisor => {
            p.in_palace(piece.color)
                && (p.file() + p.rank()) % 2 == u8::from(piece.color == Color::Red)
        }
        Kind::Elephant => {
            own && p.file().is_multiple_of(2)
                && p.rank_for(piece.color).is_multiple_of(2)
                && (p.file() / 2 + p.rank_for(piece.color) / 2) % 2 == 1
        }
        Kind::Pawn => !own || (p.rank_for(piece.color) >= 3 && p.file().is_multiple_of(2)),
        _ => true,
    }
}

/// A random legal setup with the side to move chosen at random; `None` when the drawn
/// setup is illegal (generals facing, side not to move in check, …).
pub(crate) fn setup(seed: u64) -> Option<Position> {
    let mut rng = Rng(seed);
    let mut s = Setup::empty();
    s.turn = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    for color in Color::ALL {
        let counts = [
            (Kind::General, 1),
            (Kind::Advisor, rng.below(3)),
            (Kind::Elephant, rng.below(3)),
            (Kind::Horse, rng.below(3)),
            (Kind::Rook, rng.below(3)),
            (Kind::Cannon, rng.below(3)),
            (Kind::Pawn, rng.below(6)),
        ];
        let favourite = [rng.below(9) as u8, rng.below(9) as u8];
        for (kind, n) in counts {
            let piece = Piece::new(color, kind);
            let mut placed = 0;
            for _ in 0..200 {
                if placed == n {
                    break;
                }
                // Half of the pieces go on one of two favourite files, to make tandems.
                let file = if rng.below(2) == 0 {
                    favourite[rng.below(2)]
                } else {
                    rng.below(9) as u8
                };
                let p = Point::new(file, rng.below(10) as u8)?;
                if s.board[p.index()].is_none() && can_stand(piece, p) {
                    s.board[p.index()] = Some(piece);
                    placed += 1;
                }
            }
        }
    }
    Position::from_setup(&s).ok()
}
