//! One task per match (lila-ws's room actor): it owns the game, takes commands and timer
//! deadlines in order, writes every accepted step to the store before anyone hears of it,
//! then publishes the events on a bounded broadcast channel. A slow subscriber lags behind
//! and resyncs; it never delays the match. A bounded history serves reconnecting clients.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use baoqi_arbiter::{Command, Event, View};
use baoqi_protocol::{Audience, ServerMsg, encode};
use tokio::sync::{broadcast, mpsc, watch};

use crate::limits::{Bucket, Rate};
use crate::metrics::Metrics;
use crate::recording::status::RecordingBoard;
use baoqi_store::config::ResumePolicy;
use baoqi_store::game::{Actor, Game};
use baoqi_store::model::TableId;
use baoqi_store::replay::{HISTORY, RebuildError, Resumed};
use baoqi_store::timeline::{Millis, Timeline};
use baoqi_store::{EntryKind, LogEntry, Store, StoreError, Writer};

/// Capacity of a table's broadcast channel: a subscriber this far behind is dropped to resync.
pub const BROADCAST: usize = 512;
/// Commands queued for one table before senders wait.
const INBOX: usize = 256;
/// How long after a resumption the store could not keep the restart policy tries again (the
/// failed write has already waited for the store's return: [`Task::rebuild`]).
const RESUME_AGAIN_MS: u64 = 500;

mod handle;

use handle::Msg;
pub use handle::{Handled, Joined, Published, SeatKey, TableHandle};

/// What a match task needs besides its game.
pub struct TableContext {
    /// The store, for the snapshots of the match ([`baoqi_store::snapshot`]).
    pub store: Arc<dyn Store>,
    /// Where accepted steps are written.
    pub writer: Writer,
    /// The game timeline.
    pub timeline: Arc<Timeline>,
    /// Shared measurements.
    pub metrics: Arc<Metrics>,
    /// How many commands each seat may send.
    pub commands: Rate,
    /// Becomes true when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    /// Rebuilds the match from the store (after a failed write left the game ahead of it).
    pub rebuild: Rebuild,
    /// The recording status of every table (told when this game ends; shown in `state`).
    pub recordings: Arc<RecordingBoard>,
    /// On a node of a federation: told when an append was refused because the node no
    /// longer holds the table's lease ([`StoreError::Fenced`]), so that it drops the table.
    pub lost: Option<mpsc::UnboundedSender<TableId>>,
}

/// Rebuilds a match from the store; blocking.
pub type Rebuild = Arc<dyn Fn() -> Result<Resumed, RebuildError> + Send + Sync>;

struct Task {
    id: TableId,
    game: Game,
    next_index: u64,
    seq: u64,
    history: VecDeque<Arc<Published>>,
    feed: broadcast::Sender<Arc<Published>>,
    ctx: TableContext,
    resume_at: Option<Millis>,
    /// A deadline that `advance` did not move: ignored until something else happens.
    stalled: Option<Millis>,
    /// The game is over and the recording board knows it.
    finished: bool,
    /// The snapshot at event `seq` (every resync after a burst of events asks for it, once
    /// per connection).
    snapshot: Option<(u64, Arc<View>)>,
    /// Each seat's commands ([`crate::limits::Bucket`]).
    buckets: HashMap<SeatKey, Bucket>,
    /// The snapshot of the game once over ([`TableHandle::over`]).
    over: watch::Sender<Option<Arc<View>>>,
    /// Asked to stop ([`TableHandle::stop`]).
    stopped: bool,
}

/// Starts the task of a match rebuilt from the store (or freshly created). `restarted` is
/// the restart policy of a match the restart paused ([`crate::restart::pause`]): under
/// [`ResumePolicy::Auto`] the server resumes it later.
pub fn spawn(
    id: TableId,
    resumed: Resumed,
    ctx: TableContext,
    restarted: Option<ResumePolicy>,
) -> TableHandle {
    let (tx, rx) = mpsc::channel(INBOX);
    let (feed, _) = broadcast::channel(BROADCAST);
    let (over, over_rx) = watch::channel(None);
    let mut task = Task {
        id,
        game: resumed.game,
        next_index: resumed.next_index,
        seq: resumed.seq,
        history: VecDeque::with_capacity(HISTORY),
        feed,
        ctx,
        resume_at: None,
        stalled: None,
        finished: false,
        snapshot: None,
        buckets: HashMap::new(),
        over,
        stopped: false,
    };
    for (seq, at, event) in resumed.recent {
        task.remember(seq, at, event);
    }
    task.note_finished();
    task.publish_over();
    if let Some(ResumePolicy::Auto { after_secs }) = restarted {
        task.resume_at = Some(Millis(task.ctx.timeline.now().0 + after_secs * 1000));
    }
    tokio::spawn(task.run(rx));
    TableHandle::here(id, tx, over_rx)
}

