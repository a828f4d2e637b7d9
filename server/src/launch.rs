//! What the command line runs: `baoqi serve` (with its own tokio runtime, so that the
//! root program's `main` stays synchronous) and the organiser's offline actions on a
//! database file (create an event, add a table, revoke a seat, export).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::admin;
use crate::config::{EventFile, TableSpec};
use crate::engine::EngineFactory;
use crate::export;
use crate::hub::Hub;
use crate::model::{EventId, TableId};
use crate::replay::replay;
use crate::store::{SqliteStore, Store};

/// Options of `baoqi serve`.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The database file.
    pub db: PathBuf,
    /// The address to listen on (`127.0.0.1:7878`; port 0 picks a free port).
    pub listen: String,
    /// Create (once) the demo event and print its seats.
    pub demo: bool,
    /// `synchronous=FULL`: also survive a power cut, at some cost per commit.
    pub full_sync: bool,
    /// The largest game recording accepted, bytes (default
    /// [`crate::recording::DEFAULT_LIMIT`]).
    pub max_recording_bytes: u64,
}

/// Runs the server until Ctrl-C (or SIGTERM). Prints `listening on http://ADDR` first,
/// then, with `--demo`, every seat's link and token.
pub fn serve_blocking(opts: &ServeOptions, factory: Arc<dyn EngineFactory>) -> Result<(), String> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(serve(opts, factory))
}

async fn serve(opts: &ServeOptions, factory: Arc<dyn EngineFactory>) -> Result<(), String> {
    let store: Arc<dyn Store> =
        Arc::new(SqliteStore::open(&opts.db, opts.full_sync).map_err(|e| e.to_string())?);
    let listener = tokio::net::TcpListener::bind(&opts.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", opts.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let base = format!("http://{addr}");
    println!("listening on {base}");
    if opts.demo {
        let created = crate::demo::ensure(&*store, &*factory)?;
        print!("{}", admin::describe(&created, &base));
    }
    let hub = Hub::open(store, factory).map_err(|e| e.to_string())?;
    hub.recordings().set_limit(opts.max_recording_bytes);
    let started = hub.start_tables(true).await?;
    println!("{started} tables running");
    hub.watch_store();
    crate::run(listener, hub, shutdown_signal())
        .await
        .map_err(|e| e.to_string())
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let kind = tokio::signal::unix::SignalKind::terminate();
        let Ok(mut term) = tokio::signal::unix::signal(kind) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn open(db: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open(db, false).map_err(|e| e.to_string())
}

/// `baoqi event create`: creates the event of a TOML file; returns the seats' listing.
pub fn create_event(
    db: &Path,
    config: &Path,
    base: &str,
    factory: &dyn EngineFactory,
) -> Result<String, String> {
    let text = std::fs::read_to_string(config).map_err(|e| format!("{}: {e}", config.display()))?;
    let file = EventFile::from_toml(&text).map_err(|e| format!("{}: {e}", config.display()))?;
    let store = open(db)?;
    let created = admin::create_event(&store, factory, &file)?;
    Ok(admin::describe(&created, base))
}

/// `baoqi table add`: adds a table and its seats; returns the seats' listing.
pub fn add_table(
    db: &Path,
    event: EventId,
    spec: &TableSpec,
    base: &str,
    factory: &dyn EngineFactory,
) -> Result<String, String> {
    let store = open(db)?;
    let ev = store
        .events()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|e| e.id == event)
        .ok_or_else(|| format!("there is no event {event}"))?;
    let (row, seats) = admin::add_table(&store, factory, event, spec)?;
    let created = admin::Created {
        event,
        name: ev.name,
        tables: vec![row],
        seats,
    };
    Ok(admin::describe(&created, base))
}

/// `baoqi event revoke`: revokes the seat holding a token.
pub fn revoke(db: &Path, token: &str) -> Result<bool, String> {
    admin::revoke(&open(db)?, token)
}

/// What `baoqi export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// A table's scoresheet text.
    Scoresheet(TableId),
    /// A table's PGN.
    Pgn(TableId),
    /// An event's results table (text).
    Results(EventId),
    /// An event's JSON event log.
    Log(EventId),
}

/// `baoqi export`: reads the database (a running server may be using it) and renders.
pub fn export_offline(
    db: &Path,
    what: ExportKind,
    factory: &dyn EngineFactory,
) -> Result<String, String> {
    let store = open(db)?;
    let err = |e: crate::store::StoreError| e.to_string();
    let events = store.events().map_err(err)?;
    let tables = store.tables(None).map_err(err)?;
    let record = |id: TableId| -> Result<_, String> {
        let row = tables
            .iter()
            .find(|t| t.id == id)
            .ok_or_else(|| format!("there is no table {id}"))?;
        let log = store.log(id).map_err(err)?;
        let now = log.last().map_or(0, |e| e.at);
        let (resumed, _) = replay(factory, row, &log, now)?;
        let event = events
            .iter()
            .find(|e| e.id == row.event)
            .ok_or_else(|| format!("table {id} has no event"))?;
        Ok((event.clone(), row.clone(), resumed.engine.record()))
    };
    match what {
        ExportKind::Scoresheet(t) => {
            let (e, r, rec) = record(t)?;
            export::scoresheet(&e, &r, &rec)
        }
        ExportKind::Pgn(t) => {
            let (e, r, rec) = record(t)?;
            export::pgn(&e, &r, &rec)
        }
        ExportKind::Results(ev) => {
            let event = events
                .iter()
                .find(|e| e.id == ev)
                .ok_or_else(|| format!("there is no event {ev}"))?;
            let mut rows = Vec::new();
            for t in tables.iter().filter(|t| t.event == ev) {
                let (_, r, rec) = record(t.id)?;
                rows.push((r, rec));
            }
            Ok(export::results_text(event, &export::results(&rows)))
        }
        ExportKind::Log(ev) => {
            let mut all = Vec::new();
            for t in tables.iter().filter(|t| t.event == ev) {
                all.extend(store.log(t.id).map_err(err)?);
            }
            serde_json::to_string_pretty(&export::log_json(&all)).map_err(|e| e.to_string())
        }
    }
}

/// Reads a match configuration (the arbiter's `MatchConfig`) from a TOML file, as JSON.
pub fn match_config_from_toml(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: toml::Value =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::to_value(value).map_err(|e| e.to_string())
}
