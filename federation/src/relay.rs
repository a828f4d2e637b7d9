//! The holder's side of a table on NATS: it answers the commands and joins other nodes
//! forward, and publishes the table's events and its snapshot once over for the nodes whose
//! connections follow the table ([`super::remote`]). The relay ends when the table is
//! dropped (its lease lost) or the node stops.

use std::future::Future;
use std::sync::Arc;

use async_nats::{Client, Message, Subscriber};
use baoqi_arbiter::View;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::Bus;
use super::wire::{Topic, WireCommand, WireHandled, WireJoin, WireJoined, WirePublished};
use baoqi_server::table::{Published, TableHandle};
use baoqi_store::model::TableRow;

/// The relay of one held table: its tasks end when it is dropped.
pub struct Relay {
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Starts relaying a table this node holds. The subscriptions are in place (flushed to the
/// NATS server) when it returns, so that a node asking right after is answered.
pub async fn start(
    bus: &Bus,
    row: &TableRow,
    table: &TableHandle,
) -> Result<Relay, async_nats::Error> {
    let nats = &bus.nats;
    let on = |topic| bus.subject(row.event, row.id, topic);
    let commands = nats.subscribe(on(Topic::Command)).await?;
    let joins = nats.subscribe(on(Topic::Join)).await?;
    let over_asked = nats.subscribe(on(Topic::OverGet)).await?;
    let mut tasks = Vec::new();
    if let Some(feed) = table.join(None).await {
        tasks.push(tokio::spawn(publish_events(
            nats.clone(),
            on(Topic::Events),
            feed.rx,
        )));
    }
    if let Some(over) = table.over_changes() {
        tasks.push(tokio::spawn(publish_over(
            nats.clone(),
            on(Topic::Over),
            over,
        )));
    }
    tasks.push(answer(nats, commands, table, command));
    tasks.push(answer(nats, joins, table, join));
    tasks.push(answer(nats, over_asked, table, |t, _| async move {
        over_now(&t)
    }));
    nats.flush().await?;
    Ok(Relay { tasks })
}

/// Answers each request on `requests` with `f(table, payload)`, in order.
fn answer<F, Fut>(
    nats: &Client,
    mut requests: Subscriber,
    table: &TableHandle,
    f: F,
) -> JoinHandle<()>
where
    F: Fn(TableHandle, Bytes) -> Fut + Send + 'static,
    Fut: Future<Output = Option<Vec<u8>>> + Send,
{
    let (nats, table) = (nats.clone(), table.clone());
    tokio::spawn(async move {
        while let Some(Message { reply, payload, .. }) = requests.next().await {
            let (Some(reply), Some(answer)) = (reply, f(table.clone(), payload).await) else {
                continue;
            };
            let _ = nats.publish(reply, answer.into()).await;
        }
    })
}

async fn command(table: TableHandle, payload: Bytes) -> Option<Vec<u8>> {
    let asked: WireCommand = serde_json::from_slice(&payload).ok()?;
    let handled = table.command(asked.seat, asked.command).await?;
    serde_json::to_vec(&WireHandled::from(handled)).ok()
}

async fn join(table: TableHandle, payload: Bytes) -> Option<Vec<u8>> {
    let asked: WireJoin = serde_json::from_slice(&payload).ok()?;
    let joined = table.join(asked.since).await?;
    serde_json::to_vec(&WireJoined {
        state: joined.state,
        seq: joined.seq,
        missed: joined
            .missed
            .map(|m| m.iter().map(|p| WirePublished::from(&**p)).collect()),
    })
    .ok()
}

fn over_now(table: &TableHandle) -> Option<Vec<u8>> {
    serde_json::to_vec(&table.over().as_deref()).ok()
}

async fn publish_events(nats: Client, to: String, mut feed: broadcast::Receiver<Arc<Published>>) {
    loop {
        match feed.recv().await {
            Ok(p) => {
                let Ok(body) = serde_json::to_vec(&WirePublished::from(&*p)) else {
                    continue;
                };
                let _ = nats.publish(to.clone(), body.into()).await;
            }
            // The followers see the gap in the sequence numbers and join again.
            Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return,
        }
    }
}

async fn publish_over(nats: Client, to: String, mut over: watch::Receiver<Option<Arc<View>>>) {
    loop {
        let body = serde_json::to_vec(&over.borrow_and_update().as_deref()).unwrap_or_default();
        let _ = nats.publish(to.clone(), body.into()).await;
        if over.changed().await.is_err() {
            return;
        }
    }
}
