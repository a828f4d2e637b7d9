//! Replay speed over the ccpd corpus (6,196 Big5 PGN files): decoding, reading, parsing and
//! resolving every move text, and playing it. Reported as moves (plies) per second.
//!
//! `cargo bench -p baoqi-grammar --bench replay` (the corpus shipped as `corpus/ccpd.tar.xz`,
//! unpacked under `target/corpus/` on first use, or `$BAOQI_CORPUS`).

#[path = "../../corpus/unpack.rs"]
mod corpus_unpack;

use baoqi_grammar::pgn;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn corpus() -> Vec<Vec<u8>> {
    let root = corpus_unpack::corpus_root();
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(std::fs::read(&path).expect("readable record"));
            }
        }
    }
    out
}

fn replay_corpus(c: &mut Criterion) {
    let records = corpus();
    let plies: usize = records
        .iter()
        .map(|r| pgn::replay_bytes(r).map_or_else(|e| e.ply, |g| g.moves.len()))
        .sum();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("replay_ccpd", |b| {
        b.iter(|| {
            records
                .iter()
                .map(|r| pgn::replay_bytes(r).map_or(0, |g| g.moves.len()))
                .sum::<usize>()
        });
    });
    group.finish();
}

criterion_group!(benches, replay_corpus);
criterion_main!(benches);
