//! Three nodes of a federation as real processes: `baoqi serve --node` ×3 on one PostgreSQL
//! database and one NATS server, bots playing every table through a node that never dies,
//! and one of the other two killed with SIGKILL at random instants, 20 times, each time
//! started again. Afterwards: every acknowledged command is stored, each table's log runs
//! without a gap or a repeat (one writer at a time), every game was played to its end
//! across the takeovers, and each takeover paused the match (its clocks were not charged
//! for the time the table had no holder). A second test freezes a node with SIGSTOP past
//! its lease: when it wakes, nothing it writes reaches the store. Needs
//! `BAOQI_TEST_POSTGRES` and `BAOQI_TEST_NATS` (`scripts/services.sh start`).

mod bench;
mod bot;
mod harness;
mod services;

use std::process::Child;
use std::sync::Arc;
use std::time::Duration;

use baoqi_store::Store;
use baoqi_store::model::TableId;
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use bot::{Play, bot};
use harness::{
    Federation, LEASE_MS, Node, Ready, check_table, command, free_ports, join, script,
    stored_moves, wait_for,
};
use services::{OwnNats, OwnPostgres, services};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_a_node_twenty_times_and_every_game_goes_on_elsewhere() {
    let Some((pg, nats)) = services() else { return };
    let tables = 6;
    let fed = Federation::new("nodes-kill", tables, pg, nats);
    let store = Arc::new(fed.store());
    let ports = free_ports(3);
    // Started together, the nodes take every table between them.
    let started: Vec<Child> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| fed.spawn(&format!("n{i}"), p))
        .collect();
    let mut nodes: Vec<Node> = started.into_iter().map(Ready::ready).collect();
    // Two nodes may reach for one table at once: the loser takes another at its next scan.
    let leases = store.leases().unwrap();
    let shared = std::time::Instant::now();
    while !leases.orphans(1).unwrap().is_empty() {
        assert!(
            shared.elapsed() < Duration::from_secs(10),
            "every table has a holder"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let loads = leases.loads(Duration::from_millis(LEASE_MS)).unwrap();
    let held: Vec<usize> = loads.iter().map(|l| l.tables).collect();
    assert_eq!(
        held.iter().sum::<usize>(),
        tables,
        "one holder each: {loads:?}"
    );
    // Nodes whose processes start within a renewal of one another share the tables; under
    // load one was seen to start later and find every table taken (a node that joins late
    // takes only what nobody holds). Either way the kills below hit the holders, and the
    // end of the test checks that some did.
    println!("the tables at the start: {loads:?}");
    let addrs: Vec<String> = nodes.iter().map(|n| n.addr.clone()).collect();
    start_all(&fed, &addrs[0], tables).await;
    let steps = script(120);
    let bots: Vec<_> = (1..=tables as u32)
        .map(|t| {
            let tokens = [fed.token("red", Some(t)), fed.token("black", Some(t))];
            tokio::spawn(bot(
                addrs.clone(),
                tokens,
                t,
                steps.clone(),
                store.clone(),
                Play::FAST,
            ))
        })
        .collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64 ^ u64::from(std::process::id());
    for kill in 0..20 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        tokio::time::sleep(Duration::from_millis(300 + (seed >> 33) % 900)).await;
        let victim = (seed >> 40) as usize % nodes.len();
        nodes[victim].kill();
        println!("kill {kill}: n{victim}");
        nodes[victim] = fed.node(&format!("n{victim}"), &ports[victim]);
    }
    let mut pauses = 0;
    for (t, b) in (1..=tables as u32).zip(bots) {
        let acked = b.await.expect("the bot finished");
        pauses += check_table(&store, t, &acked, steps.len());
    }
    println!("{tables} tables, 20 kills: {pauses} takeovers of a game in play paused it");
    assert!(pauses > 0, "some kill hit a node running a game");
}

