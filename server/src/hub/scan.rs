//! The hub's watch on the store: the tables to start (at start, and those added while the
//! server runs), the seats revoked, the tables set aside by a 108 replay, and the results
//! the organiser entered.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use baoqi_store::StoreError;
use baoqi_store::model::{EventId, TableId, TableRow};
use baoqi_store::replay::rebuild;
use tokio::sync::watch;

use super::{Aside, Hub, ScanError, StartError, TABLE_SCAN};
use crate::table;

impl Hub {
    /// Starts every table of the store not yet running: played matches are rebuilt from
    /// their logs (and, when `restart` is true, paused by the restart policy at the last
    /// instant the store recorded, [`crate::restart`]), new ones are created. The timeline,
    /// held since [`Hub::open`], runs once these steps are stored. Must run inside a tokio
    /// runtime. Returns how many were started; a table that cannot be rebuilt is logged and
    /// left out.
    pub async fn start_tables(self: &Arc<Self>, restart: bool) -> Result<usize, StartError> {
        let started = self.start_new(restart).await?;
        self.close_set_aside().await?;
        Ok(started)
    }

    pub(super) async fn start_new(self: &Arc<Self>, restart: bool) -> Result<usize, StartError> {
        if let Some(member) = &self.member {
            return member.scan(self).await;
        }
        let hub = self.clone();
        let now = self.timeline.now();
        // Reading and replaying is blocking work: off the async workers.
        let rebuilt = tokio::task::spawn_blocking(move || {
            let rows = hub.load_new()?;
            Ok::<_, StoreError>(
                rows.into_iter()
                    .map(|row| (rebuild(&*hub.store, &row, now), row))
                    .collect::<Vec<_>>(),
            )
        })
        .await??;
        let mut to_store = Vec::new();
        let mut ready = Vec::new();
        for (result, row) in rebuilt {
            match result {
                Ok((mut resumed, first)) => {
                    to_store.extend(first);
                    let played = resumed.next_index > 1;
                    let paused = (restart && played)
                        .then(|| crate::restart::pause(&mut resumed, row.id, self.last_stored))
                        .flatten();
                    // Paused now, or by an earlier restart and never resumed.
                    let policy = resumed
                        .game
                        .paused_by_restart()
                        .then(|| self.policy(row.event));
                    to_store.extend(paused);
                    ready.push((row, resumed, policy));
                }
                // One table that cannot be rebuilt must not keep the others from running;
                // the next scan tries it again.
                Err(e) => {
                    tracing::error!(table = %row.id, "not started: {e}");
                    self.scan_failed(row.id, true);
                }
            }
        }
        if !to_store.is_empty() {
            self.writer.append(to_store).await?;
        }
        self.timeline.release();
        let started = ready.len();
        for (row, resumed, policy) in ready {
            self.scan_failed(row.id, false);
            let handle = table::spawn(row.id, resumed, self.context(&row), policy);
            let (event, id) = (row.event, row.id);
            self.write_tables().insert(id, (row, handle));
            // Listed once it runs: whoever follows the event joins it at once.
            self.list(event, id);
        }
        Ok(started)
    }

    /// Notes whether a table failed to start (to be retried) or started.
    pub(super) fn scan_failed(&self, table: TableId, failed: bool) {
        let mut scan = self
            .scan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if failed {
            scan.failed.insert(table);
        } else {
            scan.failed.remove(&table);
        }
    }

    /// The tables of the store not yet running (and every event, remembered).
    pub fn load_new(&self) -> Result<Vec<TableRow>, StoreError> {
        let events = self.store.events()?;
        {
            let mut map = self
                .events
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for e in events {
                map.insert(e.id, e);
            }
        }
        // Tables are numbered in the order they are added: the new ones are above the highest
        // read so far; those that could not be started are read again, to be retried.
        let (high, retry) = {
            let scan = self
                .scan
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (scan.high, scan.failed.clone())
        };
        // The store reads the tables above `from`: just below the lowest to retry.
        let from = retry
            .first()
            .map_or(high, |lowest| high.min(TableId(lowest.0 - 1)));
        self.refresh_aside()?;
        let aside = self.lock_aside().tables.clone();
        let mut rows = self.store.tables_after(from)?;
        let mut scan = self
            .scan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        scan.high = rows.iter().map(|r| r.id).max().unwrap_or(high).max(high);
        // A table set aside (作廢, 108) is never started: its clocks stay as they stopped.
        rows.retain(|r| !aside.contains_key(&r.id));
        let running = self.read_tables();
        Ok(rows
            .into_iter()
            .filter(|r| (r.id > high || retry.contains(&r.id)) && !running.contains_key(&r.id))
            .collect())
    }

