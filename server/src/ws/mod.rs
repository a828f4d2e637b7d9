//! One task per WebSocket connection (mini-redis's `Handler`): it reads the client's
//! messages and the feeds of the tables it follows, and `select!`s them against shutdown.
//! The logic is generic over a `Stream` of incoming texts and a `Sink` of outgoing ones,
//! so it runs the same on axum's socket, on tokio-tungstenite, or on plain channels in
//! tests.
//!
//! Endpoints: `seat` (players and proxies: one table, commands for their own side only),
//! `monitor` (referees: every table they supervise, commands name the table), `watch`
//! (spectators: read only).
//!
//! This file holds the connection's loop and transport; `follow.rs` its joining and the
//! tables it follows, `commands.rs` the commands it passes on.

mod commands;
mod follow;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use baoqi_protocol::{ClientMsg, ErrorCode, RecordedResult, ServerMsg, decode, encode, error};
use futures_util::stream::{self, BoxStream, SelectAll};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use crate::hub::{Hub, Listed};
use crate::limits::Bucket;
use crate::occupancy::Place;
use crate::table::Published;
use baoqi_store::model::{Role, SeatRow, TableId};

/// Which endpoint a connection came in on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endpoint {
    /// `/ws/seat`: a player or a proxy.
    Seat,
    /// `/ws/monitor`: a referee.
    Monitor,
    /// `/ws/watch`: a spectator.
    Watch,
}

impl Endpoint {
    fn admits(self, role: Role) -> bool {
        match self {
            Endpoint::Seat => matches!(
                role,
                Role::Red | Role::Black | Role::RedProxy | Role::BlackProxy
            ),
            Endpoint::Monitor => role == Role::Referee,
            Endpoint::Watch => role == Role::Spectator,
        }
    }
}

/// A message from the client, as the transport gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Incoming {
    /// A text frame.
    Text(String),
    /// A binary frame (not part of the protocol): answered `malformed`, and counted against
    /// the connection's budget of messages.
    Binary,
    /// A ping (the transport answers it): counted against the budget of messages.
    Ping,
    /// A pong: free when it answers one of the server's pings, else counted against the
    /// budget of messages.
    Pong,
    /// The peer closes, with its close code if it gave one; the input ends after it.
    Closed(Option<u16>),
    /// A frame the transport could not read; the input ends after it.
    Broken(Broken),
}

pub(crate) use crate::missed::{ResyncError, from_store};
pub(crate) use crate::socket::{Broken, Outgoing};

/// How long a connection may stay without a `hello`.
const HELLO_WITHIN: Duration = Duration::from_secs(30);

type Feed = SelectAll<BoxStream<'static, (TableId, Result<Arc<Published>, RecvError>)>>;

/// A table's live feed. It ends after reporting a lag (the connection resubscribes), and
/// when `dropped` is set because a newer subscription replaced it.
fn one_feed(
    table: TableId,
    rx: tokio::sync::broadcast::Receiver<Arc<Published>>,
    dropped: Arc<AtomicBool>,
) -> BoxStream<'static, (TableId, Result<Arc<Published>, RecvError>)> {
    stream::unfold(Some(rx), move |rx| {
        let dropped = dropped.clone();
        async move {
            let mut rx = rx?;
            let item = rx.recv().await;
            if dropped.load(Ordering::Relaxed) {
                return None;
            }
            let next = if item.is_ok() { Some(rx) } else { None };
            Some(((table, item), next))
        }
    })
    .boxed()
}

