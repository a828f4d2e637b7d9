//! `baoqi bench crash`: `kill -9` rounds against the real server process on a long log.
//! The database is filled in-process to `entries` log entries; then, each round,
//! `baoqi serve` runs on it, the referee resumes the match, two bots play on (within the
//! per-seat command rate), the server is killed with SIGKILL at a random instant and
//! restarted on the same file. After each kill: every acknowledged command is in the store;
//! after each restart: both clocks stand within the tolerance of what the referee would
//! have read at the kill, and stay paused — no flag falls, no clock moves — for longer than
//! the side to move had left (the clock is a short 沙漏制 one, so the check can fail).

mod check;
mod fill;
mod players;
pub(crate) mod process;
mod referee;
mod report;
mod script;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baoqi_arbiter::{Command, Millis, PauseReason, Phase};
use baoqi_protocol::TableId;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub use report::{CrashReport, PausedWatch, RoundReport};

use baoqi_store::StoreError;
use baoqi_store::config::ResumePolicy;
use baoqi_store::model::Role;
use players::Acked;
use process::ServerProcess;
use referee::Monitor;

/// One command per this at most from the bots: within the default 10 commands a second per
/// seat.
const PACE: Duration = Duration::from_millis(110);
/// The watch of a paused match lasts this much longer than the side to move had left.
const WATCH_MARGIN_MS: u64 = 500;
/// The shortest watch of a paused match.
const MIN_WATCH_MS: u64 = 1_000;
/// The longest watch of a paused match.
const MAX_WATCH_MS: u64 = 5_000;

/// Options of the crash benchmark.
#[derive(Debug, Clone)]
pub struct CrashOptions {
    /// The `baoqi` executable to run as the server (`baoqi bench crash` runs itself).
    pub exe: PathBuf,
    /// `kill -9` rounds.
    pub rounds: usize,
    /// Log entries to store before the first round.
    pub entries: usize,
    /// The database to create (it must not hold data); `None`: a temporary file, removed
    /// when every check passed.
    pub db: Option<PathBuf>,
    /// Seeds the game and the kill instants.
    pub seed: u64,
    /// The largest difference allowed between a clock at the kill and after the restart.
    pub tolerance_ms: u64,
    /// The kill comes this long after the referee resumes, at random within it, ms.
    pub kill_after_ms: (u64, u64),
    /// The event's clocks after a restart: the referee's (the default) keeps them paused;
    /// [`ResumePolicy::Auto`] restarts them by itself, which the benchmark must catch.
    pub resume: ResumePolicy,
}

impl CrashOptions {
    /// 100 rounds on a log of 10,000 entries, 100 ms of tolerance, `exe` as the server.
    pub fn new(exe: PathBuf) -> CrashOptions {
        CrashOptions {
            exe,
            rounds: 100,
            entries: 10_000,
            db: None,
            seed: 1,
            tolerance_ms: 100,
            kill_after_ms: (200, 1_500),
            resume: ResumePolicy::Referee,
        }
    }
}

