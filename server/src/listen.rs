//! The accept loop. `axum::serve` sets no header timeout and admits any number of
//! connections, so a peer could hold the server's sockets with connections that never send
//! a request; here every connection is counted per group of addresses and in all
//! ([`crate::occupancy::Occupancy`]), refused at once beyond the limits (or, when the
//! server is full, let in by closing a connection that has not authenticated), and must
//! send its
//! request headers within [`Limits::header_read`] (hyper's timer; this also closes idle
//! keep-alive connections). A WebSocket, once upgraded, is watched by its own pings
//! ([`crate::ws`]).

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::limits::Limits;
use crate::occupancy::{Admitted, Occupancy};

/// A socket and its place in the count: the place is given back when the socket is dropped,
/// whether hyper or an upgraded WebSocket held it last. A write the peer does not take
/// within [`Limits::write_within`] fails: a client that stops reading loses its connection,
/// and what was held for it is freed (20 clients that never read an 18 MB response pinned
/// 380 MB for minutes). A connection closed to make room fails its next read or write (and
/// is woken for it).
struct Counted {
    tcp: TcpStream,
    admitted: Admitted,
    /// How long a write may wait.
    within: std::time::Duration,
    /// Since when a write has waited for the peer.
    stuck: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl Counted {
    /// A write's outcome, failed once it has waited [`Limits::write_within`] in all.
    fn deadline<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        polled: std::task::Poll<std::io::Result<T>>,
    ) -> std::task::Poll<std::io::Result<T>> {
        use std::future::Future as _;
        use std::task::Poll;
        let within = self.within;
        if polled.is_ready() {
            self.stuck = None;
            return polled;
        }
        let timer = self
            .stuck
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(within)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.stuck = None;
                Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the peer took nothing for too long",
                )))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The error of a read or write on a connection closed to make room.
fn evicted() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::ConnectionAborted,
        "closed to make room for an authenticated connection",
    )
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        if self.admitted.poll_evicted(cx).is_ready() {
            return std::task::Poll::Ready(Err(evicted()));
        }
        std::pin::Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        if self.admitted.poll_evicted(cx).is_ready() {
            return std::task::Poll::Ready(Err(evicted()));
        }
        let polled = std::pin::Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.deadline(cx, polled)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let polled = std::pin::Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        self.deadline(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves; then stops accepting
/// and asks every open HTTP connection to finish its request and close.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<tokio_rustls::TlsAcceptor>,
    shutdown: impl Future<Output = ()>,
) {
    let occupancy = Occupancy::default();
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, or the peer left before being accepted:
                    // wait a little rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let admitted = match occupancy.admit(peer.ip(), &limits) {
            Ok(a) => a,
            Err(why) => {
                tracing::warn!(%peer, "connection refused: {why}");
                continue; // dropping the socket closes it at once
            }
        };
        // Small messages must leave at once: Nagle's algorithm would hold them for an ACK.
        let _ = tcp.set_nodelay(true);
        let io = Counted {
            tcp,
            admitted,
            within: limits.write_within,
            stuck: None,
        };
        let place = io.admitted.place();
        let (app, limits, stopping) = (app.clone(), limits.clone(), stopping.clone());
        match &tls {
            None => tokio::spawn(connection(io, place, app, limits, stopping)),
            Some(acceptor) => {
                tokio::spawn(secured(acceptor.clone(), io, place, app, limits, stopping))
            }
        };
    }
    let _ = stop.send(true);
    // No new connection waits in the kernel's queue while the others finish.
    drop(listener);
    // Let the connections finish their requests (WebSockets end with the hub's shutdown).
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while occupancy.total() > 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A connection on a TLS listener: its handshake within [`Limits::header_read`], then HTTP as
/// on any other. A plain HTTP request fails the handshake and the socket is closed.
async fn secured(
    acceptor: tokio_rustls::TlsAcceptor,
    io: Counted,
    place: Arc<crate::occupancy::Place>,
    app: Router,
    limits: Limits,
    stopping: watch::Receiver<bool>,
) {
    match tokio::time::timeout(limits.header_read, acceptor.accept(io)).await {
        Ok(Ok(tls)) => connection(tls, place, app, limits, stopping).await,
        Ok(Err(e)) => tracing::debug!("TLS handshake refused: {e}"),
        Err(_) => tracing::debug!("TLS handshake: no answer in time"),
    }
}

/// One HTTP/1.1 connection, with upgrades (to a WebSocket). Each request carries the
/// connection's place ([`crate::occupancy::Place`]), for a WebSocket to say when it has
/// authenticated.
async fn connection<I>(
    io: I,
    place: Arc<crate::occupancy::Place>,
    app: Router,
    limits: Limits,
    mut stopping: watch::Receiver<bool>,
) where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    use tower::ServiceExt as _;
    let app = app.map_request(
        move |mut req: axum::extract::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(place.clone());
            req
        },
    );
    let service = TowerToHyperService::new(app);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read);
    let conn = builder
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    let mut conn = pin!(conn);
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!("connection: {e}");
                }
                return;
            }
            changed = stopping.changed() => {
                if changed.is_err() || *stopping.borrow() {
                    conn.as_mut().graceful_shutdown();
                    // The connection now finishes its request; further signals are moot.
                    let _ = conn.as_mut().await;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use tokio::io::AsyncWriteExt;

    use super::*;

    /// A client that never reads held what was written for it for minutes. The write fails
    /// once the peer has taken nothing for the limit's time.
    #[tokio::test]
    async fn a_peer_that_takes_nothing_fails_the_write_in_its_time() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _reader = TcpStream::connect(addr).await.unwrap(); // never reads
        let (tcp, peer) = listener.accept().await.unwrap();
        let limits = Limits {
            write_within: Duration::from_millis(300),
            ..Limits::default()
        };
        let occupancy = Occupancy::default();
        let mut io = Counted {
            tcp,
            admitted: occupancy.admit(peer.ip(), &limits).unwrap(),
            within: limits.write_within,
            stuck: None,
        };
        let started = Instant::now();
        let big = vec![b'x'; 64 * 1024 * 1024];
        let e = io.write_all(&big).await.unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
