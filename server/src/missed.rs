//! The events a reconnecting client missed, read back from the store when the table's memory
//! no longer holds them ([`crate::ws`]'s resync; `docs/protocol.md`, "Sequence numbers,
//! audiences, resync and slow clients").

use baoqi_protocol::{Audience, ServerMsg, encode};

use crate::hub::Hub;
use baoqi_store::StoreError;
use baoqi_store::model::{Role, TableId};

/// The most events a reconnecting client is sent back from the store: a client further
/// behind takes the state alone (the `resync` error says so), so that no join reads a long
/// log whole (40 connections × `sync since 0` once stalled every table 6 s).
pub(crate) const MAX_REPLAY: u64 = 4_096;

/// Why the events missed could not be read back from the store.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResyncError {
    /// More events were missed than are sent back ([`MAX_REPLAY`]).
    #[error("{missed} events were missed, more than the {MAX_REPLAY} sent back: the state follows")]
    TooFarBehind {
        /// How many.
        missed: u64,
    },
    /// The log could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The read panicked or was cancelled.
    #[error("reading the log: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// The encoded events of a table with `since < seq <= upto` that `role` may see, read from
/// the store. An event that cannot be read fails the whole read: nothing is guessed.
pub(crate) async fn from_store(
    hub: &Hub,
    table: TableId,
    since: u64,
    upto: u64,
    role: Role,
) -> Result<Vec<String>, ResyncError> {
    let missed = upto.saturating_sub(since);
    if missed > MAX_REPLAY {
        return Err(ResyncError::TooFarBehind { missed });
    }
    let store = hub.store().clone();
    let log = tokio::task::spawn_blocking(move || {
        let from = store.entry_of_seq(table, since + 1)?;
        store.log_from(table, from)
    })
    .await??;
    Ok(log
        .iter()
        .flat_map(|e| e.numbered().map(move |(seq, event)| (seq, e.at, event)))
        .filter(|(seq, _, _)| *seq > since && *seq <= upto)
        .filter(|(_, _, event)| Audience::of(event).includes(role))
        .map(|(seq, at, event)| {
            encode(&ServerMsg::Event {
                table,
                seq,
                at,
                event: Box::new(event.clone()),
            })
        })
        .collect())
}
