//! The bots of the load benchmark: connecting every seat, one task per game playing both
//! sides, one task per monitor, and the checks on every feed.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use baoqi_arbiter::{Command, Event};
use baoqi_grammar::{Style, render};
use baoqi_protocol::{ClientMsg, ServerMsg, decode_server, encode_client};
use baoqi_rules::{Move, Position};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Trust;

use super::BenchReport;
use baoqi_organiser::admin;
use baoqi_server::metrics::Histogram;
use baoqi_store::model::{Role, TableId};

/// Shared counters and the per-table instant of the command in flight.
pub(super) struct Shared {
    origin: Instant,
    to_opponent: Histogram,
    to_monitor: Histogram,
    commands: AtomicU64,
    rejected: AtomicU64,
    events: AtomicU64,
    lost: AtomicU64,
    reordered: AtomicU64,
    resyncs: AtomicU64,
    finished: AtomicU64,
    /// Per table: micros since origin when the command in flight was sent (0: none).
    sent_at: Vec<AtomicU64>,
    /// Per table: the last sequence number before the command in flight.
    floor: Vec<AtomicU64>,
    pub(super) stop: AtomicBool,
    /// Nodes are killed during the run (`--kill-every`): refusals are expected, not printed.
    pub(super) outages: bool,
}

impl Shared {
    pub(super) fn micros(&self) -> u64 {
        self.origin.elapsed().as_micros() as u64
    }
}

pub(super) type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One socket's view of a table feed: checks order and counts.
#[derive(Default)]
pub(super) struct Feed {
    pub(super) last: HashMap<TableId, u64>,
    states: u64,
}

impl Feed {
    /// Counts one message and checks the order of the feed.
    fn observe(&mut self, m: &ServerMsg, shared: &Shared) {
        match m {
            ServerMsg::State { table, seq, .. } => {
                self.states += 1;
                if self.states > self.last.len() as u64 + 1 {
                    shared.resyncs.fetch_add(1, Ordering::Relaxed);
                }
                self.last.insert(*table, *seq);
            }
            ServerMsg::Event { table, seq, .. } => {
                shared.events.fetch_add(1, Ordering::Relaxed);
                let last = self.last.entry(*table).or_insert(0);
                if *seq <= *last {
                    shared.reordered.fetch_add(1, Ordering::Relaxed);
                } else {
                    if *seq > *last + 1 {
                        shared.lost.fetch_add(seq - *last - 1, Ordering::Relaxed);
                    }
                    *last = *seq;
                }
            }
            _ => {}
        }
    }
}

/// Whether a message is an event caused by a command (not a timer's time alert) after
/// `floor`, and whether it ends the game.
fn caused_after(m: &ServerMsg, floor: u64) -> (bool, bool) {
    match m {
        ServerMsg::Event { seq, event, .. } => (
            *seq > floor && !matches!(**event, Event::TimeAlert { .. }),
            matches!(**event, Event::GameOver { .. }),
        ),
        _ => (false, false),
    }
}

pub(super) async fn connect(url: &str, token: &str, trust: &Trust) -> Result<Ws, String> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(baoqi_server::http::READ_BUFFER);
    let connector = trust.clone().map(tokio_tungstenite::Connector::Rustls);
    let (mut ws, _) =
        tokio_tungstenite::connect_async_tls_with_config(url, Some(config), true, connector)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
    let hello = ClientMsg::Hello {
        token: token.to_owned(),
        since: None,
    };
    ws.send(Message::text(encode_client(&hello)))
        .await
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// The next protocol message; `None` when the connection ends or the server speaks
/// something else.
pub(super) async fn next_msg(ws: &mut Ws) -> Option<ServerMsg> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => return decode_server(t.as_str()).ok(),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

impl Shared {
    pub(super) fn new(tables: usize) -> Shared {
        Shared {
            origin: Instant::now(),
            to_opponent: Histogram::default(),
            to_monitor: Histogram::default(),
            commands: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            events: AtomicU64::new(0),
            lost: AtomicU64::new(0),
            reordered: AtomicU64::new(0),
            resyncs: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            sent_at: (0..tables).map(|_| AtomicU64::new(0)).collect(),
            floor: (0..tables).map(|_| AtomicU64::new(0)).collect(),
            stop: AtomicBool::new(false),
            outages: false,
        }
    }

