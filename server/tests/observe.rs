//! What an operator watches: `/healthz`, `/readyz` and `/metrics`, read as his tools read
//! them (the metrics with a parser of Prometheus's text format).

use crate::common;

use baoqi_store::model::Role;
use common::{Client, event_file, start};
use serde_json::json;

/// The sum of a counter over all its labels in a scrape of `/metrics`.
fn counter(scrape: &str, name: &str) -> f64 {
    let lines = scrape.lines().map(|l| Ok(l.to_owned()));
    let parsed = prometheus_parse::Scrape::parse(lines).expect("Prometheus's text format");
    parsed
        .samples
        .iter()
        .filter(|s| s.metric == name)
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum()
}

#[tokio::test]
async fn metrics_count_the_commands_and_say_their_latency_and_the_group_commits() {
    assert!(baoqi_server::observe::prometheus().is_some());
    let s = start(None, Some(&event_file(common::ONE_TABLE))).await;
    let (status, headers, before) = s.get("/metrics", None).await;
    assert_eq!(status, 200);
    assert!(
        headers[axum::http::header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    for i in 0..3 {
        let id = format!("w{i}");
        red.command(&id, json!({"type": "word", "text": "x"})).await;
        red.answer(&id).await;
    }
    let (_, _, after) = s.get("/metrics", None).await;
    let grew = counter(&after, "baoqi_commands_total") - counter(&before, "baoqi_commands_total");
    assert!(grew >= 3.0, "the command counter grew by {grew}:\n{after}");
    assert!(after.contains("baoqi_command_seconds_bucket"), "{after}");
    assert!(after.contains("baoqi_commit_seconds_bucket"), "{after}");
    assert!(after.contains("baoqi_tables_held 1"), "{after}");
}

#[tokio::test]
async fn healthz_says_it_serves_and_readyz_that_its_store_answers() {
    let s = start(None, Some(&event_file(common::ONE_TABLE))).await;
    let (status, _, body) = s.get("/healthz", None).await;
    assert_eq!((status.as_u16(), body.trim()), (200, "ok"));
    let (status, _, body) = s.get("/readyz", None).await;
    assert_eq!(status, 200, "{body}");
    let ready: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(ready["store"], "ok");
    assert_eq!(ready["tables"], 1);
}

/// The value of a gauge with the label `role`, in a scrape of `/metrics` (0 when absent).
fn gauge(scrape: &str, name: &str, role: &str) -> f64 {
    let lines = scrape.lines().map(|l| Ok(l.to_owned()));
    let parsed = prometheus_parse::Scrape::parse(lines).expect("Prometheus's text format");
    parsed
        .samples
        .iter()
        .filter(|s| s.metric == name && s.labels.get("role") == Some(role))
        .map(|s| match s.value {
            prometheus_parse::Value::Gauge(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum()
}

#[tokio::test]
async fn metrics_count_the_seats_connected_and_the_syncs_held_back() {
    assert!(baoqi_server::observe::prometheus().is_some());
    let s = start(None, Some(&event_file(common::ONE_TABLE))).await;
    let table = s.created.tables[0].id;
    let (_, _, before) = s.get("/metrics", None).await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    black.until(|v| v["type"] == "state").await;
    let (_, _, joined) = s.get("/metrics", None).await;
    let seats = |scrape: &str| gauge(scrape, "baoqi_seats_connected", "black");
    assert!(
        seats(&joined) >= seats(&before) + 1.0,
        "black's seat is counted:\n{joined}"
    );
    // Syncs past the connection's budget are held back, and counted.
    let mut limited = 0;
    for _ in 0..20 {
        black
            .send(json!({"v": 2, "type": "sync", "table": table, "since": 0}))
            .await;
        let v = black
            .until(|v| v["type"] == "state" || v["code"] == "rate_limited")
            .await;
        limited += usize::from(v["code"] == "rate_limited");
    }
    let (_, _, synced) = s.get("/metrics", None).await;
    let held =
        counter(&synced, "baoqi_rate_limited_total") - counter(&joined, "baoqi_rate_limited_total");
    assert!(
        limited > 0 && held >= limited as f64,
        "{limited} syncs held back, {held} counted"
    );
    drop(black);
    let mut left = String::new();
    for _ in 0..50 {
        left = s.get("/metrics", None).await.2;
        if seats(&left) < seats(&joined) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        seats(&left) < seats(&joined),
        "black's seat is no longer counted once it left:\n{left}"
    );
}
