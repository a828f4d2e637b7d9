//! The cost of each possible pair, as priorities packed into one integer, and the matching.

use baoqi_rules::Color;

use super::{Draw, Entrant, SwissError, colour};

/// The criteria, most important first.
const TIERS: usize = 9;
const REMATCH: usize = 0;
const SECOND_BYE: usize = 1;
const COLOUR_RULE: usize = 2;
/// The bye to a player absent in the last round (under 黃氏計分法 a bye is 12, a win
/// without play; an absentee is not rewarded with one while another can take it).
const ABSENT_BYE: usize = 3;
const BYE_RANK: usize = 4;
const SCORE: usize = 5;
const CLUB: usize = 6;
const COLOUR_PREFERENCE: usize = 7;
const ORDER: usize = 8;

type Tiers = [u32; TIERS];

/// Where each player sits: the index of his score group (0 = the best score) and his place
/// in it, and the group's size.
struct Place {
    group: u32,
    index: u32,
    size: u32,
}

fn places(players: &[Entrant]) -> Vec<Place> {
    let mut out = Vec::with_capacity(players.len());
    let mut group = 0;
    let mut start = 0;
    for i in 0..=players.len() {
        if i == players.len() || players[i].score != players[start].score {
            let size = (i - start) as u32;
            out.extend((0..size).map(|index| Place { group, index, size }));
            group += 1;
            start = i;
        }
    }
    out
}

/// The criteria of pairing the higher-ranked `a` with `b`.
fn pair_tiers(a: &Entrant, b: &Entrant, pa: &Place, pb: &Place) -> Tiers {
    let mut t = [0; TIERS];
    t[REMATCH] = u32::from(a.opponents.contains(&b.id));
    let alloc = |ca: Color| {
        let (x1, y1) = colour::cost(&a.colours, ca);
        let (x2, y2) = colour::cost(&b.colours, ca.other());
        (x1 + x2, y1 + y2)
    };
    let (broken, unmet) = alloc(Color::Red).min(alloc(Color::Black));
    t[COLOUR_RULE] = broken;
    t[COLOUR_PREFERENCE] = unmet;
    let d = pb.group.abs_diff(pa.group);
    t[SCORE] = d * d;
    t[CLUB] = u32::from(a.club.is_some() && a.club == b.club);
    // 3(b) 賽員排名: inside a score group the upper half meets the lower half in order
    // (1 v m/2+1, 2 v m/2+2, …); a player floating down meets the top of the group below.
    t[ORDER] = if d == 0 {
        pb.index.abs_diff(pa.index).abs_diff(pa.size / 2)
    } else {
        pb.index
    };
    t
}

/// The criteria of giving the bye to the player at rank `rank` of `n`.
fn bye_tiers(p: &Entrant, rank: usize, n: usize) -> Tiers {
    let mut t = [0; TIERS];
    t[SECOND_BYE] = u32::from(p.had_bye);
    t[ABSENT_BYE] = u32::from(p.absent_last);
    t[BYE_RANK] = (n - 1 - rank) as u32;
    t
}

/// The minimum-cost perfect matching: `mate[i]` for each seat; seat `n` (if any) is the bye.
pub(super) fn matching(draw: &Draw) -> Result<Vec<usize>, SwissError> {
    let players = &draw.entrants;
    let n = players.len();
    let seats = n + n % 2;
    let place = places(players);
    let mut tiers = vec![[0u32; TIERS]; seats * seats];
    for i in 0..n {
        for j in i + 1..n {
            tiers[i * seats + j] = pair_tiers(&players[i], &players[j], &place[i], &place[j]);
        }
        if seats > n {
            tiers[i * seats + n] = bye_tiers(&players[i], i, n);
        }
    }
    let weights = radices(&tiers, seats / 2)?;
    let cost: Vec<i128> = tiers
        .iter()
        .map(|t| {
            t.iter()
                .zip(&weights)
                .map(|(&v, &w)| i128::from(v) * w)
                .sum()
        })
        .collect();
    Ok(integer_blossom::min_weight_perfect_matching(&cost, seats))
}

/// The weight of each tier: one unit of a tier outweighs every lower tier summed over all
/// `pairs` pairs of the matching.
fn radices(tiers: &[Tiers], pairs: usize) -> Result<[i128; TIERS], SwissError> {
    let mut weights = [0i128; TIERS];
    let mut w: i128 = 1;
    for tier in (0..TIERS).rev() {
        weights[tier] = w;
        let max = tiers.iter().map(|t| t[tier]).max().unwrap_or(0);
        let span = i128::from(max) * pairs as i128 + 1;
        w = w.checked_mul(span).ok_or(SwissError::TooLarge)?;
    }
    // The matcher needs headroom above the largest cost (its "infinity" is MAX/4).
    if w > i128::MAX / 64 {
        return Err(SwissError::TooLarge);
    }
    Ok(weights)
}
