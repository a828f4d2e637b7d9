//! What the nodes of a federation say to each other over NATS: the subjects of a
//! table and the messages on them. The subjects are per table under the federation's and
//! the event's prefix, `baoqi.<federation>.<event>.<table>.<what>`: two federations may
//! share one NATS server without hearing each other, and whoever follows a whole event
//! subscribes to `baoqi.<federation>.<event>.*.events`.
//!
//! | subject               | published by               | carries                                   |
//! |-----------------------|----------------------------|-------------------------------------------|
//! | `…events`             | the holder                 | each published event ([`WirePublished`])  |
//! | `…over`               | the holder                 | the snapshot once the game is over        |
//! | `…cmd` (request)      | a node with the seat       | [`WireCommand`] → [`WireHandled`]         |
//! | `…join` (request)     | a node with a subscriber   | [`WireJoin`] → [`WireJoined`]             |
//! | `…over.get` (request) | a node reading standings   | → the snapshot once over                  |

use std::sync::Arc;

use baoqi_arbiter::{Command, Rejection};
use baoqi_protocol::Audience;
use serde::{Deserialize, Serialize};

use baoqi_server::table::{Handled, Published, SeatKey};
use baoqi_store::StoreError;
use baoqi_store::game::Refusal;
use baoqi_store::model::{EventId, TableId};

/// What a subject of a table carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// The table's published events.
    Events,
    /// The game's snapshot once over.
    Over,
    /// Commands to the holder (request/reply).
    Command,
    /// Subscribers joining (request/reply).
    Join,
    /// The snapshot once over, asked (request/reply).
    OverGet,
}

/// The NATS subject of a table's topic, in the federation named `federation` (its
/// database's own mark, [`baoqi_store::lease::Leases::federation`]).
pub fn subject(federation: &str, event: EventId, table: TableId, topic: Topic) -> String {
    let what = match topic {
        Topic::Events => "events",
        Topic::Over => "over",
        Topic::Command => "cmd",
        Topic::Join => "join",
        Topic::OverGet => "over.get",
    };
    format!("baoqi.{federation}.{event}.{table}.{what}")
}

/// A seat's command, forwarded to the holder.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireCommand {
    /// Who sends it: the seat, for its own rate of commands.
    pub seat: SeatKey,
    /// The command.
    pub command: Command,
}

/// How the holder handled a command ([`Handled`]).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "handled", rename_all = "snake_case")]
pub enum WireHandled {
    /// Accepted and stored.
    Accepted {
        /// The last sequence number after it.
        seq: u64,
    },
    /// A spectator's command.
    Spectator,
    /// A command only the server gives.
    ServerOnly,
    /// The arbiter refused it.
    Rejected {
        /// Why.
        rejection: Rejection,
    },
    /// The seat sends too many commands.
    RateLimited,
    /// Not stored.
    Storage {
        /// Why, as the holder tells it.
        why: String,
    },
}

impl From<Handled> for WireHandled {
    fn from(h: Handled) -> Self {
        match h {
            Handled::Accepted { seq } => WireHandled::Accepted { seq },
            Handled::Refused(Refusal::Spectator) => WireHandled::Spectator,
            Handled::Refused(Refusal::ServerOnly) => WireHandled::ServerOnly,
            Handled::Refused(Refusal::Rejected(rejection)) => WireHandled::Rejected { rejection },
            Handled::RateLimited => WireHandled::RateLimited,
            Handled::Storage(e) => WireHandled::Storage { why: e.to_string() },
        }
    }
}

impl From<WireHandled> for Handled {
    fn from(h: WireHandled) -> Self {
        match h {
            WireHandled::Accepted { seq } => Handled::Accepted { seq },
            WireHandled::Spectator => Handled::Refused(Refusal::Spectator),
            WireHandled::ServerOnly => Handled::Refused(Refusal::ServerOnly),
            WireHandled::Rejected { rejection } => Handled::Refused(Refusal::Rejected(rejection)),
            WireHandled::RateLimited => Handled::RateLimited,
            WireHandled::Storage { why } => Handled::Storage(StoreError::Remote(why)),
        }
    }
}

/// One published event ([`Published`]).
#[derive(Debug, Serialize, Deserialize)]
pub struct WirePublished {
    /// Its sequence number.
    pub seq: u64,
    /// Who may see it.
    pub audience: Audience,
    /// The encoded `event` message.
    pub json: String,
}

impl From<&Published> for WirePublished {
    fn from(p: &Published) -> Self {
        WirePublished {
            seq: p.seq,
            audience: p.audience,
            json: p.json.clone(),
        }
    }
}

impl From<WirePublished> for Arc<Published> {
    fn from(p: WirePublished) -> Self {
        Arc::new(Published {
            seq: p.seq,
            audience: p.audience,
            json: p.json,
        })
    }
}

/// A subscriber joining: the events after `since` it missed.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireJoin {
    /// The last event it has.
    pub since: Option<u64>,
}

/// The holder's answer to a join (the parts of [`baoqi_server::table::Joined`] that travel).
#[derive(Debug, Serialize, Deserialize)]
pub struct WireJoined {
    /// The encoded `state` message.
    pub state: String,
    /// The last sequence number the state reflects.
    pub seq: u64,
    /// The events after `since`, when the holder's memory still has them all.
    pub missed: Option<Vec<WirePublished>>,
}