/// Why the benchmark could not run (a failed check is not an error: see
/// [`CrashReport::failures`]).
#[derive(Debug, thiserror::Error)]
pub enum CrashError {
    /// The database given already holds something.
    #[error("{0} already exists and is not empty: give the path of a new database")]
    NotNew(PathBuf),
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// The event could not be created.
    #[error("creating the event: {0}")]
    Admin(#[from] baoqi_organiser::admin::AdminError),
    /// The in-process hub could not start or stop.
    #[error("the fill's hub: {0}")]
    Start(String),
    /// No game could be scripted.
    #[error("scripting the game: {0}")]
    Script(String),
    /// The server could not be run.
    #[error("running {exe}: {source}")]
    Spawn {
        /// The executable.
        exe: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The server did not come up.
    #[error("the server: {0}")]
    NoServer(String),
    /// A connection failed.
    #[error("connection: {0}")]
    Connection(String),
    /// The server did not answer in time.
    #[error("no answer: {0}")]
    Timeout(String),
    /// The server refused a command of the script (the store and the script disagree).
    #[error("{what} refused: {why}")]
    Refused {
        /// The command.
        what: String,
        /// The answer.
        why: String,
    },
    /// The async runtime could not be built.
    #[error("runtime: {0}")]
    Runtime(std::io::Error),
}

/// The seats' tokens and the table.
struct Seats {
    table: TableId,
    red: String,
    black: String,
    referee: String,
}

impl Seats {
    fn of(created: &baoqi_organiser::admin::Created) -> Seats {
        let token = |role: Role| {
            created
                .seats
                .iter()
                .find(|s| s.seat.role == role)
                .map(|s| s.token.secret().to_string())
                .unwrap_or_default()
        };
        Seats {
            table: created.tables[0].id,
            red: token(Role::Red),
            black: token(Role::Black),
            referee: token(Role::Referee),
        }
    }
}

/// Where the benchmark stands between rounds.
struct Book {
    /// The script's steps the store holds.
    stored: usize,
    /// The index of the next log entry.
    next_index: u64,
}

/// What the referee saw up to the kill.
struct Crashed {
    played: Duration,
    acked: Vec<Acked>,
    monitor_seq: u64,
    monitor_clock: baoqi_arbiter::ClockView,
    /// The server's instant of the kill.
    killed_at: Millis,
}

/// Runs the benchmark; `on_round` sees each round as it ends.
pub fn run_blocking(
    opts: &CrashOptions,
    on_round: &mut dyn FnMut(&RoundReport),
) -> Result<CrashReport, CrashError> {
    let (db, temporary) = database(opts.db.as_deref())?;
    let script = script::script(opts.entries, opts.rounds * 4 + 40, opts.seed)?;
    let filled = fill::fill(&db, &script.steps[..script.fill], opts.resume)?;
    let seats = Seats::of(&filled.created);
    let steps: Arc<[(Role, Command)]> = script.steps.into();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CrashError::Runtime)?;
    let mut report = CrashReport {
        asked: opts.rounds,
        filled: filled.entries,
        fill_took: filled.took,
        tolerance_ms: opts.tolerance_ms,
        ..CrashReport::default()
    };
    let mut book = Book {
        stored: script.fill,
        next_index: filled.entries,
    };
    let mut rng = StdRng::seed_from_u64(opts.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut server = ServerProcess::spawn(&opts.exe, &db)?;
    for round in 1..=opts.rounds {
        let kill_after = rng.random_range(opts.kill_after_ms.0..=opts.kill_after_ms.1);
        let outcome = one_round(
            &runtime,
            &Round {
                opts,
                db: &db,
                seats: &seats,
                steps: &steps,
                kill_after: Duration::from_millis(kill_after),
            },
            &mut server,
            &mut book,
        );
        match outcome {
            Ok(mut r) => {
                r.round = round;
                on_round(&r);
                let go_on =
                    !r.paused.not_paused && r.paused.flag_falls == 0 && r.mismatch.is_none();
                report.rounds.push(r);
                if !go_on {
                    report.stopped = Some("the match cannot go on".into());
                    break;
                }
            }
            Err(e) => {
                report.stopped = Some(e.to_string());
                break;
            }
        }
    }
    drop(server);
    runtime.shutdown_timeout(Duration::from_secs(2));
    if temporary && report.passed() {
        remove_database(&db);
    } else if temporary {
        eprintln!("crash bench: database kept at {}", db.display());
    }
    Ok(report)
}

/// What one round needs.
struct Round<'a> {
    opts: &'a CrashOptions,
    db: &'a Path,
    seats: &'a Seats,
    steps: &'a Arc<[(Role, Command)]>,
    kill_after: Duration,
}

/// Resume, play, kill, check the store, restart, check the paused clocks.
fn one_round(
    runtime: &tokio::runtime::Runtime,
    round: &Round<'_>,
    server: &mut ServerProcess,
    book: &mut Book,
) -> Result<RoundReport, CrashError> {
    let crashed = runtime.block_on(play_and_kill(round, server, book.stored))?;
    let tail = check::read_tail(
        round.db,
        round.seats.table,
        book.next_index,
        round.steps,
        book.stored,
    )?;
    let lost = crashed.acked.iter().filter(|a| !tail.holds(a)).count();
    // A press committed in the instant before the kill may not have reached the referee:
    // the server's own record completes the referee's view.
    let (clock, completed_from_store) = match tail.last_clock {
        Some((seq, clock)) if seq > crashed.monitor_seq => (clock, true),
        _ => (crashed.monitor_clock, false),
    };
    let at_kill = check::clocks_at(&clock, crashed.killed_at);
    book.stored += tail.player_commands;
    *server = ServerProcess::spawn(&round.opts.exe, round.db)?;
    let mut r = RoundReport {
        played: crashed.played,
        acked: crashed.acked.len(),
        lost,
        stored: tail.player_commands,
        at_kill,
        mark_age_ms: crashed.killed_at.since(tail.mark),
        running: clock.running,
        completed_from_store,
        restart: server.ready_in,
        log_entries: tail.next_index,
        mismatch: tail.mismatch,
        ..RoundReport::default()
    };
    runtime.block_on(watch_paused(round, server, &mut r))?;
    // The restart stored its pause: the next tail starts after it.
    book.next_index = tail.next_index;
    Ok(r)
}

/// The referee resumes, the bots play, and at a random instant the server is killed.
async fn play_and_kill(
    round: &Round<'_>,
    server: &mut ServerProcess,
    from: usize,
) -> Result<Crashed, CrashError> {
    let base = server.ws_base();
    let mut referee = Monitor::join(&base, &round.seats.referee, round.seats.table).await?;
    // After a restart the match is paused (the referee resumes it); a server that resumed
    // it by itself is caught by the watch of the previous round.
    let command = match referee.view.phase {
        Phase::NotStarted => Some(Command::Start),
        Phase::Paused => Some(Command::Resume),
        Phase::Playing | Phase::Over => None,
    };
    let mut acked = Vec::new();
    if let Some(command) = command {
        let seq = referee.command(command.clone()).await?;
        acked.push(Acked {
            role: Role::Referee,
            command,
            seq,
        });
    }
    let resumed = Instant::now();
    let acked = Arc::new(Mutex::new(acked));
    let bots = tokio::spawn(players::play(
        base,
        [round.seats.red.clone(), round.seats.black.clone()],
        round.steps.clone(),
        from,
        PACE,
        acked.clone(),
    ));
    referee.watch(round.kill_after).await?;
    let (pong_at, pong_received) = referee.ping().await?;
    let since_pong = pong_received.elapsed();
    server.kill();
    let played = resumed.elapsed();
    let killed_at = Millis(pong_at.0 + since_pong.as_millis() as u64);
    match tokio::time::timeout(Duration::from_secs(5), bots).await {
        Ok(Ok(Err(e))) => return Err(e),
        Ok(Err(e)) => return Err(CrashError::Connection(format!("the bots: {e}"))),
        Ok(Ok(Ok(()))) | Err(_) => {}
    }
    let acked = acked
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    Ok(Crashed {
        played,
        acked,
        monitor_seq: referee.seq,
        monitor_clock: referee.clock,
        killed_at,
    })
}

/// After the restart: the match is paused by the restart, its clocks are read, and it is
/// watched for longer than the side to move had left, then read again.
async fn watch_paused(
    round: &Round<'_>,
    server: &ServerProcess,
    r: &mut RoundReport,
) -> Result<(), CrashError> {
    let base = server.ws_base();
    let mut referee = Monitor::join(&base, &round.seats.referee, round.seats.table).await?;
    let first = referee.view.clone();
    r.restored = check::clocks_at(&first.clock, first.clock.since);
    r.paused.not_paused = first.phase != Phase::Paused
        || first.paused != Some(PauseReason::ServerRestart)
        || first.clock.running.is_some();
    let to_move = r
        .running
        .map_or(r.restored.0.min(r.restored.1), |c| match c {
            baoqi_rules::Color::Red => r.restored.0,
            baoqi_rules::Color::Black => r.restored.1,
        });
    let watch = (to_move + WATCH_MARGIN_MS).clamp(MIN_WATCH_MS, MAX_WATCH_MS);
    r.paused.could_fall = watch > to_move;
    let watched = Instant::now();
    referee.watch(Duration::from_millis(watch)).await?;
    let again = Monitor::join(&base, &round.seats.referee, round.seats.table).await?;
    r.paused.watched = watched.elapsed();
    r.paused.flag_falls = referee
        .game_over
        .len()
        .max(usize::from(again.view.phase == Phase::Over));
    r.paused.clocks_moved = referee.clock_reports > 0 || again.view.clock != first.clock;
    Ok(())
}

/// The database to fill: the path given (new or empty) or a new temporary file.
fn database(given: Option<&Path>) -> Result<(PathBuf, bool), CrashError> {
    if let Some(path) = given {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(CrashError::NotNew(path.to_path_buf()));
        }
        return Ok((path.to_path_buf(), false));
    }
    let path = std::env::temp_dir().join(format!(
        "baoqi-crash-bench-{}-{}.db",
        std::process::id(),
        baoqi_store::model::Token::generate()
            .secret()
            .get(..8)
            .unwrap_or("0")
    ));
    Ok((path, true))
}

/// Removes a database file and its journals.
fn remove_database(db: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.as_os_str().to_owned();
        path.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(path));
    }
}
