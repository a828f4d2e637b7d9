//! 淘汰 (附表二 第一部份 1(1)): the seeded bracket and ties decided by tie-break games.

use baoqi_arbiter::{ClockMode, TimeControl, TimeTable};
use baoqi_tournament::GameResult::{BlackWins, Draw, RedWins};
use baoqi_tournament::knockout::{Decider, LotError, Next, Stage, Tie, TieRules, bracket};
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
        ..TieRules::default()
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
        ..TieRules::default()
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
        ..TieRules::default()
    };
    assert!(tie(&[Draw]).schedule(lot).is_empty(), "the lot: no game");
}

/// One game, one pair of tie-break games, then the lot (抽籤).
const LOT: TieRules = TieRules {
    games: 1,
    tiebreak_pairs: 1,
    decider: Decider::Lot,
    tie_break_minutes: None,
    tie_break_increment_seconds: None,
};

#[test]
fn fu2_3_a_the_lot_decides_a_tie_level_after_its_tie_break_games() {
    for (first_wins, winner) in [(true, A), (false, B)] {
        let mut t = tie(&[Draw, Draw, Draw]);
        assert_eq!(t.draw_lot(LOT, first_wins), Ok(winner));
        assert_eq!(t.lot, Some(winner));
        assert_eq!(
            t.next(LOT),
            Next::Winner(winner),
            "through to the next round"
        );
        assert!(t.schedule(LOT).is_empty(), "no more games");
    }
}

#[test]
fn fu2_3_a_a_lot_drawn_twice_is_refused() {
    let mut t = tie(&[Draw, Draw, Draw]);
    assert_eq!(t.draw_lot(LOT, false), Ok(B));
    assert_eq!(t.draw_lot(LOT, true), Err(LotError::AlreadyDrawn(B)));
    assert_eq!(t.next(LOT), Next::Winner(B), "the first lot stands");
}

#[test]
fn fu2_3_a_no_lot_before_the_tie_break_games_are_played() {
    assert_eq!(
        tie(&[Draw]).draw_lot(LOT, true),
        Err(LotError::GamesToPlay { to_play: 2 }),
        "the pair of tie-break games first"
    );
    assert_eq!(
        tie(&[Draw, Draw]).draw_lot(LOT, true),
        Err(LotError::GamesToPlay { to_play: 1 })
    );
    assert_eq!(
        tie(&[]).draw_lot(LOT, true),
        Err(LotError::GamesToPlay { to_play: 3 })
    );
    assert_eq!(
        tie(&[Draw, RedWins, Draw]).draw_lot(LOT, true),
        Err(LotError::Decided(B)),
        "won in the tie-break games"
    );
    let mut t = tie(&[RedWins]);
    assert_eq!(t.draw_lot(LOT, false), Err(LotError::Decided(A)));
    assert_eq!(t.lot, None, "nothing drawn");
}

#[test]
fn fu2_3_a_no_lot_when_the_event_decides_otherwise() {
    let rules = TieRules {
        decider: Decider::SuddenDeath,
        ..LOT
    };
    assert_eq!(
        tie(&[Draw, Draw, Draw]).draw_lot(rules, true),
        Err(LotError::NotTheDecider(Decider::SuddenDeath))
    );
}

fn control(minutes: u64, mode: ClockMode, extra_s: u64) -> TimeControl {
    TimeControl {
        base_ms: minutes * 60_000,
        mode,
        extra_ms: extra_s * 1000,
    }
}

/// The ordinary games: 20′+10″, 全失明 30′+20″, a VI player with a proxy 25′+15″.
fn ordinary() -> TimeTable {
    TimeTable {
        default: control(20, ClockMode::Increment, 10),
        blind: Some(control(30, ClockMode::Increment, 20)),
        vi_with_proxy: Some(control(25, ClockMode::Increment, 15)),
        ..TimeTable::default()
    }
}

#[test]
fn s7p2_1_tie_break_games_keep_the_allowances_of_the_ordinary_games() {
    let rules = TieRules {
        tie_break_minutes: Some(5),
        tie_break_increment_seconds: Some(3),
        ..LOT
    };
    let t = rules.tie_break_time(&ordinary());
    assert_eq!(t.default, control(5, ClockMode::Increment, 3));
    // 全失明 had half as much again (30′ against 20′) and 10″ more a move.
    assert_eq!(
        t.blind,
        Some(TimeControl {
            base_ms: 450_000,
            mode: ClockMode::Increment,
            extra_ms: 13_000
        })
    );
    assert_eq!(
        t.vi_with_proxy,
        Some(TimeControl {
            base_ms: 375_000,
            mode: ClockMode::Increment,
            extra_ms: 8_000
        })
    );
    assert_eq!(t.sighted, None, "no entry made up");
}

#[test]
fn s7p2_1_tie_break_minutes_alone_keep_the_increments() {
    let rules = TieRules {
        tie_break_minutes: Some(10),
        ..LOT
    };
    let t = rules.tie_break_time(&ordinary());
    assert_eq!(t.default, control(10, ClockMode::Increment, 10));
    assert_eq!(t.blind, Some(control(15, ClockMode::Increment, 20)));
    // Without a tie-break time the tie-break games are played at the ordinary one.
    assert_eq!(LOT.tie_break_time(&ordinary()), ordinary());
    // A plain control (包幹制) stays plain.
    let plain = TimeTable {
        default: control(10, ClockMode::Plain, 0),
        blind: Some(control(15, ClockMode::Plain, 0)),
        ..TimeTable::default()
    };
    let t = rules.tie_break_time(&plain);
    assert_eq!(t.default, control(10, ClockMode::Plain, 0));
    assert_eq!(t.blind, Some(control(15, ClockMode::Plain, 0)));
}