impl Task {
    async fn run(mut self, mut rx: mpsc::Receiver<Msg>) {
        let mut shutdown = self.ctx.shutdown.clone();
        while !self.stopped {
            let deadline = self.deadline();
            let sleep = deadline.map(|d| self.ctx.timeline.instant_of(d));
            tokio::select! {
                biased;
                _ = shutdown.changed() => break,
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                () = async { tokio::time::sleep_until(sleep.unwrap_or_else(tokio::time::Instant::now)).await }, if sleep.is_some() => {
                    if let Some(d) = deadline {
                        self.on_deadline(d).await;
                    }
                }
            }
        }
    }

    fn deadline(&self) -> Option<Millis> {
        let game = self
            .game
            .next_deadline()
            .filter(|d| Some(*d) != self.stalled);
        match (game, self.resume_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Command {
                seat,
                command,
                reply,
            } => {
                let started = self.ctx.timeline.now_micros();
                let now = self.ctx.timeline.now();
                let rate = self.ctx.commands;
                let bucket = self
                    .buckets
                    .entry(seat.clone())
                    .or_insert_with(|| Bucket::new(rate, now));
                let outcome = if bucket.take(now) {
                    self.command(Actor::Seat(seat.role), command, now).await
                } else {
                    Handled::RateLimited
                };
                let took = self.ctx.timeline.now_micros().saturating_sub(started);
                self.ctx.metrics.command_latency.record(took);
                let _ = reply.send(outcome);
            }
            Msg::Join { since, reply } => {
                let _ = reply.send(self.joined(since));
            }
            Msg::Record { reply } => {
                let _ = reply.send((self.game.record(), self.snapshot()));
            }
            Msg::Snapshot { reply } => {
                let _ = reply.send(self.snapshot());
            }
            Msg::Stop => self.stopped = true,
        }
    }

    /// The game's snapshot, computed once per event sequence number.
    fn snapshot(&mut self) -> Arc<View> {
        match &self.snapshot {
            Some((seq, v)) if *seq == self.seq => v.clone(),
            _ => {
                let v = Arc::new(self.game.snapshot());
                self.snapshot = Some((self.seq, v.clone()));
                v
            }
        }
    }

    fn joined(&mut self, since: Option<u64>) -> Joined {
        let now = self.ctx.timeline.now();
        let state = encode(&ServerMsg::State {
            table: self.id,
            seq: self.seq,
            at: now,
            snapshot: Box::new((*self.snapshot()).clone()),
            recording: Some(Box::new(self.ctx.recordings.view(self.id))),
        });
        let missed = since.and_then(|since| {
            if since >= self.seq {
                return Some(Vec::new());
            }
            let first = self.history.front()?.seq;
            (first <= since + 1).then(|| {
                self.history
                    .iter()
                    .filter(|p| p.seq > since)
                    .cloned()
                    .collect()
            })
        });
        Joined {
            rx: self.feed.subscribe(),
            state,
            seq: self.seq,
            missed,
        }
    }

    async fn command(&mut self, actor: Actor, command: Command, now: Millis) -> Handled {
        let events = match self.game.apply(actor, &command, now) {
            Ok(events) => events,
            Err(refusal) => return Handled::Refused(refusal),
        };
        if command == Command::Tick && events.is_empty() {
            // Time passed and nothing fell due: nothing to store (the table's own deadlines
            // do the same).
            return Handled::Accepted { seq: self.seq };
        }
        self.stalled = None;
        match self
            .commit(EntryKind::Command, actor, Some(command), now, events)
            .await
        {
            Ok(seq) => Handled::Accepted { seq },
            Err(e) => Handled::Storage(e),
        }
    }

