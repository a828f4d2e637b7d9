//! `baoqi bench load --flood binary|ping`: while the bots play, flooders open WebSocket
//! connections to the server and send binary frames (or pings) as fast as the socket takes them, each on
//! a new connection once the server has closed the last (each frame counts against a
//! connection's budget of messages). The games' latencies are what the benchmark measures:
//! what the players see while the flood goes on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

/// Flooders at once.
pub const FLOODERS: usize = 4;

/// What a flooder sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flood {
    /// Binary frames of 16 bytes (not part of the protocol).
    Binary,
    /// WebSocket pings (the transport answers each with a pong).
    Ping,
}

impl Flood {
    fn frame(self) -> Message {
        match self {
            Flood::Binary => Message::binary(vec![0u8; 16]),
            Flood::Ping => Message::Ping(vec![0u8; 16].into()),
        }
    }

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Flood::Binary => "binary frames",
            Flood::Ping => "pings",
        }
    }
}

/// What the flooders sent.
#[derive(Debug, Default)]
pub struct Flooded {
    /// Frames sent.
    pub frames: AtomicU64,
    /// Connections opened (each ended by the server, or by the run's end).
    pub connections: AtomicU64,
}

/// Starts [`FLOODERS`] flooders of `flood` at `base` (a `ws://` address); they end when
/// `stop` is set.
pub fn start(base: &str, flood: Flood, stop: &Arc<AtomicBool>) -> Arc<Flooded> {
    let counters = Arc::new(Flooded::default());
    for _ in 0..FLOODERS {
        let url = format!("{base}/ws/watch");
        tokio::spawn(flooder(url, flood, counters.clone(), stop.clone()));
    }
    counters
}

/// Connects, sends frames until the server closes the connection (its answers read and
/// dropped as they come), and connects again, until `stop`.
async fn flooder(url: String, flood: Flood, counters: Arc<Flooded>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let Ok((ws, _)) = tokio_tungstenite::connect_async(url.as_str()).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        counters.connections.fetch_add(1, Ordering::Relaxed);
        let (mut sink, mut stream) = ws.split();
        let reader = tokio::spawn(async move { while let Some(Ok(_)) = stream.next().await {} });
        let frame = flood.frame();
        while !stop.load(Ordering::Relaxed) && !reader.is_finished() {
            if sink.send(frame.clone()).await.is_err() {
                break;
            }
            counters.frames.fetch_add(1, Ordering::Relaxed);
        }
        reader.abort();
    }
}
