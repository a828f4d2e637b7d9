//! Writes made in one transaction: an event's or a round's tables with their
//! seats (and a round's boards), named to one another by their place in the batch, since
//! the store numbers the tables only when it writes them.

use super::StoreError;
use crate::model::{EventId, SeatRow, TableId, TableRow};
use crate::records::{ChangeLine, PairingRow};

/// A seat written with new tables ([`NewTables`]): `tables` are indices into the batch's
/// tables, made their numbers when written and added to the stored tables `seat.tables`
/// names (none at all: every table of the event, as for an event-wide referee or a
/// spectator). The store fills in `seat.event`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSeat {
    /// The seat.
    pub seat: SeatRow,
    /// The tables it covers, as indices into the batch's tables.
    pub tables: Vec<usize>,
}

/// Tables and their seats written together. The store fills in each table's `id` and
/// `event`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewTables {
    /// The tables, in order.
    pub tables: Vec<TableRow>,
    /// Their seats.
    pub seats: Vec<NewSeat>,
}

/// The table numbers `ids` of a batch's `indices`.
fn numbers(indices: &[usize], ids: &[TableId]) -> Result<Vec<TableId>, StoreError> {
    indices
        .iter()
        .map(|&index| {
            ids.get(index).copied().ok_or(StoreError::NoSuchTable {
                index,
                count: ids.len(),
            })
        })
        .collect()
}

impl NewTables {
    /// The rows as stored in `event` once the tables are numbered `ids` (in order).
    pub fn stored(
        &self,
        event: EventId,
        ids: &[TableId],
    ) -> Result<(Vec<TableRow>, Vec<SeatRow>), StoreError> {
        let tables = self
            .tables
            .iter()
            .zip(ids)
            .map(|(t, &id)| TableRow {
                id,
                event,
                ..t.clone()
            })
            .collect();
        let seats = self
            .seats
            .iter()
            .map(|s| {
                // A seat may cover tables already stored (`seat.tables`: a link reissued for
                // its table) besides the batch's.
                let mut tables = s.seat.tables.clone();
                tables.extend(numbers(&s.tables, ids)?);
                Ok(SeatRow {
                    event,
                    tables,
                    ..s.seat.clone()
                })
            })
            .collect::<Result<_, StoreError>>()?;
        Ok((tables, seats))
    }
}

/// A board of a round to write: its row, and the index of its table in the round's tables
/// (`None` for a bye). The store fills in `row.table`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBoard {
    /// The board.
    pub row: PairingRow,
    /// Its table, as an index into the round's tables.
    pub table: Option<usize>,
}

/// A round written in one transaction ([`crate::TournamentStore::add_round`]): its tables and
/// seats, its boards and its line of the change log.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRound {
    /// The tables and seats.
    pub tables: NewTables,
    /// The boards.
    pub boards: Vec<NewBoard>,
    /// The change log's line.
    pub log: ChangeLine,
    /// Seats already stored that come to cover some of the round's new tables, by token
    /// hash and the table's place in the batch: a referee of several rounds (附表七 6.2(1))
    /// keeps one link for the event.
    pub cover: Vec<(String, usize)>,
}

impl NewRound {
    /// The boards as stored once the tables are numbered `ids` (in order).
    pub fn stored_boards(&self, ids: &[TableId]) -> Result<Vec<PairingRow>, StoreError> {
        self.boards
            .iter()
            .map(|b| {
                let table = numbers(b.table.as_slice(), ids)?.first().copied();
                Ok(PairingRow { table, ..b.row })
            })
            .collect()
    }
}
