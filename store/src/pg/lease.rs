//! Table leases in PostgreSQL ([`crate::lease`]): table `leases` (migration 2), the
//! database server's clock for every expiry.

use std::collections::HashSet;
use std::time::Duration;

use postgres::Transaction;

use super::PgStore;
use crate::lease::{Fence, Holding, Leases, NodeId, NodeLoad, Orphan};
use crate::model::TableId;
use crate::wallclock::UnixMillis;
use crate::{LogEntry, StoreError};

/// A timestamp as milliseconds since the Unix epoch, in SQL.
const EPOCH_MS: &str = "(extract(epoch FROM {}) * 1000)::bigint";

fn epoch_ms(column: &str) -> String {
    EPOCH_MS.replace("{}", column)
}

fn millis(ttl: Duration) -> f64 {
    ttl.as_secs_f64() * 1000.0
}

impl Leases for PgStore {
    fn acquire(
        &self,
        table: TableId,
        node: &NodeId,
        ttl: Duration,
    ) -> Result<Option<Fence>, StoreError> {
        // Free: fence 1. Expired, or another's: a new fence. Still this node's: the same
        // fence, a later expiry. Another node's unexpired lease: no row comes back. The row
        // is first locked `FOR UPDATE`: that waits for every append in flight (each holds the
        // row `FOR KEY SHARE`), so a new holder reads a log that has them.
        let row = self.l(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "SELECT 1 FROM leases WHERE tbl = $1 FOR UPDATE",
                &[&table.0],
            )?;
            let row = tx.query_opt(
                "INSERT INTO leases (tbl, node, fence, expires)
                 VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
                 ON CONFLICT (tbl) DO UPDATE SET
                     fence = CASE WHEN leases.node = excluded.node AND leases.expires >= now()
                                  THEN leases.fence ELSE leases.fence + 1 END,
                     node = excluded.node, expires = excluded.expires, renewed = now()
                 WHERE leases.node = excluded.node OR leases.expires < now()
                 RETURNING fence",
                &[&table.0, &node, &millis(ttl)],
            )?;
            tx.commit()?;
            Ok(row)
        })?;
        Ok(row.map(|r| Fence(r.get(0))))
    }

    fn renew(&self, h: Holding, ttl: Duration) -> Result<bool, StoreError> {
        let n = self.l(|c| {
            Ok(c.execute(
                "UPDATE leases SET expires = now() + $3 * interval '1 millisecond',
                     renewed = now()
                 WHERE tbl = $1 AND fence = $2 AND expires >= now()",
                &[&h.table.0, &h.fence.0, &millis(ttl)],
            )?)
        })?;
        Ok(n == 1)
    }

    fn release(&self, h: Holding) -> Result<(), StoreError> {
        self.l(|c| {
            Ok(c.execute(
                "UPDATE leases SET expires = now() - interval '1 millisecond', renewed = now()
                 WHERE tbl = $1 AND fence = $2 AND expires >= now()",
                &[&h.table.0, &h.fence.0],
            )?)
        })?;
        Ok(())
    }

    fn owner(&self, table: TableId) -> Result<Option<String>, StoreError> {
        let row = self.l(|c| {
            Ok(c.query_opt(
                "SELECT node FROM leases WHERE tbl = $1 AND expires >= now()",
                &[&table.0],
            )?)
        })?;
        Ok(row.map(|r| r.get(0)))
    }

    fn clock(&self) -> Result<UnixMillis, StoreError> {
        let sql = format!("SELECT {}", epoch_ms("clock_timestamp()"));
        let row = self.l(|c| Ok(c.query_one(&sql, &[])?))?;
        Ok(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0))
    }

    fn heartbeat(&self, node: &NodeId, ttl: Duration) -> Result<Vec<Holding>, StoreError> {
        let rows = self.l(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO nodes (name, seen) VALUES ($1, now())
                 ON CONFLICT (name) DO UPDATE SET seen = now()",
                &[&node],
            )?;
            let rows = tx.query(
                "UPDATE leases SET expires = now() + $2 * interval '1 millisecond',
                     renewed = now()
                 WHERE node = $1 AND expires >= now() RETURNING tbl, fence",
                &[&node, &millis(ttl)],
            )?;
            tx.commit()?;
            Ok(rows)
        })?;
        Ok(rows
            .iter()
            .map(|r| Holding {
                table: TableId(r.get(0)),
                fence: Fence(r.get(1)),
            })
            .collect())
    }

    fn orphans(&self, limit: usize) -> Result<Vec<Orphan>, StoreError> {
        let sql = format!(
            "SELECT t.id, {} FROM tables t LEFT JOIN leases l ON l.tbl = t.id
             WHERE l.tbl IS NULL OR l.expires < now() ORDER BY t.id LIMIT $1",
            epoch_ms("l.renewed")
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.l(|c| Ok(c.query(&sql, &[&limit])?))?;
        Ok(rows
            .iter()
            .map(|r| Orphan {
                table: TableId(r.get(0)),
                renewed: r
                    .get::<_, Option<i64>>(1)
                    .map(|ms| u64::try_from(ms).unwrap_or(0)),
            })
            .collect())
    }

    fn federation(&self) -> Result<String, StoreError> {
        let drawn: i64 = rand::random::<i64>() & i64::MAX;
        let row = self.l(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('federation', $1) ON CONFLICT (key) DO NOTHING",
                &[&drawn],
            )?;
            Ok(c.query_one("SELECT value FROM meta WHERE key = 'federation'", &[])?)
        })?;
        Ok(format!("{:x}", row.get::<_, i64>(0)))
    }

    fn leave(&self, node: &NodeId) -> Result<(), StoreError> {
        self.l(|c| Ok(c.execute("DELETE FROM nodes WHERE name = $1", &[&node])?))?;
        Ok(())
    }

    fn loads(&self, ttl: Duration) -> Result<Vec<NodeLoad>, StoreError> {
        let rows = self.l(|c| {
            Ok(c.query(
                "SELECT n.name, count(l.tbl) FROM nodes n
                 LEFT JOIN leases l ON l.node = n.name AND l.expires >= now()
                 WHERE n.seen >= now() - $1 * interval '1 millisecond'
                 GROUP BY n.name ORDER BY n.name",
                &[&millis(ttl)],
            )?)
        })?;
        Ok(rows
            .iter()
            .map(|r| NodeLoad {
                node: r.get(0),
                tables: usize::try_from(r.get::<_, i64>(1)).unwrap_or(0),
            })
            .collect())
    }
}

/// Within an append's transaction: every table written is held with the fence given and an
/// unexpired lease. The lease rows stay locked (`FOR KEY SHARE`) until the append commits,
/// so a takeover (which locks the row `FOR UPDATE`) waits for it and then reads a log that
/// holds it; a renewal (an update of no key) does not wait, so a busy writer never makes its
/// own node's leases run out.
pub(super) fn check(
    tx: &mut Transaction<'_>,
    entries: &[LogEntry],
    holdings: &[Holding],
) -> Result<(), StoreError> {
    let tables: HashSet<TableId> = entries.iter().map(|e| e.table).collect();
    for table in tables {
        let held = holdings.iter().find(|h| h.table == table).map(|h| h.fence);
        let Some(fence) = held else {
            return Err(StoreError::Fenced { table, held: None });
        };
        let row = tx.query_opt(
            "SELECT fence = $2 AND expires >= now() FROM leases WHERE tbl = $1 FOR KEY SHARE",
            &[&table.0, &fence.0],
        )?;
        if !row.is_some_and(|r| r.get::<_, bool>(0)) {
            return Err(StoreError::Fenced { table, held });
        }
    }
    Ok(())
}