    pub(super) fn report(&self, games: usize, monitors: usize, seconds: f64) -> BenchReport {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        BenchReport {
            games,
            monitors,
            seconds,
            commands: get(&self.commands),
            rejected: get(&self.rejected),
            events: get(&self.events),
            to_opponent: self.to_opponent.summary(),
            to_monitor: self.to_monitor.summary(),
            lost: get(&self.lost),
            reordered: get(&self.reordered),
            resyncs: get(&self.resyncs),
            finished: get(&self.finished),
            server: None,
            placement: "",
            nodes: Vec::new(),
            hostile: None,
            flooded: None,
            join_seconds: 0.0,
            memory: None,
            polled: None,
            outages: None,
        }
    }
}

/// Connects one seat and reads until it has the state of each of its `tables`.
pub(super) async fn seat(
    url: String,
    token: String,
    tables: usize,
    shared: Arc<Shared>,
    trust: Trust,
) -> Result<(Ws, Feed), String> {
    let mut ws = connect(&url, &token, &trust).await?;
    let mut feed = Feed::default();
    let mut states = 0;
    while states < tables {
        let m = next_msg(&mut ws)
            .await
            .ok_or("a seat lost its connection while joining")?;
        feed.observe(&m, &shared);
        match m {
            ServerMsg::State { .. } => states += 1,
            // A join the server could not serve ends the run with why, never a wait for a
            // state that will not come.
            ServerMsg::Error { code, message, .. } => {
                return Err(format!("{url}: joining: {code:?}: {message}"));
            }
            _ => {}
        }
    }
    Ok((ws, feed))
}

/// The played tables' two player seats, table i's on server i of `bases`: where each joins
/// and with which token.
fn player_seats(
    created: &admin::Created,
    played: usize,
    bases: &[String],
) -> Result<Vec<(String, String)>, String> {
    let token = |role: Role, table: TableId| {
        created
            .seats
            .iter()
            .find(|s| s.seat.role == role && s.seat.tables == [table])
            .map(|s| s.token.secret().to_string())
            .ok_or_else(|| format!("table {table} has no {role} seat"))
    };
    let mut seats = Vec::new();
    for (i, t) in created.tables.iter().enumerate().take(played) {
        for role in [Role::Red, Role::Black] {
            seats.push((
                format!("{}/ws/seat", bases[i % bases.len()]),
                token(role, t.id)?,
            ));
        }
    }
    Ok(seats)
}

/// Connects every seat (64 at a time), plays for `seconds`, and reports.
pub(super) async fn play(
    opts: &super::BenchOptions,
    bases: &[String],
    created: &admin::Created,
) -> Result<BenchReport, String> {
    use futures_util::stream::{self, TryStreamExt};
    let (seconds, rate) = (opts.seconds, opts.rate);
    // With an adversary, the last table is his: its players are not bots, nor measured.
    let played = created.tables.len() - usize::from(opts.hostile);
    // Table i's seats connect to server i of `bases` (round the list), referee k's to
    // server k: with several nodes, most seats reach their table through another node.
    let base = |i: usize| bases[i % bases.len()].as_str();
    let n = created.tables.len();
    let shared = Arc::new(Shared::new(n));
    let index: Arc<HashMap<TableId, usize>> = Arc::new(
        created
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id, i))
            .collect(),
    );
    let referees = created
        .seats
        .iter()
        .filter(|s| s.seat.role == Role::Referee);
    let joining = Instant::now();
    let monitors: Vec<(Ws, Feed)> = stream::iter(referees.enumerate().map(|(k, s)| {
        let url = format!("{}/ws/monitor", base(k));
        seat(
            url,
            s.token.secret().to_string(),
            s.seat.tables.len(),
            shared.clone(),
            opts.tls.clone(),
        )
    }))
    .buffered(64)
    .try_collect()
    .await?;
    let joins: Vec<_> = player_seats(created, played, bases)?
        .into_iter()
        .map(|(url, token)| seat(url, token, 1, shared.clone(), opts.tls.clone()))
        .collect();
    // The monitors read from the moment they are in: while thousands of player seats join
    // (minutes, at 6,000 games), an unread monitor answers no pings and the server closes it.
    let monitor_count = monitors.len();
    let mut tasks = Vec::new();
    for (ws, feed) in monitors {
        tasks.push(tokio::spawn(monitor(
            ws,
            feed,
            shared.clone(),
            index.clone(),
        )));
    }
    let players: Vec<(Ws, Feed)> = stream::iter(joins).buffered(64).try_collect().await?;
    let join_seconds = joining.elapsed().as_secs_f64();
    let adversary_stop = Arc::new(AtomicBool::new(false));
    let adversary = if opts.hostile {
        Some(super::hostile::start(base(0), created, adversary_stop.clone(), &opts.tls).await?)
    } else {
        None
    };
    let flooders = opts
        .flood
        .map(|what| (what, super::flood::start(base(0), what, &adversary_stop)));
    let poller = opts.poll_live.then(|| {
        let ids: Vec<TableId> = created.tables.iter().map(|t| t.id).collect();
        super::poll::start(base(0).trim_start_matches("ws://"), &ids, &adversary_stop)
    });
    if let Some(p) = &poller {
        super::poll::first_pass(p, created.tables.len()).await;
    }
    let started = Instant::now();
    let interval = Duration::from_secs_f64(1.0 / rate.max(0.01));
    let mut players = players.into_iter();
    for (i, t) in created.tables.iter().enumerate() {
        let (Some(red), Some(black)) = (players.next(), players.next()) else {
            break;
        };
        tasks.push(tokio::spawn(game(
            i,
            t.id,
            [red, black],
            shared.clone(),
            interval,
        )));
    }
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    shared.stop.store(true, Ordering::Relaxed);
    adversary_stop.store(true, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    for t in &tasks {
        t.abort();
    }
    let mut report = shared.report(played, monitor_count, elapsed);
    report.join_seconds = join_seconds;
    report.polled = poller.map(|p| {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        (get(&p.full), get(&p.unchanged), get(&p.failed))
    });
    beside(&mut report, adversary.as_deref(), flooders);
    Ok(report)
}

