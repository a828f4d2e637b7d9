//! A result put right after later rounds were paired (第87條; `docs/decisions.md`, the
//! result grid): the players whose score before a later round differs, so that they were
//! paired in a score group that is no longer theirs (附表二 第一部份 3, a Swiss pairs within
//! score groups). The core only finds them; the organiser decides what to do.

use crate::event::{Round, records, score};
use crate::player::{PlayerId, RoundNumber};
use crate::scoring::{Points, Scoring};

/// A player of an already-paired round whose score before it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regrouped {
    /// The round paired on the old score.
    pub round: RoundNumber,
    /// The player.
    pub player: PlayerId,
    /// His score before that round as it was paired.
    pub before: Points,
    /// His score before that round now.
    pub after: Points,
}

/// The players of each round after `corrected` (rounds `old` and `new` both hold, with the
/// same boards and their results before and after the correction) whose score over the
/// rounds before it is not what it was, by round and then in the round's order of play.
pub fn regrouped(
    old: &[Round],
    new: &[Round],
    corrected: RoundNumber,
    scoring: Scoring,
) -> Vec<Regrouped> {
    let paired = old.len().min(new.len());
    let mut out = Vec::new();
    for index in corrected.rounds_through() as usize..paired {
        let (was, now) = (records(&old[..index]), records(&new[..index]));
        let points = |r: &crate::event::Records, p: PlayerId| {
            r.get(&p).map_or(Points(0), |e| score(e, scoring))
        };
        for player in new[index].players() {
            let (before, after) = (points(&was, player), points(&now, player));
            if before != after {
                out.push(Regrouped {
                    round: RoundNumber::from_index(index),
                    player,
                    before,
                    after,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Game;
    use crate::result::GameResult;
    use crate::scoring::System;

    fn game(red: u32, black: u32, result: Option<GameResult>) -> Game {
        Game {
            red: PlayerId(red),
            black: PlayerId(black),
            result,
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
    fn a87_only_the_players_of_the_corrected_board_change_group() {
        let scoring = Scoring {
            system: System::Huang,
            ..Scoring::default()
        };
        let r2 = round(vec![game(1, 3, None), game(2, 4, None)]);
        let old = vec![
            round(vec![
                game(1, 2, Some(GameResult::BlackAbsent)),
                game(3, 4, Some(GameResult::Draw)),
            ]),
            r2.clone(),
        ];
        let mut new = old.clone();
        new[0].games[0].result = Some(GameResult::BlackWins);
        let moved = regrouped(&old, &new, RoundNumber::first(), scoring);
        let who: Vec<(u32, u32, u32)> = moved
            .iter()
            .map(|m| (m.player.0, m.before.0, m.after.0))
            .collect();
        assert_eq!(who, [(1, 24, 4), (2, 0, 26)]);
        assert!(moved.iter().all(|m| m.round == RoundNumber(2)));
        // Nothing paired after the round corrected: nobody to name.
        assert!(regrouped(&old[..1], &new[..1], RoundNumber::first(), scoring).is_empty());
    }
}
