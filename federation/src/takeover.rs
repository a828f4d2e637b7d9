//! Taking a table over: its lease, its match rebuilt from the stored log, a pause at the
//! last instant its old holder is known to have run it, its task, its relay; and dropping a
//! table whose lease the node lost.

use std::sync::Arc;

use super::Node;
use super::relay;
use super::remote::RemoteTable;
use baoqi_server::hub::Hub;
use baoqi_server::table::{self, TableHandle};
use baoqi_store::lease::{Holding, Orphan};
use baoqi_store::model::{TableId, TableRow};
use baoqi_store::replay::Resumed;
use baoqi_store::timeline::Millis;

/// The instant at which a taken-over match is paused: the later of its old holder's last
/// renewal of the lease and the match's last stored step (an old holder may write until
/// its lease runs out). The clocks ran until then, as far as anyone knows; after it, the
/// table had no holder, and that time is charged to nobody. `None`: nothing is known (a
/// table never played and never held).
pub fn last_alive(renewed: Option<Millis>, last_step: Option<Millis>) -> Option<Millis> {
    renewed.max(last_step)
}

/// The instant of a rebuilt match's last stored step.
fn last_step(resumed: &Resumed) -> Option<Millis> {
    resumed.recent.last().map(|(_, at, _)| *at)
}

/// Tries to take `orphan` over; whether this node now holds and runs it.
pub async fn take(hub: &Arc<Hub>, node: &Node, orphan: Orphan) -> bool {
    let Some(row) = hub.table_row(orphan.table) else {
        return false; // not read yet: the next scan
    };
    let Some(holding) = acquire(hub, node, orphan.table).await else {
        return false;
    };
    node.held().insert(holding);
    ::metrics::counter!("baoqi_leases_taken_total").increment(1);
    // The lease's last renewal, on the database server's clock: the nodes' timeline.
    match start(hub, &row, orphan.renewed.map(Millis)).await {
        Ok(handle) => match relay::start(node.bus(), &row, &handle).await {
            Ok(relay) => {
                node.relays().insert(row.id, relay);
                hub.put(row, handle);
                true
            }
            Err(e) => {
                // A table the other nodes' seats cannot reach is given up for another.
                tracing::error!(table = %row.id, "not reachable from other nodes, given up: {e}");
                handle.stop().await;
                give_up(hub, node, holding).await;
                false
            }
        },
        Err(why) => {
            tracing::error!(table = %row.id, "not taken over: {why}");
            give_up(hub, node, holding).await;
            false
        }
    }
}

async fn acquire(hub: &Arc<Hub>, node: &Node, table: TableId) -> Option<Holding> {
    let (store, name) = (hub.store().clone(), node.id().to_owned());
    let ttl = node.config().ttl;
    let acquired =
        tokio::task::spawn_blocking(move || store.leases()?.acquire(table, &name, ttl).ok()?);
    let fence = acquired.await.ok()??;
    Some(Holding { table, fence })
}

async fn give_up(hub: &Arc<Hub>, node: &Node, holding: Holding) {
    node.held().remove(holding.table);
    let store = hub.store().clone();
    let _ = tokio::task::spawn_blocking(move || store.leases().map(|l| l.release(holding))).await;
}

/// Rebuilds the match, pauses it if it was being played, stores that, starts its task.
async fn start(
    hub: &Arc<Hub>,
    row: &TableRow,
    renewed: Option<Millis>,
) -> Result<TableHandle, String> {
    let (store, at_row, now) = (hub.store().clone(), row.clone(), hub.timeline().now());
    let rebuilt =
        tokio::task::spawn_blocking(move || baoqi_store::replay::rebuild(&*store, &at_row, now));
    let (mut resumed, mut to_store) = rebuilt
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    let played = resumed.next_index > 1;
    let paused = match last_alive(renewed, last_step(&resumed)).filter(|_| played) {
        Some(instant) => {
            // Another node's clock may stand a little ahead of this one's.
            tokio::time::sleep_until(hub.timeline().instant_of(instant)).await;
            baoqi_server::restart::pause(&mut resumed, row.id, instant)
        }
        None => None,
    };
    // Paused now or by an earlier takeover whose holder died before resuming it: the
    // event's policy resumes it.
    let policy = resumed
        .game
        .paused_by_restart()
        .then(|| hub.policy(row.event));
    to_store.extend(paused);
    if !to_store.is_empty() {
        hub.writer()
            .append(to_store)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(table::spawn(row.id, resumed, hub.context(row), policy))
}

/// Drops a table this node no longer holds: its relay ends, its connections resync through
/// the new holder, its task ends.
pub async fn drop_table(hub: &Arc<Hub>, node: &Node, table: TableId) {
    node.held().remove(table);
    ::metrics::counter!("baoqi_leases_lost_total").increment(1);
    node.relays().remove(&table);
    let Some(row) = hub.table_row(table) else {
        return;
    };
    let remote = RemoteTable::follow(
        row.clone(),
        node.bus().clone(),
        hub.store().clone(),
        hub.timeline().clone(),
    );
    if let Some(old) = hub.put(row, TableHandle::remote(remote)) {
        old.stop().await;
    }
    tracing::warn!(%table, "lease lost: the table is another node's now");
}
