//! baoqi-bench (報棋): the benchmarks the command line runs, and their bots, kept out of
//! the server's library.
//!
//! `baoqi bench load`: N games of scripted bots over real WebSocket connections — every move is four
//! announced words, a board report and a clock press, with a time query every fourth move —
//! plus one referee monitor per 10 tables. Measures the latency from a command sent to its
//! first event received by the opponent and by the monitor, events per second, and checks
//! every feed for lost or reordered events.

mod bot;
pub mod child;
pub mod crash;
pub mod flood;
pub mod hostile;
mod nodes;
pub mod poll;
pub mod survive;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use baoqi_arbiter::{AlertSet, Category, ClockMode, EventKind, MatchConfig, TimeControl};

use baoqi_organiser::admin;
use baoqi_protocol::RoundNumber;
use baoqi_server::metrics::Summary;
use baoqi_store::config::{EventFile, RefereeSpec, TableSpec};
use baoqi_store::{SqliteStore, Store};

/// What the bots trust for a `wss://` server: the hall's own authority (`--ca`), or, when
/// `None`, the system's.
pub type Trust = Option<std::sync::Arc<rustls::ClientConfig>>;

/// Options of the load benchmark.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Games played at once.
    pub games: usize,
    /// How long the bots play.
    pub seconds: u64,
    /// A running server (`http://host:port`); without it the bench starts one.
    pub url: Option<String>,
    /// Without `url`: the `baoqi` binary to start the server with, in its own process
    /// (the default of `baoqi bench load`); `None` starts it in this process.
    pub spawn: Option<PathBuf>,
    /// The running server's database (needed with `url`, to create the bench event).
    pub db: Option<PathBuf>,
    /// Commands per second per game.
    pub rate: f64,
    /// Several nodes of a federation instead of one server ([`Nodes`]).
    pub nodes: Option<Nodes>,
    /// An adversary on the last table while the others play ([`hostile`]).
    pub hostile: bool,
    /// Flooders of binary frames or pings beside the games ([`flood`]).
    pub flood: Option<flood::Flood>,
    /// Real play (`--real-play`): the games' own time alerts, not one every 2 s.
    pub real_play: bool,
    /// A broadcast site polling every table's live feed every 2 s ([`poll`]).
    pub poll_live: bool,
    /// What the bots trust for a `https://` server (`--ca`: the hall's own authority).
    pub tls: Trust,
    /// The bots' threads (workers of one runtime). On one, every player's messages are read
    /// one after another, as no hall's players are: a burst of alerts to all of them delays
    /// the reading of each, and the latency measured with it.
    pub bot_threads: usize,
}

