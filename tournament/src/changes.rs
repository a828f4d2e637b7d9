//! The organiser's changes, each a pure operation on a [`Tournament`] that returns the
//! [`Change`] it made, appended to the tournament's log: a pairing or colours corrected
//! (108), a withdrawal (89(2)), a late entrant.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::event::{Game, Round};
use crate::player::{Player, PlayerId, RoundNumber};
use crate::result::GameResult;

/// The system, as far as changes care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// 單循環 / 雙循環: every round is fixed by the table at the start.
    RoundRobin,
    /// 積分編排制: each round is paired from the results.
    Swiss,
    /// 淘汰.
    Knockout,
}

/// An event's register, rounds and log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// The system.
    pub format: Format,
    /// Every player ever registered.
    pub register: Vec<Player>,
    /// Players still in the event.
    pub active: BTreeSet<PlayerId>,
    /// The rounds (for a round robin, all of them from the start).
    pub rounds: Vec<Round>,
    /// Whether the first round has begun (before it, a withdrawal means a new draw).
    pub started: bool,
    /// Every change, in order.
    pub log: Vec<Change>,
}

/// 108's remedy, which depends on the time control and on how long the game has run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Remedy {
    /// Corrected and replayed: 15 minutes or more a side and within 5 minutes of the start.
    Replay,
    /// Not corrected: the game stands and the organisers change the record.
    Record,
}

/// 108: whether a wrong colour or pairing is corrected and replayed. `base_ms` is each side's
/// time (用時), `elapsed_ms` the time since the game began.
pub const fn remedy_108(base_ms: u64, elapsed_ms: u64) -> Remedy {
    if base_ms >= 15 * 60_000 && elapsed_ms <= 5 * 60_000 {
        Remedy::Replay
    } else {
        Remedy::Record
    }
}

/// One logged change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// 108(1): the players of a board played with colours reversed; both get one 技術犯規.
    ColoursReversed {
        /// The round (1-based).
        round: RoundNumber,
        /// The board (1-based).
        board: u32,
        /// Replayed with the right colours, or recorded as played.
        remedy: Remedy,
    },
    /// 108(2), or the organiser's own correction before the round: a round's pairing replaced.
    PairingOverridden {
        /// The round (1-based).
        round: RoundNumber,
        /// The pairing before.
        before: Round,
        /// The pairing after.
        after: Round,
    },
    /// 89(2): a withdrawal.
    Withdrawn {
        /// The player.
        player: PlayerId,
        /// What was done.
        adjustment: Adjustment,
    },
    /// A player registered after the start, playing from `from_round`.
    LateEntrant {
        /// The player.
        player: PlayerId,
        /// The first round he can be paired in.
        from_round: RoundNumber,
        /// What the rounds he missed score.
        #[serde(default)]
        missed: Missed,
    },
}

/// What a late entrant scores for each round he missed, as the organiser chooses (the rule
/// text is silent: `docs/decisions.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Missed {
    /// Nothing: the rounds are not his.
    #[default]
    Nothing,
    /// A draw's points each, as a half-point bye ([`crate::result::Mark::HalfBye`]).
    HalfPoint,
}

/// 89(2): what a withdrawal does to the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjustment {
    /// Before the start (round robin or Swiss): the draw is made again without him.
    Redraw,
    /// Round robin, less than half of his games played: all his games are annulled.
    Annulled,
    /// Round robin, half or more played: his remaining games are lost by absence (不戰而勝
    /// for the opponents).
    RemainingForfeited,
    /// Swiss or knock-out: his results stand and he is paired no more.
    NotPaired,
}

/// Why a change is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChangeError {
    /// No such round.
    #[error("there is no round {0}")]
    NoRound(RoundNumber),
    /// No such board.
    #[error("round {round} has no board {board}")]
    NoBoard {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
    },
    /// A player not in the register, or no longer active.
    #[error("player {0} is not an active player of the event")]
    NotActive(PlayerId),
    /// A player twice in one round, or against himself.
    #[error("player {0} appears twice in the pairing")]
    Twice(PlayerId),
    /// A player number already in the register.
    #[error("player {0} is already registered")]
    AlreadyRegistered(PlayerId),
    /// A round robin's table is fixed once play has begun.
    #[error("a round robin takes no new player after the start")]
    RoundRobinStarted,
}

