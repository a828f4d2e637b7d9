//! `baoqi bench load` on three nodes, in small: each node reports, and nothing
//! acknowledged is lost, nodes killed or not.

use std::process::{Command, Stdio};

use baoqi_store::PgStore;

use super::services::services;
use crate::common;
use common::BIN;

#[test]
fn bench_load_on_three_nodes_reports_each_node_and_loses_nothing() {
    let Some((pg, nats)) = services() else { return };
    let schema = PgStore::create_schema(&pg).unwrap();
    let db = format!("{pg}?options=-csearch_path%3D{schema}");
    let out = common::baoqi(&[
        "bench",
        "load",
        "--nodes",
        "3",
        "--db",
        &db,
        "--nats",
        &nats,
        "--games",
        "9",
        "--seconds",
        "3",
        "--rate",
        "5",
    ]);
    let _ = PgStore::drop_schema(&pg, &schema);
    println!("{out}");
    assert!(out.contains("server on several nodes"), "{out}");
    for k in 0..3 {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("node {k}: commands handled ")));
        let handled: u64 = line
            .and_then(|l| l.split_whitespace().nth(4))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("node {k}'s line: {out}"));
        assert!(handled > 0, "node {k} held and ran tables: {out}");
    }
    assert!(out.contains("rejected 0,"), "{out}");
    assert!(out.contains("lost 0, reordered 0"), "{out}");
    // The referee's monitor, on one node, sees the moves of tables other nodes hold.
    let monitor = out
        .lines()
        .find(|l| l.starts_with("command → monitor:"))
        .unwrap_or_else(|| panic!("no monitor line: {out}"));
    assert!(!monitor.contains("(0 samples)"), "{monitor}");
}

/// `baoqi bench load --nodes 3 --kill-every S` in small (the figures are the
/// benchmark's, in docs/deployment.md): nodes are killed with SIGKILL during the run and
/// started again, the bots' seats move to the nodes that live, and afterwards every
/// acknowledged command is in the store. Only what cannot vary is asserted: nodes were
/// killed, games moved, nothing acknowledged was lost.
#[test]
fn the_load_bench_kills_nodes_and_nothing_acknowledged_is_lost() {
    let Some((pg, nats)) = services() else { return };
    let schema = PgStore::create_schema(&pg).unwrap();
    let target = format!("{pg}?options=-csearch_path%3D{schema}");
    let out = Command::new(BIN)
        .args([
            "bench", "load", "--nodes", "3", "--db", &target, "--nats", &nats,
        ])
        .args(["--games", "12", "--seconds", "10", "--kill-every", "3"])
        .stderr(Stdio::null())
        .output()
        .expect("run baoqi bench load");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let kills: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("nodes killed: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no kills reported: {text}"));
    assert!(kills >= 2, "{text}");
    assert!(
        text.contains("games moved to another node") && !text.contains("node 0 times"),
        "the killed nodes' seats moved: {text}"
    );
    assert!(
        text.contains("acknowledged commands missing from the store: 0 tables"),
        "{text}"
    );
}
