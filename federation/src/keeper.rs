//! The node's loops: every [`super::NodeConfig::tick`] it renews its leases and
//! drops the tables it lost (one task, from [`join`]), and follows the tables added to the
//! store, takes its share of the tables nobody holds and reads the revoked seats (another,
//! [`watch`]). When the server stops it gives its leases up ([`give_up_all`]), so that the
//! other nodes need not wait for them to run out.

use std::collections::HashSet;
use std::sync::Arc;

use rand::seq::SliceRandom;

use super::remote::RemoteTable;
use super::takeover::{drop_table, take};
use super::{Node, share};
use baoqi_server::hub::{Hub, StartError};
use baoqi_server::table::TableHandle;
use baoqi_store::lease::Holding;

/// How many tables nobody holds one scan looks at.
const ORPHANS: usize = 10_000;

/// One scan: the tables added to the store are followed (held by another node or by
/// nobody yet), and this node takes its share of those nobody holds. Returns how many it
/// took.
pub async fn scan(hub: &Arc<Hub>, node: &Arc<Node>) -> Result<usize, StartError> {
    let (reader, ttl) = (hub.clone(), node.config().ttl);
    let (rows, orphans, loads) = tokio::task::spawn_blocking(move || {
        let rows = reader.load_new()?;
        let leases = reader.store().leases();
        let orphans = leases.map_or(Ok(Vec::new()), |l| l.orphans(ORPHANS))?;
        let loads = leases.map_or(Ok(Vec::new()), |l| l.loads(ttl))?;
        Ok::<_, baoqi_store::StoreError>((rows, orphans, loads))
    })
    .await??;
    for row in rows {
        let remote = RemoteTable::follow(
            row.clone(),
            node.bus().clone(),
            hub.store().clone(),
            hub.timeline().clone(),
        );
        hub.put(row, TableHandle::remote(remote));
    }
    let mut orphans: Vec<_> = orphans
        .into_iter()
        .filter(|o| hub.table(o.table).is_some_and(|h| !h.is_here()))
        .collect();
    let want = share(&loads, node.id(), node.held().len(), orphans.len());
    // Nodes scanning at once try different tables first.
    orphans.shuffle(&mut rand::rng());
    let mut took = 0;
    for orphan in orphans {
        if took == want {
            break;
        }
        if take(hub, node, orphan).await {
            took += 1;
        }
    }
    Ok(took)
}

/// The tables whose lease a renewal lost: those held, with the same fence, both before the
/// renewal began (`before`) and after it (`now`), that it did not renew. A table taken while
/// the renewal ran (its lease acquired after the renewal's query) is not lost: dropped, its
/// task would be started afterwards all the same by the taking, and would go on answering
/// for a table the node no longer holds.
fn lost(before: &[Holding], renewed: &HashSet<Holding>, now: &HashSet<Holding>) -> Vec<Holding> {
    before
        .iter()
        .filter(|h| !renewed.contains(h) && now.contains(h))
        .copied()
        .collect()
}

/// Renews the node's leases; drops the tables whose lease it lost.
async fn heartbeat(hub: &Arc<Hub>, node: &Arc<Node>) {
    let before = node.held().all();
    let (store, name) = (hub.store().clone(), node.id().to_owned());
    let ttl = node.config().ttl;
    let renewed =
        tokio::task::spawn_blocking(move || store.leases().map(|l| l.heartbeat(&name, ttl)));
    let still: HashSet<Holding> = match renewed.await {
        Ok(Some(Ok(held))) => held.into_iter().collect(),
        Ok(Some(Err(e))) => {
            ::metrics::counter!("baoqi_lease_renewals_total", "outcome" => "failed").increment(1);
            return tracing::error!("renewing the leases: {e}");
        }
        _ => return,
    };
    ::metrics::counter!("baoqi_lease_renewals_total", "outcome" => "renewed").increment(1);
    let now: HashSet<Holding> = node.held().all().into_iter().collect();
    for holding in lost(&before, &still, &now) {
        drop_table(hub, node, holding.table).await;
    }
}

/// A tick every [`super::NodeConfig::tick`]; a late one is not made up for.
fn ticks(node: &Node) -> tokio::time::Interval {
    let mut ticks = tokio::time::interval(node.config().tick());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks
}

