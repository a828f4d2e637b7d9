//! The seam through which a federation plugs into the server. A hall's server
//! runs every table of its store itself and names no node: on a node of a federation the
//! hub is given a [`Member`], which decides which tables this process runs (and hands the
//! others to it as [`RemoteMatch`]es), and `baoqi serve` is given a [`Federation`] to open
//! such a hub. The federation's crate implements these; nothing of it is on a hall's path.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use baoqi_arbiter::{Command, View};
use baoqi_store::Store;
use baoqi_store::game::GameRecord;
use baoqi_store::model::TableId;
use tokio::sync::mpsc;

use crate::hub::{Hub, StartError};
use crate::limits::Limits;
use crate::table::{Handled, Joined, SeatKey};

/// A future the seam's traits return (they are used as trait objects).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why a federation's hub could not be opened: the federation's own error, kept whole.
pub type FederationError = Box<dyn std::error::Error + Send + Sync>;

/// A way into a federation, given to `baoqi serve` (`--node`).
pub trait Federation: Send + Sync {
    /// Opens the hub of this node on `store`: its timeline, its fenced writer and its
    /// [`Member`] ([`Hub::build`]).
    fn open(
        &self,
        store: Arc<dyn Store>,
        limits: Limits,
    ) -> BoxFuture<'_, Result<Arc<Hub>, FederationError>>;
}

/// A hub's membership of a federation: which tables it runs, and its loops.
pub trait Member: Send + Sync + 'static {
    /// The node's name, for the operator's messages.
    fn name(&self) -> &str;
    /// Starts the tables this node should run and follows the others (instead of the
    /// hall's [`Hub::start_tables`]); how many it took.
    fn scan<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, Result<usize, StartError>>;
    /// The node's first step in the federation (says it is alive, then takes its share).
    fn join<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, Result<usize, StartError>>;
    /// Keeps the node's loops running until shutdown (instead of the hall's store watch).
    fn watch(&self, hub: &Arc<Hub>);
    /// Leaves the federation as the server stops, so that others take its tables at once.
    fn leave<'a>(&'a self, hub: &'a Arc<Hub>) -> BoxFuture<'a, ()>;
    /// Where a table's task says that the node no longer holds the table.
    fn lost_sender(&self) -> mpsc::UnboundedSender<TableId>;
    /// Whether the node's connection to the federation's bus is up now (`/readyz`).
    fn bus_connected(&self) -> bool;
}

/// A match another process runs, used by this one's connections as a match of its own
/// ([`crate::table::TableHandle`]).
pub trait RemoteMatch: Send + Sync + 'static {
    /// The table.
    fn id(&self) -> TableId;
    /// Sends a command from a seat and waits for its outcome.
    fn command(&self, seat: SeatKey, command: Command) -> BoxFuture<'_, Option<Handled>>;
    /// Subscribes: the state, the live feed, the events after `since` when still held.
    fn join(&self, since: Option<u64>) -> BoxFuture<'_, Option<Joined>>;
    /// The snapshot of the game once over.
    fn over(&self) -> Option<Arc<View>>;
    /// The game record and the current snapshot.
    fn record(&self) -> BoxFuture<'_, Option<(GameRecord, Arc<View>)>>;
}
