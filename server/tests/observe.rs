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