/// Starts renewing the node's leases every tick and dropping the tables it lost, until
/// shutdown: a task of its own, so that a long scan (a node taking hundreds of tables)
/// never delays a renewal past the lease.
fn keep_leases(hub: &Arc<Hub>, node: &Arc<Node>) {
    let (hub, node) = (hub.clone(), node.clone());
    let mut shutdown = hub.shutdown_signal();
    let taken = node.lost_rx.lock().ok().and_then(|mut l| l.take());
    let Some(mut lost) = taken else {
        return; // already running
    };
    tokio::spawn(async move {
        let mut ticks = ticks(&node);
        loop {
            tokio::select! {
                _ = shutdown.changed() => return,
                Some(table) = lost.recv() => drop_table(&hub, &node, table).await,
                _ = ticks.tick() => heartbeat(&hub, &node).await,
            }
        }
    });
}

/// Starts the node's scans (tables added, tables nobody holds) and its reading of revoked
/// seats, every tick until shutdown. Its leases are kept by the task [`join`] started.
pub fn watch(hub: &Arc<Hub>, node: &Arc<Node>) {
    let (hub, node) = (hub.clone(), node.clone());
    let mut shutdown = hub.shutdown_signal();
    tokio::spawn(async move {
        let mut ticks = ticks(&node);
        loop {
            tokio::select! {
                _ = shutdown.changed() => return,
                _ = ticks.tick() => {
                    if let Err(e) = scan(&hub, &node).await {
                        tracing::error!("taking tables: {e}");
                    }
                    if let Err(e) = hub.check_revocations().await {
                        tracing::error!("reading revoked seats: {e}");
                    }
                    if let Err(e) = hub.check_recorded().await {
                        tracing::error!("reading the organiser's results: {e}");
                    }
                }
            }
        }
    });
}

/// Releases every lease the node holds (it is shutting down), so that the other nodes take
/// its tables at once instead of after the lease.
pub async fn give_up_all(hub: &Arc<Hub>, node: &Arc<Node>) {
    let (store, held) = (hub.store().clone(), node.held().all());
    let name = node.id().to_owned();
    let _ = tokio::task::spawn_blocking(move || {
        let Some(leases) = store.leases() else { return };
        if let Err(e) = leases.leave(&name) {
            tracing::warn!("leaving the federation: {e}");
        }
        for holding in held {
            if let Err(e) = leases.release(holding) {
                tracing::warn!(table = %holding.table, "lease not released: {e}");
            }
        }
    })
    .await;
}

/// The node's first step: it says it is alive (and keeps its leases from now on), waits a
/// tick so that nodes started together see one another, then takes its share.
pub async fn join(hub: &Arc<Hub>, node: &Arc<Node>) -> Result<usize, StartError> {
    heartbeat(hub, node).await;
    keep_leases(hub, node);
    tokio::time::sleep(node.config().tick()).await;
    scan(hub, node).await
}

#[cfg(test)]
mod tests {
    use super::lost;
    use baoqi_store::lease::{Fence, Holding};
    use baoqi_store::model::TableId;
    use std::collections::HashSet;

    fn h(table: i64, fence: i64) -> Holding {
        Holding {
            table: TableId(table),
            fence: Fence(fence),
        }
    }

    fn set<const N: usize>(holdings: [Holding; N]) -> HashSet<Holding> {
        HashSet::from(holdings)
    }

    #[test]
    fn a_lease_the_renewal_did_not_renew_is_lost() {
        let renewed = HashSet::from([h(1, 1)]);
        assert_eq!(
            lost(&[h(1, 1), h(2, 1)], &renewed, &set([h(1, 1), h(2, 1)])),
            [h(2, 1)]
        );
    }

    #[test]
    fn a_table_taken_while_the_renewal_ran_is_not_lost() {
        // Table 3 was acquired after the renewal's query: it is not among the renewed.
        let renewed = HashSet::from([h(1, 1)]);
        assert!(lost(&[h(1, 1)], &renewed, &set([h(1, 1), h(3, 5)])).is_empty());
    }

    #[test]
    fn a_table_dropped_and_taken_again_meanwhile_keeps_its_new_lease() {
        // Table 2 was lost and taken again (fence 2) while the renewal ran.
        let renewed = HashSet::new();
        assert!(lost(&[h(2, 1)], &renewed, &set([h(2, 2)])).is_empty());
    }
}
