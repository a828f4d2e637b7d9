//! The handle to a match: its task in this process, or (on a node of a federation) the
//! task of the node that holds the table, reached through the federation
//! ([`crate::federated::RemoteMatch`]). Connections use both the same way.

use std::sync::Arc;

use baoqi_arbiter::{Command, View};
use baoqi_protocol::Audience;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::federated::RemoteMatch;
use baoqi_store::StoreError;
use baoqi_store::game::{GameRecord, Refusal};
use baoqi_store::model::{Role, TableId};

/// Who sends a command to a table: the seat's role (what it may do) and the seat itself, by
/// its token's hash, so that every seat has its own rate of commands (once the referees of
/// a table shared one, and a board referee's ticks locked the chief referee out).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatKey {
    /// What the seat may do.
    pub role: Role,
    /// The hash of the seat's token ([`baoqi_store::model::SeatRow::token_hash`]).
    pub token_hash: String,
}

impl SeatKey {
    /// The key of a stored seat.
    pub fn of(seat: &baoqi_store::model::SeatRow) -> SeatKey {
        SeatKey {
            role: seat.role,
            token_hash: seat.token_hash.clone(),
        }
    }

    /// The key of a driver in this process acting as `role` without a seat of its own (the
    /// crash benchmark's fill, tests).
    pub fn in_process(role: Role) -> SeatKey {
        SeatKey {
            role,
            token_hash: format!("in-process {role}"),
        }
    }
}

/// One published event, encoded once for every subscriber.
#[derive(Debug)]
pub struct Published {
    /// Its sequence number within the table.
    pub seq: u64,
    /// Who may see it.
    pub audience: Audience,
    /// The encoded `event` message.
    pub json: String,
}

/// How a command was handled.
#[derive(Debug)]
pub enum Handled {
    /// Accepted and stored; `seq` is the last event it caused.
    Accepted {
        /// Last sequence number after the command.
        seq: u64,
    },
    /// Refused; nothing changed.
    Refused(Refusal),
    /// The seat sent more commands than [`crate::limits::Limits::commands`] allows; nothing
    /// changed.
    RateLimited,
    /// Could not be stored; the match was rebuilt from the store and nothing changed.
    Storage(StoreError),
}

/// What a joining or resyncing subscriber receives.
pub struct Joined {
    /// Live events after `seq`.
    pub rx: broadcast::Receiver<Arc<Published>>,
    /// The encoded `state` message.
    pub state: String,
    /// The last sequence number the state reflects.
    pub seq: u64,
    /// Events after the asked `since`, when the in-memory history still holds them all.
    pub missed: Option<Vec<Arc<Published>>>,
}

pub(super) enum Msg {
    Command {
        seat: SeatKey,
        command: Command,
        reply: oneshot::Sender<Handled>,
    },
    Join {
        since: Option<u64>,
        reply: oneshot::Sender<Joined>,
    },
    Record {
        reply: oneshot::Sender<(GameRecord, Arc<View>)>,
    },
    /// The snapshot alone (computed once per event sequence number).
    Snapshot { reply: oneshot::Sender<Arc<View>> },
    /// The node lost the table's lease: the task ends ([`TableHandle::stop`]).
    Stop,
}

/// A handle to a match. Cloning is cheap.
#[derive(Clone)]
pub struct TableHandle {
    /// The table.
    pub id: TableId,
    at: Where,
}

/// Where the match runs.
#[derive(Clone)]
enum Where {
    /// In this process.
    Here {
        tx: mpsc::Sender<Msg>,
        over: watch::Receiver<Option<Arc<View>>>,
    },
    /// On the node holding the table.
    Remote(Arc<dyn RemoteMatch>),
}

impl TableHandle {
    /// The handle of a task of this process.
    pub(super) fn here(
        id: TableId,
        tx: mpsc::Sender<Msg>,
        over: watch::Receiver<Option<Arc<View>>>,
    ) -> TableHandle {
        TableHandle {
            id,
            at: Where::Here { tx, over },
        }
    }

    /// The handle of a match another node runs.
    pub fn remote(table: Arc<dyn RemoteMatch>) -> TableHandle {
        TableHandle {
            id: table.id(),
            at: Where::Remote(table),
        }
    }

    /// Whether the match runs in this process.
    pub fn is_here(&self) -> bool {
        matches!(self.at, Where::Here { .. })
    }

    /// Sends a command from a seat and waits for its outcome.
    pub async fn command(&self, seat: SeatKey, command: Command) -> Option<Handled> {
        let tx = match &self.at {
            Where::Here { tx, .. } => tx,
            Where::Remote(r) => return r.command(seat, command).await,
        };
        let (reply, wait) = oneshot::channel();
        tx.send(Msg::Command {
            seat,
            command,
            reply,
        })
        .await
        .ok()?;
        wait.await.ok()
    }

    /// Subscribes: the current state, the live feed, and the events after `since` when
    /// still in memory.
    pub async fn join(&self, since: Option<u64>) -> Option<Joined> {
        let tx = match &self.at {
            Where::Here { tx, .. } => tx,
            Where::Remote(r) => return r.join(since).await,
        };
        let (reply, wait) = oneshot::channel();
        tx.send(Msg::Join { since, reply }).await.ok()?;
        wait.await.ok()
    }

    /// The snapshot of the game once it is over (kept up to date after: the referee's
    /// verification, 7.9, comes later), `None` while it goes on. Read without asking the
    /// task: the standings read every table of an event at each request.
    pub fn over(&self) -> Option<Arc<View>> {
        match &self.at {
            Where::Here { over, .. } => over.borrow().clone(),
            Where::Remote(r) => r.over(),
        }
    }

    /// The snapshot once over, as a watch that changes with it: a match of this process
    /// only (its node publishes it to the others).
    pub fn over_changes(&self) -> Option<watch::Receiver<Option<Arc<View>>>> {
        match &self.at {
            Where::Here { over, .. } => Some(over.clone()),
            Where::Remote(_) => None,
        }
    }

    /// The game record and the current snapshot.
    pub async fn record(&self) -> Option<(GameRecord, Arc<View>)> {
        let tx = match &self.at {
            Where::Here { tx, .. } => tx,
            Where::Remote(r) => return r.record().await,
        };
        let (reply, wait) = oneshot::channel();
        tx.send(Msg::Record { reply }).await.ok()?;
        wait.await.ok()
    }

    /// The current snapshot alone: cheap (the task keeps it for its sequence number), for
    /// what is asked often, such as a live feed's poll.
    pub async fn snapshot(&self) -> Option<Arc<View>> {
        let tx = match &self.at {
            Where::Here { tx, .. } => tx,
            Where::Remote(r) => return r.record().await.map(|(_, view)| view),
        };
        let (reply, wait) = oneshot::channel();
        tx.send(Msg::Snapshot { reply }).await.ok()?;
        wait.await.ok()
    }

    /// Ends the task of a match of this process (its node lost the table); its subscribers'
    /// feeds close, and they resync through the hub. No effect on a remote match.
    pub async fn stop(&self) {
        if let Where::Here { tx, .. } = &self.at {
            let _ = tx.send(Msg::Stop).await;
        }
    }
}
