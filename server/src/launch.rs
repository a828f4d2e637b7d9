//! What the command line runs: `baoqi serve` (with its own tokio runtime, so that the
//! root program's `main` stays synchronous), a hall's server or a federation's node
//! ([`crate::federated::Federation`]), and `baoqi export` on a database a server may be using.

use std::path::PathBuf;
use std::sync::Arc;

use baoqi_arbiter::{Millis, View};

use crate::export::{self, ExportError, Known};
use crate::federated::{Federation, FederationError};
use crate::hub::{Hub, StartError};
use crate::limits::Limits;
use baoqi_organiser::admin::{self, AdminError};
use baoqi_store::game::GameRecord;
use baoqi_store::model::{EventId, EventRow, TableId, TableRow};
use baoqi_store::replay::{ReplayError, replay};
use baoqi_store::{Database, SqliteStore, Store, StoreError};

/// Why a command of the server's command line failed.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The TLS certificate or key could not be used.
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsError),
    /// No database at the path (or an empty file) and no `--init` or `--demo` asked for a
    /// new one: a mistyped or deleted path must not start an empty server silently.
    #[error(
        "{path}: no database here (missing or empty). Create one with `baoqi event create`, \
         or pass --init for an empty store (--demo for the demo event)"
    )]
    NoStore {
        /// The path.
        path: PathBuf,
    },
    /// The database failed its integrity check.
    #[error("{path}: the database is damaged ({found}); restore it from a backup")]
    Damaged {
        /// The path.
        path: PathBuf,
        /// What the check found.
        found: String,
    },
    /// An organiser action failed.
    #[error(transparent)]
    Admin(#[from] AdminError),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime could not start.
    #[error("the runtime: {0}")]
    Runtime(std::io::Error),
    /// The tables could not be started.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The node could not join its federation.
    #[error("{0}")]
    Federation(FederationError),
    /// The server stopped on an error.
    #[error("serving: {0}")]
    Serve(std::io::Error),
    /// There is no such event.
    #[error("there is no event {0}")]
    NoEvent(EventId),
    /// There is no such table.
    #[error("there is no table {0}")]
    NoTable(TableId),
    /// No game of the event has begun: an archive would be empty.
    #[error("no game of event {0} has begun yet: nothing to archive")]
    NoGames(EventId),
    /// A table's log does not rebuild its match.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A record cannot be exported.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A tournament's games cannot be read for its results.
    #[error("the results' games: {0}")]
    ResultsGames(#[source] baoqi_organiser::results::ReadError),
    /// A tournament's standings cannot be computed for its results.
    #[error("the results' standings: {0}")]
    ResultsStandings(#[source] baoqi_organiser::EventError),
    /// The log cannot be written as JSON.
    #[error("the log as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Options of `baoqi serve`.
#[derive(Clone)]
pub struct ServeOptions {
    /// The store: a `SQLite` file (one hall) or a PostgreSQL database (a federation).
    pub db: Database,
    /// The address to listen on (`127.0.0.1:7878`; port 0 picks a free port).
    pub listen: String,
    /// Create (once) the demo event and print its seats.
    pub demo: bool,
    /// `synchronous=FULL`: also survive a power cut, at some cost per commit.
    pub full_sync: bool,
    /// The largest game recording accepted, bytes (default
    /// [`crate::recording::DEFAULT_LIMIT`]).
    pub max_recording_bytes: u64,
    /// Start an empty store when the database is missing or empty.
    pub init: bool,
    /// The disk space an upload of a recording must leave free for the store, bytes
    /// (default [`crate::recording::DEFAULT_RESERVE`]).
    pub disk_reserve_bytes: u64,
    /// Connections open at once from one address ([`Limits::per_address`]).
    pub max_per_address: usize,
    /// Run as a node of this federation ([`crate::federated`]).
    pub federation: Option<Arc<dyn Federation>>,
    /// Speak TLS only, with this PEM certificate chain and key ([`crate::tls`]).
    pub tls: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

/// What the server has to tell its operator as it starts, in order, for the program that
/// runs it to say (`baoqi serve` prints each as a line): the library itself prints nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Started {
    /// It listens at this base address (`http://ADDR`).
    Listening(String),
    /// It was started again in place after its store's WAL index was cut short
    /// ([`crate::cut_index`]): the `nth` time of at most `max`.
    AgainInPlace {
        /// How many times, this one included.
        nth: u32,
        /// How many it makes at most before it stops.
        max: u32,
    },
    /// The demo event's tables, with every seat's link and token, as the organiser reads
    /// them.
    Demo(String),
    /// As a node of a federation: its name, and how many tables it took on joining.
    NodeHolds {
        /// The node's name.
        node: String,
        /// The tables it holds.
        tables: usize,
    },
    /// How many tables run; the server then serves.
    TablesRunning(usize),
}

/// Runs the server until Ctrl-C (or SIGTERM), telling `report` what it did as it started
/// ([`Started`]: the address first, then with `--demo` every seat's link and token).
pub fn serve_blocking(
    opts: &ServeOptions,
    report: &(dyn Fn(Started) + Sync),
) -> Result<(), LaunchError> {
    // The metrics are recorded from the first command on (`/metrics`).
    let _ = crate::observe::prometheus();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(LaunchError::Runtime)?;
    runtime.block_on(serve(opts, report))
}

/// The store at `opts.db`: a `SQLite` file is refused when missing or empty unless a new
/// one is asked for, and checked for damage before anything is served; a PostgreSQL
/// database is brought to this code's schema.
fn open_checked(opts: &ServeOptions) -> Result<Arc<dyn Store>, LaunchError> {
    let path = match &opts.db {
        Database::Sqlite(path) => path,
        Database::Postgres(_) => return Ok(opts.db.open(false)?),
    };
    let empty = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    if empty && !opts.init && !opts.demo {
        return Err(LaunchError::NoStore { path: path.clone() });
    }
    let damaged = |found: String| LaunchError::Damaged {
        path: path.clone(),
        found,
    };
    let store = SqliteStore::open(path, opts.full_sync).map_err(|e| damaged(e.to_string()))?;
    store
        .check_integrity()
        .map_err(|e| damaged(e.to_string()))?;
    Ok(Arc::new(store))
}

async fn serve(opts: &ServeOptions, report: &(dyn Fn(Started) + Sync)) -> Result<(), LaunchError> {
    // A certificate that cannot be used is said before anything is opened.
    let tls = match &opts.tls {
        Some((cert, key)) => Some(crate::tls::server_config(cert, key)?),
        None => None,
    };
    let store = open_checked(opts)?;
    let limits = Limits {
        per_address: opts.max_per_address,
        total: crate::limits::connection_budget(),
        ..Limits::default()
    };
    // The hub writes to the store as it opens: a store it cannot write (a read-only file) is
    // refused before anything says the server listens.
    let hub = match &opts.federation {
        None => Hub::open_with(store.clone(), limits)?,
        Some(federation) => federation
            .open(store.clone(), limits)
            .await
            .map_err(LaunchError::Federation)?,
    };
    hub.recordings().set_limit(opts.max_recording_bytes);
    hub.recordings().set_reserve(opts.disk_reserve_bytes);
    let listener = tokio::net::TcpListener::bind(&opts.listen)
        .await
        .map_err(|source| LaunchError::Listen {
            addr: opts.listen.clone(),
            source,
        })?;
    let addr = listener.local_addr().map_err(LaunchError::Serve)?;
    let base = format!("{}://{addr}", if tls.is_some() { "https" } else { "http" });
    report(Started::Listening(base.clone()));
    if matches!(opts.db, Database::Sqlite(_)) {
        let again = crate::cut_index::command_line(std::env::args_os(), addr);
        // Without the guard the server still serves, as it did before it existed.
        if let Err(e) = crate::cut_index::watch(again) {
            tracing::warn!("no guard for a cut WAL index: {e}");
        }
        if crate::cut_index::restarts() > 0 {
            report(Started::AgainInPlace {
                nth: crate::cut_index::restarts(),
                max: crate::cut_index::MAX_RESTARTS,
            });
        }
    }
    if opts.demo {
        let created = baoqi_organiser::demo::ensure(&*store)?;
        report(Started::Demo(admin::describe(&created, &base)));
    }
    let started = match hub.member() {
        Some(member) => {
            let took = member.join(&hub).await?;
            report(Started::NodeHolds {
                node: member.name().to_owned(),
                tables: took,
            });
            took
        }
        None => hub.start_tables(true).await?,
    };
    report(Started::TablesRunning(started));
    hub.watch_store();
    let served = crate::run_secured(listener, hub.clone(), tls, shutdown_signal()).await;
    if let Some(member) = hub.member() {
        member.leave(&hub).await;
    }
    served.map_err(LaunchError::Serve)
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

/// The store of an offline command: a hall's `SQLite` file (made when missing) or the
/// federation's PostgreSQL, which running nodes may share.
fn open(db: &Database) -> Result<Arc<dyn Store>, LaunchError> {
    Ok(db.open(false)?)
}

/// What `baoqi export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// A table's scoresheet text.
    Scoresheet(TableId),
    /// A table's PGN.
    Pgn(TableId),
    /// A table's `DhtmlXQ` block.
    Dhtmlxq(TableId),
    /// A table's CBF document.
    Cbf(TableId),
    /// An event's results table (text).
    Results(EventId),
    /// An event's JSON event log.
    Log(EventId),
}

/// A table's event, row, record and snapshot, rebuilt from its log.
fn record(
    store: &dyn Store,
    events: &[EventRow],
    tables: &[TableRow],
    id: TableId,
) -> Result<(EventRow, TableRow, GameRecord, View), LaunchError> {
    let row = tables
        .iter()
        .find(|t| t.id == id)
        .ok_or(LaunchError::NoTable(id))?;
    let log = store.log(id)?;
    let now = log.last().map_or(Millis(0), |e| e.at);
    let (resumed, _) = replay(row, &log, now)?;
    let event = events
        .iter()
        .find(|e| e.id == row.event)
        .ok_or(LaunchError::NoEvent(row.event))?;
    let game = &resumed.game;
    Ok((event.clone(), row.clone(), game.record(), game.snapshot()))
}

/// A table as the scoresheet and PGN exports see it, and its snapshot.
fn known(
    store: &dyn Store,
    events: &[EventRow],
    tables: &[TableRow],
    id: TableId,
) -> Result<(Known, View), LaunchError> {
    let (event, row, _, view) = record(store, events, tables, id)?;
    Ok((Known::gather(store, event, row)?, view))
}

/// `baoqi export --table T --format F`: a table's game in a record format, as bytes (XQF is
/// binary), read from the database (a running server may be using it).
pub fn export_game_offline(
    db: &Database,
    table: TableId,
    format: export::RecordFormat,
) -> Result<Vec<u8>, LaunchError> {
    let store = open(db)?;
    let (events, tables) = (store.events()?, store.tables(None)?);
    let (known, view) = known(&*store, &events, &tables, table)?;
    Ok(format.render(&known, &view)?)
}

/// `baoqi export --archive E`: the event's games that have begun (a move or a result), each
/// in every format of `formats`, as one ZIP.
pub fn export_archive_offline(
    db: &Database,
    event: EventId,
    formats: &[export::RecordFormat],
) -> Result<Vec<u8>, LaunchError> {
    let store = open(db)?;
    let (events, tables) = (store.events()?, store.tables(None)?);
    if !events.iter().any(|e| e.id == event) {
        return Err(LaunchError::NoEvent(event));
    }
    // A table set aside by a 108 replay (作廢) is no game of the event's: its replay is.
    let aside = baoqi_organiser::changelog::set_aside(&*store, event)?;
    let mut played = Vec::new();
    for t in tables
        .iter()
        .filter(|t| t.event == event && !aside.contains(&t.id))
    {
        let (known, view) = known(&*store, &events, &tables, t.id)?;
        if export::archive::began(&view) {
            played.push((known, view));
        }
    }
    if played.is_empty() {
        return Err(LaunchError::NoGames(event));
    }
    Ok(export::archive(&played, formats)?)
}

/// `baoqi export`: reads the database (a running server may be using it) and renders.
pub fn export_offline(db: &Database, what: ExportKind) -> Result<String, LaunchError> {
    let store = open(db)?;
    let events = store.events()?;
    let tables = store.tables(None)?;
    match what {
        ExportKind::Scoresheet(t) => {
            let (known, view) = known(&*store, &events, &tables, t)?;
            Ok(export::scoresheet(&known, &view)?)
        }
        ExportKind::Pgn(t) => {
            let (known, view) = known(&*store, &events, &tables, t)?;
            Ok(export::pgn(&known, &view)?)
        }
        ExportKind::Dhtmlxq(t) => {
            let (known, view) = known(&*store, &events, &tables, t)?;
            Ok(export::dhtmlxq(&known, &view)?)
        }
        ExportKind::Cbf(t) => {
            let (known, view) = known(&*store, &events, &tables, t)?;
            Ok(export::cbf(&known, &view)?)
        }
        ExportKind::Results(ev) => {
            let event = events
                .iter()
                .find(|e| e.id == ev)
                .ok_or(LaunchError::NoEvent(ev))?;
            let mut rows = Vec::new();
            for t in tables.iter().filter(|t| t.event == ev) {
                let (_, r, rec, _) = record(&*store, &events, &tables, t.id)?;
                rows.push((r, rec));
            }
            let outcomes = baoqi_organiser::results::from_store(&*store, ev)
                .map_err(LaunchError::ResultsGames)?;
            let lines = match baoqi_organiser::standings::compute(&*store, ev, &outcomes) {
                Ok(s) => export::results::by_board(&s, &rows),
                Err(
                    baoqi_organiser::EventError::NotATournament(_)
                    | baoqi_organiser::EventError::Unsupported,
                ) => export::results::by_table(&rows),
                Err(e) => return Err(LaunchError::ResultsStandings(e)),
            };
            Ok(export::results::text(event, &lines))
        }
        ExportKind::Log(ev) => {
            let mut all = Vec::new();
            for t in tables.iter().filter(|t| t.event == ev) {
                all.extend(store.log(t.id)?);
            }
            Ok(serde_json::to_string_pretty(&export::log_json(&all))?)
        }
    }
}
