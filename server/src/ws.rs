//! One task per WebSocket connection (mini-redis's `Handler`): it reads the client's
//! messages and the feeds of the tables it follows, and `select!`s them against shutdown.
//! The logic is generic over a `Stream` of incoming texts and a `Sink` of outgoing ones,
//! so it runs the same on axum's socket, on tokio-tungstenite, or on plain channels in
//! tests.
//!
//! Endpoints: `seat` (players and proxies: one table, commands for their own side only),
//! `monitor` (referees: every table they supervise, commands name the table), `watch`
//! (spectators: read only).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use baoqi_arbiter::{Command, Millis as At};
use baoqi_protocol::{
    Audience, ClientMsg, ErrorCode, RecordedResult, RecorderState, ServerMsg, decode, encode, error,
};
use futures_util::stream::{self, BoxStream, SelectAll};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use crate::hub::{Hub, Listed, covered};
use crate::limits::Bucket;
use crate::table::{Handled, Published, SeatKey};
use baoqi_store::game::Refusal;
use baoqi_store::model::{Role, SeatRow, TableId};

/// Which endpoint a connection came in on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
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
pub enum Incoming {
    /// A text frame.
    Text(String),
    /// A binary frame (not part of the protocol).
    Binary,
    /// A ping or pong: the peer is there.
    Alive,
    /// The peer closes, with its close code if it gave one; the input ends after it.
    Closed(Option<u16>),
    /// A frame the transport could not read; the input ends after it.
    Broken(Broken),
}

pub use crate::missed::{ResyncError, from_store};
pub use crate::socket::{Broken, Outgoing};

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
    /// The server sent its close frame: the peer's is awaited before the socket goes.
    closing: bool,
    /// A referee's or spectator's: the event's tables as they are added or set aside.
    following: Option<tokio::sync::watch::Receiver<Listed>>,
    /// The tables of its event it was told are set aside (作廢, 108).
    set_aside: Vec<TableId>,
    /// The organiser's results it was told (issue 30, item 1).
    entered: Vec<RecordedResult>,
}

/// Serves one connection until the client leaves, the transport fails, or the server
/// shuts down.
pub async fn serve<I, O>(hub: Arc<Hub>, endpoint: Endpoint, input: I, out: O)
where
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
        closing: false,
        following: None,
        set_aside: Vec::new(),
        entered: Vec::new(),
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
                        conn.send(&error(None, ErrorCode::Malformed, "binary frames are not part of the protocol")).await
                    }
                    Some(Incoming::Alive) => true,
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

