//! 計分方法 (附表二 第二部份): the four systems, team scoring, and 名次分先 with
//! Buchholz / Sonneborn-Berger, on hand-worked examples.

use baoqi_rules::Color;
use baoqi_tournament::standings::{TieBreak, standings};
use baoqi_tournament::{
    ByeScore, Game, GameResult, Mark, Player, PlayerId, Points, Round, Scoring, System, TeamMethod,
    team_match,
};

fn players(n: u32) -> Vec<Player> {
    (1..=n).map(|i| Player::new(i, format!("P{i}"))).collect()
}

fn game(red: u32, black: u32, result: GameResult) -> Game {
    Game {
        red: PlayerId(red),
        black: PlayerId(black),
        result: Some(result),
    }
}

fn round(games: Vec<Game>) -> Round {
    Round {
        games,
        byes: Vec::new(),
        half_byes: Vec::new(),
    }
}

#[test]
fn fu2_2_1_1_game_points_win_one_draw_half_loss_nothing() {
    let s = System::GamePoints;
    assert_eq!(s.points(Mark::Win), Points(2));
    assert_eq!(s.points(Mark::Draw(Color::Red)), Points(1));
    assert_eq!(s.points(Mark::Loss), Points(0));
    assert_eq!(Points(3).to_string(), "1½");
}

#[test]
fn fu2_2_1_2_and_3_integer_and_league_points() {
    assert_eq!(System::Integer.points(Mark::Win), Points::whole(2));
    assert_eq!(System::Integer.points(Mark::ForcedDraw), Points::whole(1));
    assert_eq!(System::League.points(Mark::Win), Points::whole(3));
    assert_eq!(
        System::League.points(Mark::Draw(Color::Black)),
        Points::whole(1)
    );
    assert_eq!(System::League.points(Mark::Loss), Points(0));
}

#[test]
fn fu2_2_1_4_huang_every_mark() {
    let h = |m| System::Huang.points(m);
    assert_eq!(h(Mark::Win), Points::whole(13));
    assert_eq!(h(Mark::ForfeitWin), Points::whole(12));
    assert_eq!(h(Mark::Draw(Color::Black)), Points::whole(9));
    assert_eq!(h(Mark::ForcedDraw), Points::whole(8));
    assert_eq!(h(Mark::Draw(Color::Red)), Points::whole(7));
    assert_eq!(h(Mark::Loss), Points::whole(2));
    assert_eq!(h(Mark::Absent), Points(0));
}

/// A hand-worked 黃氏 event of four players, three rounds:
/// R1: 1–2 紅勝, 3–4 和;  R2: 4–1 和, 2–3 3 absent;  R3: 1–3 強制和, 4–2 雙負.
/// Player 1: 勝 13 + 黑和 9 + 強制和 8 = 30. Player 2: 負 2 + 不戰而勝 12 + 負 2 = 16.
/// Player 3: 紅和 7 + 缺席 0 + 強制和 8 = 15. Player 4: 黑和 9 + 紅和 7 + 負 2 = 18.
#[test]
fn fu2_2_1_4_huang_hand_worked_event() {
    let rounds = vec![
        round(vec![
            game(1, 2, GameResult::RedWins),
            game(3, 4, GameResult::Draw),
        ]),
        round(vec![
            game(4, 1, GameResult::Draw),
            game(2, 3, GameResult::BlackAbsent),
        ]),
        round(vec![
            game(1, 3, GameResult::ForcedDraw),
            game(4, 2, GameResult::BothLose),
        ]),
    ];
    let scoring = Scoring {
        system: System::Huang,
        bye: ByeScore::ForfeitWin,
    };
    let table = standings(&players(4), &rounds, scoring, &[]);
    let got: Vec<(u32, u32, u32)> = table
        .iter()
        .map(|s| (s.place, s.player.0, s.score.0 / 2))
        .collect();
    assert_eq!(got, vec![(1, 1, 30), (2, 4, 18), (3, 2, 16), (4, 3, 15)]);
}

#[test]
fn fu2_2_1_bye_scores_as_the_event_says() {
    let with = |bye| Scoring {
        system: System::Huang,
        bye,
    };
    assert_eq!(
        with(ByeScore::ForfeitWin).points(Mark::Bye),
        Points::whole(12)
    );
    assert_eq!(with(ByeScore::Draw).points(Mark::Bye), Points::whole(8));
    assert_eq!(with(ByeScore::Zero).points(Mark::Bye), Points(0));
}

