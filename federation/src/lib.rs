//! baoqi-federation (報棋): a node of a federation, one of several `baoqi serve --node`
//! processes on one PostgreSQL database and one NATS server. It plugs into the server
//! through the server's own seam ([`baoqi_server::federated`]): a hall's server runs with
//! none of this code on its path.
//!
//! - **Ownership.** Each table is run by the one node holding its lease
//!   ([`baoqi_store::lease`]); every append carries the lease's fence, so a node that
//!   lost a table (paused, cut off) can never write to it again. A node renews its leases
//!   every [`NodeConfig::tick`] (a third of the lease's time) and drops a table whose lease
//!   it lost: the table's connections resync, through the new holder.
//! - **Sharing.** A node takes the tables nobody holds (new, released, or whose holder
//!   died) up to its share of the live nodes' tables ([`share`]), so that a federation's
//!   tables spread over its nodes and those of a dead node spread over the living.
//! - **Takeover.** A table taken over is rebuilt from its stored log and, if it was being
//!   played, paused at the last instant its old holder is known to have run it (its last
//!   renewal, or its last step if later): the same rule as a restart ([`baoqi_server::restart`]),
//!   so the time the table had no holder is charged to nobody ([`takeover`]).
//! - **Any node serves any seat.** A connection to a node that does not hold its table
//!   reaches the holder through NATS ([`relay`], [`remote`]).
//! - **One clock.** The nodes' game timelines run on the database server's clock (read once
//!   at the start), so that a table's instants keep growing when another node takes it.

mod keeper;
pub mod member;
pub mod relay;
pub mod remote;
pub mod takeover;
pub mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use baoqi_store::lease::{Held, NodeLoad};
use baoqi_store::model::{EventId, TableId};

pub use keeper::{give_up_all, join, scan, watch};
pub use member::{Joining, open_hub};

/// How long a lease lasts unless renewed: a dead node's tables are taken over after about
/// this long.
pub const DEFAULT_TTL: Duration = Duration::from_secs(3);

/// What a node needs to know to join its federation.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    /// Its name, unique among the nodes (e.g. `hall-a-1`).
    pub name: String,
    /// The NATS server's URL (`nats://127.0.0.1:4222`).
    pub nats: String,
    /// How long its leases last unless renewed.
    pub ttl: Duration,
}

/// The least time a node waits for another's answer over NATS.
const MIN_ANSWER: Duration = Duration::from_secs(2);

impl NodeConfig {
    /// How long a request to the holder of a table (a command, a join) waits for its answer:
    /// the lease, at least `MIN_ANSWER`. A holder that has not answered in its lease's
    /// time is one the federation is taking the table from; the request is then answered
    /// "not known" and the client resyncs (with a fixed 5 s, a command in flight
    /// at a node's death held its table 5 s past a takeover of 2).
    pub fn answer_within(&self) -> Duration {
        self.ttl.max(MIN_ANSWER)
    }

    /// How often the node renews its leases and looks for tables nobody holds.
    pub fn tick(&self) -> Duration {
        self.ttl / 3
    }
}

/// Why a node could not join its federation.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The store keeps no leases (a `SQLite` file is one hall's, for one server).
    #[error("--node needs the federation's PostgreSQL database (--db postgres://…)")]
    NoLeases,
    /// The NATS server could not be reached.
    #[error("NATS at {url}: {source}")]
    Nats {
        /// The URL.
        url: String,
        /// Why.
        source: async_nats::ConnectError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] baoqi_store::StoreError),
    /// The blocking work panicked or was cancelled.
    #[error("joining the federation: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// The federation's NATS connection and the mark of its subjects.
#[derive(Clone)]
pub struct Bus {
    /// The connection.
    pub nats: async_nats::Client,
    /// The federation's mark ([`baoqi_store::lease::Leases::federation`]).
    pub federation: Arc<str>,
    /// How many times the connection was made again after the bus went away: what was
    /// published meanwhile never arrived, so whoever follows a table over the bus reads
    /// it again when this changes.
    pub reconnected: watch::Receiver<u64>,
}

