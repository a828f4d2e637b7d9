//! The PostgreSQL backend: the federation's one database of record, shared by
//! several `baoqi serve` nodes. Same tables and the same promise as the `SQLite` store: an
//! append returns once its transaction is committed (PostgreSQL's default
//! `synchronous_commit = on`: flushed to the server's disk), and a command is acknowledged
//! only after that.
//!
//! The client is PostgreSQL's blocking one (the store trait is blocking), its connections
//! in pools, one per role ([`pool`]): the appends' one, the other writes' one, the lookups'
//! few, the leases' one; as in the `SQLite` store, a seat joining never waits for a group
//! commit.

mod lease;
mod pool;
mod recordings;
mod rows;
mod tournament;
mod writes;

use postgres::{Client, NoTls};

use super::lease::{Holding, Leases};
use super::{LOG_FORMAT, LogEntry, Snapshot, Store, StoreError};
use crate::config::EventSettings;
use crate::model::{EventId, EventRow, SeatRow, TableId, TableRow};
use crate::timeline::Millis;
use crate::wallclock::UnixMillis;
use pool::{Pool, Sizing, lookup, off_runtime, on, pool};
use rows::{entry_params, raw_entry, seat_from, table_from};

/// A store in a PostgreSQL database, named by a URL (`postgres://user@host:port/db`).
pub struct PgStore {
    /// Its pools; `None` only while the store is being dropped.
    pools: Option<Pools>,
    /// The thread on which the pools open their connections (the recordings' pool too).
    opener: std::sync::Arc<scheduled_thread_pool::ScheduledThreadPool>,
    url: String,
    schema: Option<String>,
}

/// A store's pools, one per role.
struct Pools {
    /// The appends' connection (the group commits of [`crate::Writer`]): one, so that they
    /// are committed in order, and theirs alone, so that an append never waits for a
    /// connection that another write holds.
    append: Pool,
    /// The other writes' (an event's creation, a snapshot, the organiser's records).
    write: Pool,
    /// The lookups' connections (a seat joining, a rebuild), opened as calls need them.
    read: Pool,
    /// The leases' own connection, opened at their first use: a node's renewals
    /// must not wait behind the group commits of a busy writer, or its leases run out under
    /// load and its tables change hands for nothing.
    lease: Pool,
}

/// The most lookups' connections a store opens.
const LOOKUPS: u32 = 4;

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("url", &super::database::redacted(&self.url))
            .finish_non_exhaustive()
    }
}

/// Runs one batch of SQL on a connection of its own.
fn execute_once(url: &str, sql: &str) -> Result<(), StoreError> {
    off_runtime(|| Ok(Client::connect(url, NoTls)?.batch_execute(sql)?))
}

impl PgStore {
    /// Connects to the database at `url`, brings its schema to this code's ([`super::schema`])
    /// and checks the log format.
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        Self::open_in(url, None)
    }

    /// [`PgStore::open`] with every table in `schema` (which must exist; tests give each
    /// store a schema of their own on one database, see [`PgStore::create_schema`]).
    pub fn open_in(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let opener = pool::opener();
        let role =
            |size, eager| pool::<StoreError>(url, schema, &Sizing { size, eager }, opener.clone());
        let append = role(1, true)?;
        on(&append, super::schema::postgres)?;
        let pools = Pools {
            append,
            write: role(1, false)?,
            read: role(LOOKUPS, true)?,
            lease: role(1, false)?,
        };
        let store = PgStore {
            pools: Some(pools),
            opener,
            url: url.to_owned(),
            schema: schema.map(str::to_owned),
        };
        match store.format()? {
            LOG_FORMAT => Ok(store),
            found => Err(StoreError::NewerFormat { found }),
        }
    }

    /// Creates a new, empty schema with a unique name and returns the name (tests: many
    /// stores at once on one database). [`PgStore::drop_schema`] removes it.
    pub fn create_schema(url: &str) -> Result<String, StoreError> {
        let token = crate::model::Token::generate();
        let suffix: String = token
            .secret()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(12)
            .collect();
        let name = format!("t_{}_{}", std::process::id(), suffix.to_ascii_lowercase());
        execute_once(url, &format!("CREATE SCHEMA {name}"))?;
        Ok(name)
    }

    /// Drops a schema made by [`PgStore::create_schema`] and everything in it.
    pub fn drop_schema(url: &str, name: &str) -> Result<(), StoreError> {
        execute_once(url, &format!("DROP SCHEMA {name} CASCADE"))
    }

    /// The URL it was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The recorded log format; a new database records the current one. (A PostgreSQL store
    /// is never of format 1: the federation's store came after the typed protocol.)
    fn format(&self) -> Result<i64, StoreError> {
        self.w(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('log_format', $1) ON CONFLICT DO NOTHING",
                &[&LOG_FORMAT],
            )?;
            let row = c.query_one("SELECT value FROM meta WHERE key = 'log_format'", &[])?;
            Ok(row.get(0))
        })
    }

    fn pools(&self) -> &Pools {
        self.pools
            .as_ref()
            .expect("the pools live as long as their store")
    }

    /// Runs `f` on the appends' connection.
    fn a<T: Send>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        on(&self.pools().append, f)
    }

    /// Runs `f` on the other writes' connection.
    fn w<T: Send>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        on(&self.pools().write, f)
    }

    /// Runs `f` on the leases' connection.
    fn l<T: Send>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        on(&self.pools().lease, f)
    }

    /// Runs the lookup `f` on a lookups' connection; made again on another when the one it
    /// met had been closed by the server while idle.
    fn r<T: Send>(
        &self,
        f: impl Fn(&mut Client) -> Result<T, StoreError> + Send + Sync,
    ) -> Result<T, StoreError> {
        lookup(&self.pools().read, LOOKUPS + 1, f)
    }
}

