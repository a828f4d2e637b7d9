//! 10–20 parallel `GET /api/events/1/log.json` (7 MB each) delayed another table's acks by
//! up to 4.4 s and took the server from 282 MB to 936 MB. An export is now streamed a page
//! at a time from a read-only connection of its own, off the tables' path, and at most
//! `EXPORT_LIMIT` run at once (one more is told to retry later); the bytes are those of the
//! export before it streamed.
//!
//! The long log is written straight into the store, made by the server's own `Game` (the
//! events are exactly what a running server stores): a referee's `start`, then red asking the
//! time over and over.

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_arbiter::{Command, Millis};
use baoqi_organiser::admin::Created;
use baoqi_server::export;
use baoqi_server::http::logs::EXPORT_LIMIT;
use baoqi_store::model::Role;
use baoqi_store::{LogEntry, SqliteStore, Store};
use common::{Client, Server, event_file, start};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

/// Two tables and, named by none, a referee of the whole event.
const EVENT: &str = r#"
name = "long logs"
spectators = 0
[[tables]]
name = "long"
red = "r1"
black = "b1"
[[tables]]
name = "live"
red = "r2"
black = "b2"
"#;

/// An event whose first table's log has `entries` entries after its creation, stored before
/// the server starts; the server, what was created, and the database file.
async fn long_log(entries: usize) -> (Server, Created, PathBuf) {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let created = baoqi_organiser::admin::create_event(&store, &event_file(EVENT)).unwrap();
    let table = &created.tables[0];
    let opening = std::iter::once((Role::Referee, Command::Start));
    let fillers = (0..entries).map(|_| (Role::Red, Command::QueryTime));
    let steps = opening.chain(fillers).zip(1_000u64..);
    let (_, log) = common::played_log(
        table,
        steps.map(|((role, command), at)| (Millis(at), role, command)),
    );
    let last = log.last().unwrap().at;
    store.append(&log, Some(last)).unwrap();
    drop(store);
    let s = start(Some(db.clone()), None).await;
    (s, created, db)
}

/// The referee of every table (the event file names none: the server issues one).
fn chief(created: &Created) -> String {
    created
        .seats
        .iter()
        .find(|i| i.seat.role == Role::Referee)
        .map(|i| i.token.secret().to_string())
        .unwrap()
}

fn request(path: &str, token: &str) -> Request<Body> {
    Request::get(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap()
}

/// The whole body of a GET through `router`.
async fn body_of(router: &axum::Router, path: &str, token: &str) -> Vec<u8> {
    let resp = router.clone().oneshot(request(path, token)).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK, "{path}");
    axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap()
        .to_vec()
}

#[tokio::test]
async fn the_streamed_logs_are_byte_for_byte_the_exports_as_they_were() {
    // Three pages and a bit of the first table; the second table's log is its creation.
    let (s, created, _) = long_log(700).await;
    let (t1, t2) = (created.tables[0].id, created.tables[1].id);
    let router = baoqi_server::http::router(s.hub.clone());
    let token = chief(&created);
    let store = s.hub.store().clone();
    let (log1, log2) = (store.log(t1).unwrap(), store.log(t2).unwrap());
    assert!(log1.len() > 700);

    // As the routes wrote them before: one `serde_json::Value`, written compact.
    let table = serde_json::to_value(export::log_json(&log1)).unwrap();
    let got = body_of(&router, &format!("/api/tables/{t1}/log.json"), &token).await;
    assert!(
        got == serde_json::to_vec(&table).unwrap(),
        "table log differs"
    );

    let both: Vec<LogEntry> = log1.iter().chain(&log2).cloned().collect();
    let event = s.hub.events().into_iter().next().unwrap();
    let whole =
        json!({"event": event, "log": serde_json::to_value(export::log_json(&both)).unwrap()});
    let got = body_of(
        &router,
        &format!("/api/events/{}/log.json", event.id),
        &token,
    )
    .await;
    assert!(
        got == serde_json::to_vec(&whole).unwrap(),
        "event log differs"
    );
    s.stop().await;
}

