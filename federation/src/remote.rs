//! A match another node holds, seen from this one: a seat connected here sends its commands
//! to the holder and follows its events through NATS, the same way as a match of this
//! process ([`baoqi_server::table::TableHandle`]). While no node holds the table (its
//! holder died and the takeover has not happened yet) a command or a join waits for the new
//! holder, up to [`RemoteTable::PATIENCE`]; a command is sent again only when no node took
//! it (`no responders`), never after one may have.
//!
//! What the holder published while the bus was away never arrives. When the bus is back
//! ([`super::Bus::reconnected`]) the table's feed here is closed: every connection
//! following it joins again from the last event it had, and the holder sends what it
//! missed; the snapshot once over is asked for again.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_nats::RequestErrorKind;
use baoqi_arbiter::{Command, View};
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::{OnceCell, broadcast, watch};
use tokio::task::JoinHandle;

use super::Bus;
use super::wire::{Topic, WireCommand, WireHandled, WireJoin, WireJoined, WirePublished};
use baoqi_server::federated::{BoxFuture, RemoteMatch};
use baoqi_server::table::{BROADCAST, Handled, Joined, Published, SeatKey};
use baoqi_store::Store;
use baoqi_store::game::GameRecord;
use baoqi_store::model::{TableId, TableRow};
use baoqi_store::timeline::Timeline;

/// A match held by another node.
pub struct RemoteTable {
    row: TableRow,
    bus: Bus,
    store: Arc<dyn Store>,
    timeline: Arc<Timeline>,
    feed: Feed,
    over: watch::Receiver<Option<Arc<View>>>,
    /// The task following the holder's snapshot once over (ended when dropped).
    over_task: JoinHandle<()>,
    /// The task following the holder's events, from the first join (ended when dropped).
    events_task: OnceCell<JoinHandle<()>>,
}

impl RemoteTable {
    /// How long a command or a join waits for a node to hold the table: a lease's time and
    /// a scan, with room for rebuilding the match.
    pub const PATIENCE: Duration = Duration::from_secs(12);

    /// Follows the table held elsewhere: its snapshot once over at once, its events from
    /// the first join.
    pub fn follow(
        row: TableRow,
        bus: Bus,
        store: Arc<dyn Store>,
        timeline: Arc<Timeline>,
    ) -> Arc<RemoteTable> {
        let (over_tx, over) = watch::channel(None);
        let feed = Feed::default();
        let over_task = tokio::spawn(follow_over(bus.clone(), row.clone(), over_tx));
        Arc::new(RemoteTable {
            row,
            bus,
            store,
            timeline,
            feed,
            over,
            over_task,
            events_task: OnceCell::new(),
        })
    }

    /// The table.
    pub fn id(&self) -> TableId {
        self.row.id
    }

    fn subject(&self, topic: Topic) -> String {
        self.bus.subject(self.row.event, self.row.id, topic)
    }

