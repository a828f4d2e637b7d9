//! The PostgreSQL store's recordings: a row per upload and its audio in chunks of
//! [`CHUNK`] bytes, both committed in one transaction (PostgreSQL's default
//! `synchronous_commit = on`: once [`Recordings::commit`] returns, the recording is on the
//! database server's disk). Every node of a federation reads what any node received. The
//! recordings have a connection of their own: a long upload never holds up a table's
//! append or a seat's lookup.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use postgres::Client;
use scheduled_thread_pool::ScheduledThreadPool;

use super::pool::{Pool, Sizing, off_runtime, on, pool};
use crate::model::{Role, TableId};
use crate::recordings::{RecordingRow, Recordings, RecordingsError, Upload, side_of, side_str};

/// The size of a chunk of audio in the database.
const CHUNK: usize = 512 * 1024;

/// A key space for the advisory lock under which a table's next number is taken.
const NUMBERING_LOCK: i64 = 0x7265_6300_0000_0000;

/// An upload left in the incoming directory longer than this was cut off by a crash.
const STALE: Duration = Duration::from_secs(24 * 3600);

/// The recordings of a PostgreSQL store.
pub(super) struct PgRecordings {
    /// Their own connection; `None` only while they are being dropped.
    conn: Option<Pool>,
    incoming: PathBuf,
}

/// The columns of a row, `current` computed: no later upload of the same game and side.
const SELECT: &str = "SELECT tbl, n, side, role, game, event_log_offset_ms, started_unix_ms,
    sample_rate, channels, duration_ms, bytes, received_unix_ms,
    NOT EXISTS (SELECT 1 FROM recordings l WHERE l.tbl = r.tbl AND l.side = r.side
                AND l.game = r.game AND l.n > r.n)
    FROM recordings r";

fn row_from(r: &postgres::Row) -> RecordingRow {
    let side: String = r.get(2);
    let role: String = r.get(3);
    let u = |i: usize| r.get::<_, i64>(i) as u64;
    RecordingRow {
        n: u(1),
        upload: Upload {
            table: TableId(r.get(0)),
            side: side_of(&side),
            role: Role::parse(&role).unwrap_or(Role::Red),
            game: r.get(4),
            event_log_offset_ms: u(5),
            started_unix_ms: u(6),
            sample_rate: u(7) as u32,
            channels: u(8) as u16,
            duration_ms: u(9),
            bytes: u(10),
            received_unix_ms: u(11),
        },
        current: r.get(12),
    }
}

impl PgRecordings {
    /// The recordings of the database at `url` (`schema` first on the search path); the
    /// connection is opened at the first call. Uploads are received in the system's
    /// temporary directory; those a crash left there are removed after a day.
    pub(super) fn new(
        url: &str,
        schema: Option<&str>,
        opener: std::sync::Arc<ScheduledThreadPool>,
    ) -> Result<PgRecordings, RecordingsError> {
        let incoming = std::env::temp_dir().join("baoqi-incoming");
        remove_stale(&incoming);
        let role = Sizing {
            size: 1,
            eager: false,
        };
        let conn = pool::<RecordingsError>(url, schema, &role, opener)?;
        Ok(PgRecordings {
            conn: Some(conn),
            incoming,
        })
    }

    fn on<T: Send>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, RecordingsError> + Send,
    ) -> Result<T, RecordingsError> {
        on(self.conn.as_ref().expect("open until dropped"), f)
    }

    fn select(
        &self,
        tail: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<RecordingRow>, RecordingsError> {
        let sql = format!("{SELECT} {tail}");
        self.on(|c| Ok(c.query(&sql, params)?.iter().map(row_from).collect()))
    }
}

