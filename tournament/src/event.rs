//! An event's rounds and each player's record drawn from them: opponents, colours, marks.

use std::collections::BTreeMap;

use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

use crate::player::{PlayerId, RoundNumber};
use crate::result::{GameResult, Mark};
use crate::scoring::{Points, Scoring};

/// One game of a round: red moves first (86(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Game {
    /// 紅方.
    pub red: PlayerId,
    /// 黑方.
    pub black: PlayerId,
    /// The verified result, once known.
    pub result: Option<GameResult>,
}

impl Game {
    /// A game not yet played.
    pub const fn new(red: PlayerId, black: PlayerId) -> Game {
        Game {
            red,
            black,
            result: None,
        }
    }

    /// The player of `colour`.
    pub const fn player(&self, colour: Color) -> PlayerId {
        match colour {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// `player`'s colour in this game, if he plays in it.
    pub fn colour_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.red {
            Some(Color::Red)
        } else if player == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// One round: its games (board 1 first), its byes, and the late entrants who missed it with
/// a half point.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The games, board 1 first.
    pub games: Vec<Game>,
    /// Players without an opponent (輪空).
    pub byes: Vec<PlayerId>,
    /// Late entrants who missed the round and score it as a draw, as the organiser chose
    /// ([`Mark::HalfBye`]); they were not paired in it.
    #[serde(default)]
    pub half_byes: Vec<PlayerId>,
}

impl Round {
    /// Every player in the round.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.games
            .iter()
            .flat_map(|g| [g.red, g.black])
            .chain(self.byes.iter().copied())
    }
}

/// One round of a player's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The round.
    pub round: RoundNumber,
    /// The opponent, `None` for a bye.
    pub opponent: Option<PlayerId>,
    /// The colour played; `None` for a bye.
    pub colour: Option<Color>,
    /// The result, once known.
    pub mark: Option<Mark>,
}

impl Entry {
    /// Whether a game was played over the board (a colour that counts for the colour rules).
    pub fn played(&self) -> bool {
        self.opponent.is_some() && !matches!(self.mark, Some(Mark::Absent | Mark::ForfeitWin))
    }
}

/// Each player's rounds, in order; a round the player was not in has no entry.
pub type Records = BTreeMap<PlayerId, Vec<Entry>>;

/// Every player's record over `rounds`.
pub fn records(rounds: &[Round]) -> Records {
    let mut out: Records = BTreeMap::new();
    for (i, round) in rounds.iter().enumerate() {
        let number = RoundNumber::from_index(i);
        for g in &round.games {
            for colour in Color::ALL {
                let me = g.player(colour);
                out.entry(me).or_default().push(Entry {
                    round: number,
                    opponent: Some(g.player(colour.other())),
                    colour: Some(colour),
                    mark: g.result.map(|r| r.mark(colour)),
                });
            }
        }
        let byes = round.byes.iter().map(|&b| (b, Mark::Bye));
        let half = round.half_byes.iter().map(|&b| (b, Mark::HalfBye));
        for (b, mark) in byes.chain(half) {
            out.entry(b).or_default().push(Entry {
                round: number,
                opponent: None,
                colour: None,
                mark: Some(mark),
            });
        }
    }
    out
}

/// A player's score under the event's scoring.
pub fn score(entries: &[Entry], scoring: Scoring) -> Points {
    entries
        .iter()
        .filter_map(|e| e.mark)
        .map(|m| scoring.points(m))
        .sum()
}

/// Colours actually played, oldest first (forfeits and byes have none: they are not games).
pub fn colours(entries: &[Entry]) -> Vec<Color> {
    entries
        .iter()
        .filter(|e| e.played())
        .filter_map(|e| e.colour)
        .collect()
}
