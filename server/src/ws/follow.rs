//! Joining and following: a seat's `hello`, the tables it follows as the event's list
//! changes, what it missed (`sync`, a resync from the store), and the tables' feeds passed
//! on to it as its role may see them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use baoqi_protocol::{Audience, ErrorCode, RecordedResult, ServerMsg, encode, error};
use baoqi_store::model::{EventId, Role, SeatRow, TableId};
use futures_util::stream::{self, BoxStream};
use futures_util::{Sink, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use super::{Conn, Endpoint, Outgoing, ResyncError, from_store, one_feed};
use crate::hub::{Listed, covered};
use crate::limits::Bucket;
use crate::table::Published;

impl<O> Conn<O>
where
    O: Sink<Outgoing> + Unpin + Send,
{
    /// A `sync` of a table within its budget: the events missed and the state; beyond it,
    /// refused (and counted against the budget of messages).
    pub(super) async fn sync(&mut self, table: Option<TableId>, since: Option<u64>) -> bool {
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
            crate::observe::rate_limited("syncs");
            let e = error(
                None,
                ErrorCode::RateLimited,
                format!("too many syncs of table {t}: wait a moment, then sync again"),
            );
            return self.refused(&e).await;
        }
        self.resync(t, since).await
    }

    pub(super) async fn hello(
        &mut self,
        endpoint: Endpoint,
        token: &str,
        since: Option<u64>,
    ) -> bool {
        let seat = match self.hub.authenticate(token).await {
            Ok(s) => s,
            Err(e) => return self.send(&error(None, e.code(), e.to_string())).await,
        };
        if !endpoint.admits(seat.role) {
            let msg = format!("a {} seat does not join on this endpoint", seat.role);
            return self.send(&error(None, ErrorCode::WrongEndpoint, msg)).await;
        }
        // A referee or a spectator follows the event's tables as they are added.
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
        if let Some(place) = &self.place {
            place.authenticated();
        }
        self.connected = Some(crate::observe::Connected::new(seat.role.as_str()));
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
                event: self.seat.as_ref().map_or(EventId(0), |s| s.event),
                results: self.entered.clone(),
            };
            return self.send(&told).await;
        }
        true
    }

    /// The event's tables changed: the seat is told its whole list, then gets the state of
    /// each new one it covers and follows it.
    pub(super) async fn on_tables(&mut self) -> bool {
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
    pub(super) async fn reread_seat(&mut self, listed: &Listed) {
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

    pub(super) async fn on_recording(&mut self, update: &(TableId, String)) -> bool {
        if !self.tables.contains(&update.0) {
            return true;
        }
        self.send_text(update.1.clone()).await
    }

    pub(super) async fn on_published(&mut self, table: TableId, p: &Published) -> bool {
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

    pub(super) fn sees(&self, audience: Audience) -> bool {
        self.seat
            .as_ref()
            .is_some_and(|s| audience.includes(s.role))
    }

    /// (Re)subscribes to a table: the events after `since` that were missed, then the
    /// current state, then the live feed. With `since = None` after a lag, the last
    /// delivered event is used.
    pub(super) async fn resync(&mut self, table: TableId, since: Option<u64>) -> bool {
        let Some(handle) = self.hub.table(table) else {
            return self
                .send(&error(None, ErrorCode::UnknownTable, "no such table"))
                .await;
        };
        let since = since.or_else(|| self.last.get(&table).copied());
        let Some(joined) = handle.join(since).await else {
            // Not answered (the node holding the table late, or gone before another takes
            // it): told, and asked again after a pause that grows, never left without state.
            let pause = self.rejoins.after_failure(table);
            let told = format!(
                "table {table} does not answer now: joining it again in {} s",
                pause.as_secs()
            );
            return self.send(&error(None, ErrorCode::Unavailable, told)).await;
        };
        self.rejoins.joined(table);
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
                            tracing::error!(%table, "resync from the store: {e}");
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

/// The organiser's results of the tables `seat` covers.
fn recorded_of(seat: &SeatRow, listed: &Listed) -> Vec<RecordedResult> {
    listed
        .recorded
        .iter()
        .filter(|(t, _)| seat.covers(**t))
        .map(|(&table, &result)| RecordedResult { table, result })
        .collect()
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

/// The tables a connection joins again after a join that was not answered, each after a
/// pause that doubles with each failure in a row (1 s, 2 s, 4 s … up to 16 s): asked again
/// at once, a late holder would only be asked more.
#[derive(Default)]
pub(super) struct Rejoins {
    /// Failures in a row, by table.
    failures: std::collections::HashMap<TableId, u32>,
    /// The pauses running, each ending with its table.
    due: futures_util::stream::FuturesUnordered<futures_util::future::BoxFuture<'static, TableId>>,
}

/// The first pause after a join not answered, and the longest.
const REJOIN_FIRST: std::time::Duration = std::time::Duration::from_secs(1);
const REJOIN_MOST: std::time::Duration = std::time::Duration::from_secs(16);

impl Rejoins {
    /// Counts a join of `table` not answered and starts its pause; returns the pause.
    pub(super) fn after_failure(&mut self, table: TableId) -> std::time::Duration {
        let n = self.failures.entry(table).or_insert(0);
        let pause = REJOIN_FIRST
            .saturating_mul(1 << (*n).min(4))
            .min(REJOIN_MOST);
        *n += 1;
        self.due.push(Box::pin(async move {
            tokio::time::sleep(pause).await;
            table
        }));
        pause
    }

    /// A join of `table` answered: its failures are forgotten.
    pub(super) fn joined(&mut self, table: TableId) {
        self.failures.remove(&table);
    }

    /// Whether no pause runs.
    pub(super) fn is_empty(&self) -> bool {
        self.due.is_empty()
    }

    /// The next table whose pause ended.
    pub(super) async fn next(&mut self) -> Option<TableId> {
        futures_util::StreamExt::next(&mut self.due).await
    }
}