struct Conn<O> {
    hub: Arc<Hub>,
    out: O,
    seat: Option<SeatRow>,
    tables: Vec<TableId>,
    last: HashMap<TableId, u64>,
    subscriptions: HashMap<TableId, Arc<AtomicBool>>,
    feed: Feed,
    /// Recording status changes of every table (filtered to this seat's tables on sending).
    recorded: BoxStream<'static, Arc<(TableId, String)>>,
    /// The connection's `sync`s of each table ([`crate::limits::Limits::syncs`]).
    syncs: HashMap<TableId, Bucket>,
    /// The connection's messages of any kind ([`crate::limits::Limits::messages`]).
    messages: Bucket,
    /// Its place among the server's connections: once authenticated, never closed to make
    /// room for another.
    place: Option<Arc<Place>>,
    /// The server's pings not answered yet: their pongs are not counted as messages.
    pings_owed: u32,
    /// The server sent its close frame: the peer's is awaited before the socket goes.
    closing: bool,
    /// A referee's or spectator's: the event's tables as they are added or set aside.
    following: Option<tokio::sync::watch::Receiver<Listed>>,
    /// The tables of its event it was told are set aside (作廢, 108).
    set_aside: Vec<TableId>,
    /// The organiser's results it was told.
    entered: Vec<RecordedResult>,
    /// Counted among the seats connected while it lives (once authenticated).
    connected: Option<crate::observe::Connected>,
    /// The tables whose join was not answered (a federation's holder late or gone), each
    /// joined again after its pause ([`follow::Rejoins`]): a seat is never left without the
    /// game's state.
    rejoins: follow::Rejoins,
}

/// Serves one connection until the client leaves, the transport fails, or the server
/// shuts down; its `place` among the server's connections is told when it authenticates.
pub(crate) async fn serve<I, O>(
    hub: Arc<Hub>,
    endpoint: Endpoint,
    place: Option<Arc<Place>>,
    input: I,
    out: O,
) where
    I: Stream<Item = Incoming> + Send,
    O: Sink<Outgoing> + Unpin + Send,
{
    let mut input = Box::pin(input);
    let mut shutdown = hub.shutdown_signal();
    let syncs = HashMap::new();
    let messages = Bucket::new(hub.limits().messages, hub.timeline().now());
    let mut conn = Conn {
        hub,
        out,
        seat: None,
        tables: Vec::new(),
        last: HashMap::new(),
        subscriptions: HashMap::new(),
        feed: SelectAll::new(),
        recorded: stream::pending().boxed(),
        syncs,
        messages,
        place,
        pings_owed: 0,
        closing: false,
        following: None,
        set_aside: Vec::new(),
        entered: Vec::new(),
        connected: None,
        rejoins: follow::Rejoins::default(),
    };
    let hello_by = tokio::time::Instant::now() + HELLO_WITHIN;
    let mut revoked = conn.hub.revocations();
    let mut heard = tokio::time::Instant::now();
    let mut pings = tokio::time::interval(conn.hub.limits().ping_every);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    pings.tick().await;
    loop {
        let ok = tokio::select! {
            _ = shutdown.changed() => false,
            Ok(()) = revoked.changed() => {
                let now = revoked.borrow_and_update().clone();
                conn.still_valid(&now).await
            }
            () = tokio::time::sleep_until(hello_by), if conn.seat.is_none() => {
                let _ = conn.send(&error(None, ErrorCode::NotAuthenticated, "no hello in time")).await;
                false
            }
            _ = pings.tick() => conn.ping(heard).await,
            msg = input.next() => {
                heard = tokio::time::Instant::now();
                match msg {
                    Some(Incoming::Text(text)) => conn.on_message(endpoint, &text).await,
                    Some(Incoming::Binary) => {
                        conn.refused(&error(None, ErrorCode::Malformed, "binary frames are not part of the protocol")).await
                    }
                    Some(Incoming::Ping) => conn.counted().await,
                    Some(Incoming::Pong) => conn.pong().await,
                    Some(Incoming::Closed(_)) => {
                        // The transport has queued its answer to the close (its code echoed,
                        // or 1002 for a code not allowed): it leaves with this flush.
                        conn.flush().await;
                        false
                    }
                    Some(Incoming::Broken(why)) => conn.broken(why).await,
                    None => false,
                }
            }
            Some(update) = conn.recorded.next() => conn.on_recording(&update).await,
            // A table still followed (not set aside or left meanwhile) is joined again.
            Some(table) = conn.rejoins.next(), if !conn.rejoins.is_empty() => {
                !conn.tables.contains(&table) || conn.resync(table, None).await
            }
            Some(()) = next_change(&mut conn.following) => conn.on_tables().await,
            Some((table, item)) = conn.feed.next(), if !conn.feed.is_empty() => match item {
                Ok(p) => conn.on_published(table, &p).await,
                // A table set aside ends its feed for good: the `tables` message says so.
                Err(_) if conn.hub.is_set_aside(table) => true,
                Err(_) => conn.resync(table, None).await,
            },
        };
        if !ok {
            break;
        }
    }
    if conn.closing {
        linger(&mut input).await;
    }
}

