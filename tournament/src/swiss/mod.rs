//! 積分編排制 (Swiss, 附表二 第一部份 1(2)): each round pairs players of equal score where it
//! can (3(d) 賽事中的成績), never twice the same two players, keeps the colour rules
//! ([`colour`]), keeps players of one club apart where it can (3(e) 所屬團體), and gives the
//! bye to the lowest-ranked player who has not had one.
//!
//! A round is one minimum-cost perfect matching ([`integer_blossom`]) over all players (and a
//! bye seat for an odd number), with the costs of `cost`, ordered by priority: a rematch,
//! a second bye, a broken colour rule, the bye's rank, score differences, club, colour
//! preferences, the order inside a score group. A higher criterion always outweighs every
//! lower one taken together, so the pairing breaks a rule only when no pairing of this round
//! keeps it, and it says so ([`Relaxation`]).

pub mod colour;
mod cost;

use std::collections::BTreeSet;

use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

use crate::event::{self, Game, Round};
use crate::player::{Player, PlayerId};
use crate::result::Mark;
use crate::scoring::{Points, Scoring};
pub use colour::ColourRule;

/// A player as the pairer sees him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The register number.
    pub id: PlayerId,
    /// The score so far.
    pub score: Points,
    /// Colours played, oldest first.
    pub colours: Vec<Color>,
    /// Everyone met so far.
    pub opponents: BTreeSet<PlayerId>,
    /// Has had a bye.
    pub had_bye: bool,
    /// Was absent (缺席, 87) in the last round played: not given the bye while another
    /// player can take it (a bye scores as a win without play, 附表二 第二部份 1).
    #[serde(default)]
    pub absent_last: bool,
    /// 所屬團體.
    pub club: Option<String>,
}

/// One round to pair: the entrants in ranking order (score, then the initial ranking).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The entrants, best first.
    pub entrants: Vec<Entrant>,
    /// The colour drawn for the top player when nobody has a preference (round 1, 抽籤).
    pub first_colour: Color,
}

/// A rule the pairing had to break because no pairing of this round keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relaxation {
    /// Two players meet again.
    Rematch(PlayerId, PlayerId),
    /// A second bye.
    SecondBye(PlayerId),
    /// A colour rule.
    Colour(PlayerId, ColourRule),
}

/// The pairing of one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The round: games board 1 first (highest scores first), at most one bye.
    pub round: Round,
    /// The rules broken, each because nothing else was possible.
    pub relaxed: Vec<Relaxation>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// Fewer than two players.
    #[error("a round needs at least 2 players, not {0}")]
    TooFew(usize),
    /// A player is listed twice.
    #[error("player {0} is listed twice")]
    Duplicate(PlayerId),
    /// The priorities do not fit the matcher's integers (thousands of players).
    #[error("too many players to weigh the pairing exactly")]
    TooLarge,
}

impl Entrant {
    /// A player of the register with his record so far.
    fn of(p: &Player, rec: &[event::Entry], scoring: Scoring) -> Entrant {
        Entrant {
            id: p.id,
            score: event::score(rec, scoring),
            colours: event::colours(rec),
            opponents: rec.iter().filter_map(|e| e.opponent).collect(),
            had_bye: rec.iter().any(|e| e.mark == Some(Mark::Bye)),
            absent_last: rec
                .iter()
                .max_by_key(|e| e.round)
                .is_some_and(|e| e.mark == Some(Mark::Absent)),
            club: p.club.clone(),
        }
    }
}

impl Draw {
    /// The draw of the next round of an event: the `active` players (not withdrawn), with
    /// their records over `rounds`, ranked by score and then by [`Player::ranking_key`].
    pub fn from_event(
        register: &[Player],
        active: &BTreeSet<PlayerId>,
        rounds: &[Round],
        scoring: Scoring,
        first_colour: Color,
    ) -> Draw {
        let records = event::records(rounds);
        let empty = Vec::new();
        let mut entrants: Vec<(Entrant, &Player)> = register
            .iter()
            .filter(|p| active.contains(&p.id))
            .map(|p| {
                let rec = records.get(&p.id).unwrap_or(&empty);
                (Entrant::of(p, rec, scoring), p)
            })
            .collect();
        entrants.sort_by(|(a, pa), (b, pb)| {
            b.score
                .cmp(&a.score)
                .then(pa.ranking_key().cmp(&pb.ranking_key()))
        });
        Draw {
            entrants: entrants.into_iter().map(|(e, _)| e).collect(),
            first_colour,
        }
    }
}

