//! `baoqi bench load`: N games of scripted bots over real WebSocket connections — every move is four
//! announced words, a board report and a clock press, with a time query every fourth move —
//! plus one referee monitor per 10 tables. Measures the latency from a command sent to its
//! first event received by the opponent and by the monitor, events per second, and checks
//! every feed for lost or reordered events.

mod bot;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use baoqi_arbiter::{AlertSet, Category, ClockMode, EventKind, MatchConfig, TimeControl};

use crate::admin;
use crate::config::{EventFile, RefereeSpec, TableSpec};
use crate::metrics::Summary;
use crate::store::{SqliteStore, Store};

/// Options of the load benchmark.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Games played at once.
    pub games: usize,
    /// How long the bots play.
    pub seconds: u64,
    /// A running server (`http://host:port`); without it a server is started in-process.
    pub url: Option<String>,
    /// The running server's database (needed with `url`, to create the bench event).
    pub db: Option<PathBuf>,
    /// Commands per second per game.
    pub rate: f64,
}

/// What the benchmark measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// Games, player sockets, monitor sockets.
    pub games: usize,
    /// Monitors.
    pub monitors: usize,
    /// Seconds of play measured.
    pub seconds: f64,
    /// Commands acknowledged.
    pub commands: u64,
    /// Commands refused by the arbiter (a bot out of step: should be 0).
    pub rejected: u64,
    /// Events received over all sockets.
    pub events: u64,
    /// Command sent → first event at the opponent.
    pub to_opponent: Summary,
    /// Command sent → first event at the monitor.
    pub to_monitor: Summary,
    /// Events missing from a feed (a gap in the sequence numbers).
    pub lost: u64,
    /// Events received out of order or twice.
    pub reordered: u64,
    /// Resyncs (a `state` after the first one on a socket).
    pub resyncs: u64,
    /// Games that ended during the run.
    pub finished: u64,
    /// The server's own figures, when it ran in-process.
    pub server: Option<crate::metrics::Stats>,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.seconds.max(1e-9);
        writeln!(
            f,
            "games {} ({} player sockets, {} monitors), {:.1} s",
            self.games,
            2 * self.games,
            self.monitors,
            self.seconds
        )?;
        writeln!(
            f,
            "commands {} ({:.0}/s), rejected {}, events received {} ({:.0}/s), games finished {}",
            self.commands,
            self.commands as f64 / secs,
            self.rejected,
            self.events,
            self.events as f64 / secs,
            self.finished
        )?;
        let line = Summary::line;
        writeln!(f, "command → opponent: {}", line(&self.to_opponent))?;
        writeln!(f, "command → monitor:  {}", line(&self.to_monitor))?;
        writeln!(
            f,
            "lost {}, reordered {}, resyncs {}",
            self.lost, self.reordered, self.resyncs
        )?;
        if let Some(s) = &self.server {
            writeln!(
                f,
                "server: command handling {} ; timer lateness {}",
                line(&s.command_latency),
                line(&s.timer_lateness)
            )?;
        }
        Ok(())
    }
}

/// Runs the benchmark in its own runtimes (server and bots apart) and reports.
pub fn run_blocking(opts: &BenchOptions) -> Result<BenchReport, String> {
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-server")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (base, db, hub) = if let Some(url) = &opts.url {
        let db = opts
            .db
            .clone()
            .ok_or("--url needs --db: the server's database, to create the bench event")?;
        (url.trim_end_matches('/').to_string(), db, None)
    } else {
        let (base, db, hub) = server_rt.block_on(start_server())?;
        (base, db, Some(hub))
    };
    let store = SqliteStore::open(&db, false).map_err(|e| e.to_string())?;
    let created =
        admin::create_event(&store, &bench_event(opts.games)).map_err(|e| e.to_string())?;
    if let Some(hub) = &hub {
        server_rt
            .block_on(hub.start_tables(false))
            .map_err(|e| e.to_string())?;
    } else {
        // A running server starts tables added to its store within its scan period.
        std::thread::sleep(crate::hub::TABLE_SCAN + Duration::from_millis(500));
    }
    let bots_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-bots")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut report = bots_rt.block_on(bot::play(
        opts.seconds,
        opts.rate,
        &base.replace("http", "ws"),
        &created,
    ))?;
    report.server = hub.as_ref().map(|h| h.metrics().stats());
    if let Some(h) = hub {
        h.shutdown();
    }
    server_rt.shutdown_timeout(Duration::from_secs(2));
    if opts.url.is_none() {
        let _ = std::fs::remove_file(&db);
    }
    Ok(report)
}

fn alert_thresholds() -> Vec<u64> {
    (1..=600).map(|k| 3_600_000 - 2_000 * k).collect()
}

fn bench_event(games: usize) -> EventFile {
    let mut config = MatchConfig {
        kind: EventKind::Part6,
        ..MatchConfig::default()
    };
    for (side, name) in [(&mut config.red, "red"), (&mut config.black, "black")] {
        side.name = name.into();
        side.categories = vec![Category::Blind];
    }
    config.time.default = TimeControl {
        base_ms: 3_600_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    };
    // An alert every 2 s of a side's thinking time: the tables' timers fire under load.
    config.alerts.set = Some(AlertSet::Custom);
    config.alerts.thresholds_ms = alert_thresholds();
    let tables = (0..games)
        .map(|i| TableSpec {
            round: 1,
            name: format!("bench {}", i + 1),
            red: format!("red {}", i + 1),
            black: format!("black {}", i + 1),
            red_proxy: None,
            black_proxy: None,
            config: Some(config.clone()),
        })
        .collect();
    let referees = (0..games.div_ceil(10))
        .map(|k| RefereeSpec {
            name: format!("referee {}", k + 1),
            tables: (k * 10 + 1..=((k + 1) * 10).min(games)).collect(),
        })
        .collect();
    EventFile {
        name: format!("bench {games}"),
        settings: crate::config::EventSettings::default(),
        referees,
        spectators: 0,
        tables,
    }
}

/// A server on a fresh temporary database, on a free port of the loopback.
async fn start_server() -> Result<(String, PathBuf, Arc<crate::Hub>), String> {
    let (store, path) = SqliteStore::open_temp().map_err(|e| e.to_string())?;
    let store: Arc<dyn Store> = Arc::new(store);
    let hub = crate::Hub::open(store).map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let h = hub.clone();
    tokio::spawn(async move {
        let _ = crate::run(listener, h, std::future::pending()).await;
    });
    Ok((format!("http://{addr}"), path, hub))
}
