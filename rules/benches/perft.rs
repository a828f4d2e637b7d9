//! Criterion benchmark of move generation: perft from the start position and a middlegame.
#![allow(missing_docs)]

use baoqi_rules::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut start = Position::start();
    group.bench_function("start_depth_4", |b| b.iter(|| perft(&mut start, 4)));
    let mut mid = Position::from_fen(
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    )
    .expect("valid FEN");
    group.bench_function("middlegame_depth_3", |b| b.iter(|| perft(&mut mid, 3)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