/// Four boards: 勝, 和, 負, 勝 for the first team: 局分 3 : 1.
#[test]
fn fu2_2_2_1_team_result_from_the_members_game_points() {
    let boards = [
        (Mark::Win, Mark::Loss),
        (Mark::Draw(Color::Black), Mark::Draw(Color::Red)),
        (Mark::Loss, Mark::Win),
        (Mark::Win, Mark::Loss),
    ];
    let (a, b) = team_match(TeamMethod::MatchResult, System::Integer, &boards);
    assert_eq!((a, b), (Points::whole(2), Points(0)));
    let (a, b) = team_match(TeamMethod::MatchResult, System::League, &boards);
    assert_eq!((a, b), (Points::whole(3), Points(0)));
}

#[test]
fn fu2_2_2_1_level_team_match_is_a_draw() {
    let boards = [(Mark::Win, Mark::Loss), (Mark::Loss, Mark::Win)];
    let (a, b) = team_match(TeamMethod::MatchResult, System::GamePoints, &boards);
    assert_eq!((a, b), (Points(1), Points(1)));
    // 黃氏: the team with red on board 1 draws as red.
    let (a, b) = team_match(TeamMethod::MatchResult, System::Huang, &boards);
    assert_eq!((a, b), (Points::whole(7), Points::whole(9)));
}

/// 黃氏, sum of boards: 13 + 9 + 2 + 12 = 36 against 2 + 7 + 13 + 0 = 22.
#[test]
fn fu2_2_2_2_team_score_is_the_sum_of_the_members_scores() {
    let boards = [
        (Mark::Win, Mark::Loss),
        (Mark::Draw(Color::Black), Mark::Draw(Color::Red)),
        (Mark::Loss, Mark::Win),
        (Mark::ForfeitWin, Mark::Absent),
    ];
    let (a, b) = team_match(TeamMethod::BoardSum, System::Huang, &boards);
    assert_eq!((a, b), (Points::whole(36), Points::whole(22)));
}

/// Three players level on 1½ of 3 after a double-round (6 players, 3 rounds, 1/½/0):
/// R1: 1–2 紅勝, 3–4 黑勝, 5–6 和.  R2: 2–3 和, 4–5 紅勝, 6–1 紅勝.  R3: 1–4 和, 5–2 黑勝, 3–6 紅勝.
/// Scores: 1: 1+0+½ = 1½; 2: 0+½+1 = 1½; 3: 0+½+1 = 1½; 4: 1+1+½ = 2½; 5: ½+0+0 = ½;
/// 6: ½+1+0 = 1½.
fn level_event() -> Vec<Round> {
    vec![
        round(vec![
            game(1, 2, GameResult::RedWins),
            game(3, 4, GameResult::BlackWins),
            game(5, 6, GameResult::Draw),
        ]),
        round(vec![
            game(2, 3, GameResult::Draw),
            game(4, 5, GameResult::RedWins),
            game(6, 1, GameResult::RedWins),
        ]),
        round(vec![
            game(1, 4, GameResult::Draw),
            game(5, 2, GameResult::BlackWins),
            game(3, 6, GameResult::RedWins),
        ]),
    ]
}

fn order_of(order: &[TieBreak]) -> Vec<(u32, u32)> {
    standings(&players(6), &level_event(), Scoring::default(), order)
        .iter()
        .map(|s| (s.place, s.player.0))
        .collect()
}

/// With no tie-break, 1, 2, 3 and 6 share second place.
#[test]
fn fu2_2_3_without_criteria_level_players_share_the_place() {
    assert_eq!(
        order_of(&[]),
        vec![(1, 4), (2, 1), (2, 2), (2, 3), (2, 6), (6, 5)]
    );
}

/// 3(1) 對賽的結果 among 1, 2, 3, 6: they have not all met (1–3, 2–6 never played), so it
/// separates nobody; Buchholz then does: 1 met 2, 6, 4 (1½+1½+2½ = 5½); 2 met 1, 3, 5
/// (1½+1½+½ = 3½); 3 met 4, 2, 6 (2½+1½+1½ = 5½); 6 met 5, 1, 3 (½+1½+1½ = 3½).
/// Sonneborn-Berger then: 1 beat 2 (1½) and drew 4 (½·2½): 1½+1¼ = 2¾; 3 drew 2 (¾) and beat
/// 6 (1½): 2¼. 2: drew 3 (¾), beat 5 (½): 1¼; 6: drew 5 (¼), beat 1 (1½): 1¾.
#[test]
fn fu2_2_3_1_head_to_head_only_among_players_who_all_met_then_buchholz_then_sb() {
    let order = [
        TieBreak::HeadToHead,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
    ];
    assert_eq!(
        order_of(&order),
        vec![(1, 4), (2, 1), (3, 3), (4, 6), (5, 2), (6, 5)]
    );
}

