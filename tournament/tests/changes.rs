//! The organiser's changes: 108 (wrong colours, wrong pairing), 89(2) (withdrawal), late
//! entrants; each logged.

use baoqi_tournament::berger::single;
use baoqi_tournament::changes::{
    Adjustment, Change, ChangeError, Format, Missed, Remedy, Tournament, Withdrawals, half_byes,
    remedy_108, round_robin_round, with_half_byes,
};
use baoqi_tournament::standings::standings;
use baoqi_tournament::{
    ByeScore, Game, GameResult, Player, PlayerId, Points, Round, RoundNumber, Scoring, System,
};

fn register(n: u32) -> Vec<Player> {
    (1..=n).map(|i| Player::new(i, format!("P{i}"))).collect()
}

/// A round robin of `n` with its Berger rounds, nothing played.
fn round_robin(n: u32) -> Tournament {
    let mut t = Tournament::new(Format::RoundRobin, register(n));
    t.rounds = single(n)
        .expect("n ≥ 2")
        .into_iter()
        .map(|r| Round {
            games: r
                .pairs
                .iter()
                .map(|p| Game::new(PlayerId(p.red), PlayerId(p.black)))
                .collect(),
            byes: r.bye.map(PlayerId).into_iter().collect(),
            half_byes: Vec::new(),
        })
        .collect();
    t
}

fn play_rounds(t: &mut Tournament, count: usize) {
    t.started = true;
    for r in t.rounds.iter_mut().take(count) {
        for g in &mut r.games {
            g.result = Some(GameResult::RedWins);
        }
    }
}

#[test]
fn a108_1_replay_only_with_15_minutes_a_side_and_within_5_minutes() {
    assert_eq!(remedy_108(15 * 60_000, 5 * 60_000), Remedy::Replay);
    assert_eq!(remedy_108(15 * 60_000, 5 * 60_000 + 1), Remedy::Record);
    assert_eq!(remedy_108(10 * 60_000, 0), Remedy::Record);
}

#[test]
fn a108_1_reversed_colours_recorded_as_played() {
    let mut t = round_robin(4);
    play_rounds(&mut t, 1);
    let before = t.rounds[0].games[0];
    let change = t
        .colours_reversed(RoundNumber(1), 1, Remedy::Record)
        .expect("round 1 board 1");
    let after = t.rounds[0].games[0];
    assert_eq!((after.red, after.black), (before.black, before.red));
    assert_eq!(
        after.result, before.result,
        "the result names the colours on the board"
    );
    assert_eq!(t.log, vec![change]);
}

#[test]
fn a108_1_reversed_colours_replayed() {
    let mut t = round_robin(4);
    play_rounds(&mut t, 1);
    t.colours_reversed(RoundNumber(1), 2, Remedy::Replay)
        .expect("board 2");
    assert_eq!(t.rounds[0].games[1].result, None);
    assert_eq!(
        t.colours_reversed(RoundNumber(1), 9, Remedy::Replay),
        Err(ChangeError::NoBoard {
            round: RoundNumber(1),
            board: 9
        })
    );
    assert_eq!(
        t.colours_reversed(RoundNumber(7), 1, Remedy::Replay),
        Err(ChangeError::NoRound(RoundNumber(7)))
    );
}

#[test]
fn a108_2_pairing_overridden_and_logged() {
    let mut t = round_robin(4);
    let after = Round {
        games: vec![
            Game::new(PlayerId(1), PlayerId(2)),
            Game::new(PlayerId(3), PlayerId(4)),
        ],
        byes: vec![],
        half_byes: Vec::new(),
    };
    let change = t
        .override_pairing(RoundNumber(1), after.clone())
        .expect("valid");
    assert!(
        matches!(change, Change::PairingOverridden { round: RoundNumber(1), ref before, .. } if before.games[0].red == PlayerId(1) && before.games[0].black == PlayerId(4))
    );
    assert_eq!(t.rounds[0], after);
    let twice = Round {
        games: vec![Game::new(PlayerId(1), PlayerId(1))],
        byes: vec![],
        half_byes: Vec::new(),
    };
    assert_eq!(
        t.override_pairing(RoundNumber(1), twice),
        Err(ChangeError::Twice(PlayerId(1)))
    );
    let stranger = Round {
        games: vec![Game::new(PlayerId(1), PlayerId(9))],
        byes: vec![],
        half_byes: Vec::new(),
    };
    assert_eq!(
        t.override_pairing(RoundNumber(1), stranger),
        Err(ChangeError::NotActive(PlayerId(9)))
    );
    assert_eq!(t.log.len(), 1, "refused changes are not logged");
}

