//! The PostgreSQL store's inserts, on a connection or within a transaction (an event's or a
//! round's tables and seats are written in one, [`crate::batch`]).

use postgres::GenericClient;

use super::rows::json_text;
use crate::NewTables;
use crate::StoreError;
use crate::config::EventSettings;
use crate::model::{EventId, SeatRow, TableId, TableRow};

/// Inserts an event; returns its number.
pub(super) fn insert_event(
    c: &mut impl GenericClient,
    name: &str,
    settings: &EventSettings,
) -> Result<EventId, StoreError> {
    let settings = json_text(settings, "event settings")?;
    let row = c.query_one(
        "INSERT INTO events (name, settings) VALUES ($1, $2) RETURNING id",
        &[&name, &settings],
    )?;
    Ok(EventId(row.get(0)))
}

/// Inserts a table (its `id` is ignored); returns its number.
pub(super) fn insert_table(
    c: &mut impl GenericClient,
    t: &TableRow,
) -> Result<TableId, StoreError> {
    let config = json_text(&t.config, "a match configuration")?;
    let row = c.query_one(
        "INSERT INTO tables (event, round, name, red, black, config)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        &[
            &t.event.0,
            &i64::from(t.round.0),
            &t.name,
            &t.red,
            &t.black,
            &config,
        ],
    )?;
    Ok(TableId(row.get(0)))
}

/// Inserts a seat.
pub(super) fn insert_seat(c: &mut impl GenericClient, s: &SeatRow) -> Result<(), StoreError> {
    let tables = json_text(&s.tables, "a seat's tables")?;
    c.execute(
        "INSERT INTO seats (token_hash, event, role, name, tables, revoked)
         VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &s.token_hash,
            &s.event.0,
            &s.role.as_str(),
            &s.name,
            &tables,
            &s.revoked,
        ],
    )?;
    Ok(())
}

/// Inserts a batch's tables and their seats; returns the tables' numbers, in order.
pub(super) fn insert_tables(
    c: &mut impl GenericClient,
    event: EventId,
    batch: &NewTables,
) -> Result<Vec<TableId>, StoreError> {
    let mut ids = Vec::with_capacity(batch.tables.len());
    for t in &batch.tables {
        ids.push(insert_table(c, &TableRow { event, ..t.clone() })?);
    }
    let (_, seats) = batch.stored(event, &ids)?;
    for s in &seats {
        insert_seat(c, s)?;
    }
    Ok(ids)
}
