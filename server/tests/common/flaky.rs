//! A store whose appends can be made to fail, as a full disk would.

use std::sync::atomic::{AtomicBool, Ordering};

use baoqi_arbiter::Millis;
use baoqi_store::config::EventSettings;
use baoqi_store::model::{EventId, EventRow, SeatRow, TableId, TableRow};
use baoqi_store::{LogEntry, SqliteStore, Store, StoreError};

/// The `SQLite` store, with appends that fail while `fail` is set.
pub struct Flaky {
    pub inner: SqliteStore,
    pub fail: AtomicBool,
}

impl Store for Flaky {
    fn create_event(&self, name: &str, settings: &EventSettings) -> Result<EventId, StoreError> {
        self.inner.create_event(name, settings)
    }
    fn events(&self) -> Result<Vec<EventRow>, StoreError> {
        self.inner.events()
    }
    fn add_table(&self, t: &TableRow) -> Result<TableId, StoreError> {
        self.inner.add_table(t)
    }
    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError> {
        self.inner.tables(event)
    }
    fn add_seat(&self, s: &SeatRow) -> Result<(), StoreError> {
        self.inner.add_seat(s)
    }
    fn seat(&self, h: &str) -> Result<Option<SeatRow>, StoreError> {
        self.inner.seat(h)
    }
    fn seats(&self, e: EventId) -> Result<Vec<SeatRow>, StoreError> {
        self.inner.seats(e)
    }
    fn revoke(&self, h: &str) -> Result<bool, StoreError> {
        self.inner.revoke(h)
    }
    fn append(&self, entries: &[LogEntry], timeline: Option<Millis>) -> Result<(), StoreError> {
        if !entries.is_empty() && self.fail.load(Ordering::Relaxed) {
            let full = std::io::Error::other("disk full");
            return Err(StoreError::Thread(full));
        }
        self.inner.append(entries, timeline)
    }
    fn log(&self, t: TableId) -> Result<Vec<LogEntry>, StoreError> {
        self.inner.log(t)
    }
    fn timeline(&self) -> Result<Millis, StoreError> {
        self.inner.timeline()
    }
}
