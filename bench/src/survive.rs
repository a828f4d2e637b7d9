//! `baoqi bench load --nodes N --kill-every S`: the bots play on while a node of
//! the federation is killed with SIGKILL every S seconds and started again. A seat whose node
//! dies connects to another; a command that was not acknowledged (its node died with it in
//! hand, or the match was paused by the takeover) is not guessed at: the bot reads how many
//! of its game's commands the store holds and goes on from there, as a player would look at
//! the board. Each table's script is the walk the restart tests play (a quiet game that
//! never ends), so that every accepted command is one stored entry. Measured: how long each
//! table stood still (the longest time between two acknowledged commands, and from the
//! first failure to the next acknowledgement), and, after the run, that every acknowledged
//! command is in the store.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baoqi_arbiter::Command;
use baoqi_store::model::{Role, TableId};
use baoqi_store::{PgStore, Store};

use super::bot::{self, Bot, Outcome, Shared};
use baoqi_organiser::admin;

/// The commands of a table's game: black's press that starts the clocks, then the quiet walk.
fn script(seed: u64) -> Result<Vec<(usize, Command)>, String> {
    let mut steps = vec![(1, Command::PressClock)];
    let walk = baoqi_store::testing::walk::quiet_game(150, 0, seed)?;
    steps.extend(
        walk.into_iter()
            .map(|(role, c)| (usize::from(role == Role::Black), c)),
    );
    Ok(steps)
}

/// How long a seat waits for its table's state from one node before it tries the next (a
/// node that has just started again may not serve the table yet).
const JOIN_WITHIN: Duration = Duration::from_secs(2);

/// The nodes' WebSocket bases as they are now (a restarted node listens on a new port).
pub type Bases = Arc<Mutex<Vec<String>>>;

/// The instants the nodes were killed.
pub type Kills = Arc<Mutex<Vec<Instant>>>;

/// What the bots saw of the outages (every sample kept: a few per table).
#[derive(Default)]
pub struct Tally {
    /// Per table, the longest time between two acknowledged commands (ms).
    pub longest: Mutex<Vec<u64>>,
    /// From a table's first failed command to its next acknowledged one (ms).
    pub recovery: Mutex<Vec<u64>>,
    /// From each kill to each table's next acknowledged command (ms): when the table moved
    /// again, whether the kill touched it or not.
    pub after_kill: Mutex<Vec<u64>>,
    /// Reconnections of a game's two seats to another node.
    pub reconnects: AtomicU64,
    /// Per table: the highest script index acknowledged (+1), for the check after the run.
    pub acked: Vec<AtomicU64>,
}

/// Both seats of `table`, on the first node from `from` on that takes them.
async fn join(
    bases: &Bases,
    tokens: &[String; 2],
    from: usize,
    table: TableId,
    index: usize,
    shared: &Arc<Shared>,
) -> Option<Bot> {
    let list = bases.lock().ok()?.clone();
    for k in 0..list.len() {
        let base = &list[(from + k) % list.len()];
        let url = format!("{base}/ws/seat");
        // A federation's nodes on the loopback: plain ws.
        let red = bot::seat(url.clone(), tokens[0].clone(), 1, shared.clone(), None);
        let black = bot::seat(url, tokens[1].clone(), 1, shared.clone(), None);
        let joined = Box::pin(tokio::time::timeout(JOIN_WITHIN, async {
            (red.await, black.await)
        }))
        .await;
        if let Ok((Ok(r), Ok(b))) = joined {
            let acked = r.1.last.get(&table).copied().unwrap_or(0);
            return Some(Bot {
                index,
                table,
                seats: [r, b],
                next_id: 0,
                acked,
            });
        }
    }
    None
}

/// How many of a log's entries are the players' commands: where a script stands.
fn players_commands(log: &[baoqi_store::LogEntry]) -> usize {
    log.iter()
        .filter(|e| {
            matches!(
                e.actor,
                baoqi_store::game::Actor::Seat(Role::Red | Role::Black)
            )
        })
        .count()
}