/// `baoqi bench load --nodes N`: N `baoqi serve --node` processes on one PostgreSQL
/// database and one NATS server.
#[derive(Debug, Clone)]
pub struct Nodes {
    /// How many nodes.
    pub count: usize,
    /// The federation's database (`postgres://…`; the bench event is added to it).
    pub db: String,
    /// The NATS server (`nats://…`).
    pub nats: String,
    /// Kill a node (SIGKILL) this often and start it again, while the bots play on
    /// ([`survive`]).
    pub kill_every: Option<Duration>,
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
    /// The server's own figures (none from a server given by `url`).
    pub server: Option<baoqi_server::metrics::Stats>,
    /// Where the server ran.
    pub placement: &'static str,
    /// Each node's own figures, with several nodes.
    pub nodes: Vec<baoqi_server::metrics::Stats>,
    /// What the adversary sent and got back ([`BenchOptions::hostile`]): words, refusals,
    /// syncs.
    pub hostile: Option<(u64, u64, u64)>,
    /// What the flooders sent ([`BenchOptions::flood`]): what, frames, connections.
    pub flooded: Option<(flood::Flood, u64, u64)>,
    /// The join phase on its own: from the first connection to every seat (the
    /// monitors' and the players') holding its tables' `state`, in seconds.
    pub join_seconds: f64,
    /// The server's resident memory with its tables running and no one connected, then at
    /// the end of the run, in bytes (a server in its own process only).
    pub memory: Option<(u64, u64)>,
    /// The live feed's polls ([`BenchOptions::poll_live`]): full records, 304s, failures.
    pub polled: Option<(u64, u64, u64)>,
    /// `--kill-every`: the nodes killed and what the games saw of it ([`survive`]).
    pub outages: Option<survive::Outages>,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.seconds.max(1e-9);
        writeln!(
            f,
            "games {} ({} player sockets, {} monitors), {:.1} s, server {}",
            self.games,
            2 * self.games,
            self.monitors,
            self.seconds,
            self.placement
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
        // Under `--kill-every` the games join as they go (and again after each kill).
        if self.outages.is_none() {
            writeln!(
                f,
                "join phase: {} seats holding their state in {:.1} s",
                2 * self.games + self.monitors,
                self.join_seconds
            )?;
        }
        if let Some((idle, loaded)) = self.memory {
            let per = |b: u64| b as f64 / self.games.max(1) as f64 / 1024.0;
            writeln!(
                f,
                "server memory: {:.0} MB with its tables idle, {:.0} MB loaded; {:.1} KB a game loaded ({:.1} KB of it for the connections and play)",
                idle as f64 / 1e6,
                loaded as f64 / 1e6,
                per(loaded),
                per(loaded.saturating_sub(idle))
            )?;
        }
        if let Some(o) = &self.outages {
            write!(f, "{o}")?;
        }
        if let Some((full, unchanged, failed)) = self.polled {
            writeln!(
                f,
                "live feed polled every {} s a table: {full} records sent, {unchanged} answered 304, {failed} failed",
                poll::EVERY.as_secs()
            )?;
        }
        let line = Summary::line;
        writeln!(f, "command → opponent: {}", line(&self.to_opponent))?;
        writeln!(f, "command → monitor:  {}", line(&self.to_monitor))?;
        writeln!(
            f,
            "lost {}, reordered {}, resyncs {}",
            self.lost, self.reordered, self.resyncs
        )?;
        if let Some((words, refused, syncs)) = self.hostile {
            writeln!(
                f,
                "adversary on the last table: {words} words sent, {refused} refused; \
                 {} spectators' syncs from 0 answered {syncs} times (that table not measured)",
                hostile::WATCHERS
            )?;
        }
        if let Some((what, frames, connections)) = self.flooded {
            writeln!(
                f,
                "{} flooders of {}: {frames} sent on {connections} connections (a new one each time the server closed the last)",
                flood::FLOODERS,
                what.name()
            )?;
        }
        for (k, s) in self.nodes.iter().enumerate() {
            writeln!(
                f,
                "node {k}: commands handled {} ({:.0}/s), handling {}",
                s.command_latency.count,
                s.command_latency.count as f64 / secs,
                line(&s.command_latency)
            )?;
        }
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

/// Runs the benchmark and reports: the bots in their own runtime, the server in its own
/// process (`spawn`), in this one, or already running (`url`).
pub fn run_blocking(opts: &BenchOptions) -> Result<BenchReport, String> {
    if let Some(nodes) = &opts.nodes {
        let exe = opts
            .spawn
            .as_ref()
            .ok_or("--nodes starts `baoqi serve --node` processes: not with --in-process")?;
        return nodes::run(opts, exe, nodes);
    }
    if let Some(url) = &opts.url {
        let db = opts
            .db
            .clone()
            .ok_or("--url needs --db: the server's database, to create the bench event")?;
        let created = create(&db, opts)?;
        // A running server starts tables added to its store within its scan period.
        std::thread::sleep(baoqi_server::hub::TABLE_SCAN + Duration::from_millis(500));
        let mut report = bots(opts, url.trim_end_matches('/'), &created)?;
        report.placement = "given by --url";
        return Ok(report);
    }
    let db = child::temp_db();
    let created = create(&db, opts)?;
    let report = match &opts.spawn {
        Some(exe) => in_child(opts, exe, &db, &created),
        None => in_process(opts, &db, &created),
    };
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    report
}

fn create(db: &std::path::Path, opts: &BenchOptions) -> Result<admin::Created, String> {
    let store = SqliteStore::open(db, false).map_err(|e| e.to_string())?;
    let mut event = bench_event(opts.games, opts.real_play);
    if opts.hostile {
        event.spectators = hostile::WATCHERS;
    }
    admin::create_event(&store, &event).map_err(|e| e.to_string())
}

fn bots(opts: &BenchOptions, base: &str, created: &admin::Created) -> Result<BenchReport, String> {
    bots_on(opts, &[base.to_owned()], created)
}

/// The bots, their seats spread over the servers at `bases` ([`bot::play`]).
fn bots_on(
    opts: &BenchOptions,
    bases: &[String],
    created: &admin::Created,
) -> Result<BenchReport, String> {
    let bots_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(opts.bot_threads.max(1))
        .thread_name("bench-bots")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let bases: Vec<String> = bases.iter().map(|b| b.replace("http", "ws")).collect();
    bots_rt.block_on(bot::play(opts, &bases, created))
}

fn in_child(
    opts: &BenchOptions,
    exe: &std::path::Path,
    db: &std::path::Path,
    created: &admin::Created,
) -> Result<BenchReport, String> {
    let server = child::ChildServer::start(exe, db)?;
    let idle = server.resident();
    let mut report = bots(opts, &server.base, created)?;
    report.memory = idle.zip(server.resident());
    report.server = Some(server.stats()?);
    report.placement = "in its own process";
    Ok(report)
}

fn in_process(
    opts: &BenchOptions,
    db: &std::path::Path,
    created: &admin::Created,
) -> Result<BenchReport, String> {
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-server")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (base, hub) = server_rt.block_on(start_server(db))?;
    let mut report = bots(opts, &base, created)?;
    report.server = Some(hub.metrics().stats());
    report.placement = "in the bench's process";
    hub.shutdown();
    server_rt.shutdown_timeout(Duration::from_secs(2));
    Ok(report)
}

fn alert_thresholds() -> Vec<u64> {
    (1..=600).map(|k| 3_600_000 - 2_000 * k).collect()
}

/// A 視障賽 (附表七 第六部分) between two blind players, `red` and `black`, on `time`: the
/// benchmarks' game.
pub fn blind_game(time: TimeControl) -> MatchConfig {
    let mut config = MatchConfig {
        kind: EventKind::Part6,
        ..MatchConfig::default()
    };
    for (side, name) in [(&mut config.red, "red"), (&mut config.black, "black")] {
        side.name = name.into();
        side.categories = vec![Category::Blind];
    }
    config.time.default = time;
    config
}

/// The bench's event: `games` tables of [`blind_game`] on 60 minutes a side. In real play
/// the alerts are the 視障賽's own (附表七 6.6: a few in a game); otherwise one every 2 s of
/// a side's thinking time, so that the tables' timers fire under load.
pub(crate) fn bench_event(games: usize, real_play: bool) -> EventFile {
    let mut config = blind_game(TimeControl {
        base_ms: 3_600_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    });
    if !real_play {
        config.alerts.set = Some(AlertSet::Custom);
        config.alerts.thresholds_ms = alert_thresholds();
    }
    let tables = (0..games)
        .map(|i| TableSpec {
            round: RoundNumber::first(),
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
        settings: baoqi_store::config::EventSettings::default(),
        referees,
        spectators: 0,
        tables,
    }
}

/// A server on the bench's database, on a free port of the loopback, its tables started.
async fn start_server(db: &std::path::Path) -> Result<(String, Arc<baoqi_server::Hub>), String> {
    let store = SqliteStore::open(db, false).map_err(|e| e.to_string())?;
    let store: Arc<dyn Store> = Arc::new(store);
    // The bots all come from loopback and pace themselves; a connection's syncs and
    // messages keep their limits (`--hostile`'s spectators meet them).
    let defaults = baoqi_server::limits::Limits::default();
    let limits = baoqi_server::limits::Limits {
        total: baoqi_server::limits::connection_budget(),
        syncs: defaults.syncs,
        messages: defaults.messages,
        ..baoqi_server::limits::Limits::unmetered()
    };
    let hub = baoqi_server::Hub::open_with(store, limits).map_err(|e| e.to_string())?;
    hub.start_tables(false).await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let h = hub.clone();
    tokio::spawn(async move {
        let _ = baoqi_server::run(listener, h, std::future::pending()).await;
    });
    Ok((format!("http://{addr}"), hub))
}