#[tokio::test]
async fn no_more_than_the_limit_of_exports_run_at_once() {
    let (s, created, _) = long_log(2_000).await;
    let router = baoqi_server::http::router(s.hub.clone());
    let token = chief(&created);
    let path = format!("/api/events/{}/log.json", created.event);
    // Readers that take nothing yet: each export holds its place.
    let mut running = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..8 {
        let resp = router
            .clone()
            .oneshot(request(&path, &token))
            .await
            .unwrap();
        if resp.status() == StatusCode::OK {
            running.push(resp);
        } else {
            refused.push(resp);
        }
    }
    assert_eq!(running.len(), EXPORT_LIMIT, "exports running at once");
    for resp in refused {
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(resp.headers().contains_key(header::RETRY_AFTER));
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["code"], "busy", "{v}");
    }
    // A reader that goes away frees its place.
    drop(running.pop());
    let freed = Instant::now();
    loop {
        let resp = router
            .clone()
            .oneshot(request(&path, &token))
            .await
            .unwrap();
        if resp.status() == StatusCode::OK {
            break;
        }
        assert!(
            freed.elapsed() < Duration::from_secs(5),
            "the place is not freed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    s.stop().await;
}

/// The resident memory of this process (`VmRSS`), in bytes.
fn memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// A GET over TCP, the body read and dropped as it comes: the status line and the bytes read.
async fn export_over_tcp(addr: std::net::SocketAddr, path: String, token: String) -> (String, u64) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 64 * 1024];
    let mut first = Vec::new();
    let mut total = 0u64;
    loop {
        let n = tcp.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        if first.len() < 64 {
            first.extend_from_slice(&buf[..n.min(64)]);
        }
        total += n as u64;
    }
    let status = String::from_utf8_lossy(&first)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    (status, total)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_answered_promptly_and_memory_stays_flat_while_logs_are_exported() {
    // About 7 MB of log, as the exports that once delayed the tables were.
    let (s, created, _) = long_log(28_000).await;
    let token = chief(&created);
    let path = format!("/api/events/{}/log.json", created.event);
    let before = memory();
    let mut peak = before;

    // Red of the live table asks the time, and black joins again and again, while 16 exports
    // are asked for at once.
    let live = |role| {
        created
            .seats
            .iter()
            .find(|i| i.seat.role == role && i.seat.tables == [created.tables[1].id])
            .map(|i| i.token.secret().to_string())
            .unwrap()
    };
    let (red_token, black_token) = (live(Role::Red), live(Role::Black));
    let mut red = Client::join(&s.url("seat"), &red_token, None).await;
    red.until(|v| v["type"] == "state").await;
    let exports: Vec<_> = (0..16)
        .map(|_| tokio::spawn(export_over_tcp(s.addr, path.clone(), token.clone())))
        .collect();
    let mut slowest = Duration::ZERO;
    let mut asked = 0u32;
    while asked < 20 || !exports.iter().all(tokio::task::JoinHandle::is_finished) {
        let id = format!("q{asked}");
        let sent = Instant::now();
        red.command(&id, json!({"type": "query_time"})).await;
        let answer = red.answer(&id).await;
        assert_ne!(answer["type"], "error", "{answer}");
        slowest = slowest.max(sent.elapsed());
        if asked.is_multiple_of(4) {
            let joining = Instant::now();
            let black = Client::join(&s.url("seat"), &black_token, None).await;
            slowest = slowest.max(joining.elapsed());
            black.close().await;
        }
        peak = peak.max(memory());
        asked += 1;
        // Within the seat's command rate (10 a second): the exports may take seconds in an
        // unoptimised build under load, and a player asks the time now and then.
        tokio::time::sleep(Duration::from_millis(110)).await;
    }
    let mut served = 0;
    let mut biggest = 0;
    for e in exports {
        let (status, bytes) = e.await.unwrap();
        if status.contains(" 200 ") {
            served += 1;
            biggest = biggest.max(bytes);
        } else {
            assert!(status.contains(" 503 "), "{status}");
        }
    }
    let grown = peak.saturating_sub(before);
    eprintln!(
        "{served} exports of {biggest} bytes; slowest answer or join {slowest:?} of {asked}; \
         memory grew {} MB",
        grown >> 20
    );
    assert!(
        served >= 1 && biggest > 5_000_000,
        "{served} served, {biggest} bytes"
    );
    assert!(
        slowest < Duration::from_millis(500),
        "an answer took {slowest:?}"
    );
    assert!(grown < 64 << 20, "the memory grew {} MB", grown >> 20);
    s.stop().await;
}
