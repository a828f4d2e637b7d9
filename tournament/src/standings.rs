//! 名次分先 (附表二 第二部份 3): the standings, players level on points separated by the
//! criteria in the order the event lists them, plus Buchholz and Sonneborn-Berger for Swiss
//! events. Players still level after every criterion share the place.

use std::collections::{BTreeMap, BTreeSet};

use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

use crate::event::{Entry, Records, Round, records, score};
use crate::player::{Player, PlayerId};
use crate::result::Mark;
use crate::scoring::{Points, Scoring};

/// One tie-break criterion; for each, more is better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// 3(1) 對賽的結果: points scored in the games among the players still level, counted
    /// only when every two of them have met.
    HeadToHead,
    /// 3(2) 是否正常完成對賽: games completed over the board (not forfeited, not a bye).
    GamesCompleted,
    /// 3(3) 先後手: games played with black (the second move is the harder).
    Blacks,
    /// 3(4) 所屬團體: the total score of the player's club (none: 0).
    Club,
    /// 3(5) 其他在章程中列明的條件: a value per player given by the organiser (a lot, a
    /// rating…); missing players count 0.
    Custom {
        /// The criterion's name in the 章程.
        name: String,
        /// Each player's value.
        values: BTreeMap<PlayerId, i64>,
    },
    /// Wins over the board.
    Wins,
    /// Buchholz: the sum of the opponents' scores; an unplayed round counts the player's own
    /// score.
    Buchholz,
    /// Buchholz less the lowest opponent.
    BuchholzCut1,
    /// Sonneborn-Berger: each opponent's score times the 局分 scored against him.
    SonnebornBerger,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The place (1-based); players level after every criterion share it.
    pub place: u32,
    /// Whether the place is shared.
    pub shared: bool,
    /// The player.
    pub player: PlayerId,
    /// The score.
    pub score: Points,
    /// The values of the criteria that were needed to place the player, in order.
    pub tiebreaks: Vec<i64>,
    /// Every criterion's value, in the event's order, for the outputs: those needed to
    /// place him as they were computed then, the others among the players level with him on
    /// points. `None` where a criterion does not apply: 對賽的結果 for a player alone on
    /// his score or among players who have not all met, 所屬團體 for a player without a
    /// club, a 章程 criterion that gives him no value.
    pub values: Vec<Option<i64>>,
}

/// The standings of `register` after `rounds`, level scores separated by `order`.
pub fn standings(
    register: &[Player],
    rounds: &[Round],
    scoring: Scoring,
    order: &[TieBreak],
) -> Vec<Standing> {
    let recs = records(rounds);
    let empty = Vec::new();
    let scores: BTreeMap<PlayerId, Points> = register
        .iter()
        .map(|p| (p.id, score(recs.get(&p.id).unwrap_or(&empty), scoring)))
        .collect();
    let ctx = Context {
        register,
        recs: &recs,
        scores: &scores,
        scoring,
    };
    let mut ids: Vec<PlayerId> = register.iter().map(|p| p.id).collect();
    ids.sort_by_key(|id| std::cmp::Reverse(scores[id]));
    let mut out = Vec::new();
    for group in split(&ids, |id| i64::from(scores[id].0)) {
        place_group(&ctx, &group, order, &[], &mut out);
    }
    number(&mut out);
    for standing in &mut out {
        ctx.fill_values(standing, order);
    }
    out
}

struct Context<'a> {
    register: &'a [Player],
    recs: &'a Records,
    scores: &'a BTreeMap<PlayerId, Points>,
    scoring: Scoring,
}

/// Consecutive runs of equal value, after sorting by value, best first (stable).
fn split(ids: &[PlayerId], value: impl Fn(&PlayerId) -> i64) -> Vec<Vec<PlayerId>> {
    let mut sorted: Vec<(i64, PlayerId)> = ids.iter().map(|id| (value(id), *id)).collect();
    sorted.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let mut groups: Vec<Vec<PlayerId>> = Vec::new();
    let mut last = None;
    for (v, id) in sorted {
        match groups.last_mut() {
            Some(g) if last == Some(v) => g.push(id),
            _ => groups.push(vec![id]),
        }
        last = Some(v);
    }
    groups
}

fn place_group(
    ctx: &Context<'_>,
    group: &[PlayerId],
    order: &[TieBreak],
    values: &[Option<i64>],
    out: &mut Vec<Standing>,
) {
    let Some((criterion, rest)) = order.split_first().filter(|_| group.len() > 1) else {
        let shared = group.len() > 1;
        out.extend(group.iter().map(|&player| Standing {
            place: 0,
            shared,
            player,
            score: ctx.scores[&player],
            tiebreaks: values.iter().map(|v| v.unwrap_or(0)).collect(),
            values: values.to_vec(),
        }));
        return;
    };
    let members: BTreeSet<PlayerId> = group.iter().copied().collect();
    let value = |id: &PlayerId| ctx.applies(criterion, *id, &members);
    for sub in split(group, |id| value(id).unwrap_or(0)) {
        let mut v = values.to_vec();
        v.push(value(&sub[0]));
        place_group(ctx, &sub, rest, &v, out);
    }
}