impl Tournament {
    /// A tournament of `register`, nothing played.
    pub fn new(format: Format, register: Vec<Player>) -> Tournament {
        let active = register.iter().map(|p| p.id).collect();
        Tournament {
            format,
            register,
            active,
            rounds: Vec::new(),
            started: false,
            log: Vec::new(),
        }
    }

    fn round_mut(&mut self, round: RoundNumber) -> Result<&mut Round, ChangeError> {
        round
            .checked_index()
            .and_then(|i| self.rounds.get_mut(i))
            .ok_or(ChangeError::NoRound(round))
    }

    fn logged(&mut self, change: Change) -> Change {
        self.log.push(change.clone());
        change
    }

    /// 108(1): a board played with colours reversed although the pairing was right. Replayed:
    /// the pairing stands and the result is cleared; recorded: the game is recorded with the
    /// colours actually played.
    pub fn colours_reversed(
        &mut self,
        round: RoundNumber,
        board: u32,
        remedy: Remedy,
    ) -> Result<Change, ChangeError> {
        let r = self.round_mut(round)?;
        let game = board
            .checked_sub(1)
            .and_then(|b| r.games.get_mut(b as usize))
            .ok_or(ChangeError::NoBoard { round, board })?;
        match remedy {
            Remedy::Replay => game.result = None,
            Remedy::Record => *game = swapped(*game),
        }
        Ok(self.logged(Change::ColoursReversed {
            round,
            board,
            remedy,
        }))
    }

    /// 108(2) or a correction before play: the round's pairing replaced by `after`. Every
    /// player must be active and appear at most once.
    pub fn override_pairing(
        &mut self,
        round: RoundNumber,
        after: Round,
    ) -> Result<Change, ChangeError> {
        let mut seen = BTreeSet::new();
        for p in after.players() {
            if !self.active.contains(&p) {
                return Err(ChangeError::NotActive(p));
            }
            if !seen.insert(p) {
                return Err(ChangeError::Twice(p));
            }
        }
        let r = self.round_mut(round)?;
        let before = std::mem::replace(r, after.clone());
        Ok(self.logged(Change::PairingOverridden {
            round,
            before,
            after,
        }))
    }

    /// 89(2): `player` withdraws (with the 賽務總監's consent, 89(1)).
    pub fn withdraw(&mut self, player: PlayerId) -> Result<Change, ChangeError> {
        if !self.active.remove(&player) {
            return Err(ChangeError::NotActive(player));
        }
        let adjustment = match (self.started, self.format) {
            (false, Format::RoundRobin | Format::Swiss) => {
                self.rounds.clear();
                Adjustment::Redraw
            }
            (_, Format::RoundRobin) => self.withdraw_round_robin(player),
            _ => Adjustment::NotPaired,
        };
        Ok(self.logged(Change::Withdrawn { player, adjustment }))
    }

    fn withdraw_round_robin(&mut self, player: PlayerId) -> Adjustment {
        let games = || {
            self.rounds
                .iter()
                .flat_map(|r| &r.games)
                .filter(|g| g.colour_of(player).is_some())
        };
        let total = games().count();
        let played = games().filter(|g| g.result.is_some()).count();
        if 2 * played < total {
            for r in &mut self.rounds {
                r.games.retain(|g| g.colour_of(player).is_none());
                r.byes.retain(|&b| b != player);
            }
            return Adjustment::Annulled;
        }
        for g in self.rounds.iter_mut().flat_map(|r| &mut r.games) {
            if g.result.is_none() && g.colour_of(player).is_some() {
                g.result = Some(if g.red == player {
                    GameResult::RedAbsent
                } else {
                    GameResult::BlackAbsent
                });
            }
        }
        Adjustment::RemainingForfeited
    }

    /// The round-robin withdrawals logged after the start, by player: what 89(2) did to
    /// each, which the rounds still to be paired must carry out ([`round_robin_round`]).
    pub fn withdrawals(&self) -> Withdrawals {
        withdrawals(&self.log)
    }

