//! Criterion benchmark: pairing one round of a 500-player Swiss (goal: under 1 s), the
//! fifth round, after four rounds of random results (score groups, colours and rematches to
//! avoid are all in play).
#![allow(missing_docs)]

#[path = "../tests/common/sim.rs"]
#[allow(dead_code)]
mod sim;

use baoqi_tournament::Scoring;
use baoqi_tournament::swiss::pair;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut rng = sim::Rng(0x5EED_0018);
    let register = sim::register(500, 40, &mut rng);
    let played = sim::run(&register, 4, Scoring::default(), &mut rng);
    let rounds: Vec<_> = played.iter().map(|(_, p)| p.round.clone()).collect();
    let draw = sim::draw(&register, &rounds, Scoring::default());
    let mut group = c.benchmark_group("swiss");
    group.sample_size(10);
    group.bench_function("pair_round_5_of_500", |b| b.iter(|| pair(&draw)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
