//! The benchmark's database: one 視障賽 table on a short 沙漏制 clock, whose log is filled
//! in-process (no per-seat rate limit) before the real server is ever started on it.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_arbiter::{AlertSet, ClockMode, Command, TimeControl};

use super::CrashError;
use baoqi_organiser::admin::{self, Created};
use baoqi_protocol::RoundNumber;
use baoqi_server::limits::Limits;
use baoqi_server::table::{Handled, SeatKey};
use baoqi_store::config::{EventFile, EventSettings, RefereeSpec, ResumePolicy, TableSpec};
use baoqi_store::model::Role;
use baoqi_store::{SqliteStore, Store};

/// Each side's time. 沙漏制 (附表三 2(4)) hands the time a mover uses to the opponent, so the
/// two clocks stay near this while the bots keep the same pace, yet the side to move would
/// lose on time within a few seconds if its clock ran while the match is paused.
pub(super) const BASE_MS: u64 = 1_200;

/// What the fill did.
#[derive(Debug, Clone)]
pub(super) struct Filled {
    /// The event, its table and its seats' tokens.
    pub(super) created: Created,
    /// Log entries stored.
    pub(super) entries: u64,
    /// How long it took.
    pub(super) took: Duration,
}

/// The event: one table, the clocks after a restart as `resume` says, no time alerts.
fn event(resume: ResumePolicy) -> EventFile {
    let mut config = super::super::blind_game(TimeControl {
        base_ms: BASE_MS,
        mode: ClockMode::Hourglass,
        extra_ms: 0,
    });
    config.alerts.set = Some(AlertSet::None);
    EventFile {
        name: "crash bench".into(),
        settings: EventSettings { resume, url: None },
        referees: vec![RefereeSpec {
            name: "referee".into(),
            tables: vec![1],
        }],
        spectators: 0,
        tables: vec![TableSpec {
            round: RoundNumber::first(),
            name: "crash 1".into(),
            red: "red".into(),
            black: "black".into(),
            red_proxy: None,
            black_proxy: None,
            config: Some(config),
        }],
    }
}

/// Creates the event in a new database at `db`, starts its match and plays `steps` through
/// an in-process hub without rate limits, then stops the hub and waits until nothing of it
/// holds the database any more.
pub(super) fn fill(
    db: &Path,
    steps: &[(Role, Command)],
    resume: ResumePolicy,
) -> Result<Filled, CrashError> {
    let started = Instant::now();
    let store = Arc::new(SqliteStore::open(db, false)?);
    let created = admin::create_event(&*store, &event(resume))?;
    let table = created.tables[0].id;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CrashError::Runtime)?;
    let dyn_store: Arc<dyn Store> = store.clone();
    runtime.block_on(async {
        let hub = baoqi_server::Hub::open_with(dyn_store, Limits::unmetered())?;
        hub.start_tables(false)
            .await
            .map_err(|e| CrashError::Start(e.to_string()))?;
        let handle = hub
            .table(table)
            .ok_or_else(|| CrashError::Start("the table did not start".into()))?;
        let start = std::iter::once(&(Role::Referee, Command::Start));
        for (role, command) in start.chain(steps) {
            match handle
                .command(SeatKey::in_process(*role), command.clone())
                .await
            {
                Some(Handled::Accepted { .. }) => {}
                other => {
                    return Err(CrashError::Refused {
                        what: format!("{role} {command:?} (fill)"),
                        why: format!("{other:?}"),
                    });
                }
            }
        }
        hub.shutdown();
        Ok::<_, CrashError>(())
    })?;
    runtime.shutdown_timeout(Duration::from_secs(5));
    // The store writer thread (and a snapshot being written) hold the store until they end:
    // the server must be alone on the file.
    let deadline = Instant::now() + Duration::from_secs(10);
    while Arc::strong_count(&store) > 1 {
        if Instant::now() > deadline {
            return Err(CrashError::Start(
                "the in-process hub did not let go of the database".into(),
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let entries = store.log(table)?.len() as u64;
    Ok(Filled {
        created,
        entries,
        took: started.elapsed(),
    })
}
