//! 淘汰 (knock-out, 附表二 第一部份 1(1)): the seeded bracket and each tie's games, with
//! tie-break games when the main games are level.

use baoqi_arbiter::{TimeControl, TimeTable};
use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

use crate::event::Game;
use crate::player::PlayerId;
use crate::result::GameResult;

/// The first round of a bracket for `players` seeds (1 = best): pairs of seed numbers in
/// bracket order, `None` where a seed has no opponent (a bye to the next round). Seeds 1 and 2
/// can meet only in the final, 1–4 not before the semi-finals, and so on.
pub fn bracket(players: u32) -> Vec<(u32, Option<u32>)> {
    let mut size = 1;
    while size < players.max(2) {
        size *= 2;
    }
    let mut order = vec![1u32];
    while (order.len() as u32) < size {
        let len = order.len() as u32 * 2;
        order = order.iter().flat_map(|&s| [s, len + 1 - s]).collect();
    }
    order
        .chunks(2)
        .map(|c| {
            let (a, b) = (c[0].min(c[1]), c[0].max(c[1]));
            (a, (b <= players).then_some(b))
        })
        .collect()
}

/// What decides a tie still level after the tie-break games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// Single games, colours alternating, until one is decisive.
    #[default]
    SuddenDeath,
    /// One game in which a draw counts as a win for black (the higher seed is red).
    BlackDrawOdds,
    /// The lot (抽籤), drawn by the organiser.
    Lot,
}

/// A tie's rules: the main games, then pairs of tie-break games, then the decider; and the
/// time the tie-break games and the decider are played at, when faster than the event's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieRules {
    /// Main games (1 or 2, colours alternating).
    pub games: u32,
    /// Pairs of tie-break games (colours alternating) played while the tie is level.
    pub tiebreak_pairs: u32,
    /// The last resort.
    pub decider: Decider,
    /// The tie-break games' (and the decider's) base time in minutes for the event's
    /// default control; each category's allowance scaled alike ([`TieRules::tie_break_time`]).
    /// `None`: the event's own time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break_minutes: Option<u32>,
    /// Their increment (加秒, 補時 or 延時, 附表三 2) in seconds for the default control,
    /// each category keeping its extra seconds a move on top. `None`: the event's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break_increment_seconds: Option<u32>,
}

impl Default for TieRules {
    /// Two games, one pair of tie-break games, then sudden death, at the event's time.
    fn default() -> TieRules {
        TieRules {
            games: 2,
            tiebreak_pairs: 1,
            decider: Decider::SuddenDeath,
            tie_break_minutes: None,
            tie_break_increment_seconds: None,
        }
    }
}

impl TieRules {
    /// The time table of the tie-break games and the decider, from the event's `ordinary`
    /// one. The default control gets the tie-break time; every other entry keeps its 7.2
    /// allowance over the default: its base time in the same proportion (全失明 30′ against
    /// 20′ plays 7′30″ against 5′), its extra time a move as many seconds more (announcing
    /// and feeling the board take as long in a fast game, 7.2(1) 尤其…每着的加時). Modes
    /// stay as the event set them. Without a tie-break time, the ordinary table.
    pub fn tie_break_time(&self, ordinary: &TimeTable) -> TimeTable {
        if self.tie_break_minutes.is_none() && self.tie_break_increment_seconds.is_none() {
            return ordinary.clone();
        }
        let from = ordinary.default;
        let to = TimeControl {
            base_ms: self
                .tie_break_minutes
                .map_or(from.base_ms, |m| u64::from(m) * 60_000),
            mode: from.mode,
            extra_ms: self
                .tie_break_increment_seconds
                .map_or(from.extra_ms, |s| u64::from(s) * 1000),
        };
        let entry = |c: Option<TimeControl>| c.map(|c| allowance_kept(c, from, to));
        TimeTable {
            default: to,
            blind: entry(ordinary.blind),
            partially_sighted: entry(ordinary.partially_sighted),
            physical: entry(ordinary.physical),
            deaf: entry(ordinary.deaf),
            sighted: entry(ordinary.sighted),
            vi_with_proxy: entry(ordinary.vi_with_proxy),
        }
    }
}

/// `control` of the ordinary table moved from the default `from` to `to`: the base time in
/// proportion, the extra time a move by the same difference (never below nothing).
fn allowance_kept(control: TimeControl, from: TimeControl, to: TimeControl) -> TimeControl {
    let base_ms = if from.base_ms == 0 {
        control.base_ms.saturating_add(to.base_ms)
    } else {
        let scaled =
            u128::from(control.base_ms) * u128::from(to.base_ms) / u128::from(from.base_ms);
        u64::try_from(scaled).unwrap_or(u64::MAX)
    };
    let extra_ms = (to.extra_ms + control.extra_ms).saturating_sub(from.extra_ms);
    TimeControl {
        base_ms,
        mode: control.mode,
        extra_ms,
    }
}

/// Why the lot (抽籤) cannot be drawn for a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LotError {
    /// The event's decider is another.
    #[error("the event's ties are not decided by lot (its decider is {0:?})")]
    NotTheDecider(Decider),
    /// The tie is decided by its games.
    #[error("the tie is decided by its games: player {0} goes through")]
    Decided(PlayerId),
    /// Main or tie-break games are still to be played.
    #[error(
        "the lot comes after the tie-break games, and {to_play} game(s) of the tie are still to be played"
    )]
    GamesToPlay {
        /// How many games before the lot.
        to_play: u32,
    },
    /// The lot was drawn already.
    #[error("the lot was drawn already: player {0} goes through")]
    AlreadyDrawn(PlayerId),
}

/// Which kind of game of a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// A main game.
    Main,
    /// A tie-break game.
    TieBreak,
    /// The decider.
    Decider,
}

