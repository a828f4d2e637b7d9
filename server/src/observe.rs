//! What an operator watches: `/healthz` (the process serves), `/readyz` (its store answers,
//! its bus is connected, the tables it holds) and `/metrics` in Prometheus's text format, through the `metrics`
//! crate and its Prometheus exporter (no hand-written format). The counters and histograms
//! are recorded where things happen (commands in `ws::commands`, group commits in the
//! store's writer, seats as they connect and leave, lease renewals in the federation's
//! keeper); the gauges of the moment (tables held) are set when scraped.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use serde_json::json;

use crate::hub::Hub;

/// How long `/readyz` waits for the store before it calls it unreachable.
const STORE_PROBE: Duration = Duration::from_secs(2);

/// Seconds, for the latency histograms: from 0.5 ms to 5 s (a stall of the world shows in
/// the upper buckets, not only in a maximum).
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
];

/// The process's Prometheus recorder, installed at its first use; `None` when another
/// recorder was installed first (then `/metrics` says so).
pub fn prometheus() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets(BUCKETS)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            ::metrics::set_global_recorder(recorder).ok()?;
            Some(handle)
        })
        .as_ref()
}

/// The routes: `/healthz`, `/readyz`, `/metrics`.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .route("/metrics", get(scrape))
}

/// Ready when the store answers within [`STORE_PROBE`] and, on a node of a federation, its
/// bus is connected: a node whose database or bus is away must not be sent players (its
/// commands would be refused, or never reach their table). Says what it checked.
async fn ready(State(hub): State<Arc<Hub>>) -> Response {
    let store = hub.store().clone();
    let probe = tokio::task::spawn_blocking(move || store.timeline().map(|_| ()));
    let store_ok = match tokio::time::timeout(STORE_PROBE, probe).await {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(e))) => Err(e.to_string()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer in {} s", STORE_PROBE.as_secs())),
    };
    // A node whose bus is away cannot reach the tables other nodes hold.
    let bus = hub.member().map(|m| m.bus_connected());
    let body = json!({
        "store": store_ok.as_ref().map_or_else(Clone::clone, |()| "ok".to_owned()),
        "bus": bus.map(|up| if up { "ok" } else { "disconnected" }),
        "tables": hub.table_count(),
        "federated": hub.member().is_some(),
    });
    let status = if store_ok.is_ok() && bus != Some(false) {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, axum::Json(body)).into_response()
}

/// The metrics in Prometheus's text format.
async fn scrape(State(hub): State<Arc<Hub>>) -> Response {
    let Some(handle) = prometheus() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "another metrics recorder is installed in this process\n",
        )
            .into_response();
    };
    ::metrics::gauge!("baoqi_tables_held").set(hub.table_count() as f64);
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}

/// An authenticated connection, counted in `baoqi_seats_connected{role}` while it lives.
pub struct Connected(&'static str);

impl Connected {
    /// Counts a connection of a seat of `role` (`red`, `referee`, …) until dropped.
    pub fn new(role: &'static str) -> Connected {
        ::metrics::gauge!("baoqi_seats_connected", "role" => role).increment(1.0);
        Connected(role)
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        ::metrics::gauge!("baoqi_seats_connected", "role" => self.0).decrement(1.0);
    }
}

/// A connection went over one of its budgets (`messages`, `syncs`): counted in
/// `baoqi_rate_limited_total{what}` (commands over theirs are counted with the commands).
pub fn rate_limited(what: &'static str) {
    ::metrics::counter!("baoqi_rate_limited_total", "what" => what).increment(1);
}

/// A command answered after `took`, with its outcome (`accepted`, `rejected`,
/// `rate_limited`, `refused`) and, when the arbiter rejected it, why (the rejection's
/// `reason` as the protocol names it).
pub fn command(took: Duration, outcome: &'static str, reason: Option<String>) {
    ::metrics::histogram!("baoqi_command_seconds").record(took.as_secs_f64());
    ::metrics::counter!("baoqi_commands_total", "outcome" => outcome).increment(1);
    if let Some(reason) = reason {
        ::metrics::counter!("baoqi_rejections_total", "reason" => reason).increment(1);
    }
}
