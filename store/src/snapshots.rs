//! The snapshots of the `SQLite` store: table `snapshots` (in the first migration,
//! [`super::schema`]), one row per table (the latest). A database written before snapshots
//! existed gains the table and simply has none yet: its matches are rebuilt from their
//! whole logs until one is taken.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Snapshot, StoreError};
use crate::model::TableId;

/// Stores `s` and drops the table's older snapshots, in one transaction.
pub(super) fn put(c: &mut Connection, s: &Snapshot) -> Result<(), StoreError> {
    let tx = c.transaction()?;
    tx.execute(
        "INSERT OR REPLACE INTO snapshots (tbl, idx, format, state) VALUES (?1, ?2, ?3, ?4)",
        params![s.table.0, s.index as i64, i64::from(s.format), s.state],
    )?;
    tx.execute(
        "DELETE FROM snapshots WHERE tbl = ?1 AND idx < ?2",
        params![s.table.0, s.index as i64],
    )?;
    tx.commit()?;
    Ok(())
}

/// The table's latest snapshot.
pub(super) fn latest(c: &Connection, table: TableId) -> Result<Option<Snapshot>, StoreError> {
    let row = c
        .query_row(
            "SELECT idx, format, state FROM snapshots WHERE tbl = ?1 ORDER BY idx DESC LIMIT 1",
            params![table.0],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            },
        )
        .optional()?;
    Ok(row.map(|(index, format, state)| Snapshot {
        table,
        index: index as u64,
        // A format that does not fit is no format this code wrote: 0 is never one.
        format: u32::try_from(format).unwrap_or(0),
        state,
    }))
}

/// Drops every snapshot (the log they were taken from is being rewritten).
pub(super) fn clear(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    tx.execute("DELETE FROM snapshots", [])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{SqliteStore, Store};
    use super::*;
    use crate::config::EventSettings;
    use crate::model::TableRow;
    use baoqi_tournament::RoundNumber;

    fn snap(table: TableId, index: u64) -> Snapshot {
        Snapshot {
            table,
            index,
            format: 1,
            state: format!("{{\"at\":{index}}}"),
        }
    }

    #[test]
    fn the_latest_snapshot_of_a_table_is_kept_and_the_older_ones_dropped() {
        let (store, path) = SqliteStore::open_temp().unwrap();
        let ev = store.create_event("e", &EventSettings::default()).unwrap();
        let row = |name: &str| TableRow {
            id: TableId(0),
            event: ev,
            round: RoundNumber(1),
            name: name.into(),
            red: "r".into(),
            black: "b".into(),
            config: baoqi_arbiter::MatchConfig::default(),
        };
        let (t1, t2) = (
            store.add_table(&row("1")).unwrap(),
            store.add_table(&row("2")).unwrap(),
        );
        assert_eq!(store.snapshot(t1).unwrap(), None);
        for s in [snap(t1, 1000), snap(t2, 1000), snap(t1, 2000)] {
            store.put_snapshot(&s).unwrap();
        }
        assert_eq!(store.snapshot(t1).unwrap(), Some(snap(t1, 2000)));
        assert_eq!(store.snapshot(t2).unwrap(), Some(snap(t2, 1000)));
        let rows: i64 = store
            .r()
            .query_row(
                "SELECT count(*) FROM snapshots WHERE tbl = ?1",
                [t1.0],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rows, 1, "the older snapshot of table 1 is gone");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_database_from_before_snapshots_gains_the_table_when_opened() {
        let (store, path) = SqliteStore::open_temp().unwrap();
        // A file of that time had neither the table nor numbered migrations.
        store
            .w()
            .execute_batch("DROP TABLE snapshots; DROP TABLE refinery_schema_history;")
            .unwrap();
        drop(store);
        let store = SqliteStore::open(&path, false).unwrap();
        assert_eq!(store.snapshot(TableId(1)).unwrap(), None);
        let _ = std::fs::remove_file(&path);
    }
}
