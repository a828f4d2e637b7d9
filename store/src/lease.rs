//! Table ownership between several server nodes on one database: a lease per table with a
//! fencing token. A node writes a table's log only while it holds the table's lease, and
//! every append names the fence it holds: the store refuses an append whose fence is no
//! longer the table's, or whose lease has run out, in the same transaction as the write. A
//! node that was paused (SIGSTOP, a long GC-like stall, a partition) past its lease
//! therefore can never write after another node took the table.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};
use std::time::Duration;

use super::StoreError;
use crate::model::TableId;
use crate::wallclock::UnixMillis;

/// A node's name, unique among the nodes sharing a database (e.g. `hall-a:7878:pid`).
pub type NodeId = str;

/// The fencing token of one holding of a table's lease: it grows by one at every change of
/// owner, so an older holding always has a smaller one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fence(pub i64);

/// What a node holds of a table: the table and the fence its appends must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Holding {
    /// The table.
    pub table: TableId,
    /// The fence.
    pub fence: Fence,
}

/// A store that leases tables to nodes.
pub trait Leases: Send + Sync {
    /// Takes the table's lease for `ttl` when it is free, expired or already `node`'s; the
    /// fence is new unless `node` held an unexpired lease. `None`: another node holds it.
    fn acquire(
        &self,
        table: TableId,
        node: &NodeId,
        ttl: Duration,
    ) -> Result<Option<Fence>, StoreError>;
    /// Extends a holding by `ttl` from now; false when the lease was taken meanwhile (the
    /// holder must stop writing and drop the table).
    fn renew(&self, holding: Holding, ttl: Duration) -> Result<bool, StoreError>;
    /// Gives a holding up (a node shutting down), so that another node need not wait for
    /// it to expire.
    fn release(&self, holding: Holding) -> Result<(), StoreError>;
    /// The node that holds the table's unexpired lease, if any.
    fn owner(&self, table: TableId) -> Result<Option<String>, StoreError>;
    /// The database server's clock, milliseconds since the Unix epoch: the one clock every
    /// node of a federation reads (the nodes' game timelines run on it).
    fn clock(&self) -> Result<UnixMillis, StoreError>;
    /// A node's heartbeat: extends every unexpired lease `node` holds by `ttl`, notes when,
    /// and records the node as alive. Returns the holdings it still has; a table missing
    /// from them was lost (its lease ran out) and must be dropped.
    fn heartbeat(&self, node: &NodeId, ttl: Duration) -> Result<Vec<Holding>, StoreError>;
    /// Tables nobody holds (never leased, released, or whose lease ran out), at most
    /// `limit`, with when their last holder last renewed its lease.
    fn orphans(&self, limit: usize) -> Result<Vec<Orphan>, StoreError>;
    /// The federation's mark: drawn at random by the first node and kept in the database,
    /// the same for every node on it (it keeps the NATS subjects of two federations apart).
    fn federation(&self) -> Result<String, StoreError>;
    /// A node stopping: it is no longer counted among the live nodes sharing the tables.
    fn leave(&self, node: &NodeId) -> Result<(), StoreError>;
    /// The nodes seen within `ttl`, each with how many tables it holds.
    fn loads(&self, ttl: Duration) -> Result<Vec<NodeLoad>, StoreError>;
}

/// A table that no node holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orphan {
    /// The table.
    pub table: TableId,
    /// When its last holder last renewed the lease (database clock), `None` if never leased:
    /// the last instant at which that holder is known to have been running the table.
    pub renewed: Option<UnixMillis>,
}

/// A live node and its share of the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeLoad {
    /// The node.
    pub node: String,
    /// How many tables it holds.
    pub tables: usize,
}

/// The tables one node holds, with their fences: changed by the node as it takes and loses
/// tables, read by its writer at every append ([`crate::Store::append_fenced`]).
#[derive(Debug, Default)]
pub struct Held(RwLock<HashMap<TableId, Fence>>);

impl Held {
    /// Notes a holding (a table taken).
    pub fn insert(&self, holding: Holding) {
        self.0
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(holding.table, holding.fence);
    }

    /// Forgets a table (lost or given up); its fence, if it was held.
    pub fn remove(&self, table: TableId) -> Option<Fence> {
        self.0
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&table)
    }

    /// The holdings of the tables named, those held.
    pub fn of(&self, tables: impl IntoIterator<Item = TableId>) -> Vec<Holding> {
        let map = self.0.read().unwrap_or_else(PoisonError::into_inner);
        tables
            .into_iter()
            .filter_map(|table| map.get(&table).map(|&fence| Holding { table, fence }))
            .collect()
    }

    /// Every holding.
    pub fn all(&self) -> Vec<Holding> {
        let map = self.0.read().unwrap_or_else(PoisonError::into_inner);
        map.iter()
            .map(|(&table, &fence)| Holding { table, fence })
            .collect()
    }

    /// How many tables are held.
    pub fn len(&self) -> usize {
        self.0.read().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether no table is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
