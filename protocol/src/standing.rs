//! A player's place in his event's standings (名次, 附表二 第二部份 3), asked for from his
//! seat (`query_standing`) and answered by the server (`standing`): the keypad says it
//! ("你排第五，四分。第三輪後"). Typed values only; the words are the client's.

use baoqi_tournament::RoundNumber;
use serde::{Deserialize, Serialize};

/// Where the asking player stands after the last round whose every result is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    /// The standings are after this round: every round up to it is final, and nothing of a
    /// later round counts yet. Never before the first round: then the answer is
    /// [`StandingAnswer::NoRoundFinished`].
    pub after_round: RoundNumber,
    /// Rounds to play, when the event says.
    #[serde(default)]
    pub rounds_total: Option<u32>,
    /// The place (1-based); players level after every tie-break share it (1, 2, 2, 4).
    pub place: u32,
    /// Whether another player shares the place (並列).
    pub shared: bool,
    /// The score in half points, as the event scores (`9` is 4½ under 1/½/0; 黃氏計分法
    /// scores are whole: `78` is 39).
    pub halves: u32,
    /// Players in the standings.
    pub players: u32,
}

/// The answer to `query_standing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum StandingAnswer {
    /// The player's place.
    Placed(Place),
    /// No round is final yet: there is no place to give.
    NoRoundFinished {
        /// Rounds to play, when the event says.
        #[serde(default)]
        rounds_total: Option<u32>,
    },
    /// The event is not a tournament: it has no standings.
    NoStandings,
    /// The seat's table is not a pairing of the event's register (or the seat is not a
    /// player's nor a proxy's): there is no place of its own.
    NotRegistered,
}
