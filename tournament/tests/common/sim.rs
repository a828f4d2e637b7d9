//! Simulated Swiss events for the property tests and the benchmark: a register, random
//! results, the pairer round after round. A small seeded generator keeps every run
//! reproducible.

use std::collections::BTreeSet;

use baoqi_rules::Color;
use baoqi_tournament::swiss::{Draw, Pairing, pair};
use baoqi_tournament::{GameResult, Player, PlayerId, Round, Scoring};

/// xorshift64*: reproducible and dependency-free.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0.max(1);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` players, ratings at random, about one in four in one of `clubs` clubs.
pub(crate) fn register(n: u32, clubs: u64, rng: &mut Rng) -> Vec<Player> {
    (1..=n)
        .map(|i| {
            let mut p = Player::new(i, format!("P{i}"));
            p.rating = Some(1000 + rng.below(1500) as u32);
            if clubs > 0 && rng.below(4) == 0 {
                p.club = Some(format!("C{}", rng.below(clubs)));
            }
            p
        })
        .collect()
}

/// A random result: mostly decisive, some draws, a few absences.
pub(crate) fn result(rng: &mut Rng) -> GameResult {
    match rng.below(100) {
        0..=39 => GameResult::RedWins,
        40..=74 => GameResult::BlackWins,
        75..=94 => GameResult::Draw,
        95..=96 => GameResult::RedAbsent,
        97..=98 => GameResult::BlackAbsent,
        _ => GameResult::ForcedDraw,
    }
}

/// The draw of the next round.
pub(crate) fn draw(register: &[Player], rounds: &[Round], scoring: Scoring) -> Draw {
    let active: BTreeSet<PlayerId> = register.iter().map(|p| p.id).collect();
    Draw::from_event(register, &active, rounds, scoring, Color::Red)
}

/// Plays `count` rounds; returns each round's draw and pairing (results filled in).
pub(crate) fn run(
    register: &[Player],
    count: u32,
    scoring: Scoring,
    rng: &mut Rng,
) -> Vec<(Draw, Pairing)> {
    let mut rounds: Vec<Round> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..count {
        let d = draw(register, &rounds, scoring);
        let mut p = pair(&d).expect("a round of at least 2 players pairs");
        for g in &mut p.round.games {
            g.result = Some(result(rng));
        }
        rounds.push(p.round.clone());
        out.push((d, p));
    }
    out
}
