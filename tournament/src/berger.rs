//! 單循環 and 雙循環 (附表二 第一部份 1(2)) by the Berger tables, as FIDE publishes them
//! (Handbook C.05, Annex 1): player numbers are the drawn numbers (抽籤, 3(a)).

use serde::{Deserialize, Serialize};

/// One pairing of a Berger table: numbers from 1, red (the first-named, "white") first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    /// The number playing red.
    pub red: u32,
    /// The number playing black.
    pub black: u32,
}

/// One round of a table: the pairs, board 1 first, and the number that has the bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRound {
    /// The pairs, board 1 first.
    pub pairs: Vec<Pair>,
    /// For an odd number of players, the one who sits out.
    pub bye: Option<u32>,
}

/// Why no table can be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    /// Fewer than two players.
    #[error("a round robin needs at least 2 players, not {0}")]
    TooFew(u32),
}

/// The single round robin for `players` numbers (1…n): n−1 rounds for even n, n rounds for
/// odd n, where the number n+1 of the even table is the bye.
///
/// Construction (which reproduces the published tables): with m = n−1 for the even table,
/// in round r player n meets k with 2k ≡ r+1 (mod m), n having red in even rounds; board b
/// (b ≥ 2) pairs k+(b−1), red, with k−(b−1), numbers taken mod m in 1…m.
pub fn single(players: u32) -> Result<Vec<TableRound>, BergerError> {
    if players < 2 {
        return Err(BergerError::TooFew(players));
    }
    let n = players + players % 2;
    let m = n - 1;
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(m)) + 1) as u32 };
    let rounds = (1..=m)
        .map(|r| {
            let k = (1..=m).find(|k| (2 * k) % m == (r + 1) % m).unwrap_or(1);
            let mut pairs = vec![if r % 2 == 0 {
                Pair { red: n, black: k }
            } else {
                Pair { red: k, black: n }
            }];
            for b in 2..=n / 2 {
                let d = i64::from(b - 1);
                pairs.push(Pair {
                    red: wrap(i64::from(k) + d),
                    black: wrap(i64::from(k) - d),
                });
            }
            without_dummy(pairs, players)
        })
        .collect();
    Ok(rounds)
}

/// The double round robin: the single table, then again with colours reversed. The last two
/// rounds of the first cycle are played in reverse order (FIDE's advice for double round
/// robins), so that nobody gets the same colour three times running across the two cycles.
pub fn double(players: u32) -> Result<Vec<TableRound>, BergerError> {
    let mut first = single(players)?;
    let len = first.len();
    if len >= 2 {
        first.swap(len - 1, len - 2);
    }
    let second: Vec<TableRound> = single(players)?
        .into_iter()
        .map(|r| TableRound {
            pairs: r
                .pairs
                .iter()
                .map(|p| Pair {
                    red: p.black,
                    black: p.red,
                })
                .collect(),
            bye: r.bye,
        })
        .collect();
    first.extend(second);
    Ok(first)
}

fn without_dummy(pairs: Vec<Pair>, players: u32) -> TableRound {
    let dummy = players + 1;
    let bye = pairs.iter().find_map(|p| {
        if p.red == dummy {
            Some(p.black)
        } else if p.black == dummy {
            Some(p.red)
        } else {
            None
        }
    });
    TableRound {
        pairs: pairs
            .into_iter()
            .filter(|p| p.red != dummy && p.black != dummy)
            .collect(),
        bye,
    }
}
