//! A restart costs no player time: the pause that stops the clocks after a restart is
//! stamped at the last instant the store recorded, whatever the rebuild took and even when
//! a restart is itself cut short; and rebuilding a long match is cheap.
//!
//! The logs here are written straight into the store, made by the server's own `Game` (so the
//! events are exactly what a running server stores): a game of 60 plies in which the players
//! also ask for the time and say impossible words, over 10,000 entries.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_arbiter::{ClockView, Command, Millis, PauseReason, Phase, Side};
use baoqi_rules::Color;
use baoqi_server::Hub;
use baoqi_store::game::Actor;
use baoqi_store::model::{Role, TableId, TableRow};
use baoqi_store::replay::replay;
use baoqi_store::{LogEntry, SqliteStore, Store};
use common::{ONE_TABLE, event_file};

/// Commands between two moves of the long game: asking for the time and impossible words.
const FILLERS: usize = 165;
/// Plies of the long game: an even number, so red is to move at the end, his clock running.
const PLIES: usize = 60;
/// Milliseconds between two entries of the long game.
const STEP_MS: u64 = 7;
/// How long the server ran after the last entry before it went down (red was thinking).
const THINKING_MS: u64 = 150;

/// The commands of the long game: for each ply, the fillers, then the four words, the move
/// on the board and the clock press of the mover (a walk that never ends the game, the crash
/// benchmark's).
fn script() -> Vec<(Role, Command)> {
    baoqi_store::testing::walk::quiet_game(PLIES, FILLERS, 7).unwrap()
}

/// A long game as the server would have stored it, and red's clock after its last entry.
struct LongGame {
    /// The database file (removed when done).
    db: PathBuf,
    store: Arc<SqliteStore>,
    table: TableRow,
    log: Vec<LogEntry>,
    clock: ClockView,
    /// The last instant the store recorded: `THINKING_MS` after the last entry.
    last_stored: Millis,
}

impl LongGame {
    /// Plays the long game through the server's `Game` and stores its log in a new store.
    fn stored() -> LongGame {
        let (store, db) = SqliteStore::open_temp().unwrap();
        let created = baoqi_organiser::admin::create_event(&store, &event_file(ONE_TABLE)).unwrap();
        let table = created.tables[0].clone();
        let start = std::iter::once((Role::Referee, Command::Start));
        let steps = start.chain(script()).zip(1u64..);
        let steps = steps.map(|((role, command), k)| (Millis(1_000 + k * STEP_MS), role, command));
        let (resumed, log) = common::played_log(&table, steps);
        let at = log.last().unwrap().at;
        let last_stored = Millis(at.0 + THINKING_MS);
        store.append(&log, Some(last_stored)).unwrap();
        let clock = resumed.game.snapshot().clock;
        assert_eq!(clock.running, Some(Side::Red), "red's clock runs");
        LongGame {
            db,
            store: Arc::new(store),
            table,
            log,
            clock,
            last_stored,
        }
    }

    /// Red's time left at the last instant the store recorded: what the pause must show.
    fn red_at_last_stored(&self) -> u64 {
        self.clock.remaining(Color::Red, self.last_stored)
    }

    /// The database opened again, as a restarted server opens it.
    fn reopen(&self) -> Arc<SqliteStore> {
        Arc::new(SqliteStore::open(&self.db, false).unwrap())
    }
}

