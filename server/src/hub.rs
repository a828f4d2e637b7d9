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
use crate::table::{self, TableContext, TableHandle};
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
    /// seat appears here is closed (issue 16, item 3).
    revoked: watch::Sender<Arc<HashSet<String>>>,
    /// What one peer may cost the server ([`crate::limits`]).
    limits: Limits,
    /// Where the store scan stands ([`Hub::start_tables`]).
    scan: std::sync::Mutex<Scan>,
    /// On a node of a federation: its membership ([`crate::federated`]).
    member: Option<Arc<dyn Member>>,
    /// Each event's running tables and tables set aside, as a watch ([`listing`]).
    listed: listing::Listing,
    /// The tables set aside by a 108 replay (issue 30, item 2), as last read from the store.
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
#[derive(Debug, Default)]
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
        // A freeze of the process is charged to nobody (issue 34, item 5).
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
        let recordings = Recordings::open(store.location().as_deref());
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
            scan: std::sync::Mutex::new(Scan::default()),
            member,
            listed: listing::Listing::default(),
            aside: std::sync::Mutex::new(Aside {
                stale: true,
                tables: HashMap::new(),
            }),
        }))
    }

    /// Starts every table of the store not yet running: played matches are rebuilt from
    /// their logs (and, when `restart` is true, paused by the restart policy at the last
    /// instant the store recorded, [`crate::restart`]), new ones are created. The timeline,
    /// held since [`Hub::open`], runs once these steps are stored. Must run inside a tokio
    /// runtime. Returns how many were started; a table that cannot be rebuilt is logged and
    /// left out.
    pub async fn start_tables(self: &Arc<Self>, restart: bool) -> Result<usize, StartError> {
        let started = self.start_new(restart).await?;
        self.close_set_aside().await?;
        Ok(started)
    }

    async fn start_new(self: &Arc<Self>, restart: bool) -> Result<usize, StartError> {
        if let Some(member) = &self.member {
            return member.scan(self).await;
        }
        let hub = self.clone();
        let now = self.timeline.now();
        // Reading and replaying is blocking work: off the async workers.
        let rebuilt = tokio::task::spawn_blocking(move || {
            let rows = hub.load_new()?;
            Ok::<_, StoreError>(
                rows.into_iter()
                    .map(|row| (rebuild(&*hub.store, &row, now), row))
                    .collect::<Vec<_>>(),
            )
        })
        .await??;
        let mut to_store = Vec::new();
        let mut ready = Vec::new();
        for (result, row) in rebuilt {
            match result {
                Ok((mut resumed, first)) => {
                    to_store.extend(first);
                    let played = resumed.next_index > 1;
                    let paused = (restart && played)
                        .then(|| crate::restart::pause(&mut resumed, row.id, self.last_stored))
                        .flatten();
                    // Paused now, or by an earlier restart and never resumed.
                    let policy = resumed
                        .game
                        .paused_by_restart()
                        .then(|| self.policy(row.event));
                    to_store.extend(paused);
                    ready.push((row, resumed, policy));
                }
                // One table that cannot be rebuilt must not keep the others from running;
                // the next scan tries it again.
                Err(e) => {
                    tracing::error!(table = row.id, "not started: {e}");
                    self.scan_failed(row.id, true);
                }
            }
        }
        if !to_store.is_empty() {
            self.writer.append(to_store).await?;
        }
        self.timeline.release();
        let started = ready.len();
        for (row, resumed, policy) in ready {
            self.scan_failed(row.id, false);
            let handle = table::spawn(row.id, resumed, self.context(&row), policy);
            let (event, id) = (row.event, row.id);
            self.write_tables().insert(id, (row, handle));
            // Listed once it runs: whoever follows the event joins it at once.
            self.list(event, id);
        }
        Ok(started)
    }

    /// Notes whether a table failed to start (to be retried) or started.
    fn scan_failed(&self, table: TableId, failed: bool) {
        let mut scan = self
            .scan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if failed {
            scan.failed.insert(table);
        } else {
            scan.failed.remove(&table);
        }
    }

    /// The tables of the store not yet running (and every event, remembered).
    pub fn load_new(&self) -> Result<Vec<TableRow>, StoreError> {
        let events = self.store.events()?;
        {
            let mut map = self
                .events
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for e in events {
                map.insert(e.id, e);
            }
        }
        // Tables are numbered in the order they are added: the new ones are above the highest
        // read so far; those that could not be started are read again, to be retried.
        let (high, retry) = {
            let scan = self
                .scan
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (scan.high, scan.failed.clone())
        };
        let from = retry.first().map_or(high, |lowest| high.min(lowest - 1));
        self.refresh_aside()?;
        let aside = self.lock_aside().tables.clone();
        let mut rows = self.store.tables_after(from)?;
        let mut scan = self
            .scan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        scan.high = rows.iter().map(|r| r.id).max().unwrap_or(high).max(high);
        // A table set aside (作廢, 108) is never started: its clocks stay as they stopped.
        rows.retain(|r| !aside.contains_key(&r.id));
        let running = self.read_tables();
        Ok(rows
            .into_iter()
            .filter(|r| (r.id > high || retry.contains(&r.id)) && !running.contains_key(&r.id))
            .collect())
    }

    /// Reads which seats are revoked (`baoqi event revoke` writes the store from another
    /// process) and tells the connections, which close those seats' sessions.
    /// Returns whether they changed: a 108 replay revokes the seats of the table it sets
    /// aside, so the tables set aside are then read again at the next [`Hub::start_tables`].
    pub async fn check_revocations(&self) -> Result<bool, ScanError> {
        let store = self.store.clone();
        let revoked = tokio::task::spawn_blocking(move || store.revoked()).await??;
        let changed = self.revoked.send_if_modified(|now| {
            let changed = **now != revoked;
            if changed {
                *now = Arc::new(revoked);
            }
            changed
        });
        if changed {
            self.lock_aside().stale = true;
        }
        Ok(changed)
    }

    /// The revoked seats' token hashes, updated by [`Hub::check_revocations`].
    pub fn revocations(&self) -> watch::Receiver<Arc<HashSet<String>>> {
        self.revoked.subscribe()
    }

    /// Keeps starting tables added to the store and closing revoked seats' sessions, every
    /// [`TABLE_SCAN`], until shutdown.
    pub fn watch_store(self: &Arc<Self>) {
        if let Some(member) = &self.member {
            member.watch(self);
            return;
        }
        let hub = self.clone();
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = shutdown.changed() => return,
                    () = tokio::time::sleep(TABLE_SCAN) => {
                        if let Err(e) = hub.start_tables(false).await {
                            tracing::error!("starting new tables: {e}");
                        }
                        match hub.check_revocations().await {
                            // Seats revoked by a replay: its table set aside at once.
                            Ok(true) => {
                                if let Err(e) = hub.start_tables(false).await {
                                    tracing::error!("closing tables set aside: {e}");
                                }
                            }
                            Ok(false) => {}
                            Err(e) => tracing::error!("reading revoked seats: {e}"),
                        }
                        if let Err(e) = hub.check_recorded().await {
                            tracing::error!("reading the organiser's results: {e}");
                        }
                    }
                }
            }
        });
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

    fn lock_aside(&self) -> std::sync::MutexGuard<'_, Aside> {
        self.aside
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads the tables set aside from the store when they may have changed (blocking).
    fn refresh_aside(&self) -> Result<(), StoreError> {
        if !self.lock_aside().stale {
            return Ok(());
        }
        let mut tables = HashMap::new();
        for event in self.store.events()? {
            for t in baoqi_organiser::changelog::set_aside(&*self.store, event.id)? {
                tables.insert(t, event.id);
            }
        }
        let mut aside = self.lock_aside();
        aside.tables = tables;
        aside.stale = false;
        Ok(())
    }

    /// Reads the organiser's results of every tournament's tables from the store (`baoqi
    /// round result` writes them from another process, the organiser page through this
    /// server) and tells the connections that follow an event when they changed.
    pub async fn check_recorded(&self) -> Result<(), ScanError> {
        let store = self.store.clone();
        let events: Vec<EventId> = self.events().iter().map(|e| e.id).collect();
        let read = tokio::task::spawn_blocking(move || {
            let Some(records) = store.tournaments() else {
                return Ok(Vec::new());
            };
            events
                .into_iter()
                .map(|event| {
                    let rows = records.pairings(event)?;
                    let recorded = rows
                        .iter()
                        .filter_map(|r| Some((r.table?, r.result?)))
                        .collect::<std::collections::BTreeMap<_, _>>();
                    Ok((event, recorded))
                })
                .collect::<Result<Vec<_>, StoreError>>()
        })
        .await??;
        for (event, recorded) in read {
            self.listed.record(event, recorded);
        }
        Ok(())
    }

    /// Closes the tables set aside by a 108 replay (作廢, issue 30, item 2): each running
    /// one's task ends, its clocks stopped where they stood and no call raised any more; it
    /// leaves the running tables (exports, results) and the connections that follow its
    /// event are told. Its log stays in the store, for the record.
    async fn close_set_aside(self: &Arc<Self>) -> Result<(), StartError> {
        let hub = self.clone();
        tokio::task::spawn_blocking(move || hub.refresh_aside()).await??;
        let aside = self.lock_aside().tables.clone();
        for (id, event) in aside {
            self.listed.set_aside(event, id);
            let removed = self.write_tables().remove(&id);
            if let Some((_, handle)) = removed {
                tracing::info!(table = id, "set aside (108): closed");
                handle.stop().await;
            }
        }
        Ok(())
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

    /// The running tables of an event (every event when `None`), by id: an event's from its
    /// list (no scan of the other events' tables).
    pub fn tables_of(&self, event: Option<EventId>) -> Vec<TableRow> {
        let tables = self.read_tables();
        let Some(event) = event else {
            let mut rows: Vec<TableRow> = tables.values().map(|(r, _)| r.clone()).collect();
            rows.sort_by_key(|r| r.id);
            return rows;
        };
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