/// The counts of what ran beside the games into `report`: the adversary's and the
/// flooders'.
fn beside(
    report: &mut BenchReport,
    adversary: Option<&super::hostile::Hostile>,
    flooders: Option<(super::flood::Flood, Arc<super::flood::Flooded>)>,
) {
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    report.flooded = flooders.map(|(what, f)| (what, get(&f.frames), get(&f.connections)));
    report.hostile = adversary.map(|h| (get(&h.words), get(&h.refused), get(&h.syncs)));
}

async fn monitor(
    mut ws: Ws,
    mut feed: Feed,
    shared: Arc<Shared>,
    index: Arc<HashMap<TableId, usize>>,
) {
    let mut measured: HashMap<usize, u64> = HashMap::new();
    while let Some(m) = next_msg(&mut ws).await {
        feed.observe(&m, &shared);
        let ServerMsg::Event { table, .. } = &m else {
            continue;
        };
        let Some(&i) = index.get(table) else {
            continue;
        };
        let sent = shared.sent_at[i].load(Ordering::Acquire);
        let floor = shared.floor[i].load(Ordering::Acquire);
        if sent != 0 && caused_after(&m, floor).0 && measured.get(&i) != Some(&sent) {
            measured.insert(i, sent);
            shared
                .to_monitor
                .record(shared.micros().saturating_sub(sent));
        }
    }
}

/// The commands of a move, but for the time query of every fourth ([`move_commands`]).
const COMMANDS_PER_MOVE: usize = 6;

/// The commands of one move: four words, the board report, the press, and every fourth
/// move a time query first.
fn move_commands(pos: &Position, mv: Move, ply: usize) -> Vec<Command> {
    let mut cmds = Vec::new();
    if ply.is_multiple_of(4) {
        cmds.push(Command::QueryTime);
    }
    let text = render(pos, mv, Style::Traditional).unwrap_or_default();
    for ch in text.chars() {
        cmds.push(Command::Word {
            text: ch.to_string(),
        });
    }
    cmds.push(Command::BoardMove { board: None, mv });
    cmds.push(Command::PressClock);
    cmds
}

/// One game's two player sockets and where its commands stand.
pub(super) struct Bot {
    pub(super) index: usize,
    pub(super) table: TableId,
    pub(super) seats: [(Ws, Feed); 2],
    pub(super) next_id: u64,
    /// The last event sequence number acknowledged to a command of this game.
    pub(super) acked: u64,
}

/// How long a command may wait for its answer and its opponent's event before its node is
/// taken for gone (a node killed mid-command answers nothing).
const ANSWER_WITHIN: Duration = Duration::from_secs(8);

/// How one command of a game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Acknowledged, and its event reached the opponent.
    Done,
    /// Refused (`rejected` or `error`): a paused match, or a bug.
    Refused,
    /// A socket closed, or no answer came in time: its node is gone.
    Broken,
    /// The game ended.
    Over,
}