/// 3(3) 先後手: more games with black ranks higher. Blacks: 1 one (R2), 2 two (R1, R3),
/// 3 one (R2), 6 two (R1, R3); then 3(2) games completed (three each: no separation) and a
/// custom criterion (the 章程's lot: 6 before 3 before 1, 2 drew nothing: 0).
/// So 6 and 2 (two blacks, lot 3 vs 0), then 3 and 1 (one black, lot 2 vs 1).
#[test]
fn fu2_2_3_3_colours_then_custom_lot() {
    let lot = TieBreak::Custom {
        name: "抽籤".into(),
        values: [(6, 3), (3, 2), (1, 1)]
            .into_iter()
            .map(|(p, v)| (PlayerId(p), v))
            .collect(),
    };
    let order = [TieBreak::Blacks, TieBreak::GamesCompleted, lot];
    assert_eq!(
        order_of(&order),
        vec![(1, 4), (2, 6), (3, 2), (4, 3), (5, 1), (6, 5)]
    );
}

/// 3(1) when the level players all met: 1 and 2 level on 1½, 1 beat 2 in round 1.
#[test]
fn fu2_2_3_1_head_to_head_decides_between_two_who_met() {
    let table = standings(
        &players(6),
        &level_event(),
        Scoring::default(),
        &[
            TieBreak::Custom {
                name: "groups".into(),
                // Keep only 1 and 2 level: 3 and 6 placed apart first.
                values: [(3, -1), (6, -2)]
                    .into_iter()
                    .map(|(p, v)| (PlayerId(p), v))
                    .collect(),
            },
            TieBreak::HeadToHead,
        ],
    );
    let got: Vec<u32> = table.iter().map(|s| s.player.0).collect();
    assert_eq!(got, vec![4, 1, 2, 3, 6, 5]);
}

/// 3(4) 所屬團體: the club's total. 2 and 6 are club mates of 4 (2½): club 1½+1½+2½ = 5½;
/// 1 and 3 without a club count 0.
#[test]
fn fu2_2_3_4_club_total() {
    let mut register = players(6);
    for i in [1, 3, 5] {
        register[i].club = Some("聾人協會".into());
    }
    let table = standings(
        &register,
        &level_event(),
        Scoring::default(),
        &[TieBreak::Club],
    );
    let got: Vec<(u32, u32)> = table.iter().map(|s| (s.place, s.player.0)).collect();
    assert_eq!(got, vec![(1, 4), (2, 2), (2, 6), (4, 1), (4, 3), (6, 5)]);
}

/// Buchholz: an unplayed round (a bye) counts the player's own score.
#[test]
fn buchholz_counts_a_bye_as_the_players_own_score() {
    let rounds = vec![Round {
        games: vec![game(1, 2, GameResult::RedWins)],
        byes: vec![PlayerId(3)],
        half_byes: Vec::new(),
    }];
    let table = standings(
        &players(3),
        &rounds,
        Scoring::default(),
        &[TieBreak::Buchholz],
    );
    // 1 and 3 both have 1 point; Buchholz 1: 0 (met 2), 3: 1 (own score): 3 first.
    let got: Vec<u32> = table.iter().map(|s| s.player.0).collect();
    assert_eq!(got, vec![3, 1, 2]);
    assert_eq!(table[0].tiebreaks, vec![2]);
}

/// Every criterion's value for every player, for the outputs. 4 (2½) and 5 (½) are alone on
/// their scores: head-to-head does not apply to them; 1, 2, 3, 6 have not all met:
/// head-to-head does not apply to them either (blank, not 0). Buchholz and SB are given to
/// all, 4 and 5 included, though no place needed them; a club only where there is one.
#[test]
fn fu2_2_3_every_criterion_is_given_for_every_player_where_it_applies() {
    let mut register = players(6);
    register[3].club = Some("聾人協會".into());
    let order = [TieBreak::HeadToHead, TieBreak::Buchholz, TieBreak::Club];
    let table = standings(&register, &level_event(), Scoring::default(), &order);
    let values = |id: u32| {
        table
            .iter()
            .find(|s| s.player == PlayerId(id))
            .map(|s| s.values.clone())
            .unwrap()
    };
    // 4 met 3, 5, 1 (1½ + ½ + 1½ = 3½, in halves 7); his club is his alone (2½).
    assert_eq!(values(4), [None, Some(7), Some(5)]);
    assert_eq!(values(1), [None, Some(11), None]);
    assert_eq!(values(2), [None, Some(7), None]);
    assert_eq!(
        table[0].tiebreaks,
        Vec::<i64>::new(),
        "4 needed none to be placed"
    );
}

/// 3(1) among two players level who met: head-to-head applies and is given.
#[test]
fn fu2_2_3_1_head_to_head_is_given_between_two_level_players_who_met() {
    let rounds = vec![round(vec![game(1, 2, GameResult::Draw)])];
    let table = standings(
        &players(2),
        &rounds,
        Scoring::default(),
        &[TieBreak::HeadToHead],
    );
    assert!(table.iter().all(|s| s.values == [Some(1)]), "{table:?}");
}