/// Places: 1, 2, 2, 4 for a shared second place.
fn number(out: &mut [Standing]) {
    let mut i = 0;
    while i < out.len() {
        let mut j = i + 1;
        while j < out.len()
            && out[j].score == out[i].score
            && out[j].tiebreaks == out[i].tiebreaks
            && out[i].shared
        {
            j += 1;
        }
        for s in &mut out[i..j] {
            s.place = i as u32 + 1;
        }
        i = j;
    }
}

impl Context<'_> {
    fn entries(&self, id: PlayerId) -> &[Entry] {
        self.recs.get(&id).map_or(&[], Vec::as_slice)
    }

    fn points(&self, id: PlayerId) -> i64 {
        i64::from(self.scores.get(&id).map_or(0, |p| p.0))
    }

    /// The criteria the standings did not need for `standing`, each among the players
    /// level with him on points ([`Standing::values`]).
    fn fill_values(&self, standing: &mut Standing, order: &[TieBreak]) {
        let level: BTreeSet<PlayerId> = self
            .scores
            .iter()
            .filter(|(_, score)| **score == standing.score)
            .map(|(id, _)| *id)
            .collect();
        let needed = standing.values.len();
        for criterion in &order[needed.min(order.len())..] {
            let value = self.applies(criterion, standing.player, &level);
            standing.values.push(value);
        }
    }

    /// The criterion's value for `id` among `group`, `None` where it does not apply
    /// ([`Standing::values`]).
    fn applies(
        &self,
        criterion: &TieBreak,
        id: PlayerId,
        group: &BTreeSet<PlayerId>,
    ) -> Option<i64> {
        match criterion {
            TieBreak::HeadToHead => self.head_to_head(id, group),
            TieBreak::Club => self.club_total(id),
            TieBreak::Custom { values, .. } => values.get(&id).copied(),
            other => Some(self.value(other, id)),
        }
    }

    /// The value of a criterion that applies to every player.
    fn value(&self, criterion: &TieBreak, id: PlayerId) -> i64 {
        let entries = self.entries(id);
        let over_board = || entries.iter().filter(|e| e.played() && e.mark.is_some());
        match criterion {
            TieBreak::HeadToHead | TieBreak::Club | TieBreak::Custom { .. } => 0,
            TieBreak::GamesCompleted => over_board().count() as i64,
            TieBreak::Blacks => over_board()
                .filter(|e| e.colour == Some(Color::Black))
                .count() as i64,
            TieBreak::Wins => over_board().filter(|e| e.mark == Some(Mark::Win)).count() as i64,
            TieBreak::Buchholz => self.opponent_scores(id).iter().sum(),
            TieBreak::BuchholzCut1 => {
                let all = self.opponent_scores(id);
                all.iter().sum::<i64>() - all.iter().min().copied().unwrap_or(0)
            }
            TieBreak::SonnebornBerger => self.sonneborn_berger(id),
        }
    }

    /// The opponent's score for each finished round; the player's own for an unplayed one.
    fn opponent_scores(&self, id: PlayerId) -> Vec<i64> {
        self.entries(id)
            .iter()
            .filter(|e| e.mark.is_some())
            .map(|e| match e.opponent {
                Some(o) if e.played() => self.points(o),
                _ => self.points(id),
            })
            .collect()
    }

    fn sonneborn_berger(&self, id: PlayerId) -> i64 {
        self.entries(id)
            .iter()
            .filter_map(|e| {
                let mark = e.mark?;
                let opponent = match e.opponent {
                    Some(o) if e.played() => self.points(o),
                    _ => self.points(id),
                };
                Some(opponent * i64::from(mark.game_halves()))
            })
            .sum()
    }

    /// 3(1): his points in the games among `group`, when there are others and every two
    /// of them have met; otherwise it does not apply (and separates nobody).
    fn head_to_head(&self, id: PlayerId, group: &BTreeSet<PlayerId>) -> Option<i64> {
        let all_met = group.len() > 1
            && group.iter().all(|&a| {
                group.iter().all(|&b| {
                    a == b
                        || self
                            .entries(a)
                            .iter()
                            .any(|e| e.opponent == Some(b) && e.mark.is_some())
                })
            });
        if !all_met {
            return None;
        }
        let points = self
            .entries(id)
            .iter()
            .filter(|e| e.opponent.is_some_and(|o| group.contains(&o)))
            .filter_map(|e| e.mark)
            .map(|m| i64::from(self.scoring.points(m).0))
            .sum();
        Some(points)
    }

    /// 3(4): the total score of his club; none without a club.
    fn club_total(&self, id: PlayerId) -> Option<i64> {
        let club = self
            .register
            .iter()
            .find(|p| p.id == id)
            .and_then(|p| p.club.as_ref())?;
        let total = self
            .register
            .iter()
            .filter(|p| p.club.as_ref() == Some(club))
            .map(|p| self.points(p.id))
            .sum();
        Some(total)
    }
}