#[test]
fn a89_2_withdrawal_before_the_start_means_a_new_draw() {
    let mut t = round_robin(6);
    let change = t.withdraw(PlayerId(3)).expect("active");
    assert_eq!(
        change,
        Change::Withdrawn {
            player: PlayerId(3),
            adjustment: Adjustment::Redraw
        }
    );
    assert!(t.rounds.is_empty());
    assert!(!t.active.contains(&PlayerId(3)));
    assert_eq!(
        t.withdraw(PlayerId(3)),
        Err(ChangeError::NotActive(PlayerId(3)))
    );
}

#[test]
fn a89_2_round_robin_withdrawal_before_half_annuls_his_games() {
    let mut t = round_robin(6);
    play_rounds(&mut t, 2);
    let change = t.withdraw(PlayerId(1)).expect("active");
    assert!(matches!(
        change,
        Change::Withdrawn {
            adjustment: Adjustment::Annulled,
            ..
        }
    ));
    assert!(
        t.rounds
            .iter()
            .flat_map(|r| &r.games)
            .all(|g| g.colour_of(PlayerId(1)).is_none())
    );
    // His opponents' points against him are gone from the standings.
    let table = standings(&t.register, &t.rounds, Scoring::default(), &[]);
    let six = table
        .iter()
        .find(|s| s.player == PlayerId(6))
        .expect("listed");
    // 6 lost to 1 in round 1 (1 red) and beat 4 in round 2 (6 red): 1 point, not counting round 1.
    assert_eq!(six.score.0, 2);
}

#[test]
fn a89_2_round_robin_withdrawal_after_half_forfeits_the_rest() {
    let mut t = round_robin(6);
    play_rounds(&mut t, 3);
    let change = t.withdraw(PlayerId(2)).expect("active");
    assert!(matches!(
        change,
        Change::Withdrawn {
            adjustment: Adjustment::RemainingForfeited,
            ..
        }
    ));
    let rest: Vec<GameResult> = t.rounds[3..]
        .iter()
        .flat_map(|r| &r.games)
        .filter(|g| g.colour_of(PlayerId(2)).is_some())
        .filter_map(|g| g.result)
        .collect();
    assert_eq!(rest.len(), 2);
    assert!(
        rest.iter()
            .all(|r| matches!(r, GameResult::RedAbsent | GameResult::BlackAbsent))
    );
}

/// Round `number` (1-based) of the table as it is played after the logged withdrawals.
fn played_round(t: &Tournament, number: usize) -> Round {
    round_robin_round(&t.rounds[number - 1], &t.withdrawals())
}

#[test]
fn a89_2_after_half_his_later_opponents_win_without_play() {
    let mut t = round_robin(6);
    play_rounds(&mut t, 3);
    t.withdraw(PlayerId(2)).expect("active");
    assert_eq!(
        t.withdrawals(),
        Withdrawals::from([(PlayerId(2), Adjustment::RemainingForfeited)])
    );
    // Round 4 of the table: 6-5, 1-4, 2-3. 2 is absent: 3 wins without play (不戰而勝);
    // the other boards are played as drawn.
    let drawn = t.rounds[3].clone();
    let mut fresh = drawn.clone();
    for g in &mut fresh.games {
        g.result = None;
    }
    let four = round_robin_round(&fresh, &t.withdrawals());
    let board = |red: u32, black: u32| {
        four.games
            .iter()
            .find(|g| (g.red, g.black) == (PlayerId(red), PlayerId(black)))
            .copied()
            .expect("on the table")
    };
    assert_eq!(
        four.games.len(),
        drawn.games.len(),
        "nobody's opponent moves"
    );
    assert_eq!(board(2, 3).result, Some(GameResult::RedAbsent));
    assert_eq!(board(6, 5).result, None);
    assert_eq!(board(1, 4).result, None);
    // 3 scores the win by forfeit; 2 scores nothing for the absence.
    let mut rounds = t.rounds[..3].to_vec();
    rounds.push(four);
    let table = standings(&t.register, &rounds, Scoring::default(), &[]);
    let score = |p: u32| {
        table
            .iter()
            .find(|s| s.player == PlayerId(p))
            .expect("listed")
            .score
            .0
    };
    // Red won every game of rounds 1-3: 3 was red in rounds 1 and 3 (two wins), black in 2.
    assert_eq!(score(3), 2 + 2 + 2, "two wins, then the forfeit");
    assert_eq!(score(2), 4, "two wins (red in rounds 1 and 3), then absent");
}

