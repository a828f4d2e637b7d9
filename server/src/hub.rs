//! The hub: every running match task, the store, the timeline and the seats. It rebuilds
//! every match from the store at start (the restart policy pauses their clocks), starts
//! tables added to the store later (e.g. by `baoqi table add` while the server runs), and
//! authenticates tokens.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use baoqi_protocol::ErrorCode;
use tokio::sync::watch;

use crate::federated::Member;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::recording::Recordings;
use crate::table::{TableContext, TableHandle};
use baoqi_store::config::ResumePolicy;
use baoqi_store::model::{EventId, EventRow, SeatRow, TableId, TableRow, Token};
use baoqi_store::replay::RebuildError;
use baoqi_store::replay::rebuild;
use baoqi_store::timeline::{Millis, Timeline};
use baoqi_store::{Store, StoreError, Writer};
pub use listing::{Listed, covered};

/// Why the hub could not start its tables.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The blocking work panicked or was cancelled.
    #[error("starting the tables: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// Why the revoked seats could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The blocking work panicked or was cancelled.
    #[error("reading the seats: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// Why a token opens no seat.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// No seat has this token.
    #[error("this token opens no seat")]
    BadToken,
    /// The seat's token was revoked.
    #[error("this seat's token was revoked")]
    Revoked,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The lookup panicked or was cancelled.
    #[error("the seat lookup failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}

impl AuthError {
    /// The protocol's error code for it.
    pub fn code(&self) -> ErrorCode {
        match self {
            AuthError::BadToken => ErrorCode::BadToken,
            AuthError::Revoked => ErrorCode::Revoked,
            AuthError::Store(_) => ErrorCode::Storage,
            AuthError::Join(_) => ErrorCode::Unavailable,
        }
    }
}

mod listing;
mod scan;

/// How often the store is scanned for tables added by another process.
pub const TABLE_SCAN: Duration = Duration::from_secs(1);

/// Shared state of a running server.
pub struct Hub {
    store: Arc<dyn Store>,
    /// The last instant the store had recorded when the hub opened: the restart pauses are
    /// stamped there ([`crate::restart`]).
    last_stored: Millis,
    writer: Writer,
    timeline: Arc<Timeline>,
    metrics: Arc<Metrics>,
    shutdown: watch::Sender<bool>,
    tables: RwLock<HashMap<TableId, (TableRow, TableHandle)>>,
    events: RwLock<HashMap<EventId, EventRow>>,
    recordings: Recordings,
    /// The token hashes of revoked seats, as last read from the store: a connection whose
    /// seat appears here is closed.
    revoked: watch::Sender<Arc<HashSet<String>>>,
    /// What one peer may cost the server ([`crate::limits`]).
    limits: Limits,
    /// Where the store scan stands ([`Hub::start_tables`]).
    scan: std::sync::Mutex<Scan>,
    /// On a node of a federation: its membership ([`crate::federated`]).
    member: Option<Arc<dyn Member>>,
    /// Each event's running tables and tables set aside, as a watch ([`listing`]).
    listed: listing::Listing,
    /// The tables set aside by a 108 replay, as last read from the store.
    aside: std::sync::Mutex<Aside>,
}

/// The tables set aside (作廢), by table, with their event; read again from the store when
/// `stale` (at start, and whenever seats were revoked: a replay revokes the old table's).
#[derive(Debug)]
struct Aside {
    stale: bool,
    tables: HashMap<TableId, EventId>,
}

/// The store scan's place: the highest table number read, and the tables that could not be
/// started (read again at every scan, to be retried).
#[derive(Debug)]
struct Scan {
    high: TableId,
    failed: std::collections::BTreeSet<TableId>,
}

impl Hub {
    /// Opens the hub on a store: the timeline continues from the store's last mark, held
    /// until [`Hub::start_tables`] has rebuilt the matches, and the store keeps the wall clock
    /// at that instant (the exports date games by it).
    pub fn open(store: Arc<dyn Store>) -> Result<Arc<Hub>, StoreError> {
        Hub::open_with(store, Limits::default())
    }

    /// [`Hub::open`] with other limits than the defaults (tests shorten the times; the
    /// server derives the total from its file-descriptor limit).
    pub fn open_with(store: Arc<dyn Store>, limits: Limits) -> Result<Arc<Hub>, StoreError> {
        let last_stored = store.timeline()?;
        let timeline = Arc::new(Timeline::held_after(last_stored));
        // A freeze of the process is charged to nobody.
        timeline.watch_stalls();
        let writer = Writer::start(store.clone(), timeline.clone());
        Hub::build(store, last_stored, timeline, writer, limits, None)
    }

    /// Assembles a hub; a federation's node passes its [`Member`] and a writer that
    /// appends with its fences ([`Writer::start_fenced`]), a hall [`Hub::open_with`].
    pub fn build(
        store: Arc<dyn Store>,
        last_stored: Millis,
        timeline: Arc<Timeline>,
        writer: Writer,
        limits: Limits,
        member: Option<Arc<dyn Member>>,
    ) -> Result<Arc<Hub>, StoreError> {
        store.mark_wall_clock(timeline.now(), baoqi_store::wallclock::now())?;
        let (shutdown, _) = watch::channel(false);
        let recordings = Recordings::open(&*store);
        Ok(Arc::new(Hub {
            store,
            last_stored,
            writer,
            timeline,
            metrics: Arc::new(Metrics::default()),
            shutdown,
            tables: RwLock::new(HashMap::new()),
            events: RwLock::new(HashMap::new()),
            recordings,
            revoked: watch::channel(Arc::new(HashSet::new())).0,
            limits,
            scan: std::sync::Mutex::new(Scan {
                high: TableId(0),
                failed: std::collections::BTreeSet::new(),
            }),
            member,
            listed: listing::Listing::default(),
            aside: std::sync::Mutex::new(Aside {
                stale: true,
                tables: HashMap::new(),
            }),
        }))
    }