/// The next change of the tables a connection follows; never, for a connection that
/// follows none (or once their watch is gone).
async fn next_change(following: &mut Option<tokio::sync::watch::Receiver<Listed>>) -> Option<()> {
    match following {
        Some(rx) => rx.changed().await.ok(),
        None => std::future::pending().await,
    }
}

/// How long a connection the server closed waits for the peer's own close.
const LINGER: Duration = Duration::from_secs(1);

/// After the server's close frame: reads and drops what the peer still sends until its close
/// (or [`LINGER`]), so that the socket is not dropped with unread input, which would reset
/// it and lose the close frame and the error before it on the peer's side.
async fn linger<I>(input: &mut std::pin::Pin<Box<I>>)
where
    I: Stream<Item = Incoming> + Send,
{
    let _ = tokio::time::timeout(LINGER, async {
        while let Some(m) = input.next().await {
            if matches!(m, Incoming::Closed(_) | Incoming::Broken(_)) {
                return;
            }
        }
    })
    .await;
}

impl<O> Conn<O>
where
    O: Sink<Outgoing> + Unpin + Send,
{
    /// Sends one message; false when the transport is gone.
    async fn send(&mut self, msg: &ServerMsg) -> bool {
        self.send_text(encode(msg)).await
    }

    /// After a revocation scan: false (the connection closes) once this seat's token is
    /// revoked, after telling the client why (a revoked referee's commands were once still
    /// accepted).
    async fn still_valid(&mut self, revoked: &std::collections::HashSet<String>) -> bool {
        let Some(seat) = &self.seat else { return true };
        if !revoked.contains(&seat.token_hash) {
            return true;
        }
        let why = crate::hub::AuthError::Revoked;
        if self.send(&error(None, why.code(), why.to_string())).await {
            // 1008, policy violation: the seat may no longer be here (RFC 6455 §7.4.1).
            let _ = self.put(Outgoing::Close(1008, "revoked")).await;
        }
        false
    }

    /// Sends one frame; false when the transport is gone, or when the peer has not taken
    /// it within [`crate::limits::Limits::silent_for`] (a half-open peer never will).
    async fn send_text(&mut self, text: String) -> bool {
        self.put(Outgoing::Text(text)).await
    }

    /// Writes out what the transport holds (the answer to a peer's close), within
    /// [`crate::limits::Limits::silent_for`].
    async fn flush(&mut self) {
        let within = self.hub.limits().silent_for;
        let _ = tokio::time::timeout(within, self.out.flush()).await;
    }

    async fn put(&mut self, frame: Outgoing) -> bool {
        self.closing |= matches!(frame, Outgoing::Close(..));
        let within = self.hub.limits().silent_for;
        matches!(
            tokio::time::timeout(within, self.out.send(frame)).await,
            Ok(Ok(()))
        )
    }

    /// Answers a frame the transport could not read, and closes with its code.
    async fn broken(&mut self, why: Broken) -> bool {
        let (code, error_code, text) = why.answer();
        if self.send(&error(None, error_code, text)).await {
            let _ = self.put(Outgoing::Close(code, text)).await;
        }
        false
    }

    /// On the ping timer: false (the connection closes) once nothing has come from the
    /// peer for [`crate::limits::Limits::silent_for`]; else a ping.
    async fn ping(&mut self, heard: tokio::time::Instant) -> bool {
        if heard.elapsed() >= self.hub.limits().silent_for {
            let _ = self.put(Outgoing::Close(1001, "no answer to pings")).await;
            return false;
        }
        self.pings_owed = self.pings_owed.saturating_add(1);
        self.put(Outgoing::Ping).await
    }

    /// A text frame. Every message counts against the connection's budget
    /// ([`crate::limits::Limits::messages`]) but a `sync` answered: the pages ask for a
    /// table's state after each burst of its events, a monitor for many tables at once, and
    /// each table's syncs have their own budget ([`crate::limits::Limits::syncs`]). A
    /// client past its budget (one that sends on whatever it is answered) is told and
    /// closed (1008).
    async fn on_message(&mut self, endpoint: Endpoint, text: &str) -> bool {
        let msg = match decode(text) {
            Ok(m) => m,
            Err(e) => return self.refused(&e.answer()).await,
        };
        if let (ClientMsg::Sync { table, since }, true) = (&msg, self.seat.is_some()) {
            return self.sync(*table, *since).await;
        }
        if !self.messages.take(self.hub.timeline().now()) {
            return self.close_over_budget().await;
        }
        self.on_text(endpoint, msg).await
    }

    /// Answers a message that changed nothing, counted against the budget of messages.
    async fn refused(&mut self, answer: &ServerMsg) -> bool {
        if !self.messages.take(self.hub.timeline().now()) {
            return self.close_over_budget().await;
        }
        self.send(answer).await
    }

    /// A frame that asks nothing of the connection but still costs the server (a ping the
    /// transport has answered, a pong nobody asked for): it counts against the budget of
    /// messages like any other, so a peer flooding them is closed instead of being answered
    /// millions of times.
    async fn counted(&mut self) -> bool {
        if self.messages.take(self.hub.timeline().now()) {
            return true;
        }
        self.close_over_budget().await
    }

    /// A pong: the answer to one of the server's pings is free (however short
    /// [`crate::limits::Limits::ping_every`]), any other is [`Conn::counted`].
    async fn pong(&mut self) -> bool {
        if self.pings_owed > 0 {
            self.pings_owed -= 1;
            return true;
        }
        self.counted().await
    }

    async fn close_over_budget(&mut self) -> bool {
        crate::observe::rate_limited("messages");
        let e = error(
            None,
            ErrorCode::RateLimited,
            "too many messages on this connection: it is closed",
        );
        if self.send(&e).await {
            let _ = self.put(Outgoing::Close(1008, "too many messages")).await;
        }
        false
    }

    async fn on_text(&mut self, endpoint: Endpoint, msg: ClientMsg) -> bool {
        match (msg, self.seat.is_some()) {
            (ClientMsg::Hello { token, since }, false) => self.hello(endpoint, &token, since).await,
            (ClientMsg::Hello { .. }, true) => {
                self.send(&error(
                    None,
                    ErrorCode::AlreadyAuthenticated,
                    "already authenticated",
                ))
                .await
            }
            (ClientMsg::Ping { id }, _) => {
                let at = self.hub.timeline().now();
                self.send(&ServerMsg::Pong { id, at }).await
            }
            (ClientMsg::Command { id, table, command }, true) => {
                self.command(id, table, command).await
            }
            (ClientMsg::QueryStanding { id }, true) => match self.seat.clone() {
                Some(seat) => {
                    let reply = crate::standing::reply(&self.hub, &seat, id).await;
                    self.send(&reply).await
                }
                None => false,
            },
            (ClientMsg::Sync { table, since }, true) => self.sync(table, since).await,
            (
                ClientMsg::Command { id, .. }
                | ClientMsg::Recording { id, .. }
                | ClientMsg::QueryStanding { id },
                false,
            ) => {
                self.send(&error(
                    id,
                    ErrorCode::NotAuthenticated,
                    "send hello with your token first",
                ))
                .await
            }
            (
                ClientMsg::Recording {
                    id,
                    state,
                    microphone,
                    reason,
                },
                true,
            ) => self.recording(id, state, microphone, reason).await,
            (ClientMsg::Sync { .. }, false) => {
                self.send(&error(
                    None,
                    ErrorCode::NotAuthenticated,
                    "send hello with your token first",
                ))
                .await
            }
        }
    }
}