    /// Asks the holder, waiting for one while nobody holds the table. `None`: no answer.
    async fn ask(&self, topic: Topic, payload: Vec<u8>) -> Option<Bytes> {
        let payload = Bytes::from(payload);
        let give_up = tokio::time::Instant::now() + Self::PATIENCE;
        loop {
            match self
                .bus
                .nats
                .request(self.subject(topic), payload.clone())
                .await
            {
                Ok(reply) => return Some(reply.payload),
                Err(e) if e.kind() == RequestErrorKind::NoResponders => {
                    if tokio::time::Instant::now() >= give_up {
                        return None;
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Err(e) => {
                    tracing::warn!(table = %self.row.id, "asking the holder: {e}");
                    return None;
                }
            }
        }
    }

    /// Sends a seat's command to the holder and waits for its outcome.
    pub async fn command(&self, seat: SeatKey, command: Command) -> Option<Handled> {
        let body = serde_json::to_vec(&WireCommand { seat, command }).ok()?;
        let reply = self.ask(Topic::Command, body).await?;
        let handled: WireHandled = serde_json::from_slice(&reply).ok()?;
        Some(handled.into())
    }

    /// Subscribes to the holder's events, then joins: the state, and the events after
    /// `since` when the holder still has them in memory.
    pub async fn join(&self, since: Option<u64>) -> Option<Joined> {
        self.follow_events().await?;
        let rx = self.feed.subscribe();
        let body = serde_json::to_vec(&WireJoin { since }).ok()?;
        let reply = self.ask(Topic::Join, body).await?;
        let joined: WireJoined = serde_json::from_slice(&reply).ok()?;
        Some(Joined {
            rx,
            state: joined.state,
            seq: joined.seq,
            missed: joined
                .missed
                .map(|m| m.into_iter().map(Arc::<Published>::from).collect()),
        })
    }

    /// Starts following the events once; the subscription is in place (flushed to the
    /// NATS server) before the join is asked, so that nothing falls between the two.
    async fn follow_events(&self) -> Option<()> {
        self.events_task
            .get_or_try_init(|| async {
                let events = self.bus.nats.subscribe(self.subject(Topic::Events)).await?;
                self.bus.nats.flush().await?;
                let (feed, mut reconnected) = (self.feed.clone(), self.bus.reconnected.clone());
                reconnected.mark_unchanged();
                Ok::<_, async_nats::Error>(tokio::spawn(async move {
                    let mut events = events.fuse();
                    loop {
                        tokio::select! {
                            msg = events.next() => match msg {
                                Some(msg) => feed.pass(&msg.payload),
                                None => return,
                            },
                            Ok(()) = reconnected.changed() => feed.renew(),
                        }
                    }
                }))
            })
            .await
            .map_err(|e| tracing::warn!(table = %self.row.id, "following the holder: {e}"))
            .ok()
            .map(|_| ())
    }

    /// The snapshot once the game is over, as the holder last published it.
    pub fn over(&self) -> Option<Arc<View>> {
        self.over.borrow().clone()
    }

    /// The game record and the current snapshot, rebuilt from the store (which every node
    /// shares): the holder's task is not asked.
    pub async fn record(&self) -> Option<(GameRecord, Arc<View>)> {
        let (store, row, now) = (self.store.clone(), self.row.clone(), self.timeline.now());
        let rebuilt =
            tokio::task::spawn_blocking(move || baoqi_store::replay::rebuild(&*store, &row, now));
        let game = rebuilt.await.ok()?.ok()?.0.game;
        Some((game.record(), Arc::new(game.snapshot())))
    }
}

impl Drop for RemoteTable {
    fn drop(&mut self) {
        self.over_task.abort();
        if let Some(task) = self.events_task.get() {
            task.abort();
        }
    }
}

/// The feed of a table's events to this node's connections. Renewed when the bus comes
/// back: the old one closes, and each connection on it joins again from its last event.
#[derive(Clone)]
struct Feed(Arc<Mutex<broadcast::Sender<Arc<Published>>>>);

impl Default for Feed {
    fn default() -> Feed {
        Feed(Arc::new(Mutex::new(broadcast::channel(BROADCAST).0)))
    }
}

impl Feed {
    fn sender(&self) -> std::sync::MutexGuard<'_, broadcast::Sender<Arc<Published>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn subscribe(&self) -> broadcast::Receiver<Arc<Published>> {
        self.sender().subscribe()
    }

    /// Passes on an event the holder published.
    fn pass(&self, payload: &[u8]) {
        if let Ok(p) = serde_json::from_slice::<WirePublished>(payload) {
            let _ = self.sender().send(p.into());
        }
    }

    /// Closes the feed for its connections and opens a new one.
    fn renew(&self) {
        *self.sender() = broadcast::channel(BROADCAST).0;
    }
}

/// Keeps `over` as the holder publishes it; asks for it at the start and again each time
/// the bus comes back (what was published meanwhile never arrived).
async fn follow_over(bus: Bus, row: TableRow, over: watch::Sender<Option<Arc<View>>>) {
    let nats = &bus.nats;
    let Ok(mut published) = nats
        .subscribe(bus.subject(row.event, row.id, Topic::Over))
        .await
    else {
        return;
    };
    let mut reconnected = bus.reconnected.clone();
    loop {
        reconnected.mark_unchanged();
        let asked = nats
            .request(bus.subject(row.event, row.id, Topic::OverGet), Bytes::new())
            .await;
        if let Ok(reply) = asked {
            over.send_replace(decode_over(&reply.payload));
        }
        loop {
            tokio::select! {
                msg = published.next() => match msg {
                    Some(msg) => drop(over.send_replace(decode_over(&msg.payload))),
                    None => return,
                },
                Ok(()) = reconnected.changed() => break,
            }
        }
    }
}

fn decode_over(payload: &[u8]) -> Option<Arc<View>> {
    serde_json::from_slice::<Option<View>>(payload)
        .ok()
        .flatten()
        .map(Arc::new)
}

impl RemoteMatch for RemoteTable {
    fn id(&self) -> TableId {
        RemoteTable::id(self)
    }

    fn command(&self, seat: SeatKey, command: Command) -> BoxFuture<'_, Option<Handled>> {
        Box::pin(RemoteTable::command(self, seat, command))
    }

    fn join(&self, since: Option<u64>) -> BoxFuture<'_, Option<Joined>> {
        Box::pin(RemoteTable::join(self, since))
    }

    fn over(&self) -> Option<Arc<View>> {
        RemoteTable::over(self)
    }

    fn record(&self) -> BoxFuture<'_, Option<(GameRecord, Arc<View>)>> {
        Box::pin(RemoteTable::record(self))
    }
}