impl Drop for LongGame {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.db.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Opens a hub on the store as `baoqi serve` does after a restart; returns it, the paused
/// match's clock, and how long starting the tables took.
async fn restart(store: &Arc<SqliteStore>, table: TableId) -> (Arc<Hub>, ClockView, Duration) {
    let hub = Hub::open(store.clone()).unwrap();
    let started = Instant::now();
    assert_eq!(hub.start_tables(true).await.unwrap(), 1);
    let took = started.elapsed();
    let (_, view) = hub.table(table).unwrap().record().await.unwrap();
    assert_eq!(
        (view.phase, view.paused),
        (Phase::Paused, Some(PauseReason::ServerRestart)),
        "the restart paused the match"
    );
    (hub, view.clock, took)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s11_a_restart_stops_the_movers_clock_at_the_last_stored_instant() {
    let game = LongGame::stored();
    assert!(game.log.len() >= 10_000, "{} entries", game.log.len());
    let (hub, clock, took) = restart(&game.reopen(), game.table.id).await;
    println!("{} entries rebuilt in {took:?}", game.log.len());
    assert_eq!(clock.running, None, "no clock runs while paused");
    assert_eq!(
        (clock.red_ms, clock.black_ms),
        (game.red_at_last_stored(), game.clock.black_ms),
        "red keeps what he had when the store last recorded the time, \
         whatever the rebuild took ({took:?})"
    );
    let log = game.store.log(game.table.id).unwrap();
    let pause = log.last().unwrap();
    assert_eq!(
        (pause.index as usize, pause.at, pause.actor),
        (game.log.len(), game.last_stored, Actor::Server),
        "the pause is stored, stamped at the last stored instant"
    );
    hub.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s11_a_restart_cut_short_before_its_tables_run_costs_no_time_either() {
    let game = LongGame::stored();
    // The server restarts and goes down again while it is still rebuilding (here: before
    // it has started its tables), long enough for the store writer to record the timeline.
    let cut = Hub::open(game.reopen()).unwrap();
    tokio::time::sleep(baoqi_store::TIMELINE_MARK * 3).await;
    cut.shutdown();
    drop(cut);
    tokio::time::sleep(baoqi_store::TIMELINE_MARK).await;
    let (hub, clock, _) = restart(&game.reopen(), game.table.id).await;
    assert_eq!(
        clock.red_ms,
        game.red_at_last_stored(),
        "the restart that never ran its tables took nothing from red"
    );
    hub.shutdown();
}

/// Rebuilds the long game's match from a snapshot after `covers` entries and the entries
/// after it, and checks it against the match of the whole log: the same match, the same
/// view, the same JSON, the same place in the log and the same history.
fn check_snapshot_at(game: &LongGame, covers: usize, whole: &baoqi_store::replay::Resumed) {
    let (at_cut, _) = replay(&game.table, &game.log[..covers], Millis(0)).unwrap();
    let started = Instant::now();
    let snap = baoqi_store::snapshot::take(game.table.id, covers as u64, &at_cut.game).unwrap();
    let taken = started.elapsed();
    let started = Instant::now();
    game.store.put_snapshot(&snap).unwrap();
    let stored = started.elapsed();
    let started = Instant::now();
    let (rebuilt, _) = baoqi_store::replay::rebuild(&*game.store, &game.table, Millis(0)).unwrap();
    let took = started.elapsed();
    println!(
        "snapshot after {covers:>5} entries ({} kB, taken and checked in {taken:?}, \
         stored in {stored:?}): rebuilt in {took:?}",
        snap.state.len() / 1000
    );
    assert!(rebuilt.game == whole.game, "after {covers}: another match");
    let json = |g: &baoqi_store::game::Game| serde_json::to_string(g).unwrap();
    assert_eq!(
        json(&rebuilt.game),
        json(&whole.game),
        "after {covers}: JSON"
    );
    assert_eq!(
        serde_json::to_value(rebuilt.game.snapshot()).unwrap(),
        serde_json::to_value(whole.game.snapshot()).unwrap(),
        "after {covers}: the view"
    );
    assert_eq!(
        (rebuilt.next_index, rebuilt.seq),
        (whole.next_index, whole.seq)
    );
    assert_eq!(rebuilt.recent, whole.recent, "after {covers}: the history");
}

#[test]
fn s11_a_match_rebuilt_from_a_snapshot_and_the_entries_after_it_is_the_match_of_its_log() {
    let game = LongGame::stored();
    let started = Instant::now();
    let (whole, _) = replay(&game.table, &game.log, Millis(0)).unwrap();
    println!(
        "{} entries, whole log replayed in {:?}",
        game.log.len(),
        started.elapsed()
    );
    let n = game.log.len();
    for covers in [1, 2, 1_024, 5_000, 9_216, n - 1, n] {
        check_snapshot_at(&game, covers, &whole);
    }
}

#[test]
fn s11_a_snapshot_that_cannot_be_used_leaves_the_whole_log_to_rebuild_the_match() {
    let game = LongGame::stored();
    let (whole, _) = replay(&game.table, &game.log, Millis(0)).unwrap();
    let (at_cut, _) = replay(&game.table, &game.log[..5_000], Millis(0)).unwrap();
    let good = baoqi_store::snapshot::take(game.table.id, 5_000, &at_cut.game).unwrap();
    let illegal_first_move = good.state.replace("\"moves\":[", "\"moves\":[\"a0a5\",");
    assert_ne!(illegal_first_move, good.state);
    let bad = [
        baoqi_store::Snapshot {
            format: good.format + 1,
            ..good.clone()
        },
        baoqi_store::Snapshot {
            state: illegal_first_move,
            ..good.clone()
        },
        baoqi_store::Snapshot {
            index: game.log.len() as u64 + 5,
            ..good
        },
    ];
    for snap in bad {
        game.store.put_snapshot(&snap).unwrap();
        let (rebuilt, _) =
            baoqi_store::replay::rebuild(&*game.store, &game.table, Millis(0)).unwrap();
        assert!(rebuilt.game == whole.game, "{snap:?}");
        assert_eq!(rebuilt.next_index, whole.next_index);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s11_a_table_snapshots_its_match_every_1024_entries_and_restarts_from_it() {
    // 1,100 commands as fast as the table takes them: beyond a seat's rate limit.
    let limits = baoqi_server::limits::Limits::unmetered();
    let s = common::start_with(None, Some(&event_file(ONE_TABLE)), limits).await;
    let table = s.created.tables[0].clone();
    let handle = s.hub.table(table.id).unwrap();
    let start = std::iter::once((Role::Referee, Command::Start));
    for (role, command) in start.chain(script()).take(1_100) {
        let handled = handle
            .command(baoqi_server::table::SeatKey::in_process(role), command)
            .await
            .unwrap();
        assert!(
            matches!(handled, baoqi_server::table::Handled::Accepted { .. }),
            "{handled:?}"
        );
    }
    let store = s.hub.store().clone();
    let deadline = Instant::now() + Duration::from_secs(10);
    let snap = loop {
        if let Some(snap) = store.snapshot(table.id).unwrap() {
            break snap;
        }
        assert!(Instant::now() < deadline, "no snapshot taken");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(snap.index, baoqi_store::snapshot::EVERY);
    let (_, live) = handle.record().await.unwrap();
    s.stop().await;
    let log = store.log(table.id).unwrap();
    let (whole, _) = replay(&table, &log, Millis(0)).unwrap();
    let (rebuilt, _) = baoqi_store::replay::rebuild(&*store, &table, Millis(0)).unwrap();
    assert!(
        rebuilt.game == whole.game,
        "snapshot and tail: the match of the log"
    );
    assert_eq!(*live, whole.game.snapshot(), "the match the table had");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s11_a_resumption_of_the_auto_policy_that_the_store_refused_is_tried_again() {
    // docs/event.toml: under `resume = { mode = "auto" }` the server restarts the paused
    // clocks by itself. If the store is away at that instant (a database restarting), the
    // match must not stay paused for ever: the resumption is tried again once it is back.
    use baoqi_server::table::{Handled, SeatKey};
    use std::sync::atomic::{AtomicBool, Ordering};
    let auto = ONE_TABLE.replace(
        "spectators = 1\n",
        "spectators = 1\n[settings]\nresume = { mode = \"auto\", after_secs = 1 }\n",
    );
    let (inner, db) = SqliteStore::open_temp().unwrap();
    let flaky = Arc::new(common::flaky::Flaky {
        inner,
        fail: AtomicBool::new(false),
    });
    let limits = baoqi_server::limits::Limits::default();
    let file = event_file(&auto);
    let s = common::start_on(flaky.clone(), db.clone(), Some(&file), limits.clone()).await;
    let table = s.created.tables[0].id;
    let referee = SeatKey::in_process(Role::Referee);
    let started = s.hub.table(table).unwrap();
    let started = started.command(referee, Command::Start).await;
    assert!(matches!(started, Some(Handled::Accepted { .. })));
    s.stop().await;

    let again = common::start_on(flaky.clone(), db, None, limits).await;
    let handle = again.hub.table(table).unwrap();
    let paused = || async { handle.record().await.unwrap().1.paused };
    assert_eq!(paused().await, Some(PauseReason::ServerRestart));
    // The store refuses every write from just after the restart's pause until past the
    // instant the policy resumes the match.
    flaky.fail.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(1_600)).await;
    assert_eq!(
        paused().await,
        Some(PauseReason::ServerRestart),
        "not stored"
    );
    flaky.fail.store(false, Ordering::Relaxed);
    let back = Instant::now();
    while paused().await.is_some() {
        assert!(
            back.elapsed() < Duration::from_secs(5),
            "resumed once the store was back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("resumed {:?} after the store's return", back.elapsed());
    again.stop().await;
}
