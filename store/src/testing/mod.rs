//! Helpers for the tests of this crate and of the crates above it: a throwaway PostgreSQL
//! schema, and the log a table stores when a list of commands is played on it. Nothing of
//! the product uses them.

use baoqi_arbiter::{Command, Millis};

pub mod walk;

use crate::game::Actor;
use crate::model::{Role, TableRow};
use crate::replay::{Resumed, replay};
use crate::{EntryKind, LogEntry, PgStore};

/// A schema of its own on the test PostgreSQL database (`BAOQI_TEST_POSTGRES`; the test
/// command starts one with `scripts/services.sh` and sets `BAOQI_REQUIRE_POSTGRES`), dropped
/// at the end: many tests share one database.
pub struct PgSchema {
    /// The database's URL.
    pub url: String,
    /// The schema's name.
    pub name: String,
}

impl PgSchema {
    /// A new schema, or `None` (with a note) when no PostgreSQL is configured and none is
    /// required.
    pub fn new() -> Option<PgSchema> {
        let Ok(url) = std::env::var("BAOQI_TEST_POSTGRES") else {
            assert!(
                std::env::var_os("BAOQI_REQUIRE_POSTGRES").is_none(),
                "BAOQI_REQUIRE_POSTGRES is set but BAOQI_TEST_POSTGRES is not: \
                 run `eval \"$(bash scripts/services.sh start)\"`"
            );
            eprintln!("skipped: no BAOQI_TEST_POSTGRES (scripts/services.sh start)");
            return None;
        };
        let name = PgStore::create_schema(&url).expect("a test schema");
        Some(PgSchema { url, name })
    }

    /// A store (a node) on the schema.
    pub fn open(&self) -> PgStore {
        PgStore::open_in(&self.url, Some(&self.name)).expect("the test schema opens")
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let _ = PgStore::drop_schema(&self.url, &self.name);
    }
}

/// The log `table` stores when `steps` (instant, seat, command) are played on it from its
/// creation at 1000 ms, built through the store's own `Game` as the table's task would
/// store them; with the game as it stands after them. Every command must be accepted.
pub fn played_log(
    table: &TableRow,
    steps: impl IntoIterator<Item = (Millis, Role, Command)>,
) -> (Resumed, Vec<LogEntry>) {
    let (mut resumed, mut log) = replay(table, &[], Millis(1_000)).expect("a new match");
    let mut seq: u64 = log.iter().map(|e| e.events.len() as u64).sum();
    for (at, role, command) in steps {
        let actor = Actor::Seat(role);
        let events = resumed
            .game
            .apply(actor, &command, at)
            .expect("every step is accepted");
        seq += events.len() as u64;
        log.push(LogEntry {
            table: table.id,
            index: log.len() as u64,
            at,
            kind: EntryKind::Command,
            actor,
            command: Some(command),
            first_seq: seq + 1 - events.len() as u64,
            events,
        });
    }
    (resumed, log)
}