/// Removes the files in `dir` older than [`STALE`].
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|at| now.duration_since(at).unwrap_or_default() > STALE);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Stores the file at `received` as recording `n` of its table, chunk by chunk.
fn insert(
    tx: &mut postgres::Transaction<'_>,
    received: &Path,
    upload: &Upload,
    n: i64,
) -> Result<(), RecordingsError> {
    let i = |v: u64| v as i64;
    tx.execute(
        "INSERT INTO recordings (tbl, n, side, role, game, event_log_offset_ms,
         started_unix_ms, sample_rate, channels, duration_ms, bytes, received_unix_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        &[
            &upload.table.0,
            &n,
            &side_str(upload.side),
            &upload.role.as_str(),
            &upload.game,
            &i(upload.event_log_offset_ms),
            &i(upload.started_unix_ms),
            &i64::from(upload.sample_rate),
            &i64::from(upload.channels),
            &i(upload.duration_ms),
            &i(upload.bytes),
            &i(upload.received_unix_ms),
        ],
    )?;
    let chunk =
        tx.prepare("INSERT INTO recording_chunks (tbl, n, k, data) VALUES ($1, $2, $3, $4)")?;
    let mut file = std::fs::File::open(received)?;
    let mut buf = Vec::with_capacity(CHUNK);
    for k in 0_i64.. {
        buf.clear();
        (&mut file).take(CHUNK as u64).read_to_end(&mut buf)?;
        if buf.is_empty() {
            break;
        }
        tx.execute(&chunk, &[&upload.table.0, &n, &k, &buf])?;
    }
    Ok(())
}

impl Recordings for PgRecordings {
    fn incoming(&self) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.incoming)?;
        let token = crate::model::Token::generate();
        let name = &token.secret()[..16];
        Ok(self.incoming.join(format!("{name}.part")))
    }

    fn commit(&self, received: &Path, upload: &Upload) -> Result<RecordingRow, RecordingsError> {
        let n = self.on(|c| {
            let mut tx = c.transaction()?;
            // Two nodes receiving uploads of one table at once take numbers one after the other.
            tx.execute(
                "SELECT pg_advisory_xact_lock($1)",
                &[&(NUMBERING_LOCK + upload.table.0)],
            )?;
            let last: Option<i64> = tx
                .query_one(
                    "SELECT max(n) FROM recordings WHERE tbl = $1",
                    &[&upload.table.0],
                )?
                .get(0);
            let n = last.unwrap_or(0) + 1;
            insert(&mut tx, received, upload, n)?;
            tx.commit()?;
            Ok(n)
        })?;
        let _ = std::fs::remove_file(received);
        // The newest upload of its game and side: current.
        Ok(RecordingRow {
            n: n as u64,
            upload: upload.clone(),
            current: true,
        })
    }

    fn table_bytes(&self, table: TableId) -> Result<u64, RecordingsError> {
        self.on(|c| {
            let row = c.query_one(
                "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM recordings WHERE tbl = $1",
                &[&table.0],
            )?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    fn free_bytes(&self) -> Option<std::io::Result<u64>> {
        None
    }

    fn list(&self, table: TableId) -> Result<Vec<RecordingRow>, RecordingsError> {
        self.select("WHERE r.tbl = $1 ORDER BY r.n", &[&table.0])
    }

    fn all(&self) -> Result<Vec<RecordingRow>, RecordingsError> {
        self.select("ORDER BY r.tbl, r.n", &[])
    }

    fn get(&self, table: TableId, n: u64) -> Result<Option<RecordingRow>, RecordingsError> {
        let mut rows = self.select("WHERE r.tbl = $1 AND r.n = $2", &[&table.0, &(n as i64)])?;
        Ok(rows.pop())
    }

    fn read(
        &self,
        table: TableId,
        n: u64,
        start: u64,
        len: usize,
    ) -> Result<Vec<u8>, RecordingsError> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let first = start / CHUNK as u64;
        let last = (start + len as u64 - 1) / CHUNK as u64;
        let chunks = self.on(|c| {
            Ok(c.query(
                "SELECT data FROM recording_chunks WHERE tbl = $1 AND n = $2
                 AND k BETWEEN $3 AND $4 ORDER BY k",
                &[&table.0, &(n as i64), &(first as i64), &(last as i64)],
            )?)
        })?;
        let skip = (start - first * CHUNK as u64) as usize;
        let bytes: Vec<u8> = chunks
            .iter()
            .flat_map(|r| r.get::<_, &[u8]>(0).to_vec())
            .skip(skip)
            .take(len)
            .collect();
        Ok(bytes)
    }
}

impl Drop for PgRecordings {
    /// The connection is closed where the blocking client may run.
    fn drop(&mut self) {
        let conn = self.conn.take();
        off_runtime(move || drop(conn));
    }
}
