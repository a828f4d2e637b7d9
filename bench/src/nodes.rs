//! `baoqi bench load --nodes N`: the load benchmark against N nodes of a federation, each
//! `baoqi serve --node` in a process of its own, on one PostgreSQL database and one NATS
//! server. The nodes start first; the bench event's tables are then added to the database,
//! and the nodes share them out ([`baoqi_federation::share`]). Table i's seats connect to
//! node i mod N, so most seats reach their table through another node (NATS), as in a
//! federation whose players connect anywhere. Reports the total (the bots' end-to-end
//! latencies) and each node's own figures.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::child::ChildServer;
use super::{BenchOptions, BenchReport, Nodes, bench_event, bots_on, survive};
use baoqi_organiser::admin;
use baoqi_store::{PgStore, Store};

/// How long the nodes may take to share the bench's tables.
const SHARING: Duration = Duration::from_secs(120);

/// The lease of the nodes when one is killed during the run: a dead node's tables move
/// after about this long.
const KILLED_LEASE_MS: &str = "1200";

/// Starts node `k`.
fn node(exe: &Path, nodes: &Nodes, k: usize) -> Result<ChildServer, String> {
    let unlimited = u32::MAX.to_string();
    let name = format!("bench-{k}");
    let mut args = vec![
        "--node",
        &name,
        "--nats",
        &nodes.nats,
        "--max-per-address",
        &unlimited,
    ];
    if nodes.kill_every.is_some() {
        args.extend(["--lease-ms", KILLED_LEASE_MS]);
    }
    ChildServer::start_with(exe, Path::new(&nodes.db), &args)
}

/// Runs the bench against `nodes.count` nodes started from `exe`.
pub(super) fn run(opts: &BenchOptions, exe: &Path, nodes: &Nodes) -> Result<BenchReport, String> {
    let servers = (0..nodes.count)
        .map(|k| node(exe, nodes, k))
        .collect::<Result<Vec<_>, _>>()?;
    let store = PgStore::open(&nodes.db).map_err(|e| e.to_string())?;
    let mut event = bench_event(opts.games, opts.real_play);
    if nodes.kill_every.is_some() {
        // A takeover pauses the match (附表七 row 28's principle: no one is charged for the
        // server); the bench's matches resume by themselves at once, so that what is measured is
        // the nodes' recovery, not an event's wait.
        event.settings.resume = baoqi_store::config::ResumePolicy::Auto { after_secs: 0 };
    }
    let created = admin::create_event(&store, &event).map_err(|e| e.to_string())?;
    wait_shared(&store)?;
    if let Some(every) = nodes.kill_every {
        return killing(opts, exe, nodes, servers, store, &created, every);
    }
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let mut report = bots_on(opts, &bases, &created)?;
    report.nodes = servers
        .iter()
        .map(ChildServer::stats)
        .collect::<Result<_, _>>()?;
    report.placement = "on several nodes";
    Ok(report)
}

/// Waits until every table of the database has a holder.
fn wait_shared(store: &PgStore) -> Result<(), String> {
    let leases = store.leases().ok_or("the store keeps no leases")?;
    let started = Instant::now();
    while !leases.orphans(1).map_err(|e| e.to_string())?.is_empty() {
        if started.elapsed() > SHARING {
            return Err(format!(
                "the nodes did not share the tables within {SHARING:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}

/// The bench with a node killed every `every` and started again ([`survive`]).
fn killing(
    opts: &BenchOptions,
    exe: &Path,
    nodes: &Nodes,
    servers: Vec<ChildServer>,
    store: PgStore,
    created: &admin::Created,
    every: Duration,
) -> Result<BenchReport, String> {
    let ws = |s: &ChildServer| s.base.replace("http", "ws");
    let bases: survive::Bases = Arc::new(Mutex::new(servers.iter().map(ws).collect()));
    let servers: Arc<Mutex<Vec<Option<ChildServer>>>> =
        Arc::new(Mutex::new(servers.into_iter().map(Some).collect()));
    let stop = Arc::new(AtomicBool::new(false));
    let kills: survive::Kills = Arc::default();
    let killer = {
        let (bases, servers, stop, kills) =
            (bases.clone(), servers.clone(), stop.clone(), kills.clone());
        let (exe, nodes) = (exe.to_path_buf(), nodes.clone());
        std::thread::spawn(move || {
            let mut killed = 0;
            'run: loop {
                let until = Instant::now() + every;
                while Instant::now() < until {
                    if stop.load(Ordering::Relaxed) {
                        break 'run;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                let k = killed % nodes.count;
                let Ok(mut all) = servers.lock() else { break };
                // Dropping a node's process kills it with SIGKILL, before it starts again
                // under the same name.
                if let Ok(mut at) = kills.lock() {
                    at.push(Instant::now());
                }
                drop(all[k].take());
                killed += 1;
                match node(&exe, &nodes, k) {
                    Ok(fresh) => {
                        if let Ok(mut b) = bases.lock() {
                            b[k] = ws(&fresh);
                        }
                        all[k] = Some(fresh);
                    }
                    Err(e) => {
                        eprintln!("bench: node {k} did not start again: {e}");
                        break;
                    }
                }
            }
            killed
        })
    };
    let store = Arc::new(store);
    let tally = Arc::new(survive::Tally {
        acked: (0..created.tables.len())
            .map(|_| AtomicU64::new(0))
            .collect(),
        ..survive::Tally::default()
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("bench-bots")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let played = rt.block_on(survive::play(
        opts,
        bases,
        kills,
        created,
        store.clone(),
        tally.clone(),
    ));
    stop.store(true, Ordering::Relaxed);
    let killed = killer.join().unwrap_or(0);
    let mut report = played?;
    report.outages = Some(survive::Outages {
        kills: killed,
        reconnects: tally.reconnects.load(Ordering::Relaxed),
        longest: survive::Spread::of(&tally.longest),
        after_kill: survive::Spread::of(&tally.after_kill),
        recovery: survive::Spread::of(&tally.recovery),
        lost: survive::lost(&store, created, &tally)?,
    });
    report.placement = "on several nodes, one killed at a time";
    Ok(report)
}
