//! `baoqi bench load --nodes N` (issue 19): the load benchmark against N nodes of a
//! federation, each `baoqi serve --node` in a process of its own, on one PostgreSQL
//! database and one NATS server. The nodes start first; the bench event's tables are then
//! added to the database, and the nodes share them out ([`baoqi_federation::share`]). Table i's
//! seats connect to node i mod N, so most seats reach their table through another node
//! (NATS), as in a federation whose players connect anywhere. Reports the total (the bots'
//! end-to-end latencies) and each node's own figures.

use std::path::Path;
use std::time::{Duration, Instant};

use super::child::ChildServer;
use super::{BenchOptions, BenchReport, Nodes, bench_event, bots_on};
use baoqi_organiser::admin;
use baoqi_store::{PgStore, Store};

/// How long the nodes may take to share the bench's tables.
const SHARING: Duration = Duration::from_secs(120);

/// Runs the bench against `nodes.count` nodes started from `exe`.
pub(super) fn run(opts: &BenchOptions, exe: &Path, nodes: &Nodes) -> Result<BenchReport, String> {
    let unlimited = u32::MAX.to_string();
    let servers = (0..nodes.count)
        .map(|k| {
            let name = format!("bench-{k}");
            let args = [
                "--node",
                &name,
                "--nats",
                &nodes.nats,
                "--max-per-address",
                &unlimited,
            ];
            ChildServer::start_with(exe, Path::new(&nodes.db), &args)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let store = PgStore::open(&nodes.db).map_err(|e| e.to_string())?;
    let created = admin::create_event(&store, &bench_event(opts.games, opts.real_play))
        .map_err(|e| e.to_string())?;
    wait_shared(&store)?;
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