/// How many players' commands the store holds for `table`.
async fn stored(store: &Arc<PgStore>, table: TableId) -> Option<usize> {
    let s = store.clone();
    tokio::task::spawn_blocking(move || s.log(table).ok().map(|log| players_commands(&log)))
        .await
        .ok()
        .flatten()
}

/// One table's game through the outages.
#[allow(clippy::too_many_arguments)]
async fn game(
    index: usize,
    table: TableId,
    tokens: [String; 2],
    bases: Bases,
    kills: Kills,
    shared: Arc<Shared>,
    interval: Duration,
    store: Arc<PgStore>,
    tally: Arc<Tally>,
) {
    let Ok(steps) = script(index as u64) else {
        return;
    };
    let mut from = index;
    let mut bot = None;
    let (mut k, mut longest) = (0usize, Duration::ZERO);
    let (mut last_ack, mut failed_at) = (Instant::now(), None::<Instant>);
    // The kills before this table first moved are not its to count.
    let mut seen_kills = usize::MAX;
    let mut tick = paced(interval);
    while k < steps.len() && !shared.stop.load(Ordering::Relaxed) {
        tick.tick().await;
        let Some(b) = bot.as_mut() else {
            bot = Box::pin(join(&bases, &tokens, from, table, index, &shared)).await;
            from += 1;
            if k == 0 {
                // The stand-still is counted from the first join, not the bench's start.
                last_ack = Instant::now();
            }
            // The game goes on at once on its new node, not at its next paced command.
            tick = paced(interval);
            continue;
        };
        let (who, cmd) = &steps[k];
        match bot::step(b, *who, cmd, &shared).await {
            Outcome::Done => {
                k += 1;
                tally.acked[index].fetch_max(k as u64, Ordering::Relaxed);
                longest = longest.max(last_ack.elapsed());
                last_ack = Instant::now();
                moved_after_kills(&kills, &mut seen_kills, &tally);
                if let Some(t) = failed_at.take() {
                    keep(&tally.recovery, t.elapsed());
                }
            }
            Outcome::Over => break,
            outcome => {
                failed_at.get_or_insert_with(Instant::now);
                if outcome == Outcome::Broken {
                    bot = None;
                    from += 1;
                    tally.reconnects.fetch_add(1, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                if let Some(n) = stored(&store, table).await {
                    k = n;
                }
                // Retried at once, not at the next paced command: what is measured is the
                // nodes' recovery, not the bots' pace.
                tick = paced(interval);
            }
        }
    }
    keep(&tally.longest, longest.max(last_ack.elapsed()));
}

/// A game's pace: a command every `interval`, the first at once.
fn paced(interval: Duration) -> tokio::time::Interval {
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick
}

/// On an acknowledged command: the time since each kill this table had not moved since.
fn moved_after_kills(kills: &Kills, seen: &mut usize, tally: &Tally) {
    let Ok(at) = kills.lock() else { return };
    if *seen == usize::MAX {
        *seen = at.len();
        return;
    }
    for kill in at.iter().skip(*seen) {
        keep(&tally.after_kill, kill.elapsed());
    }
    *seen = at.len();
}

fn keep(samples: &Mutex<Vec<u64>>, d: Duration) {
    if let Ok(mut v) = samples.lock() {
        v.push(u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    }
}

/// Median, 99th percentile and maximum of samples in ms (exact: every sample is kept), and
/// how many.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spread {
    /// How many samples.
    pub count: usize,
    /// The median.
    pub p50: u64,
    /// The 99th percentile.
    pub p99: u64,
    /// The largest.
    pub max: u64,
}

impl Spread {
    /// The spread of `samples`.
    pub fn of(samples: &Mutex<Vec<u64>>) -> Spread {
        let mut v = samples.lock().map(|v| v.clone()).unwrap_or_default();
        v.sort_unstable();
        let at = |p: f64| {
            v.get(((v.len() as f64 * p).ceil() as usize).saturating_sub(1))
                .copied()
                .unwrap_or(0)
        };
        Spread {
            count: v.len(),
            p50: at(0.5),
            p99: at(0.99),
            max: v.last().copied().unwrap_or(0),
        }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {:.1} s, p99 {:.1} s, max {:.1} s ({} samples)",
            self.p50 as f64 / 1000.0,
            self.p99 as f64 / 1000.0,
            self.max as f64 / 1000.0,
            self.count
        )
    }
}

/// What `--kill-every` reports.
#[derive(Debug, Clone, Default)]
pub struct Outages {
    /// Nodes killed (and started again).
    pub kills: usize,
    /// Games whose seats moved to another node.
    pub reconnects: u64,
    /// Each table's longest stand-still.
    pub longest: Spread,
    /// From each kill to each table's next acknowledged command.
    pub after_kill: Spread,
    /// From a failed command to the table's next acknowledged one.
    pub recovery: Spread,
    /// Tables whose store lacks an acknowledged command.
    pub lost: Vec<TableId>,
}

impl std::fmt::Display for Outages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "nodes killed: {} (SIGKILL, each started again); games moved to another node {} times",
            self.kills, self.reconnects
        )?;
        writeln!(
            f,
            "from each kill to each table's next acknowledged command: {}",
            self.after_kill
        )?;
        writeln!(f, "each table's longest stand-still: {}", self.longest)?;
        writeln!(
            f,
            "from a failed command to the table's next acknowledged one: {}",
            self.recovery
        )?;
        writeln!(
            f,
            "acknowledged commands missing from the store: {} tables {:?}",
            self.lost.len(),
            self.lost
        )
    }
}

