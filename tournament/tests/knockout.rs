//! 淘汰 (附表二 第一部份 1(1)): the seeded bracket and ties decided by tie-break games.

use baoqi_tournament::GameResult::{BlackWins, Draw, RedWins};
use baoqi_tournament::knockout::{Decider, Next, Stage, Tie, TieRules, bracket};
use baoqi_tournament::{Game, PlayerId};

const A: PlayerId = PlayerId(1);
const B: PlayerId = PlayerId(8);

fn tie(results: &[baoqi_tournament::GameResult]) -> Tie {
    let mut t = Tie::new(A, B);
    t.results = results.to_vec();
    t
}

#[test]
fn fu2_1_1_bracket_of_eight_keeps_the_top_seeds_apart() {
    let b = bracket(8);
    assert_eq!(
        b,
        vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]
    );
}

#[test]
fn fu2_1_1_bracket_of_six_gives_the_top_seeds_byes() {
    let b = bracket(6);
    assert_eq!(b, vec![(1, None), (4, Some(5)), (2, None), (3, Some(6))]);
}

#[test]
fn fu2_1_1_bracket_every_seed_once_3_to_64() {
    for n in 3..=64u32 {
        let b = bracket(n);
        let mut seen: Vec<u32> = b
            .iter()
            .flat_map(|&(a, c)| std::iter::once(a).chain(c))
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (1..=n).collect::<Vec<_>>(), "n={n}");
        assert!(b.len().is_power_of_two());
        // Seeds 1 and 2 are in different halves.
        let half = b.len() / 2;
        assert!(b[..half.max(1)].iter().any(|p| p.0 == 1));
        assert!(b[half..].iter().any(|p| p.0 == 2) || n < 2);
    }
}

#[test]
fn fu2_1_1_main_games_alternate_colours_and_decide() {
    let rules = TieRules::default();
    assert_eq!(
        tie(&[]).next(rules),
        Next::Play {
            red: A,
            black: B,
            stage: Stage::Main
        }
    );
    assert_eq!(
        tie(&[Draw]).next(rules),
        Next::Play {
            red: B,
            black: A,
            stage: Stage::Main
        }
    );
    // A draws as red, then wins as black (BlackWins in game 2).
    assert_eq!(tie(&[Draw, BlackWins]).next(rules), Next::Winner(A));
}

#[test]
fn fu2_1_1_level_tie_goes_to_tie_break_games_then_sudden_death() {
    let rules = TieRules::default();
    // 1–1 in the main games: a pair of tie-break games.
    let level = [RedWins, RedWins];
    assert_eq!(
        tie(&level).next(rules),
        Next::Play {
            red: A,
            black: B,
            stage: Stage::TieBreak
        }
    );
    assert_eq!(
        tie(&[RedWins, RedWins, Draw]).next(rules),
        Next::Play {
            red: B,
            black: A,
            stage: Stage::TieBreak
        }
    );
    // B wins the second tie-break game with red.
    assert_eq!(
        tie(&[RedWins, RedWins, Draw, RedWins]).next(rules),
        Next::Winner(B)
    );
    // Still level: sudden death, colours alternating, until a decisive game.
    let still = [RedWins, RedWins, Draw, Draw];
    assert_eq!(
        tie(&still).next(rules),
        Next::Play {
            red: A,
            black: B,
            stage: Stage::Decider
        }
    );
    assert_eq!(
        tie(&[RedWins, RedWins, Draw, Draw, Draw, BlackWins]).next(rules),
        Next::Winner(A)
    );
}

#[test]
fn fu2_1_1_black_draw_odds_decider() {
    let rules = TieRules {
        games: 1,
        tiebreak_pairs: 0,
        decider: Decider::BlackDrawOdds,
    };
    assert_eq!(
        tie(&[Draw]).next(rules),
        Next::Play {
            red: A,
            black: B,
            stage: Stage::Decider
        }
    );
    assert_eq!(
        tie(&[Draw, Draw]).next(rules),
        Next::Winner(B),
        "a draw: black goes through"
    );
    assert_eq!(tie(&[Draw, RedWins]).next(rules), Next::Winner(A));
}

#[test]
fn fu2_1_1_lot_after_tie_breaks() {
    let rules = TieRules {
        games: 1,
        tiebreak_pairs: 1,
        decider: Decider::Lot,
    };
    assert_eq!(tie(&[Draw, Draw, Draw]).next(rules), Next::Lot);
}

#[test]
fn fu2_1_1_schedule_sets_up_the_main_games_then_a_pair_of_tie_breaks_then_one_decider() {
    let rules = TieRules::default();
    let games = |t: &Tie| -> Vec<(PlayerId, PlayerId, Stage)> {
        t.schedule(rules)
            .into_iter()
            .map(|(g, s): (Game, Stage)| (g.red, g.black, s))
            .collect()
    };
    assert_eq!(
        games(&tie(&[])),
        vec![(A, B, Stage::Main), (B, A, Stage::Main)],
        "both main games, the higher seed red first"
    );
    assert_eq!(games(&tie(&[Draw])), vec![(B, A, Stage::Main)]);
    assert_eq!(
        games(&tie(&[Draw, Draw])),
        vec![(A, B, Stage::TieBreak), (B, A, Stage::TieBreak)],
        "a level tie: the pair of tie-break games together"
    );
    assert_eq!(
        games(&tie(&[Draw, Draw, Draw])),
        vec![(B, A, Stage::TieBreak)]
    );
    assert_eq!(
        games(&tie(&[Draw, Draw, Draw, Draw])),
        vec![(A, B, Stage::Decider)]
    );
    assert!(games(&tie(&[RedWins, Draw])).is_empty(), "decided");
    let lot = TieRules {
        games: 1,
        tiebreak_pairs: 0,
        decider: Decider::Lot,
    };
    assert!(tie(&[Draw]).schedule(lot).is_empty(), "the lot: no game");
}
