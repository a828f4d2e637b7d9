//! 89(2) in a round robin once play has begun: the tournament core decides from the whole
//! Berger table (the rounds paired, with their results, and the rounds to come) whether the
//! player's games are annulled or his remaining games lost by absence; this module reads
//! what the core did to the rounds already paired back into boards to remove or rewrite,
//! and draws the rounds still to come over the same numbers, each withdrawal carried out
//! when its round is paired ([`round_robin_round`]). `docs/decisions.md` (89(2)).

use baoqi_tournament::berger::{self, BergerError};
use baoqi_tournament::changes::{
    self, Adjustment, Change, Format, Tournament, Withdrawals, round_robin_round,
};
use baoqi_tournament::{Game, Player, PlayerId, Round, RoundNumber};

use super::edits::EditError;
use super::results::{self, Outcomes};
use super::{ChangeLine, Logged, PairingRow, PairingSystem, Registered};
use baoqi_store::NewBoard;

/// The round-robin withdrawals after the start in the event's change log.
pub(super) fn logged(lines: &[ChangeLine]) -> Withdrawals {
    changes::withdrawals(lines.iter().filter_map(|l| match &l.change {
        Logged::Withdrawal { change, .. } | Logged::Change(change) => Some(change),
        _ => None,
    }))
}

/// The late entrants in the event's change log who score the rounds they missed as draws.
pub(super) fn half_byes(lines: &[ChangeLine]) -> changes::HalfByes {
    changes::half_byes(lines.iter().filter_map(|l| match &l.change {
        Logged::Change(change) => Some(change),
        _ => None,
    }))
}

/// The players still in the event (not withdrawn).
pub(super) fn active(registered: &[Registered]) -> std::collections::BTreeSet<PlayerId> {
    registered
        .iter()
        .filter(|r| r.active)
        .map(|r| r.player.id)
        .collect()
}

/// The players a round robin's Berger numbers are drawn over: the active ones and those who
/// withdrew after the start, whose numbers stay so that nobody else's opponents move. A
/// player withdrawn before the first round left the draw (89(2)).
pub(super) fn drawn(registered: &[Registered], withdrawn: &Withdrawals) -> Vec<Player> {
    registered
        .iter()
        .filter(|r| r.active || withdrawn.contains_key(&r.player.id))
        .map(|r| r.player.clone())
        .collect()
}

/// The whole table of the event's round robin over `drawn`. The table's numbers go to the
/// players in their initial ranking order (seed, rating, register number): the organiser
/// draws the numbers (抽籤, 附表二 第一部份 3(a)) by the order or the seeds of the register.
pub(super) fn table(system: PairingSystem, drawn: &[Player]) -> Result<Vec<Round>, BergerError> {
    let mut ranked: Vec<&Player> = drawn.iter().collect();
    ranked.sort_by_key(|p| p.ranking_key());
    let n = ranked.len() as u32;
    let rounds = match system {
        PairingSystem::DoubleRoundRobin => berger::double(n)?,
        _ => berger::single(n)?,
    };
    let id = |k: u32| ranked[k as usize - 1].id;
    Ok(rounds
        .iter()
        .map(|round| Round {
            games: round
                .pairs
                .iter()
                .map(|p| Game::new(id(p.red), id(p.black)))
                .collect(),
            byes: round.bye.map(id).into_iter().collect(),
            half_byes: Vec::new(),
        })
        .collect())
}

/// What a round robin's withdrawal does to the boards already paired.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Boards {
    /// Boards removed (annulled), by round and board.
    pub(super) removed: Vec<(RoundNumber, u32)>,
    /// Boards given a result (lost by his absence), each keeping its table.
    pub(super) rewritten: Vec<NewBoard>,
}

/// The event as the tournament core sees it for `player`'s withdrawal.
pub(super) struct RoundRobin<'a> {
    /// The system (single or double).
    pub(super) system: PairingSystem,
    /// The register.
    pub(super) registered: &'a [Registered],
    /// Every board paired so far.
    pub(super) rows: &'a [PairingRow],
    /// The tables' games.
    pub(super) outcomes: &'a Outcomes,
    /// The withdrawals after the start so far.
    pub(super) withdrawn: &'a Withdrawals,
}

impl RoundRobin<'_> {
    /// The core's round robin: the rounds paired with their results, then the rounds of the
    /// table to come, not yet played (the games of a player already annulled left out).
    fn core(&self) -> Result<Tournament, EditError> {
        let drawn = drawn(self.registered, self.withdrawn);
        let table = table(self.system, &drawn)?;
        let annulled: Withdrawals = self
            .withdrawn
            .iter()
            .filter(|&(_, a)| *a == Adjustment::Annulled)
            .map(|(&p, &a)| (p, a))
            .collect();
        let paired = results::rounds(self.rows, self.outcomes);
        let to_come = table
            .iter()
            .skip(paired.len())
            .map(|r| round_robin_round(r, &annulled));
        let mut t = Tournament::new(Format::RoundRobin, drawn);
        t.active = active(self.registered);
        t.rounds = paired.into_iter().chain(to_come).collect();
        t.started = true;
        Ok(t)
    }

    /// 89(2): `player` withdraws. The core's change, and what it does to the boards paired.
    pub(super) fn withdraw(&self, player: PlayerId) -> Result<(Change, Boards), EditError> {
        let mut core = self.core()?;
        let change = core.withdraw(player)?;
        let mut boards = Boards::default();
        let his = self
            .rows
            .iter()
            .filter(|r| r.red == player || r.black == Some(player));
        for row in his {
            let round = &core.rounds[row.round.index()];
            let kept = match row.black {
                None => round.byes.contains(&player).then_some(None),
                Some(black) => round
                    .games
                    .iter()
                    .find(|g| (g.red, g.black) == (row.red, black))
                    .map(|g| g.result),
            };
            match kept {
                None => boards.removed.push((row.round, row.board)),
                Some(result) if row.black.is_some() => {
                    if result != results::board_result(row, self.outcomes) {
                        boards.rewritten.push(NewBoard {
                            row: PairingRow { result, ..*row },
                            table: None,
                        });
                    }
                }
                Some(_) => {}
            }
        }
        Ok((change, boards))
    }
}
