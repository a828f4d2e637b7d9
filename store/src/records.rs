//! What the store keeps of a tournament for the organiser: the register's lines,
//! the boards of each round, and the change log. The organiser's service
//! (`baoqi-organiser`) writes and reads them; the store only keeps them.

use baoqi_tournament::changes::Change;
use baoqi_tournament::swiss::Relaxation;
use baoqi_tournament::{GameResult, Player, PlayerId, RoundNumber};
use serde::{Deserialize, Serialize};

use crate::model::TableId;
use crate::wallclock::UnixMillis;

/// A player of the register as stored: the register's line and whether he is still paired
/// (a withdrawn player, 89(2), is not).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registered {
    /// The register's line.
    pub player: Player,
    /// Still paired.
    pub active: bool,
}

/// One board of a round as stored: a game with its table, or a bye (no black, no table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingRow {
    /// The round (1-based).
    pub round: RoundNumber,
    /// The board (1-based; byes are numbered after the games).
    pub board: u32,
    /// 紅方, or the player with the bye.
    pub red: PlayerId,
    /// 黑方; `None` for a bye.
    pub black: Option<PlayerId>,
    /// The table the game is played at; `None` for a bye.
    pub table: Option<TableId>,
    /// A result the organiser recorded (an absence, 87), which stands over the table's.
    pub result: Option<GameResult>,
}

impl PairingRow {
    /// Whether this board is a bye.
    pub fn is_bye(&self) -> bool {
        self.black.is_none()
    }
}

/// One entry of the event's change log: what the organiser did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Logged {
    /// The register was imported.
    Registered {
        /// How many players.
        players: u32,
    },
    /// A round was paired.
    Paired {
        /// The round.
        round: RoundNumber,
        /// Games.
        games: u32,
        /// Players with a bye.
        byes: Vec<PlayerId>,
        /// The rules the Swiss pairer had to break.
        relaxed: Vec<Relaxation>,
    },
    /// The organiser recorded a board's result (an absence, 87).
    Result {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
        /// The result.
        result: GameResult,
    },
    /// The organiser entered, corrected or cleared a board's result from the result grid
    /// (第87條, 7.9): what it was, what it is, who and why.
    Entered {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
        /// The board's counting result before (the organiser's, else the game's).
        before: Option<GameResult>,
        /// The organiser's result now; `None` when cleared (the game's counts again).
        after: Option<GameResult>,
        /// Who: the seat name of the referee's token, or the organiser's name.
        by: String,
        /// Why, as written.
        reason: Option<String>,
    },
    /// The last round was un-paired before any of its games started: its boards removed,
    /// its seats revoked, its tables set aside (作廢).
    Unpaired {
        /// The round.
        round: RoundNumber,
        /// Its tables, set aside.
        tables: Vec<TableId>,
    },
    /// A change of the tournament core (108, 89(2), late entrants).
    Change(Change),
    /// The organiser corrected a player's line of the register.
    Edited {
        /// The line before.
        before: Player,
        /// The line after.
        after: Player,
    },
    /// A line struck from the register before the player was ever paired: entered by
    /// mistake (a duplicate, a player who never came), a clerical correction and not a
    /// withdrawal (89(2)). The others keep their numbers.
    Deleted {
        /// The line struck.
        player: Player,
        /// Why, as the organiser wrote it.
        reason: Option<String>,
    },
    /// 89(2): a withdrawal ([`Change::Withdrawn`]) with the reason the organiser gave.
    Withdrawal {
        /// The core's change: the player and what was done to the event.
        change: Change,
        /// Why, as the organiser wrote it.
        reason: Option<String>,
    },
    /// 108: a board replayed at a new table (the old table's player seats revoked).
    Retabled {
        /// The round.
        round: RoundNumber,
        /// The board.
        board: u32,
        /// The table of the game set aside.
        from: Option<TableId>,
        /// The new table.
        to: TableId,
    },
    /// A seat's link issued after the event was made: a lost link reissued (the old token
    /// revoked, the same role, name and tables) or a spectator added.
    Seat {
        /// The seat's role.
        role: crate::model::Role,
        /// Its name.
        name: String,
        /// The tables it covers (none: every table of the event).
        tables: Vec<TableId>,
        /// A link reissued in place of a lost one (its old token revoked).
        reissued: bool,
    },
    /// 附表二 第一部份 1(1), 3(a): the lot (抽籤) of a knock-out tie level after its tie-break
    /// games, drawn by the server at the organiser's word. The first lot logged for a tie
    /// is the one that counts.
    Lot {
        /// The round of the tie.
        round: RoundNumber,
        /// The higher seed.
        first: PlayerId,
        /// The other.
        second: PlayerId,
        /// Who the lot sent through.
        winner: PlayerId,
    },
}

/// A change log entry with its wall-clock time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeLine {
    /// When (Unix ms, UTC).
    pub at: UnixMillis,
    /// What.
    pub change: Logged,
}