/// Pairs one round. Deterministic: the same draw always gives the same pairing.
pub fn pair(draw: &Draw) -> Result<Pairing, SwissError> {
    let draw = checked(draw)?;
    let players = &draw.entrants;
    let mate = cost::matching(&draw)?;
    let (games, byes, mut relaxed) = matched(players, &mate);
    let games = board_order(players, games)
        .into_iter()
        .enumerate()
        .map(|(board, (i, j))| {
            let fallback = board_colour(draw.first_colour, board);
            seat(&players[i], &players[j], fallback, &mut relaxed)
        })
        .collect();
    Ok(Pairing {
        round: Round {
            games,
            byes,
            half_byes: Vec::new(),
        },
        relaxed,
    })
}

/// The draw with its entrants by score, refused when too small or listing a player twice.
/// Score groups need the entrants by score; the sort is stable, so the initial ranking
/// order inside a group is kept.
fn checked(draw: &Draw) -> Result<Draw, SwissError> {
    let mut sorted = draw.clone();
    sorted.entrants.sort_by_key(|e| std::cmp::Reverse(e.score));
    let players = &sorted.entrants;
    if players.len() < 2 {
        return Err(SwissError::TooFew(players.len()));
    }
    let mut seen = BTreeSet::new();
    if let Some(p) = players.iter().find(|p| !seen.insert(p.id)) {
        return Err(SwissError::Duplicate(p.id));
    }
    Ok(sorted)
}

/// The matching read as games (pairs of places, lower first), byes (a mate beyond the
/// players), and the second byes it had to give.
fn matched(
    players: &[Entrant],
    mate: &[usize],
) -> (Vec<(usize, usize)>, Vec<PlayerId>, Vec<Relaxation>) {
    let n = players.len();
    let mut games = Vec::new();
    let mut byes = Vec::new();
    let mut relaxed = Vec::new();
    for (i, &j) in mate.iter().enumerate().take(n) {
        if j >= n {
            byes.push(players[i].id);
            if players[i].had_bye {
                relaxed.push(Relaxation::SecondBye(players[i].id));
            }
        } else if i < j {
            games.push((i, j));
        }
    }
    (games, byes, relaxed)
}

/// The games by board: the highest score group first, higher-ranked players first within it.
fn board_order(players: &[Entrant], mut games: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    games.sort_by_key(|&(i, j)| (players[i].score.max(players[j].score), std::cmp::Reverse(i)));
    games.reverse();
    games
}

/// The colour of the first player of board `board` (0-based) when the colour rules leave it
/// open: the drawn colour on board 1, then alternating.
fn board_colour(first: Color, board: usize) -> Color {
    if board.is_multiple_of(2) {
        first
    } else {
        first.other()
    }
}

/// The game of `a` and `b` with the colours allocated, noting a rematch or a colour rule
/// broken.
fn seat(a: &Entrant, b: &Entrant, fallback: Color, relaxed: &mut Vec<Relaxation>) -> Game {
    let a_colour = colour::allocate(&a.colours, &b.colours, fallback);
    if a.opponents.contains(&b.id) {
        relaxed.push(Relaxation::Rematch(a.id, b.id));
    }
    for (p, c) in [(a, a_colour), (b, a_colour.other())] {
        if let Some(rule) = colour::breaks(&p.colours, c) {
            relaxed.push(Relaxation::Colour(p.id, rule));
        }
    }
    if a_colour == Color::Red {
        Game::new(a.id, b.id)
    } else {
        Game::new(b.id, a.id)
    }
}
