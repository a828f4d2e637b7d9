//! An organiser's change to an event written in one transaction
//! ([`crate::TournamentStore::amend`]): a 108 replay (new tables, the old tables'
//! player seats revoked, the boards moved, the log) or a round robin's withdrawal (89(2):
//! the register's line, his boards annulled or forfeited, the log). New tables are named
//! by their place in the batch, since the store numbers them only when it writes them.

use baoqi_tournament::RoundNumber;

use crate::model::TableId;
use crate::records::{ChangeLine, Logged, PairingRow, Registered};
use crate::wallclock::UnixMillis;
use crate::{NewBoard, NewTables, StoreError};

/// Everything one change writes, all or nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Amendment {
    /// New tables and their seats.
    pub tables: NewTables,
    /// Seats revoked, by token hash.
    pub revoke: Vec<String>,
    /// Seats that come to cover a new table, by token hash and the table's place in the
    /// batch (a board's referee, 附表七 6.2(1), follows his board to its replay's table).
    pub cover: Vec<(String, usize)>,
    /// Boards removed, by round and board.
    pub removed: Vec<(RoundNumber, u32)>,
    /// Boards written (added, or replacing the board of the same round and number). A board
    /// with a table index moves to that new table, logged as [`Logged::Retabled`] from the
    /// table its row names; the others keep the table their row names.
    pub boards: Vec<NewBoard>,
    /// Register lines written (added, or replacing the line of the same number).
    pub players: Vec<Registered>,
    /// The change log's lines, before the boards moved to new tables.
    pub log: Vec<Logged>,
    /// When (Unix ms, UTC), for every line.
    pub at: UnixMillis,
}

/// The table numbers of a batch's `index`.
fn number(index: usize, ids: &[TableId]) -> Result<TableId, StoreError> {
    ids.get(index).copied().ok_or(StoreError::NoSuchTable {
        index,
        count: ids.len(),
    })
}

/// The tables of a seat that covered `tables` once it also covers the new tables `cover`
/// gives it (`hash` its token's; each a place in the batch numbered `ids`).
pub fn covered(
    cover: &[(String, usize)],
    hash: &str,
    mut tables: Vec<TableId>,
    ids: &[TableId],
) -> Result<Vec<TableId>, StoreError> {
    for (h, index) in cover {
        let id = number(*index, ids)?;
        if h == hash && !tables.contains(&id) {
            tables.push(id);
        }
    }
    Ok(tables)
}

impl Amendment {
    /// The tables of a seat that covered `tables` once it also covers its new tables of
    /// [`Amendment::cover`] (`hash` its token's), numbered `ids`.
    pub fn covered(
        &self,
        hash: &str,
        tables: Vec<TableId>,
        ids: &[TableId],
    ) -> Result<Vec<TableId>, StoreError> {
        covered(&self.cover, hash, tables, ids)
    }

    /// The boards as stored once the new tables are numbered `ids` (in order).
    pub fn stored_boards(&self, ids: &[TableId]) -> Result<Vec<PairingRow>, StoreError> {
        self.boards
            .iter()
            .map(|b| {
                let table = b.table.map(|i| number(i, ids)).transpose()?;
                Ok(PairingRow {
                    table: table.or(b.row.table),
                    ..b.row
                })
            })
            .collect()
    }

    /// The change log's lines once the new tables are numbered `ids`: [`Amendment::log`],
    /// then a [`Logged::Retabled`] for each board moved to a new table.
    pub fn lines(&self, ids: &[TableId]) -> Result<Vec<ChangeLine>, StoreError> {
        let mut changes = self.log.clone();
        for b in &self.boards {
            if let Some(i) = b.table {
                changes.push(Logged::Retabled {
                    round: b.row.round,
                    board: b.row.board,
                    from: b.row.table,
                    to: number(i, ids)?,
                });
            }
        }
        Ok(changes
            .into_iter()
            .map(|change| ChangeLine {
                at: self.at,
                change,
            })
            .collect())
    }
}
