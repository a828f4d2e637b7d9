//! baoqi-server (報棋): the HTTP and WebSocket edge of a hall. It transports, authenticates,
//! persists and broadcasts the matches of an event; all game behaviour stays in
//! `baoqi-arbiter`, everything kept in `baoqi-store`, the organiser's service in
//! `baoqi-organiser` (`docs/product.md` §2, §10–§11).
//!
//! Shape (after `mini-redis` and `lila-ws`): [`run`] serves a listener until a shutdown future
//! resolves; one task per WebSocket connection ([`ws`]); one task per match owning its
//! game ([`table`]); the [`hub`] of every running match; exports and recordings
//! ([`export`], [`recording`]). A federation plugs in through [`federated`]; a hall runs
//! with no federation code on its path.

pub(crate) mod cut_index;
pub mod export;
pub mod federated;
pub mod http;
pub mod hub;
pub mod launch;
pub mod limits;
pub(crate) mod listen;
pub mod metrics;
pub(crate) mod missed;
pub mod observe;
pub mod occupancy;
pub mod recording;
pub mod restart;
pub(crate) mod socket;
pub(crate) mod standing;
pub mod table;
pub mod tls;
pub(crate) mod ws;

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
    run_secured(listener, hub, None, shutdown).await
}

/// [`run`], with TLS when `tls` is given: then the listener speaks TLS only
/// ([`crate::tls`]).
pub async fn run_secured(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    tls: Option<Arc<rustls::ServerConfig>>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = http::router(hub.clone());
    let stopping = hub.clone();
    let limits = hub.limits().clone();
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    listen::serve(listener, app, limits, tls, async move {
        shutdown.await;
        stopping.shutdown();
    })
    .await;
    hub.shutdown();
    Ok(())
}
