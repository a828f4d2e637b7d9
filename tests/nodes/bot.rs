//! The bots that play the node tests' tables: two seats per table, each connected to a node
//! of its own, playing a script and going on from what the store holds whenever a command is
//! not acknowledged.

use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_store::PgStore;
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::harness::{Ws, join, next, stored_moves};

/// How a bot plays.
#[derive(Clone, Copy)]
pub(super) struct Play {
    /// The least time between two commands.
    pub(super) pace: Duration,
    /// Whether a player waits to see, on his own connection, the events of the command
    /// before his (the opponent's move) before he plays, as a person does: a seat that stops
    /// hearing its table is then a table that never moves again.
    pub(super) sees_opponent: bool,
}

impl Play {
    /// As fast as the nodes answer, each seat's view not looked at.
    pub(super) const FAST: Play = Play {
        pace: Duration::ZERO,
        sees_opponent: false,
    };
}

/// How long a player waits to see the opponent's move before the test fails.
const PATIENCE: Duration = Duration::from_secs(10);

/// One player's connection and the last event of the table it has seen.
struct Seat {
    ws: Ws,
    seen: u64,
}

impl Seat {
    /// Notes the sequence number a `state` or an `event` of the table carries.
    fn saw(&mut self, v: &Value) {
        if matches!(v["type"].as_str(), Some("state" | "event")) {
            self.seen = self.seen.max(v["seq"].as_u64().unwrap_or(0));
        }
    }

    /// Sends a command; its answer, or `None` when the connection broke.
    async fn command(&mut self, id: &str, table: u32, command: &Value) -> Option<Value> {
        let msg = json!({"v": 2, "type": "command", "id": id, "table": table, "command": command});
        self.ws.send(Message::text(msg.to_string())).await.ok()?;
        loop {
            let v = next(&mut self.ws).await?;
            self.saw(&v);
            if v["id"] == id {
                return Some(v);
            }
        }
    }

    /// Waits until it has seen event `seq`: `Some(true)` once it has, `Some(false)` when it
    /// did not within [`PATIENCE`], `None` when the connection broke.
    async fn sees(&mut self, seq: u64) -> Option<bool> {
        let by = tokio::time::Instant::now() + PATIENCE;
        while self.seen < seq {
            match tokio::time::timeout_at(by, next(&mut self.ws)).await {
                Err(_) => return Some(false),
                Ok(v) => self.saw(&v?),
            }
        }
        Some(true)
    }
}

/// Both seats of a table: red connected to the first node of `nodes` from `from` on that
/// answers, black to the node after it (a node may be down: the bots reconnect to any
/// other). Seats on two nodes, as players who each pick one: at least one of them reaches
/// the table through the bus.
async fn seats(nodes: &[String], from: usize, tokens: &[String; 2]) -> ([Seat; 2], usize) {
    for i in (from..).take(nodes.len() * 20) {
        let at = |k: usize| &nodes[(i + k) % nodes.len()];
        if let (Some(red), Some(black)) = (
            join(at(0), "seat", &tokens[0]).await,
            join(at(1), "seat", &tokens[1]).await,
        ) {
            let seat = |ws| Seat { ws, seen: 0 };
            return ([seat(red), seat(black)], i);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no node took the seats");
}

/// Plays a table's script through `nodes` as `play` says, going on from what the store
/// holds whenever a command is not acknowledged (the match paused by a takeover, or its
/// holder died with the command in hand). Returns the indices acknowledged, each with the
/// instant its acknowledgement arrived.
pub(super) async fn bot(
    nodes: Vec<String>,
    tokens: [String; 2],
    table: u32,
    steps: Vec<(usize, Value)>,
    store: Arc<PgStore>,
    play: Play,
) -> Vec<(usize, Instant)> {
    let (mut seat, mut at) = seats(&nodes, table as usize, &tokens).await;
    let (mut acked, mut k, mut tries, mut last) = (Vec::new(), 0, 0, 0);
    while k < steps.len() {
        let (who, cmd) = &steps[k];
        let seen = if play.sees_opponent {
            seat[*who].sees(last).await
        } else {
            Some(true)
        };
        assert_ne!(
            seen,
            Some(false),
            "table {table}: seat {who} never saw event {last} (seen {}) within {PATIENCE:?}",
            seat[*who].seen
        );
        let reply = match seen {
            Some(_) => seat[*who].command(&format!("c{k}"), table, cmd).await,
            None => None,
        };
        match reply {
            Some(r) if r["type"] == "ack" => {
                acked.push((k, Instant::now()));
                last = last.max(r["seq"].as_u64().unwrap_or(0));
                k += 1;
                tokio::time::sleep(play.pace).await;
                continue;
            }
            Some(_) => {}
            None => (seat, at) = seats(&nodes, at + 1, &tokens).await,
        }
        tries += 1;
        assert!(
            tries < 400,
            "table {table}: stuck at command {k}: {reply:?}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
        let s = store.clone();
        k = tokio::task::spawn_blocking(move || stored_moves(&s, table))
            .await
            .unwrap();
    }
    acked
}