impl Drop for PgStore {
    /// The connections are closed where the blocking client may run (`off_runtime`).
    fn drop(&mut self) {
        let pools = self.pools.take();
        off_runtime(move || drop(pools));
    }
}

const TABLE_COLUMNS: &str = "id, event, round, name, red, black, config";
const SEAT_COLUMNS: &str = "token_hash, event, role, name, tables, revoked";

/// Inserts log entries and moves the timeline mark up, within a transaction.
fn write_entries(
    tx: &mut postgres::Transaction<'_>,
    entries: &[LogEntry],
    timeline: Option<Millis>,
) -> Result<(), StoreError> {
    let insert = tx.prepare(
        "INSERT INTO log (tbl, idx, at, kind, actor, command, first_seq, events)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )?;
    for e in entries {
        let p = entry_params(e)?;
        tx.execute(&insert, &p.as_params())?;
    }
    if let Some(t) = timeline {
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('timeline', $1)
             ON CONFLICT (key) DO UPDATE SET value = GREATEST(meta.value, excluded.value)",
            &[&(t.0 as i64)],
        )?;
    }
    Ok(())
}

impl Store for PgStore {
    fn create_event(&self, name: &str, settings: &EventSettings) -> Result<EventId, StoreError> {
        self.w(|c| writes::insert_event(c, name, settings))
    }

    fn events(&self) -> Result<Vec<EventRow>, StoreError> {
        let rows =
            self.r(|c| Ok(c.query("SELECT id, name, settings FROM events ORDER BY id", &[])?))?;
        rows.iter()
            .map(|r| {
                let id = EventId(r.get(0));
                Ok(EventRow {
                    id,
                    name: r.get(1),
                    settings: rows::column(r.get(2), "the settings of event", id.0)?,
                })
            })
            .collect()
    }

    fn add_table(&self, t: &TableRow) -> Result<TableId, StoreError> {
        self.w(|c| writes::insert_table(c, t))
    }

