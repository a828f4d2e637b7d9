//! Rows of the PostgreSQL store to and from the model's types.

use baoqi_tournament::RoundNumber;
use postgres::Row;
use postgres::types::ToSql;
use serde::de::DeserializeOwned;

use crate::model::{EventId, Role, SeatRow, TableId, TableRow};
use crate::pages::{RawEntry, actor_parse, kind_parse};
use crate::sqlite::actor_text;
use crate::timeline::Millis;
use crate::{LogEntry, StoreError};

/// A value as JSON text.
pub(super) fn json_text(
    v: &impl serde::Serialize,
    what: &'static str,
) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|source| StoreError::Encode { what, source })
}

/// A JSON column of a row that is not a log entry.
pub(super) fn column<T: DeserializeOwned>(
    text: &str,
    what: &'static str,
    id: i64,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::BadRow { what, id, source })
}

/// `id, event, round, name, red, black, config`.
pub(super) fn table_from(r: &Row) -> Result<TableRow, StoreError> {
    let id = TableId(r.get(0));
    Ok(TableRow {
        id,
        event: EventId(r.get(1)),
        round: RoundNumber(r.get::<_, i64>(2) as u32),
        name: r.get(3),
        red: r.get(4),
        black: r.get(5),
        config: column(r.get(6), "the match configuration of table", id.0)?,
    })
}

/// `token_hash, event, role, name, tables, revoked`.
pub(super) fn seat_from(r: &Row) -> Result<SeatRow, StoreError> {
    let event = EventId(r.get(1));
    Ok(SeatRow {
        token_hash: r.get(0),
        event,
        role: Role::parse(r.get(2)).unwrap_or(Role::Spectator),
        name: r.get(3),
        tables: column(r.get(4), "the tables of a seat of event", event.0)?,
        revoked: r.get(5),
    })
}

/// `idx, at, kind, actor, command, first_seq, events`.
pub(super) fn raw_entry(r: &Row) -> RawEntry {
    RawEntry {
        index: r.get::<_, i64>(0) as u64,
        at: Millis(r.get::<_, i64>(1) as u64),
        kind: kind_parse(r.get(2)),
        actor: actor_parse(r.get(3)),
        command: r.get(4),
        first_seq: r.get::<_, i64>(5) as u64,
        events: r.get(6),
    }
}

/// A log entry's columns, owned, in the insert's order.
pub(super) struct EntryParams {
    table: i64,
    index: i64,
    at: i64,
    kind: &'static str,
    actor: &'static str,
    command: String,
    first_seq: i64,
    events: String,
}

impl EntryParams {
    /// The parameters of `INSERT INTO log (tbl, idx, at, kind, actor, command, first_seq,
    /// events)`.
    pub(super) fn as_params(&self) -> [&(dyn ToSql + Sync); 8] {
        [
            &self.table,
            &self.index,
            &self.at,
            &self.kind,
            &self.actor,
            &self.command,
            &self.first_seq,
            &self.events,
        ]
    }
}

/// The columns of a log entry.
pub(super) fn entry_params(e: &LogEntry) -> Result<EntryParams, StoreError> {
    Ok(EntryParams {
        table: e.table.0,
        index: e.index as i64,
        at: e.at.0 as i64,
        kind: e.kind.as_str(),
        actor: actor_text(e.actor),
        command: json_text(&e.command, "a command")?,
        first_seq: e.first_seq as i64,
        events: json_text(&e.events, "events")?,
    })
}