    /// A late entrant: paired from the next round; the rounds he missed score as `missed`
    /// says.
    pub fn late_entrant(&mut self, player: Player, missed: Missed) -> Result<Change, ChangeError> {
        if self.register.iter().any(|p| p.id == player.id) {
            return Err(ChangeError::AlreadyRegistered(player.id));
        }
        if self.started && self.format == Format::RoundRobin {
            return Err(ChangeError::RoundRobinStarted);
        }
        let id = player.id;
        self.register.push(player);
        self.active.insert(id);
        if !self.started {
            // Before the start he simply joins the draw.
            self.rounds.clear();
        }
        let from_round = RoundNumber::from_index(self.rounds.len());
        Ok(self.logged(Change::LateEntrant {
            player: id,
            from_round,
            missed,
        }))
    }
}

/// The late entrants who score a half point for each round they missed, by player: the
/// first round each could be paired in.
pub type HalfByes = BTreeMap<PlayerId, RoundNumber>;

/// The late entrants among `changes` who score the rounds they missed as draws.
pub fn half_byes<'a>(changes: impl IntoIterator<Item = &'a Change>) -> HalfByes {
    changes
        .into_iter()
        .filter_map(|c| match *c {
            Change::LateEntrant {
                player,
                from_round,
                missed: Missed::HalfPoint,
            } => Some((player, from_round)),
            _ => None,
        })
        .collect()
}

/// `rounds` with each late entrant of `half` given a half-point bye in every round before
/// his first ([`Round::half_byes`]).
pub fn with_half_byes(mut rounds: Vec<Round>, half: &HalfByes) -> Vec<Round> {
    for (&player, &from) in half {
        for round in rounds.iter_mut().take(from.index()) {
            if !round.half_byes.contains(&player) {
                round.half_byes.push(player);
            }
        }
    }
    rounds
}

/// The round-robin withdrawals after the start, by player, with what 89(2) did to each
/// (annulled or the rest forfeited).
pub type Withdrawals = BTreeMap<PlayerId, Adjustment>;

/// The round-robin withdrawals after the start among `changes`.
pub fn withdrawals<'a>(changes: impl IntoIterator<Item = &'a Change>) -> Withdrawals {
    changes
        .into_iter()
        .filter_map(|c| match *c {
            Change::Withdrawn {
                player,
                adjustment: a @ (Adjustment::Annulled | Adjustment::RemainingForfeited),
            } => Some((player, a)),
            _ => None,
        })
        .collect()
}

/// 89(2) after the start of a round robin: a round of its table (`drawn`, every number
/// still in place, so nobody else's opponents move) as it is played once players have
/// withdrawn. A game against a player whose games are annulled is not played and scores
/// nothing: his opponent sits the round out, without the bye's score. A game against a
/// player whose remaining games are forfeited is lost by his absence (不戰而勝 for the
/// opponent; both absent when both have withdrawn so). A withdrawn player's bye is gone.
pub fn round_robin_round(drawn: &Round, withdrawn: &Withdrawals) -> Round {
    let adjustment = |p: PlayerId| withdrawn.get(&p).copied();
    let games = drawn
        .games
        .iter()
        .filter(|g| {
            adjustment(g.red) != Some(Adjustment::Annulled)
                && adjustment(g.black) != Some(Adjustment::Annulled)
        })
        .map(|g| {
            let forfeited = |p| adjustment(p) == Some(Adjustment::RemainingForfeited);
            let result = match (forfeited(g.red), forfeited(g.black)) {
                (true, true) => Some(GameResult::BothAbsent),
                (true, false) => Some(GameResult::RedAbsent),
                (false, true) => Some(GameResult::BlackAbsent),
                (false, false) => g.result,
            };
            Game { result, ..*g }
        })
        .collect();
    Round {
        games,
        byes: drawn
            .byes
            .iter()
            .copied()
            .filter(|b| !withdrawn.contains_key(b))
            .collect(),
        half_byes: Vec::new(),
    }
}

/// The game with the players' seats exchanged. The result stays as reported: it names the
/// colours on the board, which are the colours actually played.
fn swapped(g: Game) -> Game {
    Game {
        red: g.black,
        black: g.red,
        result: g.result,
    }
}
