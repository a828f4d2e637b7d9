//! `baoqi serve`: the play server (HTTP + WebSocket) over a `SQLite` file or PostgreSQL. It runs its own
//! tokio runtime (inside `baoqi_server::launch`), so `main` stays synchronous.

use std::sync::Arc;
#[cfg(feature = "federation")]
use std::time::Duration;

#[cfg(feature = "federation")]
use baoqi_federation::{Joining, NodeConfig};
use baoqi_server::launch::{ServeOptions, Started, serve_blocking};
use baoqi_store::Database;
use clap::Args;

use super::CliError;

/// Arguments of `baoqi serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The store: a `SQLite` file (made by `baoqi event create`; a missing or empty one is
    /// refused unless `--init` or `--demo` asks for a new store), or a federation's PostgreSQL
    /// database, `postgres://USER@HOST:PORT/DB` (its schema is brought up to date).
    #[arg(long, default_value = "baoqi.db")]
    db: Database,
    /// Start an empty store when the database file is missing or empty.
    #[arg(long)]
    init: bool,
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: String,
    /// Create (once) a demo event with a 視障賽, a 共融賽 and a keypads-alone table and print
    /// every seat's link and token.
    #[arg(long)]
    demo: bool,
    /// Make every commit survive a power cut too (`SQLite` `synchronous=FULL`).
    #[arg(long)]
    full_sync: bool,
    /// The largest game recording a table client may upload, in MiB (a table keeps at most
    /// four recordings of this size).
    #[arg(long, default_value_t = 512)]
    max_recording_mb: u64,
    /// The disk space, in MiB, that an upload of a recording must leave free for the games'
    /// store.
    #[arg(long, default_value_t = 1024)]
    disk_reserve_mb: u64,
    /// Connections open at once from one address: an IPv4 address, an IPv6 /64, or the
    /// whole loopback network (raise it for a hall behind one NAT address, or for `baoqi
    /// bench load --url` whose bots all come from one address).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    max_per_address: u32,
    #[cfg(feature = "federation")]
    /// Run as one node of a federation, under this name (unique among the nodes): several
    /// `baoqi serve --node` on one PostgreSQL database share its tables, and take over
    /// those of a node that dies. Needs `--db postgres://…` and `--nats`.
    #[arg(long, requires = "nats")]
    node: Option<String>,
    #[cfg(feature = "federation")]
    /// The NATS server the nodes of the federation talk through (`nats://127.0.0.1:4222`).
    #[arg(long, requires = "node")]
    nats: Option<String>,
    #[cfg(feature = "federation")]
    /// How long a node's hold on a table lasts unless renewed, in milliseconds: a dead
    /// node's tables are taken over after about this long.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(300..))]
    lease_ms: u64,
    /// Speak TLS only (https, wss) with this PEM certificate chain (the hall's certificate,
    /// then any intermediate); with `--tls-key`. Plain http on the listener is refused.
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// The PEM private key of `--tls-cert`.
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
}

/// Serves until Ctrl-C or SIGTERM.
pub(crate) fn run(args: &ServeArgs) -> Result<(), CliError> {
    let opts = ServeOptions {
        db: args.db.clone(),
        listen: args.listen.clone(),
        demo: args.demo,
        full_sync: args.full_sync,
        max_recording_bytes: args.max_recording_mb.saturating_mul(1024 * 1024),
        disk_reserve_bytes: args.disk_reserve_mb.saturating_mul(1024 * 1024),
        init: args.init,
        max_per_address: args.max_per_address as usize,
        federation: federation(args),
        tls: args.tls_cert.clone().zip(args.tls_key.clone()),
    };
    init_logging();
    serve_blocking(&opts, &say).map_err(|e| CliError::Failed(e.to_string()))
}

/// The server's log on standard error, at `warn` unless `RUST_LOG` says otherwise.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Prints what the server did as it started: the organiser and the tests read these lines.
fn say(started: Started) {
    match started {
        Started::Listening(base) => println!("listening on {base}"),
        Started::AgainInPlace { nth, max } => {
            println!("started again in place ({nth} of at most {max}): see the log for why");
        }
        Started::Demo(seats) => print!("{seats}"),
        Started::NodeHolds { node, tables } => println!("node {node}: holds {tables} tables"),
        Started::TablesRunning(n) => println!("{n} tables running"),
    }
}

/// The federation this server joins as a node (`--node` and `--nats`), if any.
#[cfg(feature = "federation")]
fn federation(args: &ServeArgs) -> Option<Arc<dyn baoqi_server::federated::Federation>> {
    let (name, nats) = args.node.clone().zip(args.nats.clone())?;
    let node = NodeConfig {
        name,
        nats,
        ttl: Duration::from_millis(args.lease_ms),
    };
    Some(Arc::new(Joining(node)))
}

/// A hall's build has no federation: the server runs alone.
#[cfg(not(feature = "federation"))]
fn federation(_: &ServeArgs) -> Option<Arc<dyn baoqi_server::federated::Federation>> {
    None
}