/// The bots' games through the outages, for `opts.seconds`; the report of the bots (their
/// latencies) and the tally.
pub(super) async fn play(
    opts: &super::BenchOptions,
    bases: Bases,
    kills: Kills,
    created: &admin::Created,
    store: Arc<PgStore>,
    tally: Arc<Tally>,
) -> Result<super::BenchReport, String> {
    let mut shared = Shared::new(created.tables.len());
    shared.outages = true;
    let shared = Arc::new(shared);
    let token = |role: Role, table: TableId| {
        created
            .seats
            .iter()
            .find(|s| s.seat.role == role && s.seat.tables == [table])
            .map(|s| s.token.secret().to_string())
            .ok_or_else(|| format!("table {table} has no {role} seat"))
    };
    let interval = Duration::from_secs_f64(1.0 / opts.rate.max(0.01));
    let mut tasks = Vec::new();
    for (i, t) in created.tables.iter().enumerate() {
        let tokens = [token(Role::Red, t.id)?, token(Role::Black, t.id)?];
        tasks.push(tokio::spawn(game(
            i,
            t.id,
            tokens,
            bases.clone(),
            kills.clone(),
            shared.clone(),
            interval,
            store.clone(),
            tally.clone(),
        )));
    }
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(opts.seconds)).await;
    shared.stop.store(true, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(12), t).await;
    }
    Ok(shared.report(created.tables.len(), 0, elapsed))
}

/// After the run: the tables whose store holds fewer of their commands than were
/// acknowledged (an acknowledged command lost).
pub fn lost(
    store: &PgStore,
    created: &admin::Created,
    tally: &Tally,
) -> Result<Vec<TableId>, String> {
    let mut lost = Vec::new();
    for (i, t) in created.tables.iter().enumerate().take(tally.acked.len()) {
        let log = store.log(t.id).map_err(|e| e.to_string())?;
        let held = players_commands(&log) as u64;
        if held < tally.acked[i].load(Ordering::Relaxed) {
            lost.push(t.id);
        }
    }
    Ok(lost)
}