    /// Reads which seats are revoked (`baoqi event revoke` writes the store from another
    /// process) and tells the connections, which close those seats' sessions.
    /// Returns whether they changed: a 108 replay revokes the seats of the table it sets
    /// aside, so the tables set aside are then read again at the next [`Hub::start_tables`].
    pub async fn check_revocations(&self) -> Result<bool, ScanError> {
        let store = self.store.clone();
        let revoked = tokio::task::spawn_blocking(move || store.revoked()).await??;
        let changed = self.revoked.send_if_modified(|now| {
            let changed = **now != revoked;
            if changed {
                *now = Arc::new(revoked);
            }
            changed
        });
        if changed {
            self.lock_aside().stale = true;
        }
        Ok(changed)
    }

    /// The revoked seats' token hashes, updated by [`Hub::check_revocations`].
    pub fn revocations(&self) -> watch::Receiver<Arc<HashSet<String>>> {
        self.revoked.subscribe()
    }

    /// Keeps starting tables added to the store and closing revoked seats' sessions, every
    /// [`TABLE_SCAN`], until shutdown.
    pub fn watch_store(self: &Arc<Self>) {
        if let Some(member) = &self.member {
            member.watch(self);
            return;
        }
        let hub = self.clone();
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = shutdown.changed() => return,
                    () = tokio::time::sleep(TABLE_SCAN) => {
                        if let Err(e) = hub.start_tables(false).await {
                            tracing::error!("starting new tables: {e}");
                        }
                        match hub.check_revocations().await {
                            // Seats revoked by a replay: its table set aside at once.
                            Ok(true) => {
                                if let Err(e) = hub.start_tables(false).await {
                                    tracing::error!("closing tables set aside: {e}");
                                }
                            }
                            Ok(false) => {}
                            Err(e) => tracing::error!("reading revoked seats: {e}"),
                        }
                        if let Err(e) = hub.check_recorded().await {
                            tracing::error!("reading the organiser's results: {e}");
                        }
                    }
                }
            }
        });
    }

    pub(super) fn lock_aside(&self) -> std::sync::MutexGuard<'_, Aside> {
        self.aside
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads the tables set aside from the store when they may have changed (blocking).
    pub(super) fn refresh_aside(&self) -> Result<(), StoreError> {
        if !self.lock_aside().stale {
            return Ok(());
        }
        let mut tables = HashMap::new();
        for event in self.store.events()? {
            for t in baoqi_organiser::changelog::set_aside(&*self.store, event.id)? {
                tables.insert(t, event.id);
            }
        }
        let mut aside = self.lock_aside();
        aside.tables = tables;
        aside.stale = false;
        Ok(())
    }

    /// Reads the organiser's results of every tournament's tables from the store (`baoqi
    /// round result` writes them from another process, the organiser page through this
    /// server) and tells the connections that follow an event when they changed.
    pub async fn check_recorded(&self) -> Result<(), ScanError> {
        let store = self.store.clone();
        let events: Vec<EventId> = self.events().iter().map(|e| e.id).collect();
        let read = tokio::task::spawn_blocking(move || {
            let Some(records) = store.tournaments() else {
                return Ok(Vec::new());
            };
            events
                .into_iter()
                .map(|event| {
                    let rows = records.pairings(event)?;
                    let recorded = rows
                        .iter()
                        .filter_map(|r| Some((r.table?, r.result?)))
                        .collect::<std::collections::BTreeMap<_, _>>();
                    Ok((event, recorded))
                })
                .collect::<Result<Vec<_>, StoreError>>()
        })
        .await??;
        for (event, recorded) in read {
            self.listed.record(event, recorded);
        }
        Ok(())
    }

    /// Closes the tables set aside by a 108 replay (作廢): each running one's task ends,
    /// its clocks stopped where they stood and no call raised any more; it leaves the
    /// running tables (exports, results) and the connections that follow its event are
    /// told. Its log stays in the store, for the record.
    pub(super) async fn close_set_aside(self: &Arc<Self>) -> Result<(), StartError> {
        let hub = self.clone();
        tokio::task::spawn_blocking(move || hub.refresh_aside()).await??;
        let aside = self.lock_aside().tables.clone();
        for (id, event) in aside {
            self.listed.set_aside(event, id);
            let removed = self.write_tables().remove(&id);
            if let Some((_, handle)) = removed {
                tracing::info!(table = %id, "set aside (108): closed");
                handle.stop().await;
            }
        }
        Ok(())
    }
}