/// Sends one command of `mover` and waits, on both sockets at once, for the opponent's
/// first event caused by it and the mover's answer.
pub(super) async fn step(bot: &mut Bot, mover: usize, cmd: &Command, shared: &Shared) -> Outcome {
    bot.next_id += 1;
    let id = bot.next_id.to_string();
    let (i, table, acked, seats) = (bot.index, bot.table, &mut bot.acked, &mut bot.seats);
    // Events of earlier commands may still be on their way: only what comes after the
    // last acknowledged event counts for this command.
    let floor = (*seats[1 - mover].1.last.get(&table).unwrap_or(&0)).max(*acked);
    shared.floor[i].store(floor, Ordering::Release);
    let sent = shared.micros().max(1);
    shared.sent_at[i].store(sent, Ordering::Release);
    let msg = ClientMsg::Command {
        id: Some(id.clone()),
        table: None,
        command: cmd.clone(),
    };
    let (me, opp) = match seats {
        [r, b] if mover == 0 => (r, b),
        [r, b] => (b, r),
    };
    if me.0.send(Message::text(encode_client(&msg))).await.is_err() {
        return Outcome::Broken;
    }
    let (mut seen, mut answered) = (false, false);
    let give_up = tokio::time::sleep(ANSWER_WITHIN);
    tokio::pin!(give_up);
    while !(answered && seen) {
        tokio::select! {
            () = &mut give_up => return Outcome::Broken,
            m = next_msg(&mut opp.0), if !seen => {
                let Some(m) = m else { return Outcome::Broken };
                opp.1.observe(&m, shared);
                // Clock alerts come from the table's timer, not from this command.
                let (caused, over) = caused_after(&m, floor);
                if caused {
                    shared.to_opponent.record(shared.micros().saturating_sub(sent));
                    seen = true;
                }
                if over {
                    shared.finished.fetch_add(1, Ordering::Relaxed);
                    return Outcome::Over;
                }
            }
            m = next_msg(&mut me.0), if !answered => {
                let Some(m) = m else { return Outcome::Broken };
                me.1.observe(&m, shared);
                match m {
                    ServerMsg::Ack { id: Some(a), seq, .. } if a == id => {
                        answered = true;
                        shared.commands.fetch_add(1, Ordering::Relaxed);
                        *acked = seq;
                    }
                    ServerMsg::Rejected { id: Some(ref a), .. }
                    | ServerMsg::Error { id: Some(ref a), .. }
                        if *a == id =>
                    {
                        if shared.rejected.fetch_add(1, Ordering::Relaxed) < 3 && !shared.outages {
                            eprintln!("bench: table {table}: {cmd:?} refused: {m:?}");
                        }
                        return Outcome::Refused;
                    }
                    _ => {}
                }
            }
        }
    }
    Outcome::Done
}

/// One game: both players' sockets, a random walk of quiet moves, paced at `interval`.
async fn game(
    i: usize,
    table: TableId,
    seats: [(Ws, Feed); 2],
    shared: Arc<Shared>,
    interval: Duration,
) {
    let mut rng = StdRng::seed_from_u64(i as u64);
    let mut pos = Position::start();
    let mut ply = 0;
    let mut bot = Bot {
        index: i,
        table,
        seats,
        next_id: 0,
        acked: 0,
    };
    // Spread the games over the first interval; their clocks start then.
    tokio::time::sleep(interval.mul_f64(rng.random::<f64>())).await;
    // Then each first asks the time a few times (0 to 5), so that the games are not in step:
    // every interval carries commands of every kind. In step, every 13 s at 0.45 commands a
    // second, all 9,000 games pressed their clocks within the same 2.2 s, then all reported
    // their board moves (docs/benchmarks.md).
    let lead = rng.random_range(0..COMMANDS_PER_MOVE);
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    'game: loop {
        let moves = pos.legal_moves();
        let quiet: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_none())
            .collect();
        let pool = if quiet.is_empty() {
            moves.to_vec()
        } else {
            quiet
        };
        if pool.is_empty() {
            break;
        }
        let mv = pool[rng.random_range(0..pool.len())];
        let mover = usize::from(pos.turn() != baoqi_rules::Color::Red);
        let mut script: Vec<(usize, Command)> = Vec::new();
        if ply == 0 {
            // Black's press starts the clocks (95(3)); red, on move, asks the time.
            script.push((1, Command::PressClock));
            script.extend((0..lead).map(|_| (mover, Command::QueryTime)));
        }
        script.extend(move_commands(&pos, mv, ply).into_iter().map(|c| (mover, c)));
        for (who, cmd) in script {
            tick.tick().await;
            if shared.stop.load(Ordering::Relaxed) {
                break 'game;
            }
            if step(&mut bot, who, &cmd, &shared).await != Outcome::Done {
                break 'game;
            }
        }
        pos.make(mv);
        ply += 1;
    }
    shared.sent_at[i].store(0, Ordering::Release);
}
