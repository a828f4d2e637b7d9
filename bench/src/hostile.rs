//! `baoqi bench load --hostile`: while the bots play, one table's red seat sends
//! 60 KB "words" as fast as the rate limit lets through and a short non-word in between
//! (which is stored, so the table's log grows), and 40 spectators of that table `sync` from
//! the start of its log in a loop. The other tables' latencies are what the benchmark
//! measures: what the people at them see while an adversary works on one table.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use baoqi_arbiter::Command;
use baoqi_protocol::{ClientMsg, ServerMsg, encode_client};
use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;

use super::bot::{Ws, connect, next_msg};
use baoqi_organiser::admin;
use baoqi_store::model::{Role, TableId};

/// Spectators syncing the hostile table from its start.
pub const WATCHERS: usize = 40;

/// What the adversary sent and what it got back.
#[derive(Debug, Default)]
pub struct Hostile {
    /// Words sent (long and short).
    pub words: AtomicU64,
    /// Answers that refused them (`error` or `rejected`).
    pub refused: AtomicU64,
    /// The spectators' `sync`s answered (a `state`, or a refusal).
    pub syncs: AtomicU64,
}

/// Starts the adversary on the last table of `created` at `base` (a `ws://` or `wss://`
/// address, `trust` for the latter); returns its counters. The tasks end when `stop` is set.
pub async fn start(
    base: &str,
    created: &admin::Created,
    stop: Arc<std::sync::atomic::AtomicBool>,
    trust: &crate::Trust,
) -> Result<Arc<Hostile>, String> {
    let table = created.tables.last().ok_or("no table")?.id;
    let token = |role: Role| {
        created
            .seats
            .iter()
            .filter(|s| s.seat.role == role && s.seat.covers(table))
            .map(|s| s.token.secret().to_string())
            .collect::<Vec<_>>()
    };
    let counters = Arc::new(Hostile::default());
    let red = token(Role::Red).into_iter().next().ok_or("no red seat")?;
    let ws = connect(&format!("{base}/ws/seat"), &red, trust).await?;
    tokio::spawn(words(ws, counters.clone(), stop.clone()));
    // A spectator follows every table of the event: he joins (a state for each) before he
    // starts, so that the run measures his syncs, not the event's joins (the join phase is
    // measured on its own).
    let tables = created.tables.len();
    for spectator in token(Role::Spectator).into_iter().take(WATCHERS) {
        let mut ws = connect(&format!("{base}/ws/watch"), &spectator, trust).await?;
        let mut states = 0;
        while states < tables {
            match next_msg(&mut ws).await {
                None => return Err("a spectator lost its connection while joining".into()),
                Some(ServerMsg::State { .. }) => states += 1,
                Some(_) => {}
            }
        }
        tokio::spawn(syncs(ws, table, counters.clone(), stop.clone()));
    }
    Ok(counters)
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> bool {
    ws.send(Message::text(encode_client(msg))).await.is_ok()
}

/// Long words and short non-words, one every 100 ms (the rate limit's sustained rate), the
/// answers read as they come.
async fn words(mut ws: Ws, counters: Arc<Hostile>, stop: Arc<std::sync::atomic::AtomicBool>) {
    let long = "炮".repeat(20_000);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut k = 0u64;
    while !stop.load(Ordering::Relaxed) {
        tokio::select! {
            _ = tick.tick() => {
                k += 1;
                let text = if k.is_multiple_of(2) { long.clone() } else { "z".to_string() };
                let msg = ClientMsg::Command {
                    id: Some(format!("h{k}")),
                    table: None,
                    command: Command::Word { text },
                };
                if !send(&mut ws, &msg).await {
                    return;
                }
                counters.words.fetch_add(1, Ordering::Relaxed);
            }
            m = next_msg(&mut ws) => match m {
                None => return,
                Some(ServerMsg::Error { .. } | ServerMsg::Rejected { .. }) => {
                    counters.refused.fetch_add(1, Ordering::Relaxed);
                }
                Some(_) => {}
            },
        }
    }
}

/// `sync` from 0 in a loop, as fast as the answers come.
async fn syncs(
    mut ws: Ws,
    table: TableId,
    counters: Arc<Hostile>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) {
    let sync = ClientMsg::Sync {
        table: Some(table),
        since: Some(0),
    };
    while !stop.load(Ordering::Relaxed) {
        if !send(&mut ws, &sync).await {
            return;
        }
        // Until its answer: the state, or a refusal (rate limited).
        loop {
            match next_msg(&mut ws).await {
                None => return,
                Some(ServerMsg::State { .. } | ServerMsg::Error { .. }) => break,
                Some(_) => {}
            }
        }
        counters.syncs.fetch_add(1, Ordering::Relaxed);
    }
}