/// The referee starts every table's clocks through the node at `addr`.
async fn start_all(fed: &Federation, addr: &str, tables: usize) {
    let mut referee = join(addr, "monitor", &fed.token("referee", None))
        .await
        .unwrap();
    for t in 1..=tables as u32 {
        let go = command(
            &mut referee,
            &format!("go{t}"),
            t,
            &json!({"type": "start"}),
        )
        .await;
        assert_eq!(
            go.as_ref().map(|g| g["type"].clone()),
            Some(json!("ack")),
            "table {t} starts: {go:?}"
        );
    }
}

fn paused_for_takeover(v: &Value) -> bool {
    v["type"] == "event"
        && v["event"]["type"] == "paused"
        && v["event"]["reason"] == "server_restart"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_twice_under_three_nodes_and_every_game_goes_on() {
    let Some((_, nats)) = services() else { return };
    let pg = OwnPostgres::start("restart");
    let tables = 4;
    let fed = Federation::new("nodes-pg", tables, pg.url.clone(), nats);
    let store = Arc::new(fed.store());
    let (mut nodes, addrs) = three_nodes(&fed, "p");
    start_all(&fed, &addrs[0], tables).await;
    // Games that last past the last restart and its ten seconds, each player waiting to
    // see the opponent's move.
    let steps = script(40);
    let pace = Duration::from_secs(15) / steps.len() as u32;
    let play = Play {
        pace,
        sees_opponent: true,
    };
    let bots = play_all(&fed, &addrs, tables, &steps, &store, play);
    // Twice, under play: PostgreSQL stops at once and starts again on its port.
    let mut back = std::time::Instant::now();
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let p = &pg;
        tokio::task::block_in_place(|| p.restart());
        back = std::time::Instant::now();
    }
    for (t, b) in (1..=tables as u32).zip(bots) {
        let acked = tokio::time::timeout(Duration::from_secs(120), b)
            .await
            .expect("every table moves again once PostgreSQL is back")
            .expect("the bot finished");
        check_table(&store, t, &acked, steps.len());
        moved_again(t, &acked, back);
    }
    for (i, n) in nodes.iter_mut().enumerate() {
        assert!(n.alive(), "node p{i} exited");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_server_killed_four_times_under_three_nodes_and_every_table_moves_again() {
    let Some((pg, _)) = services() else { return };
    let mut bus = OwnNats::start();
    let tables = 6;
    let fed = Federation::new("nodes-nats", tables, pg, bus.url.clone());
    let store = Arc::new(fed.store());
    let (mut nodes, addrs) = three_nodes(&fed, "b");
    start_all(&fed, &addrs[0], tables).await;
    // Games that last past the last restart and its ten seconds, the seats of each table on
    // two nodes: every table is played through the bus.
    let steps = script(40);
    let pace = Duration::from_secs(25) / steps.len() as u32;
    let play = Play {
        pace,
        sees_opponent: true,
    };
    let bots = play_all(&fed, &addrs, tables, &steps, &store, play);
    // Four times, under play: the bus dies (SIGKILL) and is back on its port within a
    // second, as a crashed nats-server under a supervisor.
    // A node whose bus is away says it is not ready (the first time, looked at).
    let mut back = std::time::Instant::now();
    for round in 0..4 {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let b = &mut bus;
        tokio::task::block_in_place(|| {
            b.kill();
            if round == 0 {
                assert!(
                    ready_becomes(&addrs[1], false),
                    "not ready while the bus is away"
                );
            }
            std::thread::sleep(Duration::from_millis(700));
            b.again();
            if round == 0 {
                assert!(
                    ready_becomes(&addrs[1], true),
                    "ready again once it is back"
                );
            }
        });
        back = std::time::Instant::now();
    }
    for (t, b) in (1..=tables as u32).zip(bots) {
        let acked = tokio::time::timeout(Duration::from_secs(120), b)
            .await
            .expect("every table moves again once the bus is back")
            .expect("the bot finished");
        check_table(&store, t, &acked, steps.len());
        moved_again(t, &acked, back);
    }
    for (i, n) in nodes.iter_mut().enumerate() {
        assert!(n.alive(), "node b{i} exited");
    }
    // What the operator watches: the bus's returns and the leases kept meanwhile.
    let (_, scrape) = crate::common::get(&addrs[1], "/metrics");
    let scrape = String::from_utf8_lossy(&scrape);
    let value = |name: &str| -> f64 {
        scrape
            .lines()
            .filter(|l| l.starts_with(name))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    assert!(
        value("baoqi_bus_connects_total") >= 5.0,
        "the first connection and four returns:\n{scrape}"
    );
    assert!(
        value("baoqi_lease_renewals_total{outcome=\"renewed\"}") > 0.0,
        "{scrape}"
    );
}

/// Three nodes started together on `fed`, named `prefix0`, `prefix1`, `prefix2`, once each
/// holds its share; and their addresses.
fn three_nodes(fed: &Federation, prefix: &str) -> (Vec<Node>, Vec<String>) {
    let ports = free_ports(3);
    let started: Vec<Child> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| fed.spawn(&format!("{prefix}{i}"), p))
        .collect();
    let nodes: Vec<Node> = started.into_iter().map(Ready::ready).collect();
    let addrs = nodes.iter().map(|n| n.addr.clone()).collect();
    (nodes, addrs)
}

/// A bot on each of the first `tables` tables, playing `steps` through `addrs` as `play`
/// says.
fn play_all(
    fed: &Federation,
    addrs: &[String],
    tables: usize,
    steps: &[(usize, Value)],
    store: &Arc<baoqi_store::PgStore>,
    play: Play,
) -> Vec<tokio::task::JoinHandle<Vec<(usize, std::time::Instant)>>> {
    (1..=tables as u32)
        .map(|t| {
            let tokens = [fed.token("red", Some(t)), fed.token("black", Some(t))];
            let (addrs, steps, store) = (addrs.to_vec(), steps.to_vec(), store.clone());
            tokio::spawn(bot(addrs, tokens, t, steps, store, play))
        })
        .collect()
}

/// Asserts that table `t` had a command acknowledged within 10 s of the service's last
/// return at `back`, and says how soon.
fn moved_again(t: u32, acked: &[(usize, std::time::Instant)], back: std::time::Instant) {
    let again = acked
        .iter()
        .find(|(_, at)| *at >= back)
        .map(|(_, at)| *at - back);
    println!("table {t}: moved again {again:?} after the service's last return");
    assert!(
        again.is_some_and(|d| d < Duration::from_secs(10)),
        "table {t} moved again within 10 s of the service's return: {again:?}"
    );
}

/// Whether the node at `addr` says, within 5 s, that it is ready (`/readyz` 200, its bus
/// `ok`) or not (503, its bus `disconnected`), as `ready` asks.
fn ready_becomes(addr: &str, ready: bool) -> bool {
    let (status, bus) = if ready {
        ("200", "ok")
    } else {
        ("503", "disconnected")
    };
    let began = std::time::Instant::now();
    while began.elapsed() < Duration::from_secs(5) {
        let (line, body) = crate::common::get(addr, "/readyz");
        let body: Value = serde_json::from_slice(&body).unwrap_or_default();
        if line.contains(status) && body["bus"] == bus {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_frozen_past_its_lease_writes_nothing_when_it_wakes() {
    let Some((pg, nats)) = services() else { return };
    let fed = Federation::new("nodes-sigstop", 1, pg, nats);
    let store = fed.store();
    let ports = free_ports(2);
    // a starts alone and takes the table; b joins after.
    let a = fed.node("a", &ports[0]);
    let b = fed.node("b", &ports[1]);
    assert_eq!((a.held, b.held), (1, 0));
    let (red, black) = (fed.token("red", Some(1)), fed.token("black", Some(1)));
    // The referee and the players are connected to b: it forwards to a, the holder.
    let mut referee = join(&b.addr, "monitor", &fed.token("referee", None))
        .await
        .unwrap();
    let mut on_b = [
        join(&b.addr, "seat", &red).await.unwrap(),
        join(&b.addr, "seat", &black).await.unwrap(),
    ];
    // A spectator on b too: the table's events reach it from a through NATS.
    let mut spectator = join(&b.addr, "watch", &fed.token("spectator", None))
        .await
        .unwrap();
    wait_for(&mut spectator, Duration::from_secs(5), |v| {
        v["type"] == "state"
    })
    .await
    .expect("the spectator's state, through b");
    let go = command(&mut referee, "go", 1, &json!({"type": "start"}))
        .await
        .unwrap();
    assert_eq!(go["type"], "ack", "{go}");
    wait_for(&mut spectator, Duration::from_secs(5), |v| {
        v["event"]["type"] == "started"
    })
    .await
    .expect("the spectator on b saw the game start at a");
    let steps = script(4);
    for (k, (who, cmd)) in steps.iter().enumerate().take(3) {
        let r = command(&mut on_b[*who], &format!("b{k}"), 1, cmd)
            .await
            .unwrap();
        assert_eq!(r["type"], "ack", "command {k} through b: {r}");
    }
    // A second red connection, straight to a.
    let (who, cmd) = &steps[3];
    let token = if *who == 0 { &red } else { &black };
    let mut on_a = join(&a.addr, "seat", token).await.unwrap();
    wait_for(&mut on_a, Duration::from_secs(5), |v| v["type"] == "state")
        .await
        .expect("a's state");

    // a freezes (SIGSTOP) past its lease: b takes the table over and pauses it.
    a.signal("-STOP");
    let frozen = std::time::Instant::now();
    wait_for(&mut referee, Duration::from_secs(15), paused_for_takeover)
        .await
        .expect("b took the table over and paused it");
    let took = frozen.elapsed();
    assert!(
        took < Duration::from_millis(LEASE_MS * 4),
        "taken over in {took:?}"
    );
    wait_for(&mut referee, Duration::from_secs(5), |v| {
        v["event"]["type"] == "resumed"
    })
    .await
    .expect("the event's policy resumed it");
    let before = stored_moves(&store, 1);

    // The mover's command reaches frozen a; a wakes with it in hand.
    let msg = json!({"v": 2, "type": "command", "id": "late", "table": 1, "command": cmd});
    on_a.send(Message::text(msg.to_string())).await.unwrap();
    a.signal("-CONT");
    let answer = wait_for(&mut on_a, Duration::from_secs(15), |v| v["id"] == "late").await;
    let after = stored_moves(&store, 1);
    match answer.as_ref().map(|v| v["type"].as_str()) {
        // a had already seen it lost the table and forwarded the command to b.
        Some(Some("ack")) => assert_eq!(after, before + 1, "forwarded and stored once"),
        // a still ran its old task: the store refused its append (its fence is old).
        _ => assert_eq!(
            after, before,
            "a wrote nothing after losing the table: {answer:?}"
        ),
    }
    println!("took over in {took:?}; a's late command: {answer:?}");
    check_table(&store, 1, &[], after);
    assert_eq!(
        store
            .leases()
            .unwrap()
            .owner(TableId(1))
            .unwrap()
            .map(|o| o.starts_with("b:")),
        Some(true)
    );
}

#[test]
fn a_node_stopped_with_sigterm_hands_its_tables_over_at_once() {
    let Some((pg, nats)) = services() else { return };
    let fed = Federation::new("nodes-sigterm", 3, pg, nats);
    let store = fed.store();
    let ports = free_ports(2);
    // Long leases: a handover faster than one shows that the stopping node released them.
    let lease = 5_000;
    let a = fed.spawn_leasing("a", &ports[0], lease).ready();
    let b = fed.spawn_leasing("b", &ports[1], lease).ready();
    assert_eq!((a.held, b.held), (3, 0));
    a.signal("-TERM");
    let stopped = std::time::Instant::now();
    let leases = store.leases().unwrap();
    let all_b = || {
        (1..=3).all(|t| {
            leases
                .owner(TableId(t))
                .unwrap()
                .is_some_and(|o| o.starts_with("b:"))
        })
    };
    while !all_b() {
        assert!(
            stopped.elapsed() < Duration::from_millis(lease),
            "b holds every table before a's leases would have run out"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    println!(
        "handed over in {:?} (leases of {lease} ms)",
        stopped.elapsed()
    );
}