impl Bus {
    /// Whether the connection to the NATS server is up now.
    pub fn connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// The subject of a table's topic ([`wire::subject`]).
    pub fn subject(&self, event: EventId, table: TableId, topic: wire::Topic) -> String {
        wire::subject(&self.federation, event, table, topic)
    }
}

/// A running node's own state.
pub struct Node {
    config: NodeConfig,
    bus: Bus,
    /// The name its leases carry: its configured name and its process, so that a node
    /// restarted under the same name never mistakes its dead predecessor's leases for its own.
    id: String,
    held: Arc<Held>,
    lost_tx: mpsc::UnboundedSender<TableId>,
    lost_rx: Mutex<Option<mpsc::UnboundedReceiver<TableId>>>,
    relays: Mutex<HashMap<TableId, relay::Relay>>,
}

impl Node {
    /// Connects to NATS; `federation` marks the subjects of the database's federation.
    pub async fn connect(config: NodeConfig, federation: &str) -> Result<Node, NodeError> {
        let (reconnects, reconnected) = watch::channel(0);
        let nats = async_nats::ConnectOptions::new()
            .name(&config.name)
            .request_timeout(Some(config.answer_within()))
            .event_callback(move |event| {
                on_bus_event(&event, &reconnects);
                std::future::ready(())
            })
            .connect(&config.nats)
            .await
            .map_err(|source| NodeError::Nats {
                url: config.nats.clone(),
                source,
            })?;
        let (lost_tx, lost_rx) = mpsc::unbounded_channel();
        let id = format!("{}:{}", config.name, std::process::id());
        Ok(Node {
            id,
            config,
            bus: Bus {
                nats,
                federation: federation.into(),
                reconnected,
            },
            held: Arc::new(Held::default()),
            lost_tx,
            lost_rx: Mutex::new(Some(lost_rx)),
            relays: Mutex::new(HashMap::new()),
        })
    }

    /// Its configuration.
    pub fn config(&self) -> &NodeConfig {
        &self.config
    }

    /// The name its leases carry ([`Node::connect`]).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The tables it holds, with their fences (its writer reads them).
    pub fn held(&self) -> &Arc<Held> {
        &self.held
    }

    /// Where its tables' tasks say that an append was refused for a lost lease.
    pub fn lost_sender(&self) -> mpsc::UnboundedSender<TableId> {
        self.lost_tx.clone()
    }

    /// Its NATS connection and the federation's subjects.
    pub fn bus(&self) -> &Bus {
        &self.bus
    }

    fn relays(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, relay::Relay>> {
        self.relays.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What the NATS client says of its connection: a connection made again counts in
/// [`Bus::reconnected`] (the first, at the start, counts too: it is harmless).
fn on_bus_event(event: &async_nats::Event, reconnects: &watch::Sender<u64>) {
    match event {
        async_nats::Event::Connected => {
            tracing::info!("NATS: connected");
            ::metrics::counter!("baoqi_bus_connects_total").increment(1);
            reconnects.send_modify(|n| *n += 1);
        }
        async_nats::Event::Disconnected => tracing::warn!("NATS: disconnected"),
        other => tracing::info!("NATS: {other}"),
    }
}

/// How many of the `orphans` (tables nobody holds) a node holding `mine` tables takes, so
/// that every live node ends with its share: the tables held and free, divided among the
/// live nodes (`loads`, which may or may not list this node yet), rounded up.
pub fn share(loads: &[NodeLoad], me: &str, mine: usize, orphans: usize) -> usize {
    let others = loads.iter().filter(|l| l.node != me);
    let (nodes, theirs) = others.fold((1, 0), |(n, t), l| (n + 1, t + l.tables));
    let target = (theirs + mine + orphans).div_ceil(nodes);
    target.saturating_sub(mine).min(orphans)
}