/// The organiser's results of the tables `seat` covers.
fn recorded_of(seat: &SeatRow, listed: &Listed) -> Vec<RecordedResult> {
    listed
        .recorded
        .iter()
        .filter(|(t, _)| seat.covers(**t))
        .map(|(&table, &result)| RecordedResult { table, result })
        .collect()
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
    /// revoked, after telling the client why (issue 16, item 3: a revoked referee's
    /// commands were still accepted).
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

    async fn close_over_budget(&mut self) -> bool {
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

    /// A `sync` of a table within its budget: the events missed and the state; beyond it,
    /// refused (and counted against the budget of messages).
    async fn sync(&mut self, table: Option<TableId>, since: Option<u64>) -> bool {
        let t = match self.table_of(None, table) {
            Ok(t) => t,
            Err(e) => return self.refused(&e).await,
        };
        let (rate, now) = (self.hub.limits().syncs, self.hub.timeline().now());
        let bucket = self
            .syncs
            .entry(t)
            .or_insert_with(|| Bucket::new(rate, now));
        if !bucket.take(now) {
            let e = error(
                None,
                ErrorCode::RateLimited,
                format!("too many syncs of table {t}: wait a moment, then sync again"),
            );
            return self.refused(&e).await;
        }
        self.resync(t, since).await
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
                let at = At(self.hub.timeline().now());
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

    async fn hello(&mut self, endpoint: Endpoint, token: &str, since: Option<u64>) -> bool {
        let seat = match self.hub.authenticate(token).await {
            Ok(s) => s,
            Err(e) => return self.send(&error(None, e.code(), e.to_string())).await,
        };
        if !endpoint.admits(seat.role) {
            let msg = format!("a {} seat does not join on this endpoint", seat.role);
            return self.send(&error(None, ErrorCode::WrongEndpoint, msg)).await;
        }
        // A referee or a spectator follows the event's tables as they are added (issue 30).
        if matches!(seat.role, Role::Referee | Role::Spectator) {
            let mut rx = self.hub.follow_tables(seat.event);
            let listed = rx.borrow_and_update().clone();
            self.set_aside = listed
                .set_aside
                .iter()
                .copied()
                .filter(|t| seat.covers(*t))
                .collect();
            self.entered = recorded_of(&seat, &listed);
            self.following = Some(rx);
        }
        let tables = covered(&seat.tables, &self.hub.table_ids(seat.event));
        let welcome = ServerMsg::Welcome {
            role: seat.role,
            name: seat.name.clone(),
            event: seat.event,
            tables: tables.clone(),
        };
        if endpoint != Endpoint::Watch {
            self.recorded = recording_feed(self.hub.recordings().board().subscribe());
        }
        self.seat = Some(seat);
        self.tables.clone_from(&tables);
        if !self.send(&welcome).await {
            return false;
        }
        for t in tables {
            if !self.resync(t, since).await {
                return false;
            }
        }
        if !self.entered.is_empty() {
            let told = ServerMsg::Recorded {
                event: self.seat.as_ref().map_or(0, |s| s.event),
                results: self.entered.clone(),
            };
            return self.send(&told).await;
        }
        true
    }

    /// The event's tables changed: the seat is told its whole list, then gets the state of
    /// each new one it covers and follows it.
    async fn on_tables(&mut self) -> bool {
        let Some(rx) = self.following.as_mut() else {
            return true;
        };
        let listed = rx.borrow_and_update().clone();
        self.reread_seat(&listed).await;
        let Some(seat) = self.seat.as_ref() else {
            return true;
        };
        let covered = |ids: &[TableId]| -> Vec<TableId> {
            ids.iter().copied().filter(|t| seat.covers(*t)).collect()
        };
        let (tables, set_aside) = (covered(&listed.running), covered(&listed.set_aside));
        let recorded = recorded_of(seat, &listed);
        if recorded != self.entered {
            self.entered.clone_from(&recorded);
            let event = seat.event;
            let told = ServerMsg::Recorded {
                event,
                results: recorded,
            };
            if !self.send(&told).await {
                return false;
            }
        }
        let Some(seat) = self.seat.as_ref() else {
            return true;
        };
        let added: Vec<TableId> = tables
            .iter()
            .copied()
            .filter(|t| !self.tables.contains(t))
            .collect();
        if added.is_empty() && set_aside == self.set_aside {
            return true;
        }
        let event = seat.event;
        for t in &set_aside {
            if let Some(feed) = self.subscriptions.remove(t) {
                feed.store(true, Ordering::Relaxed);
            }
        }
        self.tables.clone_from(&tables);
        self.set_aside.clone_from(&set_aside);
        let told = ServerMsg::Tables {
            event,
            tables,
            set_aside,
        };
        if !self.send(&told).await {
            return false;
        }
        for t in added {
            if !self.resync(t, None).await {
                return false;
            }
        }
        true
    }

    /// A referee of some tables (附表七 6.2(1)) follows his boards to their replays' tables
    /// (108): when tables he does not cover are added, his seat is read again from the
    /// store, which the replay extended.
    async fn reread_seat(&mut self, listed: &Listed) {
        let Some(seat) = self.seat.as_ref() else {
            return;
        };
        let unknown = listed
            .running
            .iter()
            .any(|t| !seat.covers(*t) && !self.tables.contains(t));
        if seat.tables.is_empty() || !unknown {
            return;
        }
        let (store, hash) = (self.hub.store().clone(), seat.token_hash.clone());
        match tokio::task::spawn_blocking(move || store.seat(&hash)).await {
            Ok(Ok(Some(fresh))) if !fresh.revoked => self.seat = Some(fresh),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::error!("reading a referee's seat again: {e}"),
            Err(e) => tracing::error!("reading a referee's seat again: {e}"),
        }
    }

    /// The table a message is about: the one named (if this seat follows it), else the
    /// seat's only table; otherwise the error to answer (carrying the message's `id`).
    fn table_of(&self, id: Option<String>, table: Option<TableId>) -> Result<TableId, ServerMsg> {
        match (table, self.tables.as_slice()) {
            (Some(t), ts) if ts.contains(&t) => Ok(t),
            (Some(t), _) => Err(error(
                id,
                ErrorCode::Forbidden,
                format!("table {t} is not one of this seat's tables"),
            )),
            (None, [only]) => Ok(*only),
            (None, _) => Err(error(
                id,
                ErrorCode::UnknownTable,
                "name the table: this seat follows several",
            )),
        }
    }

    async fn command(
        &mut self,
        id: Option<String>,
        table: Option<TableId>,
        command: Command,
    ) -> bool {
        let Some(seat) = self.seat.as_ref().map(SeatKey::of) else {
            return false;
        };
        let role = seat.role;
        if !role.may_act() {
            let e = error(id, ErrorCode::Forbidden, "spectators cannot send commands");
            return self.send(&e).await;
        }
        let table = match self.table_of(id.clone(), table) {
            Ok(t) => t,
            Err(e) => return self.send(&e).await,
        };
        let Some(handle) = self.hub.table(table) else {
            return self
                .send(&error(id, ErrorCode::UnknownTable, "no such table"))
                .await;
        };
        let asked = std::time::Instant::now();
        let handled = handle.command(seat, command).await;
        let took = asked.elapsed().as_micros() as u64;
        self.hub.metrics().command_answer.record(took);
        let reply = match handled {
            Some(Handled::Accepted { seq }) => ServerMsg::Ack { id, table, seq },
            Some(Handled::Refused(Refusal::Rejected(rejection))) => ServerMsg::Rejected {
                id,
                table,
                rejection,
            },
            Some(Handled::Refused(r @ (Refusal::Spectator | Refusal::ServerOnly))) => {
                error(id, ErrorCode::Forbidden, r.to_string())
            }
            Some(Handled::RateLimited) => error(
                id,
                ErrorCode::RateLimited,
                "too many commands from this seat: nothing changed, try again shortly",
            ),
            Some(Handled::Storage(e)) => error(
                id,
                ErrorCode::Storage,
                format!("not stored, nothing changed: {e}"),
            ),
            None => error(id, ErrorCode::Unavailable, "the table is not running"),
        };
        self.send(&reply).await
    }

    /// A seat's report about its recorder: only players and proxies, for their own side.
    async fn recording(
        &mut self,
        id: Option<String>,
        state: RecorderState,
        microphone: bool,
        reason: Option<String>,
    ) -> bool {
        let role = self.seat.as_ref().map_or(Role::Spectator, |s| s.role);
        let Some(side) = role.side() else {
            let e = error(
                id,
                ErrorCode::Forbidden,
                "only a player's or proxy's client reports a recorder",
            );
            return self.send(&e).await;
        };
        let table = match self.table_of(id, None) {
            Ok(t) => t,
            Err(e) => return self.send(&e).await,
        };
        let reason = reason.map(|r| r.chars().take(500).collect());
        let now = self.hub.timeline().now();
        let board = self.hub.recordings().board();
        let (seats, changed) = board.report(table, side, state, microphone, reason, now);
        // A change reaches this connection through the feed; an unchanged status is
        // answered here, so that every report gets its `recording` answer.
        changed || self.send(&ServerMsg::Recording { table, seats }).await
    }

    async fn on_recording(&mut self, update: &(TableId, String)) -> bool {
        if !self.tables.contains(&update.0) {
            return true;
        }
        self.send_text(update.1.clone()).await
    }

    async fn on_published(&mut self, table: TableId, p: &Published) -> bool {
        let last = self.last.get(&table).copied().unwrap_or(0);
        if p.seq <= last {
            return true;
        }
        if p.seq > last + 1 {
            return self.resync(table, Some(last)).await;
        }
        self.last.insert(table, p.seq);
        if !self.sees(p.audience) {
            return true;
        }
        self.send_text(p.json.clone()).await
    }

    fn sees(&self, audience: Audience) -> bool {
        self.seat
            .as_ref()
            .is_some_and(|s| audience.includes(s.role))
    }

    /// (Re)subscribes to a table: the events after `since` that were missed, then the
    /// current state, then the live feed. With `since = None` after a lag, the last
    /// delivered event is used.
    async fn resync(&mut self, table: TableId, since: Option<u64>) -> bool {
        let Some(handle) = self.hub.table(table) else {
            return self
                .send(&error(None, ErrorCode::UnknownTable, "no such table"))
                .await;
        };
        let since = since.or_else(|| self.last.get(&table).copied());
        let Some(joined) = handle.join(since).await else {
            return self
                .send(&error(
                    None,
                    ErrorCode::Unavailable,
                    "the table is not running",
                ))
                .await;
        };
        let missed = match (since, joined.missed) {
            (None, _) => Vec::new(),
            (Some(_), Some(m)) => m
                .iter()
                .filter(|p| self.sees(p.audience))
                .map(|p| p.json.clone())
                .collect(),
            (Some(s), None) => {
                let role = self.seat.as_ref().map_or(Role::Spectator, |s| s.role);
                match from_store(&self.hub, table, s, joined.seq, role).await {
                    Ok(missed) => missed,
                    Err(e) => {
                        // Never "nothing missed": the client is told, then gets the state.
                        if !matches!(e, ResyncError::TooFarBehind { .. }) {
                            tracing::error!(table, "resync from the store: {e}");
                        }
                        let told = error(
                            None,
                            ErrorCode::Resync,
                            format!("table {table}: the events missed cannot be read back: {e}"),
                        );
                        vec![encode(&told)]
                    }
                }
            }
        };
        for text in missed {
            if !self.send_text(text).await {
                return false;
            }
        }
        self.last.insert(table, joined.seq);
        let dropped = Arc::new(AtomicBool::new(false));
        if let Some(old) = self.subscriptions.insert(table, dropped.clone()) {
            old.store(true, Ordering::Relaxed);
        }
        self.feed.push(one_feed(table, joined.rx, dropped));
        self.send_text(joined.state).await
    }
}

/// The recording status changes of every table, as a stream. A connection that lags
/// behind by the feed's capacity loses the oldest changes; each message holds a table's
/// whole status, so the table's next change (or a `sync`) puts it right.
fn recording_feed(
    rx: tokio::sync::broadcast::Receiver<Arc<(TableId, String)>>,
) -> BoxStream<'static, Arc<(TableId, String)>> {
    stream::unfold(rx, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(update) => return Some((update, rx)),
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    })
    .fuse()
    .boxed()
}
