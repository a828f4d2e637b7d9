//! Each event's tables as the connections that follow the event see them (indexed, so that
//! a join reads only the tables its seat covers): the running tables, in order, and the
//! tables set aside (作廢) by a 108 replay, as a watch per event. A seat's tables are read
//! from here without cloning any row; a connection that follows an event hears of every
//! table added (a round paired, a replay) and of every table set aside.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use baoqi_store::model::{EventId, TableId};
use baoqi_tournament::GameResult;
use tokio::sync::watch;

/// An event's tables as listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listed {
    /// The running tables, in order.
    pub running: Arc<[TableId]>,
    /// The tables set aside by a 108 replay, in order: closed, their games no longer count.
    pub set_aside: Arc<[TableId]>,
    /// The organiser's results of the event's tables (an absence, 87; a correction), which
    /// stand over the tables' own.
    pub recorded: Arc<BTreeMap<TableId, GameResult>>,
}

/// Every event's [`Listed`], each as a watch.
#[derive(Debug, Default)]
pub(super) struct Listing(RwLock<HashMap<EventId, watch::Sender<Listed>>>);

/// `ids` with `id` in its place (unchanged when it is there already); none when unchanged.
fn with(ids: &[TableId], id: TableId) -> Option<Arc<[TableId]>> {
    let at = ids.binary_search(&id).err()?;
    let mut grown = ids.to_vec();
    grown.insert(at, id);
    Some(Arc::from(grown))
}

/// The running tables a seat covers: a seat of some tables (a player's, a board referee's)
/// has its own looked up in the sorted `running` list, each in O(log n), so that joining
/// costs what the seat covers, not what the event holds (a join once scanned every table of
/// the event); a seat of the whole event (`seat` empty) covers every running table.
pub fn covered(seat: &[TableId], running: &[TableId]) -> Vec<TableId> {
    if seat.is_empty() {
        return running.to_vec();
    }
    let mut mine: Vec<TableId> = seat
        .iter()
        .copied()
        .filter(|t| running.binary_search(t).is_ok())
        .collect();
    mine.sort_unstable();
    mine.dedup();
    mine
}

impl Listing {
    /// Changes `event`'s list with `change` (which says whether it changed anything), and
    /// tells the connections that follow the event when it did.
    fn update(&self, event: EventId, change: impl FnOnce(&mut Listed) -> bool) {
        let mut map = self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry(event)
            .or_insert_with(|| watch::channel(Listed::default()).0)
            .send_if_modified(change);
    }

    /// Lists table `id` of `event` as running (no change when it is listed already or set
    /// aside).
    pub(super) fn run(&self, event: EventId, id: TableId) {
        self.update(event, |l| {
            if l.set_aside.contains(&id) {
                return false;
            }
            with(&l.running, id).map(|r| l.running = r).is_some()
        });
    }

    /// Lists table `id` of `event` as set aside: no longer running.
    pub(super) fn set_aside(&self, event: EventId, id: TableId) {
        self.update(event, |l| {
            let Some(aside) = with(&l.set_aside, id) else {
                return false;
            };
            l.set_aside = aside;
            l.running = l.running.iter().copied().filter(|&t| t != id).collect();
            true
        });
    }

    /// Sets the organiser's results of `event`'s tables (no change when they are the same).
    pub(super) fn record(&self, event: EventId, recorded: BTreeMap<TableId, GameResult>) {
        self.update(event, |l| {
            if *l.recorded == recorded {
                return false;
            }
            l.recorded = Arc::new(recorded);
            true
        });
    }

    /// `event`'s tables, and a receiver that changes when they do.
    pub(super) fn follow(&self, event: EventId) -> watch::Receiver<Listed> {
        let mut map = self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry(event)
            .or_insert_with(|| watch::channel(Listed::default()).0)
            .subscribe()
    }

    /// `event`'s tables as they are now.
    pub(super) fn now(&self, event: EventId) -> Listed {
        let map = self
            .0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.get(&event)
            .map(|w| w.borrow().clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_of_some_tables_is_looked_up_not_scanned() {
        let running: Vec<TableId> = (1..=10_000).map(TableId).collect();
        assert_eq!(covered(&[TableId(4711)], &running), [TableId(4711)]);
        assert_eq!(
            covered(&[TableId(9), TableId(3), TableId(9)], &running),
            [TableId(3), TableId(9)]
        );
        // A table of his not running (set aside, not yet started) is not his to join.
        assert_eq!(covered(&[TableId(20_000)], &running), Vec::<TableId>::new());
        // A referee or spectator of all tables covers them all.
        assert_eq!(covered(&[], &running).len(), 10_000);
    }

    #[test]
    fn a_table_set_aside_leaves_the_running_list_and_is_never_listed_again() {
        let l = Listing::default();
        let rx = l.follow(EventId(1));
        l.run(EventId(1), TableId(12));
        l.run(EventId(1), TableId(10));
        assert_eq!(&*l.now(EventId(1)).running, &[TableId(10), TableId(12)]);
        l.set_aside(EventId(1), TableId(10));
        l.run(EventId(1), TableId(10));
        let now = rx.borrow().clone();
        assert_eq!(
            (&*now.running, &*now.set_aside),
            (&[TableId(12)][..], &[TableId(10)][..])
        );
    }
}