    fn tables(&self, event: Option<EventId>) -> Result<Vec<TableRow>, StoreError> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE $1::BIGINT IS NULL OR event = $1 ORDER BY id"
        );
        let rows = self.r(|c| Ok(c.query(&sql, &[&event.map(|e| e.0)])?))?;
        rows.iter().map(table_from).collect()
    }

    fn tables_after(&self, after: TableId) -> Result<Vec<TableRow>, StoreError> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM tables WHERE id > $1 ORDER BY id");
        let rows = self.r(|c| Ok(c.query(&sql, &[&after.0])?))?;
        rows.iter().map(table_from).collect()
    }

    fn add_seat(&self, s: &SeatRow) -> Result<(), StoreError> {
        self.w(|c| writes::insert_seat(c, s))
    }

    fn seat(&self, token_hash: &str) -> Result<Option<SeatRow>, StoreError> {
        let sql = format!("SELECT {SEAT_COLUMNS} FROM seats WHERE token_hash = $1");
        let row = self.r(|c| Ok(c.query_opt(&sql, &[&token_hash])?))?;
        row.as_ref().map(seat_from).transpose()
    }

    fn seats(&self, event: EventId) -> Result<Vec<SeatRow>, StoreError> {
        let sql = format!("SELECT {SEAT_COLUMNS} FROM seats WHERE event = $1 ORDER BY added");
        let rows = self.r(|c| Ok(c.query(&sql, &[&event.0])?))?;
        rows.iter().map(seat_from).collect()
    }

    fn revoked(&self) -> Result<std::collections::HashSet<String>, StoreError> {
        let rows = self.r(|c| Ok(c.query("SELECT token_hash FROM seats WHERE revoked", &[])?))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn revoke(&self, token_hash: &str) -> Result<bool, StoreError> {
        let n = self.w(|c| {
            Ok(c.execute(
                "UPDATE seats SET revoked = TRUE WHERE token_hash = $1",
                &[&token_hash],
            )?)
        })?;
        Ok(n > 0)
    }

    fn append(&self, entries: &[LogEntry], timeline: Option<Millis>) -> Result<(), StoreError> {
        self.a(|c| {
            let mut tx = c.transaction()?;
            write_entries(&mut tx, entries, timeline)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn append_fenced(
        &self,
        entries: &[LogEntry],
        holdings: &[Holding],
        timeline: Option<Millis>,
    ) -> Result<(), StoreError> {
        self.a(|c| {
            let mut tx = c.transaction()?;
            lease::check(&mut tx, entries, holdings)?;
            write_entries(&mut tx, entries, timeline)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn leases(&self) -> Option<&dyn Leases> {
        Some(self)
    }

    fn recordings(
        &self,
    ) -> Result<std::sync::Arc<dyn crate::recordings::Recordings>, crate::recordings::RecordingsError>
    {
        let recordings =
            recordings::PgRecordings::new(&self.url, self.schema.as_deref(), self.opener.clone())?;
        Ok(std::sync::Arc::new(recordings))
    }

    fn log(&self, table: TableId) -> Result<Vec<LogEntry>, StoreError> {
        self.log_from(table, 0)
    }

    fn log_from(&self, table: TableId, from: u64) -> Result<Vec<LogEntry>, StoreError> {
        let rows = self.r(|c| {
            Ok(c.query(
                "SELECT idx, at, kind, actor, command, first_seq, events FROM log
             WHERE tbl = $1 AND idx >= $2 ORDER BY idx",
                &[&table.0, &(from as i64)],
            )?)
        })?;
        rows.iter().map(|r| raw_entry(r).typed(table)).collect()
    }

    fn entry_of_seq(&self, table: TableId, seq: u64) -> Result<u64, StoreError> {
        let row = self.r(|c| {
            Ok(c.query_one(
                "SELECT COALESCE(MAX(idx), 0) FROM log WHERE tbl = $1 AND first_seq <= $2",
                &[&table.0, &(seq as i64)],
            )?)
        })?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn timeline(&self) -> Result<Millis, StoreError> {
        let row =
            self.r(|c| Ok(c.query_opt("SELECT value FROM meta WHERE key = 'timeline'", &[])?))?;
        Ok(Millis(row.map_or(0, |r| r.get::<_, i64>(0)) as u64))
    }

    fn mark_wall_clock(&self, at: Millis, wall: UnixMillis) -> Result<(), StoreError> {
        self.w(|c| {
            Ok(c.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&format!("wall:{}", at.0), &(wall as i64)],
            )?)
        })?;
        Ok(())
    }

    fn wall_clock_marks(&self) -> Result<Vec<(Millis, UnixMillis)>, StoreError> {
        let rows =
            self.r(|c| Ok(c.query("SELECT key, value FROM meta WHERE key LIKE 'wall:%'", &[])?))?;
        let mut out: Vec<(Millis, UnixMillis)> = rows
            .iter()
            .filter_map(|r| {
                let key: String = r.get(0);
                let at = key.strip_prefix("wall:")?.parse().ok()?;
                Some((Millis(at), r.get::<_, i64>(1) as UnixMillis))
            })
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    fn put_snapshot(&self, s: &Snapshot) -> Result<(), StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO snapshots (tbl, idx, format, state) VALUES ($1, $2, $3, $4)
             ON CONFLICT (tbl, idx) DO UPDATE SET format = excluded.format, state = excluded.state",
                &[
                    &s.table.0,
                    &(s.index as i64),
                    &i64::from(s.format),
                    &s.state,
                ],
            )?;
            tx.execute(
                "DELETE FROM snapshots WHERE tbl = $1 AND idx < $2",
                &[&s.table.0, &(s.index as i64)],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    fn snapshot(&self, table: TableId) -> Result<Option<Snapshot>, StoreError> {
        let row = self.r(|c| {
            Ok(c.query_opt(
                "SELECT idx, format, state FROM snapshots WHERE tbl = $1 ORDER BY idx DESC LIMIT 1",
                &[&table.0],
            )?)
        })?;
        Ok(row.map(|r| Snapshot {
            table,
            index: r.get::<_, i64>(0) as u64,
            format: r.get::<_, i64>(1) as u32,
            state: r.get(2),
        }))
    }

    fn tournaments(&self) -> Option<&dyn super::TournamentStore> {
        Some(self)
    }
}
