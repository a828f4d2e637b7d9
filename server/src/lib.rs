//! baoqi-server (報棋): transports, authenticates, persists and broadcasts the matches of
//! an event; all game behaviour stays in `baoqi-arbiter` (SPEC §2, §10–§11).
//!
//! Shape (after `mini-redis` and `lila-ws`): [`run`] serves a listener until a shutdown future
//! resolves; one task per WebSocket connection ([`ws`]); one task per match owning its
//! game ([`table`]); a store behind a trait with `SQLite` by default ([`store`]); the
//! timeline that keeps downtime off the clocks ([`timeline`]).

pub mod admin;
pub mod bench;
pub mod config;
pub mod demo;
pub mod export;
pub mod game;
pub mod http;
pub mod hub;
pub mod launch;
pub mod limits;
pub mod listen;
pub mod metrics;
pub mod missed;
pub mod model;
pub mod node;
pub mod organiser;
pub mod recording;
pub mod replay;
pub mod restart;
pub mod snapshot;
pub mod socket;
pub mod store;
pub mod table;
pub mod timeline;
pub mod wallclock;
pub mod ws;

use std::future::Future;
use std::sync::Arc;

pub use hub::Hub;

/// Serves HTTP and WebSocket on `listener` until `shutdown` resolves, then stops every
/// match task and connection. The hub must have started its tables
/// ([`Hub::start_tables`]).
pub async fn run(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = http::router(hub.clone());
    let stopping = hub.clone();
    let limits = hub.limits().clone();
    listen::serve(listener, app, limits, async move {
        shutdown.await;
        stopping.shutdown();
    })
    .await;
    hub.shutdown();
    Ok(())
}
