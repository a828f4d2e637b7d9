//! `baoqi round lot`: the lot (抽籤, 附表二 第一部份 3(a), "人手或電腦") of a knock-out tie
//! still level after its tie-break games, in an event whose decider is the lot (附表二
//! 第一部份 1(1)). The organiser asks; the server draws, with the operating system's
//! randomness, and logs the draw and its outcome ([`Logged::Lot`]); the next
//! `baoqi round pair` sends the winner through. A tie's lot is drawn once.

use baoqi_tournament::knockout::{self, Decider, Tie};
use baoqi_tournament::{Player, PlayerId, RoundNumber};

use super::results::Outcomes;
use super::rounds::{PairError, list};
use super::{EventError, Logged, Opened, PairingSystem};
use baoqi_store::model::{EventId, TableId};
use baoqi_store::{Store, StoreError};

/// A lot drawn: the tie's round, its players and who goes through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The round of the tie.
    pub round: RoundNumber,
    /// The higher seed.
    pub first: Player,
    /// The other.
    pub second: Player,
    /// Who the lot sent through.
    pub winner: Player,
}

/// Why the lot cannot be drawn. Nothing is drawn or logged then.
#[derive(Debug, thiserror::Error)]
pub enum LotError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The event's rounds cannot be read as a knock-out's.
    #[error(transparent)]
    Rounds(Box<PairError>),
    /// The event is not a knock-out.
    #[error("event {0} is not a knock-out: a lot (抽籤) decides only a knock-out's ties")]
    NotKnockout(EventId),
    /// The table is not a game of the event's rounds.
    #[error("table {table} is not a game of a round of event {event}")]
    NoBoard {
        /// The event.
        event: EventId,
        /// The table.
        table: TableId,
    },
    /// The event decides its level ties otherwise.
    #[error(
        "the event's ties are decided by {}, not by lot: its [tournament.knockout] decider says so",
        decider_name(*.0)
    )]
    NotTheDecider(Decider),
    /// Games of the tie have no final result yet.
    #[error(
        "round {round}: the tie {first} v {second} is not over: table(s) {} have no final result yet (over and verified, 7.9)",
        list(.tables)
    )]
    Undecided {
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
        /// Its tables without a final result.
        tables: Vec<TableId>,
    },
    /// Games of the tie are still to be played before the lot.
    #[error(
        "round {round}: the tie {first} v {second} is level, but {to_play} game(s) of it are still to be played before the lot: `baoqi round pair --event {event}` sets up its tie-break games"
    )]
    GamesToPlay {
        /// The event.
        event: EventId,
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
        /// Games still to be played.
        to_play: u32,
    },
    /// The tie was decided by its games.
    #[error(
        "round {round}: the tie {first} v {second} is decided by its games: {winner} goes through"
    )]
    Decided {
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
        /// Who won it.
        winner: String,
    },
    /// The tie's lot was drawn before.
    #[error(
        "round {round}: the lot of the tie {first} v {second} was drawn already: {winner} goes through"
    )]
    AlreadyDrawn {
        /// The round.
        round: RoundNumber,
        /// The higher seed.
        first: String,
        /// The other.
        second: String,
        /// Who the lot sent through.
        winner: String,
    },
}

/// The decider as the event file spells it.
fn decider_name(d: Decider) -> &'static str {
    match d {
        Decider::SuddenDeath => "sudden_death",
        Decider::BlackDrawOdds => "black_draw_odds",
        Decider::Lot => "lot",
    }
}

/// Draws the lot of the tie played at `table` (any of its tables) of `event`, whose games
/// are `outcomes`: heads or tails from the operating system's randomness (`rand`'s thread
/// generator, seeded by the OS), logged with its outcome.
pub fn draw(
    store: &dyn Store,
    event: EventId,
    table: TableId,
    outcomes: &Outcomes,
) -> Result<Drawn, LotError> {
    let t = Opened::open(store, event)?;
    if t.settings.system != PairingSystem::Knockout {
        return Err(LotError::NotKnockout(event));
    }
    let register: Vec<Player> = t
        .records
        .players(event)?
        .into_iter()
        .map(|r| r.player)
        .collect();
    let (round, mut tie) = super::knockout::tie_at(&t, &register, table, outcomes)
        .map_err(undecided)?
        .ok_or(LotError::NoBoard { event, table })?;
    let winner = tie
        .draw_lot(t.settings.knockout, rand::random::<bool>())
        .map_err(|e| refusal(e, &tie, (event, round), &register))?;
    t.log(Logged::Lot {
        round,
        first: tie.first,
        second: tie.second,
        winner,
    })?;
    let player = |id: PlayerId| {
        register
            .iter()
            .find(|p| p.id == id)
            .cloned()
            .unwrap_or_else(|| Player::new(id.0, id.to_string()))
    };
    Ok(Drawn {
        round,
        first: player(tie.first),
        second: player(tie.second),
        winner: player(winner),
    })
}

/// A refusal of [`super::knockout::tie_at`] as the lot's.
fn undecided(e: PairError) -> LotError {
    match e {
        PairError::TieUndecided {
            round,
            first,
            second,
            tables,
        } => LotError::Undecided {
            round,
            first,
            second,
            tables,
        },
        PairError::Store(s) => LotError::Store(s),
        PairError::Event(e) => LotError::Event(e),
        other => LotError::Rounds(Box::new(other)),
    }
}

/// The core's refusal, the players named.
fn refusal(
    e: knockout::LotError,
    tie: &Tie,
    (event, round): (EventId, RoundNumber),
    register: &[Player],
) -> LotError {
    let name = |id: PlayerId| {
        register
            .iter()
            .find(|p| p.id == id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    };
    let (first, second) = (name(tie.first), name(tie.second));
    match e {
        knockout::LotError::NotTheDecider(d) => LotError::NotTheDecider(d),
        knockout::LotError::GamesToPlay { to_play } => LotError::GamesToPlay {
            event,
            round,
            first,
            second,
            to_play,
        },
        knockout::LotError::Decided(w) => LotError::Decided {
            round,
            first,
            second,
            winner: name(w),
        },
        knockout::LotError::AlreadyDrawn(w) => LotError::AlreadyDrawn {
            round,
            first,
            second,
            winner: name(w),
        },
    }
}

/// A lot drawn, in words: `round 1: the lot (抽籤) of 張華 v 王芳: 王芳 goes through`.
pub fn describe(d: &Drawn) -> String {
    format!(
        "round {}: the lot (抽籤) of the tie {} v {}: {} goes through\n",
        d.round, d.first.name, d.second.name, d.winner.name
    )
}