#[test]
fn a89_2_before_half_his_later_opponents_sit_out_unscored() {
    let mut t = round_robin(6);
    play_rounds(&mut t, 2);
    t.withdraw(PlayerId(1)).expect("active");
    // Round 3 of the table: 2-6, 3-1, 4-5. His game is annulled, not forfeited: 3 sits the
    // round out with nothing (no bye, no 不戰而勝), as if 1 had never entered.
    let three = played_round(&t, 3);
    assert_eq!(
        three
            .games
            .iter()
            .map(|g| (g.red.0, g.black.0))
            .collect::<Vec<_>>(),
        [(2, 6), (4, 5)]
    );
    assert!(three.byes.is_empty(), "no bye's score for 3");
    assert!(three.players().all(|p| p != PlayerId(3)));
}

#[test]
fn a89_2_a_withdrawn_players_bye_is_nobodys() {
    // Five players: the table of six, number 6 the bye. Round 1: 1-6 (1 sits out), 2-5, 3-4.
    let mut t = round_robin(5);
    play_rounds(&mut t, 3);
    t.withdraw(PlayerId(4)).expect("active");
    // Round 4 of the table: 6-5 (5 sits out), 1-4, 2-3.
    let four = played_round(&t, 4);
    assert_eq!(four.byes, [PlayerId(5)], "the table's bye stands");
    let five = played_round(&t, 5);
    // Round 5: 3-6 (3 sits out), 4-2, 5-1: 4 absent, 2 wins without play.
    assert!(
        five.games
            .iter()
            .any(|g| g.red == PlayerId(4) && g.result == Some(GameResult::RedAbsent))
    );
    let mut t = round_robin(5);
    play_rounds(&mut t, 1);
    t.withdraw(PlayerId(5)).expect("active");
    // Round 4's bye was 5's: with his games annulled, nobody sits out in his place.
    let four = played_round(&t, 4);
    assert!(four.byes.is_empty());
    assert_eq!(four.games.len(), 2);
}

#[test]
fn a89_2_two_withdrawn_after_half_are_both_absent() {
    let mut t = round_robin(6);
    play_rounds(&mut t, 3);
    t.withdraw(PlayerId(2)).expect("active");
    t.withdraw(PlayerId(3)).expect("active");
    let mut four = t.rounds[3].clone();
    for g in &mut four.games {
        g.result = None;
    }
    let four = round_robin_round(&four, &t.withdrawals());
    assert!(
        four.games
            .iter()
            .any(|g| (g.red, g.black) == (PlayerId(2), PlayerId(3))
                && g.result == Some(GameResult::BothAbsent))
    );
}

#[test]
fn a89_2_swiss_withdrawal_keeps_results_and_stops_pairing() {
    let mut t = Tournament::new(Format::Swiss, register(5));
    t.started = true;
    t.rounds.push(Round {
        games: vec![Game {
            red: PlayerId(1),
            black: PlayerId(2),
            result: Some(GameResult::Draw),
        }],
        byes: vec![],
        half_byes: Vec::new(),
    });
    let change = t.withdraw(PlayerId(2)).expect("active");
    assert!(matches!(
        change,
        Change::Withdrawn {
            adjustment: Adjustment::NotPaired,
            ..
        }
    ));
    assert_eq!(t.rounds[0].games[0].result, Some(GameResult::Draw));
    assert!(!t.active.contains(&PlayerId(2)));
}

