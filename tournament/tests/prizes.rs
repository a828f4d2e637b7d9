//! Prize lists given from the final standings: in the organiser's order, one prize per
//! player, each list going down the standings to the players it admits.

use std::collections::BTreeSet;

use baoqi_arbiter::Category;
use baoqi_tournament::prizes::{PrizeList, award};
use baoqi_tournament::{Player, PlayerId, Sex};

/// Eight players, in the standings' order 1 to 8.
fn register() -> Vec<Player> {
    let mut p: Vec<Player> = (1..=8).map(|i| Player::new(i, format!("P{i}"))).collect();
    p[1].categories = vec![Category::Blind];
    p[2].categories = vec![Category::PartiallySighted];
    p[2].sex = Some(Sex::Female);
    p[3].sex = Some(Sex::Female);
    p[3].born = Some(2011);
    p[4].categories = vec![Category::Blind];
    p[5].born = Some(2012);
    // Sighted, playing blindfolded: 全失明 for his games (7.2(2)), not for a 視障 prize.
    p[6].blindfold = true;
    p[7].categories = vec![Category::Deaf];
    p
}

fn placed() -> Vec<(PlayerId, u32)> {
    (1..=8).map(|i| (PlayerId(i), i)).collect()
}

fn list(name: &str, places: u32) -> PrizeList {
    PrizeList {
        name: name.into(),
        places,
        categories: Vec::new(),
        sex: None,
        born_from: None,
        born_until: None,
    }
}

/// Who took each list's prizes, by register number.
fn winners(lists: &[PrizeList], excluded: &[u32]) -> Vec<Vec<u32>> {
    let excluded: BTreeSet<PlayerId> = excluded.iter().map(|&i| PlayerId(i)).collect();
    award(lists, &placed(), &register(), &excluded)
        .into_iter()
        .map(|a| a.prizes.iter().map(|p| p.player.0).collect())
        .collect()
}

#[test]
fn one_prize_per_player_the_lists_in_the_organisers_order() {
    let vi = PrizeList {
        categories: vec![Category::Blind, Category::PartiallySighted],
        ..list("視障組", 2)
    };
    let women = PrizeList {
        sex: Some(Sex::Female),
        ..list("女子組", 1)
    };
    let juniors = PrizeList {
        born_from: Some(2010),
        ..list("少年組", 2)
    };
    let overall = list("總成績", 2);
    // Overall first: P1 and P2 take it; the 視障 prize goes on to P3 and P5; the women's
    // to P4 (P3 has a prize already); the juniors' to P6 only (P4 has one): one player left.
    assert_eq!(
        winners(
            &[overall.clone(), vi.clone(), women.clone(), juniors.clone()],
            &[]
        ),
        [vec![1, 2], vec![3, 5], vec![4], vec![6]]
    );
    // The 視障 prize first: P2 and P3 take it, and the overall prize goes to P1 and P4.
    assert_eq!(
        winners(&[vi, overall, women, juniors], &[]),
        [vec![2, 3], vec![1, 4], vec![], vec![6]]
    );
}

#[test]
fn a_prize_that_asks_what_the_register_does_not_give_passes_a_player_over() {
    let seniors = PrizeList {
        born_until: Some(1966),
        ..list("長者組", 3)
    };
    assert_eq!(winners(&[seniors], &[]), [Vec::<u32>::new()]);
    let sighted = PrizeList {
        categories: vec![Category::Sighted],
        ..list("健視組", 4)
    };
    // No category is 健視; a blindfold does not make a sighted player a 視障 winner, nor
    // take him out of the sighted list.
    assert_eq!(winners(&[sighted], &[]), [vec![1, 4, 6, 7]]);
    let blind = PrizeList {
        categories: vec![Category::Blind],
        ..list("全失明組", 3)
    };
    assert_eq!(winners(&[blind], &[]), [vec![2, 5]]);
}

#[test]
fn a_player_who_withdrew_takes_no_prize_and_the_next_one_takes_it() {
    let overall = list("總成績", 3);
    assert_eq!(winners(&[overall], &[2]), [vec![1, 3, 4]]);
}

#[test]
fn each_prize_carries_its_number_and_the_winners_place() {
    let vi = PrizeList {
        categories: vec![Category::Blind, Category::PartiallySighted],
        ..list("視障組", 2)
    };
    let given = award(&[vi], &placed(), &register(), &BTreeSet::new());
    let places: Vec<(u32, u32)> = given[0].prizes.iter().map(|p| (p.prize, p.place)).collect();
    assert_eq!(places, [(1, 2), (2, 3)]);
}