    async fn on_deadline(&mut self, deadline: Millis) {
        // Woken before the timeline reached the deadline: a stall left out of the timeline
        // since the sleep began moved it later; sleep again.
        if self.ctx.timeline.now() < deadline {
            return;
        }
        if self.resume_at.is_some_and(|r| r <= deadline) {
            self.resume_at = None;
            if let Some(cmd) = self.game.resume_command() {
                let now = self.ctx.timeline.now();
                if let Handled::Storage(_) = self.command(Actor::Server, cmd, now).await {
                    // The store was away (a database restarting): the match is still
                    // paused, and the policy's resumption is tried again, else it would
                    // stay paused until a referee came.
                    self.resume_at = Some(Millis(self.ctx.timeline.now().0 + RESUME_AGAIN_MS));
                }
            }
            return;
        }
        let now = self.ctx.timeline.now();
        let late = self
            .ctx
            .timeline
            .now_micros()
            .saturating_sub(deadline.0 * 1000);
        self.ctx.metrics.timer_lateness.record(late);
        let events = self.game.advance(now);
        if events.is_empty() {
            if self.game.next_deadline() == Some(deadline) {
                self.stalled = Some(deadline);
            }
            return;
        }
        self.stalled = None;
        let _ = self
            .commit(EntryKind::Advance, Actor::Server, None, now, events)
            .await;
    }

    /// Stores the step, then publishes its events. On a storage failure the game has moved
    /// on without the store: it is rebuilt from the store, and nothing is published.
    async fn commit(
        &mut self,
        kind: EntryKind,
        actor: Actor,
        command: Option<Command>,
        at: Millis,
        events: Vec<Event>,
    ) -> Result<u64, StoreError> {
        let entry = LogEntry {
            table: self.id,
            index: self.next_index,
            at,
            kind,
            actor,
            command,
            first_seq: self.seq + 1,
            events,
        };
        let events = entry.events.clone();
        if let Err(e) = self.ctx.writer.append(vec![entry]).await {
            if let (StoreError::Fenced { .. }, Some(lost)) = (&e, &self.ctx.lost) {
                let _ = lost.send(self.id);
            }
            tracing::error!(
                table = %self.id,
                "store failed: {e}; rebuilding from the store"
            );
            self.rebuild().await;
            return Err(e);
        }
        self.next_index += 1;
        if baoqi_store::snapshot::due(self.next_index) {
            let (store, game) = (self.ctx.store.clone(), self.game.clone());
            baoqi_store::snapshot::save(store, self.id, self.next_index, game);
        }
        self.note_finished();
        for event in events {
            self.seq += 1;
            let published = self.remember(self.seq, at, event);
            // No subscriber is not an error; a lagging one resyncs by itself.
            let _ = self.feed.send(published);
        }
        // After the sequence number moved on: the snapshot is of the game as it now stands.
        self.publish_over();
        Ok(self.seq)
    }

    /// Tells the recording board once the game is over.
    fn note_finished(&mut self) {
        if !self.finished && self.game.finished() {
            self.finished = true;
            self.ctx.recordings.game_over(self.id);
        }
    }

    /// Publishes the game's snapshot once it is over ([`TableHandle::over`]); a game going
    /// on costs nothing here.
    fn publish_over(&mut self) {
        if self.game.finished() {
            let view = self.snapshot();
            self.over.send_replace(Some(view));
        } else if self.over.borrow().is_some() {
            self.over.send_replace(None);
        }
    }

    /// Puts the game back where the store says it is: the step that could not be written
    /// is forgotten, as if it had never been accepted. While the store cannot be read (a
    /// database restarting), it tries again, waiting longer each time up to 2 s: the game
    /// in memory holds a step the store does not, and must not take another command.
    async fn rebuild(&mut self) {
        let mut wait = std::time::Duration::from_millis(200);
        loop {
            let rebuild = self.ctx.rebuild.clone();
            match tokio::task::spawn_blocking(move || rebuild()).await {
                Ok(Ok(r)) => {
                    self.snapshot = None;
                    self.game = r.game;
                    self.next_index = r.next_index;
                    self.seq = r.seq;
                    self.publish_over();
                    return;
                }
                Ok(Err(e)) => {
                    tracing::error!(table = %self.id, "rebuild failed, trying again: {e}");
                }
                Err(e) => {
                    tracing::error!(table = %self.id, "rebuild panicked: {e}");
                    return;
                }
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(std::time::Duration::from_secs(2));
        }
    }

    fn remember(&mut self, seq: u64, at: Millis, event: Event) -> Arc<Published> {
        let audience = Audience::of(&event);
        let json = encode(&ServerMsg::Event {
            table: self.id,
            seq,
            at,
            event: Box::new(event),
        });
        let published = Arc::new(Published {
            seq,
            audience,
            json,
        });
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(published.clone());
        published
    }
}