#[test]
fn late_entrant_joins_a_swiss_from_the_next_round() {
    let mut t = Tournament::new(Format::Swiss, register(4));
    t.started = true;
    t.rounds.push(Round::default());
    let change = t
        .late_entrant(Player::new(5, "遲到者"), Missed::Nothing)
        .expect("new");
    assert_eq!(
        change,
        Change::LateEntrant {
            player: PlayerId(5),
            from_round: RoundNumber(2),
            missed: Missed::Nothing,
        }
    );
    assert!(t.active.contains(&PlayerId(5)));
    assert_eq!(
        t.late_entrant(Player::new(5, "again"), Missed::Nothing),
        Err(ChangeError::AlreadyRegistered(PlayerId(5)))
    );
    let mut rr = round_robin(4);
    play_rounds(&mut rr, 1);
    assert_eq!(
        rr.late_entrant(Player::new(9, "x"), Missed::Nothing),
        Err(ChangeError::RoundRobinStarted)
    );
}

/// A Swiss of four after two rounds, every game won by red, and a fifth player who joins for
/// round 3, the rounds he missed scored as `missed`.
fn late_after_two_rounds(missed: Missed) -> (Tournament, Vec<Round>) {
    let mut t = Tournament::new(Format::Swiss, register(4));
    t.started = true;
    for (a, b, c, d) in [(1, 2, 3, 4), (1, 3, 2, 4)] {
        t.rounds.push(Round {
            games: vec![
                Game {
                    result: Some(GameResult::RedWins),
                    ..Game::new(PlayerId(a), PlayerId(b))
                },
                Game {
                    result: Some(GameResult::RedWins),
                    ..Game::new(PlayerId(c), PlayerId(d))
                },
            ],
            ..Round::default()
        });
    }
    let change = t
        .late_entrant(Player::new(5, "遲到者"), missed)
        .expect("a late entrant");
    let rounds = with_half_byes(t.rounds.clone(), &half_byes([&change]));
    (t, rounds)
}

#[test]
fn a_late_entrant_given_half_points_scores_a_draw_for_each_round_he_missed() {
    let (t, rounds) = late_after_two_rounds(Missed::HalfPoint);
    assert_eq!(rounds[0].half_byes, [PlayerId(5)]);
    assert_eq!(rounds[1].half_byes, [PlayerId(5)]);
    let table = standings(&t.register, &rounds, Scoring::default(), &[]);
    let late = table
        .iter()
        .find(|s| s.player == PlayerId(5))
        .expect("listed");
    // Two draws' points (1/½/0: ½ each), not a win's.
    assert_eq!(late.score, Points::whole(1));
    // Under 黃氏計分法 a missed round is a colourless draw, as a 強制和: 8 each.
    let huang = Scoring {
        system: System::Huang,
        bye: ByeScore::ForfeitWin,
    };
    let table = standings(&t.register, &rounds, huang, &[]);
    let late = table
        .iter()
        .find(|s| s.player == PlayerId(5))
        .expect("listed");
    assert_eq!(late.score, Points::whole(16));
}

#[test]
fn a_late_entrant_given_nothing_scores_nothing_for_the_rounds_he_missed() {
    let (t, rounds) = late_after_two_rounds(Missed::Nothing);
    assert!(rounds.iter().all(|r| r.half_byes.is_empty()));
    let table = standings(&t.register, &rounds, Scoring::default(), &[]);
    let late = table
        .iter()
        .find(|s| s.player == PlayerId(5))
        .expect("listed");
    assert_eq!(late.score, Points::whole(0));
}

#[test]
fn a_late_entrants_half_points_are_not_the_rounds_bye_he_may_still_be_given() {
    use baoqi_tournament::swiss::{Draw, pair};
    // Every game drawn: five players level at two draws' points, the late entrant last.
    let (mut t, _) = late_after_two_rounds(Missed::HalfPoint);
    for round in &mut t.rounds {
        for g in &mut round.games {
            g.result = Some(GameResult::Draw);
        }
    }
    let change = Change::LateEntrant {
        player: PlayerId(5),
        from_round: RoundNumber(3),
        missed: Missed::HalfPoint,
    };
    let rounds = with_half_byes(t.rounds.clone(), &half_byes([&change]));
    let draw = Draw::from_event(
        &t.register,
        &t.active,
        &rounds,
        Scoring::default(),
        baoqi_rules::Color::Red,
    );
    let late = draw
        .entrants
        .iter()
        .find(|e| e.id == PlayerId(5))
        .expect("drawn");
    assert!(!late.had_bye, "a missed round is not the round's bye");
    let p = pair(&draw).expect("a pairing");
    // The bye goes to the lowest-ranked player who has not had one (附表二): him.
    assert_eq!(p.round.byes, [PlayerId(5)]);
}
