//! `baoqi bench load --poll-live`: a broadcast site relaying every table, polling each
//! table's live feed (`/api/tables/T/live.pgn`) every 2 s with the tag it holds
//! (`If-None-Match`), over a few kept-alive HTTP/1.1 connections, while the bots play: what
//! the feed costs the players is the difference in their latencies.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use baoqi_store::model::TableId;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// How often each table is polled.
pub const EVERY: Duration = Duration::from_secs(2);
/// The poller's connections.
const CONNECTIONS: usize = 8;

/// What the poller got: full records, `304 Not Modified`, failures.
#[derive(Debug, Default)]
pub struct Polled {
    /// Records sent whole (200).
    pub full: AtomicU64,
    /// Polls answered 304.
    pub unchanged: AtomicU64,
    /// Polls that failed (a status other than 200 or 304, a broken connection).
    pub failed: AtomicU64,
}

/// Starts polling `tables` on the server at `addr` (`host:port`) until `stop`, on a thread
/// of its own (a broadcast site is another client: it must not delay the bots' own reading,
/// which the measured latencies include).
pub fn start(addr: &str, tables: &[TableId], stop: &Arc<AtomicBool>) -> Arc<Polled> {
    let polled = Arc::new(Polled::default());
    let (addr, tables, stop, counts) = (
        addr.to_owned(),
        tables.to_vec(),
        stop.clone(),
        polled.clone(),
    );
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        rt.block_on(async move {
            let mut tasks = Vec::new();
            for k in 0..CONNECTIONS {
                let mine: Vec<TableId> = tables
                    .iter()
                    .copied()
                    .skip(k)
                    .step_by(CONNECTIONS)
                    .collect();
                tasks.push(tokio::spawn(connection(
                    addr.clone(),
                    mine,
                    stop.clone(),
                    counts.clone(),
                )));
            }
            for t in tasks {
                let _ = t.await;
            }
        });
    });
    polled
}

/// Waits for the broadcast site's first pass — every table's record sent whole — before the
/// measured steady state (at most 2 minutes), and says how long it took: a site that starts
/// mid-round costs the players that burst once, measured apart.
pub async fn first_pass(polled: &Polled, tables: usize) {
    let first = std::time::Instant::now();
    let n = tables as u64;
    while polled.full.load(Ordering::Relaxed) + polled.failed.load(Ordering::Relaxed) < n
        && first.elapsed() < Duration::from_secs(120)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "live feed: first pass of {n} records in {:.1} s",
        first.elapsed().as_secs_f64()
    );
}

/// One connection's share of the tables, each polled every [`EVERY`].
async fn connection(
    addr: String,
    tables: Vec<TableId>,
    stop: Arc<AtomicBool>,
    polled: Arc<Polled>,
) {
    if tables.is_empty() {
        return;
    }
    let mut tags: Vec<String> = vec![String::new(); tables.len()];
    let mut tick = tokio::time::interval(EVERY / u32::try_from(tables.len()).unwrap_or(u32::MAX));
    let mut conn = None;
    for i in (0..tables.len()).cycle() {
        tick.tick().await;
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if conn.is_none() {
            conn = TcpStream::connect(&addr).await.ok().map(BufReader::new);
        }
        let Some(c) = conn.as_mut() else {
            polled.failed.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        match poll(c, &addr, tables[i], &tags[i]).await {
            Some((200, tag)) => {
                tags[i] = tag;
                polled.full.fetch_add(1, Ordering::Relaxed);
            }
            Some((304, _)) => {
                polled.unchanged.fetch_add(1, Ordering::Relaxed);
            }
            _ => {
                polled.failed.fetch_add(1, Ordering::Relaxed);
                conn = None;
            }
        }
    }
}

/// One poll: the status and the tag of the answer (its body read and dropped).
async fn poll(
    c: &mut BufReader<TcpStream>,
    addr: &str,
    table: TableId,
    tag: &str,
) -> Option<(u16, String)> {
    let held = if tag.is_empty() {
        String::new()
    } else {
        format!("If-None-Match: {tag}\r\n")
    };
    let req = format!("GET /api/tables/{table}/live.pgn HTTP/1.1\r\nHost: {addr}\r\n{held}\r\n");
    c.get_mut().write_all(req.as_bytes()).await.ok()?;
    let mut line = String::new();
    c.read_line(&mut line).await.ok()?;
    let status: u16 = line.split_whitespace().nth(1)?.parse().ok()?;
    let (mut length, mut etag) = (0usize, String::new());
    loop {
        line.clear();
        c.read_line(&mut line).await.ok()?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (name, value) = l.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "etag" => value.trim().clone_into(&mut etag),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    c.read_exact(&mut body).await.ok()?;
    Some((status, etag))
}
