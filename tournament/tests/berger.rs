//! 單循環 / 雙循環 by the Berger tables (附表二 第一部份 1(2)): the tables equal the published
//! FIDE tables (Handbook C.05, Annex 1), and for 3–16 players every pair meets exactly once
//! per cycle, colours stay balanced and odd counts get a bye.

use std::collections::BTreeMap;

use baoqi_tournament::berger::{BergerError, TableRound, double, single};

/// The published table as written: one string per round, "red-black" per board.
fn table(rows: &[&str]) -> Vec<Vec<(u32, u32)>> {
    rows.iter()
        .map(|row| {
            row.split_whitespace()
                .map(|p| {
                    let (a, b) = p.split_once('-').expect("a-b");
                    (a.parse().expect("number"), b.parse().expect("number"))
                })
                .collect()
        })
        .collect()
}

fn generated(n: u32) -> Vec<Vec<(u32, u32)>> {
    single(n)
        .expect("n ≥ 2")
        .iter()
        .map(|r| r.pairs.iter().map(|p| (p.red, p.black)).collect())
        .collect()
}

#[test]
fn fu2_1_2_berger_table_4_players() {
    let published = table(&["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
    assert_eq!(generated(4), published);
}

#[test]
fn fu2_1_2_berger_table_6_players() {
    let published = table(&[
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ]);
    assert_eq!(generated(6), published);
}

#[test]
fn fu2_1_2_berger_table_8_players() {
    let published = table(&[
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ]);
    assert_eq!(generated(8), published);
}

#[test]
fn fu2_1_2_berger_table_10_players() {
    let published = table(&[
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ]);
    assert_eq!(generated(10), published);
}

#[test]
fn fu2_1_2_berger_table_12_players() {
    let published = table(&[
        "1-12 2-11 3-10 4-9 5-8 6-7",
        "12-7 8-6 9-5 10-4 11-3 1-2",
        "2-12 3-1 4-11 5-10 6-9 7-8",
        "12-8 9-7 10-6 11-5 1-4 2-3",
        "3-12 4-2 5-1 6-11 7-10 8-9",
        "12-9 10-8 11-7 1-6 2-5 3-4",
        "4-12 5-3 6-2 7-1 8-11 9-10",
        "12-10 11-9 1-8 2-7 3-6 4-5",
        "5-12 6-4 7-3 8-2 9-1 10-11",
        "12-11 1-10 2-9 3-8 4-7 5-6",
        "6-12 7-5 8-4 9-3 10-2 11-1",
    ]);
    assert_eq!(generated(12), published);
}

/// The published table for 13 or 14 players (the Crenshaw-Berger tables, as printed in
/// round-robin pairing sheets; 14 plays 1 in round 1).
#[test]
fn fu2_1_2_berger_table_14_players() {
    let published = table(&[
        "1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
        "2-14 3-1 4-13 5-12 6-11 7-10 8-9",
        "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
        "3-14 4-2 5-1 6-13 7-12 8-11 9-10",
        "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
        "4-14 5-3 6-2 7-1 8-13 9-12 10-11",
        "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
        "5-14 6-4 7-3 8-2 9-1 10-13 11-12",
        "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
        "6-14 7-5 8-4 9-3 10-2 11-1 12-13",
        "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-14 8-6 9-5 10-4 11-3 12-2 13-1",
    ]);
    assert_eq!(generated(14), published);
}

/// The published table for 15 or 16 players (FIDE Handbook C.05, Annex 1), as held for data
/// by the pairing library `@echecs/round-robin` (github.com/mormubis/round-robin,
/// `src/berger.ts`, "FIDE Berger tables from C.05 Annex 1"; its numbers checked against the
/// rounds it writes out beside them). FIDE's own page was not among the stored copies.
#[test]
fn fu2_1_2_berger_table_16_players() {
    let published = table(&[
        "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9",
        "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2",
        "2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10",
        "16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3",
        "3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11",
        "16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4",
        "4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12",
        "16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5",
        "5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13",
        "16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6",
        "6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14",
        "16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7",
        "7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15",
        "16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1",
    ]);
    assert_eq!(generated(16), published);
}

#[test]
fn fu2_1_2_odd_count_plays_the_even_table_with_a_bye() {
    // 5 players use the 6-player table; meeting number 6 is the bye.
    let five = single(5).expect("5 players");
    let six = single(6).expect("6 players");
    assert_eq!(five.len(), 5);
    for (r5, r6) in five.iter().zip(&six) {
        let with_six = r6
            .pairs
            .iter()
            .find(|p| p.red == 6 || p.black == 6)
            .expect("6 plays");
        let bye = if with_six.red == 6 {
            with_six.black
        } else {
            with_six.red
        };
        assert_eq!(r5.bye, Some(bye));
        assert_eq!(r5.pairs.len(), 2);
    }
}

#[test]
fn fu2_1_2_fewer_than_two_players_is_refused() {
    assert_eq!(single(1), Err(BergerError::TooFew(1)));
    assert_eq!(double(0), Err(BergerError::TooFew(0)));
}

/// Checks a schedule: each pair meets `cycles` times (once with each colour in a double
/// round robin), each player plays at most once a round, byes only for odd counts (each
/// player `cycles` times), and colours per player differ by at most `cycles`.
fn check(n: u32, rounds: &[TableRound], cycles: u32) {
    let mut meetings: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    let mut reds = vec![0i32; n as usize + 1];
    let mut byes = vec![0u32; n as usize + 1];
    for r in rounds {
        let mut seen = vec![false; n as usize + 1];
        for p in &r.pairs {
            for x in [p.red, p.black] {
                assert!((1..=n).contains(&x), "n={n}: number {x}");
                assert!(!seen[x as usize], "n={n}: {x} twice in a round");
                seen[x as usize] = true;
            }
            reds[p.red as usize] += 1;
            reds[p.black as usize] -= 1;
            meetings
                .entry((p.red.min(p.black), p.red.max(p.black)))
                .or_default()
                .push(p.red);
        }
        if let Some(b) = r.bye {
            assert!(!seen[b as usize]);
            byes[b as usize] += 1;
        }
        assert_eq!(
            seen.iter().filter(|s| **s).count() as u32 + u32::from(r.bye.is_some()),
            n
        );
    }
    assert_eq!(
        meetings.len() as u32,
        n * (n - 1) / 2,
        "n={n}: every pair meets"
    );
    for ((a, b), reds_of) in &meetings {
        assert_eq!(reds_of.len() as u32, cycles, "n={n}: {a}-{b}");
        if cycles == 2 {
            assert_ne!(
                reds_of[0], reds_of[1],
                "n={n}: {a}-{b} with each colour once"
            );
        }
    }
    for x in 1..=n as usize {
        assert!(
            reds[x].unsigned_abs() <= cycles,
            "n={n}: player {x} colour balance {}",
            reds[x]
        );
        assert_eq!(
            byes[x],
            if n % 2 == 1 { cycles } else { 0 },
            "n={n}: byes of {x}"
        );
    }
}

#[test]
fn fu2_1_2_single_round_robin_structure_3_to_16() {
    for n in 3..=16 {
        let rounds = single(n).expect("n ≥ 2");
        assert_eq!(rounds.len() as u32, n - 1 + n % 2);
        check(n, &rounds, 1);
    }
}

#[test]
fn fu2_1_2_double_round_robin_structure_3_to_16() {
    for n in 3..=16 {
        let rounds = double(n).expect("n ≥ 2");
        assert_eq!(rounds.len() as u32, 2 * (n - 1 + n % 2));
        check(n, &rounds, 2);
    }
}

#[test]
fn fu2_1_2_double_round_robin_never_three_same_colours_running() {
    for n in (4..=16).step_by(2) {
        let rounds = double(n).expect("n ≥ 2");
        for x in 1..=n {
            let colours: Vec<bool> = rounds
                .iter()
                .filter_map(|r| r.pairs.iter().find(|p| p.red == x || p.black == x))
                .map(|p| p.red == x)
                .collect();
            for w in colours.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "n={n}: player {x}: {colours:?}"
                );
            }
        }
    }
}
