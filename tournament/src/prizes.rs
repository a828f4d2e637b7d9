//! Prize lists: who takes each prize of the event, from the final standings. The rule text
//! leaves prizes to the organiser; how baoqi reads her lists is in `docs/decisions.md`.
//!
//! Each list names how many prizes it has and who may take them (categories, sex, years of
//! birth). The lists are given in the order the organiser sets them: one prize per player,
//! so a player who took a prize of an earlier list is passed over by the later ones, which
//! go down the standings to the next player who may take them.

use std::collections::BTreeSet;

use baoqi_arbiter::Category;
use serde::{Deserialize, Serialize};

use crate::player::{Player, PlayerId, Sex};

/// One prize list of the event file (`[[tournament.prizes]]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrizeList {
    /// Its name: 「總成績」, 「視障組」, 「女子組」, 「少年組」.
    pub name: String,
    /// How many prizes it has.
    pub places: u32,
    /// The categories that may take it, any of them (none: every player). A player without
    /// a category is 健視 (7.2(1)).
    #[serde(default)]
    pub categories: Vec<Category>,
    /// The sex that may take it (none: either).
    #[serde(default)]
    pub sex: Option<Sex>,
    /// Born in this year or later (a juniors' prize).
    #[serde(default)]
    pub born_from: Option<u32>,
    /// Born in this year or earlier (a seniors' prize).
    #[serde(default)]
    pub born_until: Option<u32>,
}

impl PrizeList {
    /// Whether `player` may take a prize of this list. A player whose sex or year of birth
    /// the register does not give takes no prize that asks for it.
    pub fn admits(&self, player: &Player) -> bool {
        let categories = self.categories.is_empty()
            || self.categories.iter().any(|c| match c {
                Category::Sighted => player.categories.is_empty() || player.categories.contains(c),
                other => player.categories.contains(other),
            });
        let sex = self.sex.is_none() || player.sex == self.sex;
        let from = self
            .born_from
            .is_none_or(|y| player.born.is_some_and(|b| b >= y));
        let until = self
            .born_until
            .is_none_or(|y| player.born.is_some_and(|b| b <= y));
        categories && sex && from && until
    }
}

/// One prize given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prize {
    /// Its place in its list (1 = the list's first prize).
    pub prize: u32,
    /// Who takes it.
    pub player: PlayerId,
    /// His place in the standings.
    pub place: u32,
}

/// One list's prizes, in order; fewer than its places when too few players may take them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awarded {
    /// The list.
    pub list: PrizeList,
    /// Its prizes given.
    pub prizes: Vec<Prize>,
}

/// The prizes of `lists`, in their order, from the standings `placed` (each player with his
/// place, best first, in the standings' order) and the register. A player in `excluded`
/// (one who withdrew) takes no prize; each player takes at most one.
pub fn award(
    lists: &[PrizeList],
    placed: &[(PlayerId, u32)],
    register: &[Player],
    excluded: &BTreeSet<PlayerId>,
) -> Vec<Awarded> {
    let mut taken: BTreeSet<PlayerId> = excluded.clone();
    lists
        .iter()
        .map(|list| {
            let prizes: Vec<Prize> = placed
                .iter()
                .filter(|(id, _)| !taken.contains(id))
                .filter(|(id, _)| register.iter().any(|p| p.id == *id && list.admits(p)))
                .take(list.places as usize)
                .zip(1..)
                .map(|(&(player, place), prize)| Prize {
                    prize,
                    player,
                    place,
                })
                .collect();
            taken.extend(prizes.iter().map(|p| p.player));
            Awarded {
                list: list.clone(),
                prizes,
            }
        })
        .collect()
}
