//! Table ownership between several server nodes on one database (issue 19, item 2): a lease
//! per table with a fencing token. A node writes a table's log only while it holds the
//! table's lease, and every append names the fence it holds: the store refuses an append
//! whose fence is no longer the table's, or whose lease has run out, in the same
//! transaction as the write. A node that was paused (SIGSTOP, a long GC-like stall, a
//! partition) past its lease therefore can never write after another node took the table.

use std::time::Duration;

use super::StoreError;
use crate::model::TableId;

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
}