/// What a tie needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Next {
    /// Play this game.
    Play {
        /// 紅方.
        red: PlayerId,
        /// 黑方.
        black: PlayerId,
        /// Which kind of game.
        stage: Stage,
    },
    /// The tie is decided.
    Winner(PlayerId),
    /// The organiser draws lots.
    Lot,
}

/// One tie between the higher seed `first` and `second`, with the results so far (in order,
/// `first` red in the first game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tie {
    /// The higher seed.
    pub first: PlayerId,
    /// The other.
    pub second: PlayerId,
    /// The results of the games played, in order.
    pub results: Vec<GameResult>,
    /// Who the lot (抽籤) sent through, once drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot: Option<PlayerId>,
}

impl Tie {
    /// A tie not yet begun.
    pub fn new(first: PlayerId, second: PlayerId) -> Tie {
        Tie {
            first,
            second,
            results: Vec::new(),
            lot: None,
        }
    }

    /// Red in game `k` (0-based): the higher seed in the even games.
    fn red(&self, k: usize) -> (PlayerId, PlayerId) {
        if k.is_multiple_of(2) {
            (self.first, self.second)
        } else {
            (self.second, self.first)
        }
    }

    /// Game points (halves) of `first` minus `second` over games `range`.
    fn margin(&self, range: std::ops::Range<usize>) -> i64 {
        range
            .filter_map(|k| self.results.get(k).map(|r| (k, *r)))
            .map(|(k, r)| {
                let first_colour = if k % 2 == 0 { Color::Red } else { Color::Black };
                i64::from(r.mark(first_colour).game_halves())
                    - i64::from(r.mark(first_colour.other()).game_halves())
            })
            .sum()
    }

    /// What the tie needs next under `rules`.
    pub fn next(&self, rules: TieRules) -> Next {
        let main = rules.games as usize;
        let breaks = main + 2 * rules.tiebreak_pairs as usize;
        let played = self.results.len();
        let winner = |m: i64| if m > 0 { self.first } else { self.second };
        let play = |stage| {
            let (red, black) = self.red(played);
            Next::Play { red, black, stage }
        };
        if played < main {
            return play(Stage::Main);
        }
        let m = self.margin(0..main);
        if m != 0 {
            return Next::Winner(winner(m));
        }
        // Tie-break games go in pairs: the tie is looked at after each pair.
        let mut end = main;
        while end < breaks && played >= end + 2 {
            let m = self.margin(main..end + 2);
            if m != 0 {
                return Next::Winner(winner(m));
            }
            end += 2;
        }
        if played < breaks {
            return play(Stage::TieBreak);
        }
        self.decide(rules.decider, breaks, play)
    }

    /// The games to set up now, in order, each with its colours and kind: the main games
    /// not yet played, or the rest of the current pair of tie-break games (judged after
    /// the pair, so both are set up together), or one decider. None when the tie is decided
    /// or goes to the lot.
    pub fn schedule(&self, rules: TieRules) -> Vec<(Game, Stage)> {
        let played = self.results.len();
        let main = rules.games as usize;
        let end = match self.next(rules) {
            Next::Play {
                stage: Stage::Main, ..
            } => main,
            Next::Play {
                stage: Stage::TieBreak,
                ..
            } => main + ((played - main) / 2 + 1) * 2,
            Next::Play {
                red,
                black,
                stage: Stage::Decider,
            } => return vec![(Game::new(red, black), Stage::Decider)],
            Next::Winner(_) | Next::Lot => return Vec::new(),
        };
        let stage = if end == main {
            Stage::Main
        } else {
            Stage::TieBreak
        };
        (played..end)
            .map(|k| {
                let (red, black) = self.red(k);
                (Game::new(red, black), stage)
            })
            .collect()
    }

    /// Draws the lot (抽籤, 附表二 第一部份 3(a)) of a tie level after every game its rules
    /// give it: `first_wins` is the draw, made by the caller (the server, with real
    /// randomness). Refused when the event decides otherwise, when the tie is decided by
    /// its games, while games are still to be played, and when the lot was drawn already.
    pub fn draw_lot(&mut self, rules: TieRules, first_wins: bool) -> Result<PlayerId, LotError> {
        if rules.decider != Decider::Lot {
            return Err(LotError::NotTheDecider(rules.decider));
        }
        match self.next(rules) {
            Next::Lot => {
                let winner = if first_wins { self.first } else { self.second };
                self.lot = Some(winner);
                Ok(winner)
            }
            Next::Winner(w) if self.lot == Some(w) => Err(LotError::AlreadyDrawn(w)),
            Next::Winner(w) => Err(LotError::Decided(w)),
            Next::Play { .. } => {
                let all = rules.games + 2 * rules.tiebreak_pairs;
                let played = self.results.len() as u32;
                Err(LotError::GamesToPlay {
                    to_play: all.saturating_sub(played),
                })
            }
        }
    }

    fn decide(&self, decider: Decider, from: usize, play: impl Fn(Stage) -> Next) -> Next {
        match decider {
            Decider::Lot => self.lot.map_or(Next::Lot, Next::Winner),
            Decider::SuddenDeath => {
                for k in from..self.results.len() {
                    let m = self.margin(k..k + 1);
                    if m != 0 {
                        return Next::Winner(if m > 0 { self.first } else { self.second });
                    }
                }
                play(Stage::Decider)
            }
            Decider::BlackDrawOdds => match self.results.get(from) {
                None => Next::Play {
                    red: self.first,
                    black: self.second,
                    stage: Stage::Decider,
                },
                Some(r) => Next::Winner(match r.mark(Color::Red).game_halves() {
                    2 => self.first,
                    _ => self.second,
                }),
            },
        }
    }
}
