//! What one command costs the match on a long game: `Match::apply` of a refused
//! word and of an accepted time query after the quiet walk's game of 300, 1,000 and 2,000
//! moves (each move four words, the board move and the press: about 6 log entries a move).
//! At first each command copied the whole match, words and scoresheet included, to undo a
//! refusal; now it leaves those two out and cuts them back.

use baoqi_arbiter::{ClockMode, Command, Match, Millis, Seat, TimeControl};
use baoqi_bench::blind_game;
use baoqi_store::model::Role;
use baoqi_store::testing::walk::quiet_game;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn seat(role: Role) -> Seat {
    match role {
        Role::Red => Seat::Red,
        Role::Black => Seat::Black,
        _ => Seat::Referee,
    }
}

/// The match after `moves` moves of the quiet walk, and the instant after them.
fn long_match(moves: usize) -> (Match, u64) {
    let config = blind_game(TimeControl {
        base_ms: 36_000_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    });
    let mut m = Match::new(config, Millis(0)).expect("a match");
    m.apply(Seat::Referee, Command::Start, Millis(0))
        .expect("started");
    let mut now = 0;
    for (role, c) in quiet_game(moves, 0, 7).expect("a walk") {
        now += 10;
        m.apply(seat(role), c, Millis(now))
            .expect("the walk's commands are accepted");
    }
    (m, now)
}

fn apply(c: &mut Criterion) {
    let mut group = c.benchmark_group("apply");
    for moves in [300, 1_000, 2_000] {
        let (m, now) = long_match(moves);
        let entries = m.snapshot().log.len();
        group.bench_with_input(BenchmarkId::new("refused word", entries), &m, |b, m| {
            let mut m = m.clone();
            // After a complete move the mover must press: a word of the side not to move
            // is refused.
            let wrong = if m.snapshot().to_move == baoqi_arbiter::Side::Red {
                Seat::Black
            } else {
                Seat::Red
            };
            b.iter(|| {
                let r = m.apply(wrong, Command::Word { text: "車".into() }, Millis(now + 1));
                assert!(r.is_err());
            });
        });
        group.bench_with_input(BenchmarkId::new("time query", entries), &m, |b, m| {
            let mut m = m.clone();
            let mover = if m.snapshot().to_move == baoqi_arbiter::Side::Red {
                Seat::Red
            } else {
                Seat::Black
            };
            b.iter(|| m.apply(mover, Command::QueryTime, Millis(now + 1)).is_ok());
        });
    }
    group.finish();
}

criterion_group!(benches, apply);
criterion_main!(benches);
