//! The federation the node tests run: the services, a database with an event, nodes as
//! processes, the bots that play through them and the checks of what the store kept.

use std::fmt::Write as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use baoqi_arbiter::{Event, Millis, PauseReason};
use baoqi_store::model::{Role, TableId};
use baoqi_store::{PgStore, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use common::{BIN, Scratch, seat_lines, token_of};

pub(super) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long a lease lasts in these tests: a dead node's tables move after about this.
pub(super) const LEASE_MS: u64 = 1_200;

/// A federation's database: a schema of its own, a hall's event of `tables` tables copied
/// into it; the seats' lines as `event create` printed them.
pub(super) struct Federation {
    pub(super) url: String,
    pub(super) schema: String,
    pub(super) target: String,
    pub(super) nats: String,
    pub(super) seats: Vec<common::SeatLine>,
    pub(super) dir: Scratch,
}

impl Federation {
    pub(super) fn new(name: &str, tables: usize, pg: String, nats: String) -> Federation {
        let dir = Scratch::new(name);
        let config = dir.join("event.toml");
        std::fs::write(&config, event_toml(tables)).unwrap();
        let hall = dir.join("hall.db");
        let hall = hall.to_str().unwrap();
        let listing = common::baoqi(&[
            "event",
            "create",
            "--config",
            config.to_str().unwrap(),
            "--db",
            hall,
        ]);
        let schema = PgStore::create_schema(&pg).unwrap();
        let target = format!("{pg}?options=-csearch_path%3D{schema}");
        common::baoqi(&[
            "db",
            "copy",
            "--from",
            &format!("sqlite:{hall}"),
            "--to",
            &target,
        ]);
        Federation {
            url: pg,
            schema,
            target,
            nats,
            seats: seat_lines(&listing),
            dir,
        }
    }

    /// Where a node's diagnostics go (appended across its restarts).
    fn log(&self, name: &str) -> Stdio {
        let path = self.dir.join(format!("{name}.log"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        Stdio::from(file)
    }

    pub(super) fn store(&self) -> PgStore {
        PgStore::open_in(&self.url, Some(&self.schema)).unwrap()
    }

    pub(super) fn token(&self, role: &str, table: Option<u32>) -> String {
        token_of(&self.seats, role, table)
    }

    /// Starts a node listening on `listen`; returns once it holds its share.
    pub(super) fn node(&self, name: &str, listen: &str) -> Node {
        self.spawn(name, listen).ready()
    }

    /// Starts a node listening on `listen`, without waiting for it.
    pub(super) fn spawn(&self, name: &str, listen: &str) -> Child {
        self.spawn_leasing(name, listen, LEASE_MS)
    }

    /// [`Federation::spawn`] with leases of `lease_ms`.
    pub(super) fn spawn_leasing(&self, name: &str, listen: &str, lease_ms: u64) -> Child {
        Command::new(BIN)
            .args([
                "serve",
                "--db",
                &self.target,
                "--node",
                name,
                "--nats",
                &self.nats,
            ])
            .args(["--listen", listen, "--lease-ms", &lease_ms.to_string()])
            .env("RUST_LOG", "baoqi_server=info")
            .stdout(Stdio::piped())
            .stderr(self.log(name))
            .spawn()
            .expect("baoqi serve --node")
    }
}

/// A node started: waits until it holds its share and runs its tables.
pub(super) trait Ready {
    fn ready(self) -> Node;
}

impl Ready for Child {
    fn ready(self) -> Node {
        let mut child = self;
        let started = common::started(&mut child);
        let held = started
            .lines
            .iter()
            .rev()
            .find_map(|l| {
                l.split_once(": holds ")?
                    .1
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(0);
        let addr = started.url.trim_start_matches("http://").to_owned();
        Node { child, addr, held }
    }
}

impl Drop for Federation {
    fn drop(&mut self) {
        let _ = PgStore::drop_schema(&self.url, &self.schema);
    }
}

/// An event of `tables` tables of two blind players who announce their moves (附表七 第六部分,
/// the game the bots' script plays), whose matches resume by themselves one second after a
/// restart or a takeover.
fn event_toml(tables: usize) -> String {
    let mut t = String::from(
        "name = \"聯會測試\"\nspectators = 1\n[settings]\nresume = { mode = \"auto\", after_secs = 1 }\n\
         [[referees]]\nname = \"陳裁判\"\ntables = []\n",
    );
    for n in 1..=tables {
        let _ = write!(
            t,
            "[[tables]]\nround = 1\nname = \"桌 {n}\"\nred = \"紅{n}\"\nblack = \"黑{n}\"\n\
             [tables.match]\nkind = \"part6\"\n\
             red = {{ name = \"紅{n}\", categories = [\"blind\"] }}\n\
             black = {{ name = \"黑{n}\", categories = [\"blind\"] }}\n"
        );
    }
    t
}

/// A running node; killed when dropped.
pub(super) struct Node {
    pub(super) child: Child,
    pub(super) addr: String,
    /// How many tables it took when it joined.
    pub(super) held: usize,
}

impl Node {
    /// Whether the node's process still runs.
    pub(super) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub(super) fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        let ok = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(ok.success(), "kill {signal} {pid}");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // A frozen node is woken first, so that it dies.
        let pid = self.child.id().to_string();
        let _ = Command::new("kill")
            .args(["-CONT", &pid])
            .stderr(Stdio::null())
            .status();
        self.kill();
    }
}

pub(super) async fn join(addr: &str, endpoint: &str, token: &str) -> Option<Ws> {
    let url = format!("ws://{addr}/ws/{endpoint}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.ok()?;
    let hello = json!({"v": 2, "type": "hello", "token": token});
    ws.send(Message::text(hello.to_string())).await.ok()?;
    Some(ws)
}

pub(super) async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).ok();
        }
    }
}

/// Sends a command and waits for its answer (`ack`, `rejected` or `error`); `None` when
/// the connection broke (its node died).
pub(super) async fn command(ws: &mut Ws, id: &str, table: u32, command: &Value) -> Option<Value> {
    let msg = json!({"v": 2, "type": "command", "id": id, "table": table, "command": command});
    ws.send(Message::text(msg.to_string())).await.ok()?;
    loop {
        let v = next(ws).await?;
        if v["id"] == id {
            return Some(v);
        }
    }
}

/// The players' commands of a game of `moves` moves (seat 0 red, 1 black).
pub(super) fn script(moves: usize) -> Vec<(usize, Value)> {
    baoqi_store::testing::walk::quiet_game(moves, 0, 7)
        .unwrap()
        .into_iter()
        .map(|(role, c)| {
            (
                usize::from(role == Role::Black),
                serde_json::to_value(c).unwrap(),
            )
        })
        .collect()
}

/// How many of the players' commands the store holds for the table; while the database is
/// away (a test restarts it), asked again until it answers.
pub(super) fn stored_moves(store: &PgStore, table: u32) -> usize {
    let mut tries = 0;
    let log = loop {
        match store.log(TableId(i64::from(table))) {
            Ok(log) => break log,
            Err(e) => {
                tries += 1;
                assert!(tries < 150, "the store never answered again: {e}");
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    };
    log.iter()
        .filter(|e| {
            matches!(
                e.actor,
                baoqi_store::game::Actor::Seat(Role::Red | Role::Black)
            )
        })
        .count()
}

/// Every table's log: indices 0, 1, 2, … and event numbers that follow on, with nothing
/// repeated, at instants that never run back; the acknowledged commands all stored; the whole script played; and the number
/// of pauses for a takeover.
pub(super) fn check_table(
    store: &PgStore,
    table: u32,
    acked: &[(usize, Instant)],
    steps: usize,
) -> usize {
    let log = store.log(TableId(i64::from(table))).unwrap();
    let (mut seq, mut at) = (0, Millis(0));
    for (i, e) in log.iter().enumerate() {
        assert_eq!(
            e.index, i as u64,
            "table {table}: entry {i} has index {}",
            e.index
        );
        // The nodes' clocks are the database's: a new holder's instants never run back.
        assert!(
            e.at >= at,
            "table {table}: entry {i} at {} after {}",
            e.at.0,
            at.0
        );
        at = e.at;
        assert_eq!(
            e.first_seq,
            seq + 1,
            "table {table}: entry {i} repeats or skips events"
        );
        seq += e.events.len() as u64;
    }
    let played = stored_moves(store, table);
    assert_eq!(played, steps, "table {table}: the game went on to its end");
    assert!(
        acked.iter().all(|&(k, _)| k < played),
        "table {table}: an acknowledged command is missing"
    );
    log.iter()
        .flat_map(|e| &e.events)
        .filter(|e| {
            matches!(
                e,
                Event::Paused {
                    reason: PauseReason::ServerRestart,
                    ..
                }
            )
        })
        .count()
}

pub(super) fn free_ports(n: usize) -> Vec<String> {
    let held: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect()
}

/// Waits on a connection for a message `pred` accepts; `None` after `within`.
pub(super) async fn wait_for(
    ws: &mut Ws,
    within: Duration,
    pred: impl Fn(&Value) -> bool,
) -> Option<Value> {
    tokio::time::timeout(within, async {
        loop {
            let v = next(ws).await?;
            if pred(&v) {
                return Some(v);
            }
        }
    })
    .await
    .ok()
    .flatten()
}
