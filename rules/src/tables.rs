//! Precomputed geometry of the board (第5章 第2節), built at compile time.
//!
//! Every table is indexed by point index (`rank * 9 + file`). Lists are fixed arrays with a
//! length so that move generation never allocates.

/// A short list of point indices.
#[derive(Clone, Copy)]
pub(crate) struct List<const N: usize> {
    pub(crate) len: u8,
    pub(crate) items: [u8; N],
}

impl<const N: usize> List<N> {
    const EMPTY: List<N> = List {
        len: 0,
        items: [0; N],
    };

    const fn push(mut self, v: u8) -> Self {
        self.items[self.len as usize] = v;
        self.len += 1;
        self
    }

    /// The filled part.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }
}

/// A pair list: (blocking point, destination) for horses and elephants.
#[derive(Clone, Copy)]
pub(crate) struct Pairs {
    pub(crate) len: u8,
    pub(crate) items: [(u8, u8); 8],
}

impl Pairs {
    const EMPTY: Pairs = Pairs {
        len: 0,
        items: [(0, 0); 8],
    };

    const fn push(mut self, block: u8, to: u8) -> Self {
        self.items[self.len as usize] = (block, to);
        self.len += 1;
        self
    }

    /// The filled part.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(u8, u8)] {
        &self.items[..self.len as usize]
    }
}

const fn at(file: i32, rank: i32) -> Option<u8> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        Some((rank * 9 + file) as u8)
    } else {
        None
    }
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Orthogonal directions: up (towards black), down, left (file a), right.
pub(crate) const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// For each point and each of [`DIRS`], the points along that ray, nearest first.
pub(crate) static RAYS: [[List<9>; 4]; 90] = {
    let mut t = [[List::EMPTY; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(p) = at(x, y) {
                t[sq][d] = t[sq][d].push(p);
                x += df;
                y += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Horse moves (第25條): for each origin, (leg point, destination). The leg is the
/// orthogonally adjacent point in the direction of the first step (絆馬腳).
pub(crate) static HORSE: [Pairs; 90] = {
    let mut t = [Pairs::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            if let Some(leg) = at(f + df, r + dr) {
                // Then one diagonal step continuing the same direction.
                let (a, b) = if df == 0 {
                    ((1, dr), (-1, dr))
                } else {
                    ((df, 1), (df, -1))
                };
                if let Some(to) = at(f + df + a.0, r + dr + a.1) {
                    t[sq] = t[sq].push(leg, to);
                }
                if let Some(to) = at(f + df + b.0, r + dr + b.1) {
                    t[sq] = t[sq].push(leg, to);
                }
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Horses that attack a point: for each target, (leg point, horse origin). The leg of a
/// horse attacking a point is the point's diagonal neighbour towards the horse.
pub(crate) static HORSE_ATTACKERS: [Pairs; 90] = {
    let mut t = [Pairs::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let diags = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diags[d];
            if let Some(leg) = at(f + df, r + dr) {
                if let Some(from) = at(f + 2 * df, r + dr) {
                    t[sq] = t[sq].push(leg, from);
                }
                if let Some(from) = at(f + df, r + 2 * dr) {
                    t[sq] = t[sq].push(leg, from);
                }
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Elephant moves (第26條): (eye point, destination), never across the river.
pub(crate) static ELEPHANT: [Pairs; 90] = {
    let mut t = [Pairs::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let diags = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diags[d];
            if let (Some(eye), Some(to)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr))
                && (r <= 4) == (r + 2 * dr <= 4)
            {
                t[sq] = t[sq].push(eye, to);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Advisor moves (第27條): one diagonal step inside the palace.
pub(crate) static ADVISOR: [List<4>; 90] = {
    let mut t = [List::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let diags = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = diags[d];
            if in_palace(f, r)
                && in_palace(f + df, r + dr)
                && (r <= 2) == (r + dr <= 2)
                && let Some(to) = at(f + df, r + dr)
            {
                t[sq] = t[sq].push(to);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// General moves (第29條): one orthogonal step inside the palace.
pub(crate) static GENERAL: [List<4>; 90] = {
    let mut t = [List::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            if in_palace(f, r)
                && in_palace(f + df, r + dr)
                && (r <= 2) == (r + dr <= 2)
                && let Some(to) = at(f + df, r + dr)
            {
                t[sq] = t[sq].push(to);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Pawn moves (第28條) per colour: forward, and sideways once across the river.
pub(crate) static PAWN: [[List<3>; 90]; 2] = {
    let mut t = [[List::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let fwd = if c == 0 { 1 } else { -1 };
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if let Some(to) = at(f, r + fwd) {
                t[c][sq] = t[c][sq].push(to);
            }
            if crossed {
                if let Some(to) = at(f - 1, r) {
                    t[c][sq] = t[c][sq].push(to);
                }
                if let Some(to) = at(f + 1, r) {
                    t[c][sq] = t[c][sq].push(to);
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Zobrist keys: `[piece code][point]`, and the key for black to move.
pub(crate) static ZOBRIST: [[u64; 90]; 15] = {
    let mut t = [[0u64; 90]; 15];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut p = 1;
    while p < 15 {
        let mut sq = 0;
        while sq < 90 {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[p][sq] = z ^ (z >> 31);
            sq += 1;
        }
        p += 1;
    }
    t
};

/// Zobrist key xored in when black is to move.
pub(crate) const ZOBRIST_BLACK: u64 = 0x5A17_C0DE_B0A0_0C1D;

#[cfg(test)]
mod tests {
    use super::*;

    fn idx(s: &str) -> u8 {
        let b = s.as_bytes();
        (b[1] - b'0') * 9 + (b[0] - b'a')
    }

    #[test]
    fn a25_horse_in_the_corner_has_two_moves() {
        assert_eq!(HORSE[idx("a0") as usize].len, 2);
        assert_eq!(HORSE[idx("e4") as usize].len, 8);
    }

    #[test]
    fn a26_3_elephant_does_not_cross_the_river() {
        let from = idx("c4") as usize;
        let mut dests: Vec<u8> = ELEPHANT[from].as_slice().iter().map(|p| p.1).collect();
        dests.sort_unstable();
        assert_eq!(dests, vec![idx("a2"), idx("e2")]);
        assert!(!dests.contains(&idx("a6")) && !dests.contains(&idx("e6")));
    }

    #[test]
    fn a27_advisor_and_a29_general_stay_in_the_palace() {
        assert_eq!(ADVISOR[idx("e1") as usize].len, 4);
        assert_eq!(ADVISOR[idx("d0") as usize].len, 1);
        assert_eq!(ADVISOR[idx("e8") as usize].len, 4);
        assert_eq!(GENERAL[idx("e1") as usize].len, 4);
        assert_eq!(GENERAL[idx("d2") as usize].len, 2);
        assert_eq!(GENERAL[idx("a0") as usize].len, 0);
    }

    #[test]
    fn a28_pawn_moves_sideways_only_after_the_river() {
        assert_eq!(PAWN[0][idx("e3") as usize].len, 1);
        assert_eq!(PAWN[0][idx("e5") as usize].len, 3);
        assert_eq!(PAWN[0][idx("a9") as usize].len, 1);
        assert_eq!(PAWN[1][idx("e6") as usize].len, 1);
        assert_eq!(PAWN[1][idx("e4") as usize].len, 3);
    }
}