    /// The resume policy of an event's matches paused by a restart or a takeover.
    pub fn policy(&self, event: EventId) -> ResumePolicy {
        let events = self
            .events
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        events
            .get(&event)
            .map(|e| e.settings.resume)
            .unwrap_or_default()
    }

    /// What a match task of `row` needs besides its game.
    pub fn context(&self, row: &TableRow) -> TableContext {
        let (store, row) = (self.store.clone(), row.clone());
        let timeline = self.timeline.clone();
        TableContext {
            store: self.store.clone(),
            rebuild: Arc::new(move || -> Result<_, RebuildError> {
                Ok(rebuild(&*store, &row, timeline.now())?.0)
            }),
            writer: self.writer.clone(),
            timeline: self.timeline.clone(),
            metrics: self.metrics.clone(),
            commands: self.limits.commands,
            shutdown: self.shutdown.subscribe(),
            recordings: self.recordings.board().clone(),
            lost: self.member.as_ref().map(|m| m.lost_sender()),
        }
    }

    fn read_tables(
        &self,
    ) -> std::sync::RwLockReadGuard<'_, HashMap<TableId, (TableRow, TableHandle)>> {
        self.tables
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write_tables(
        &self,
    ) -> std::sync::RwLockWriteGuard<'_, HashMap<TableId, (TableRow, TableHandle)>> {
        self.tables
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Puts a table's handle in place (a table taken or lost by this node); the handle it
    /// replaces, if any.
    pub fn put(&self, row: TableRow, handle: TableHandle) -> Option<TableHandle> {
        let (event, id) = (row.event, row.id);
        let old = self
            .write_tables()
            .insert(id, (row, handle))
            .map(|(_, old)| old);
        self.list(event, id);
        old
    }

    /// Adds table `id` to the list of `event` (no change when it is listed already), and
    /// tells the connections that follow the event.
    fn list(&self, event: EventId, id: TableId) {
        self.listed.run(event, id);
    }

    /// The tables of `event`, running and set aside, and a receiver that changes when a
    /// table is added or set aside (the connections that follow an event's tables).
    pub fn follow_tables(&self, event: EventId) -> watch::Receiver<Listed> {
        self.listed.follow(event)
    }

    /// The running tables of `event`, in order (no row is read).
    pub fn table_ids(&self, event: EventId) -> Arc<[TableId]> {
        self.listed.now(event).running
    }

    /// Whether table `id` was set aside by a 108 replay (作廢).
    pub fn is_set_aside(&self, id: TableId) -> bool {
        self.lock_aside().tables.contains_key(&id)
    }

    /// The writer of the match tasks.
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// Its membership, on a node of a federation.
    pub fn member(&self) -> Option<&Arc<dyn Member>> {
        self.member.as_ref()
    }

    /// The running task of a table.
    pub fn table(&self, id: TableId) -> Option<TableHandle> {
        self.read_tables().get(&id).map(|(_, h)| h.clone())
    }

    /// A table's stored description.
    pub fn table_row(&self, id: TableId) -> Option<TableRow> {
        self.read_tables().get(&id).map(|(r, _)| r.clone())
    }

    /// The running tables of an event, by id, from its list (no scan of the other events'
    /// tables).
    pub fn tables_of(&self, event: EventId) -> Vec<TableRow> {
        let tables = self.read_tables();
        self.table_ids(event)
            .iter()
            .filter_map(|id| tables.get(id).map(|(r, _)| r.clone()))
            .collect()
    }

    /// How many tables run.
    pub fn table_count(&self) -> usize {
        self.read_tables().len()
    }

    /// One event known to the hub.
    pub fn event(&self, id: EventId) -> Option<EventRow> {
        self.events
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&id)
            .cloned()
    }

    /// Every event known to the hub, by id.
    pub fn events(&self) -> Vec<EventRow> {
        let mut v: Vec<EventRow> = self
            .events
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .cloned()
            .collect();
        v.sort_by_key(|e| e.id);
        v
    }

    /// The seat holding `token`, unless unknown or revoked.
    pub async fn authenticate(&self, token: &str) -> Result<SeatRow, AuthError> {
        let hash = Token::from_secret(token).hash();
        let store = self.store.clone();
        let found = tokio::task::spawn_blocking(move || store.seat(&hash)).await??;
        match found {
            None => Err(AuthError::BadToken),
            Some(s) if s.revoked => Err(AuthError::Revoked),
            Some(s) => Ok(s),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// What one peer may cost the server.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The game timeline.
    pub fn timeline(&self) -> &Arc<Timeline> {
        &self.timeline
    }

    /// The game recordings: archive, live status, size limit.
    pub fn recordings(&self) -> &Recordings {
        &self.recordings
    }

    /// The measurements.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// A receiver that changes when the server shuts down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Stops every match task and connection.
    pub fn shutdown(&self) {
        let _ = self.shutdown.send(true);
    }
}
