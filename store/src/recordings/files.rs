//! The `SQLite` store's recordings: WAV files in a directory beside the database
//! (`<db>.recordings/table-<id>/<n>.wav`) and one row per recording in a `recordings` table
//! of the same database. A recording is written to `incoming/` first, synced, renamed into
//! place, the directory synced, and only then its row committed (`synchronous=FULL`): once
//! the upload is answered 2xx it survives a crash or a power cut. Uploads are versioned,
//! never overwritten: a re-upload of the same game from the same seat gets the next number
//! and becomes the current one, the earlier file stays.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::{RecordingRow, Recordings, RecordingsError, Upload, side_of, side_str};
use crate::model::{Role, TableId};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS recordings (
    tbl INTEGER NOT NULL, n INTEGER NOT NULL, side TEXT NOT NULL, role TEXT NOT NULL,
    game TEXT NOT NULL, event_log_offset_ms INTEGER NOT NULL,
    started_unix_ms INTEGER NOT NULL, sample_rate INTEGER NOT NULL,
    channels INTEGER NOT NULL, duration_ms INTEGER NOT NULL, bytes INTEGER NOT NULL,
    received_unix_ms INTEGER NOT NULL, PRIMARY KEY (tbl, n));
";

/// The recordings of a `SQLite` store: a directory beside it and a table of its database.
pub struct FileRecordings {
    root: PathBuf,
    conn: Mutex<Connection>,
}

/// The recordings directory of a database file: `<db>.recordings` beside it.
fn root_of(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".recordings");
    db.with_file_name(name)
}

/// Syncs a directory, so that a rename into it is on disk.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

fn row_from(r: &rusqlite::Row<'_>) -> rusqlite::Result<RecordingRow> {
    let side: String = r.get(2)?;
    let role: String = r.get(3)?;
    Ok(RecordingRow {
        n: r.get::<_, i64>(1)? as u64,
        upload: Upload {
            table: TableId(r.get(0)?),
            side: side_of(&side),
            role: Role::parse(&role).unwrap_or(Role::Red),
            game: r.get(4)?,
            event_log_offset_ms: r.get::<_, i64>(5)? as u64,
            started_unix_ms: r.get::<_, i64>(6)? as u64,
            sample_rate: r.get(7)?,
            channels: r.get(8)?,
            duration_ms: r.get::<_, i64>(9)? as u64,
            bytes: r.get::<_, i64>(10)? as u64,
            received_unix_ms: r.get::<_, i64>(11)? as u64,
        },
        current: r.get::<_, i64>(12)? != 0,
    })
}

/// The columns of a row, `current` computed: no later upload of the same game and side.
const SELECT: &str = "SELECT tbl, n, side, role, game, event_log_offset_ms, started_unix_ms,
    sample_rate, channels, duration_ms, bytes, received_unix_ms,
    NOT EXISTS (SELECT 1 FROM recordings l WHERE l.tbl = r.tbl AND l.side = r.side
                AND l.game = r.game AND l.n > r.n)
    FROM recordings r";

impl FileRecordings {
    /// Opens the recordings of the database at `db` (its own connection; the table is
    /// created if missing; the directory only with the first upload). Unfinished uploads
    /// left by a crash are removed: they were never acknowledged.
    pub fn open(db: &Path) -> Result<FileRecordings, RecordingsError> {
        let root = root_of(db);
        if let Ok(left) = std::fs::read_dir(root.join("incoming")) {
            for entry in left.flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        let conn = crate::connect(db)?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(SCHEMA)?;
        Ok(FileRecordings {
            root,
            conn: Mutex::new(conn),
        })
    }

    fn c(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The file of recording `n` of `table`.
    fn path_of(&self, table: TableId, n: u64) -> PathBuf {
        self.root
            .join(format!("table-{table}"))
            .join(format!("{n}.wav"))
    }

    /// The rows of [`SELECT`] followed by `tail` (a filter and an order).
    fn select(
        &self,
        tail: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<RecordingRow>, RecordingsError> {
        let conn = self.c();
        let mut st = conn.prepare(&format!("{SELECT} {tail}"))?;
        let rows = st.query_map(params, row_from)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl Recordings for FileRecordings {
    /// A fresh temporary path for an upload being received (its directory is created).
    fn incoming(&self) -> std::io::Result<PathBuf> {
        let dir = self.root.join("incoming");
        std::fs::create_dir_all(&dir)?;
        let token = crate::model::Token::generate();
        let name = &token.secret()[..16];
        Ok(dir.join(format!("{name}.part")))
    }

    /// Moves a received and synced file into place under the next number of its table and
    /// commits its row; blocking. Numbers are taken under the connection's lock, so two
    /// uploads at once never share one.
    fn commit(&self, received: &Path, upload: &Upload) -> Result<RecordingRow, RecordingsError> {
        let conn = self.c();
        let last: Option<i64> = conn
            .query_row(
                "SELECT max(n) FROM recordings WHERE tbl = ?1",
                params![upload.table.0],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        let n = last.map_or(1, |l| l as u64 + 1);
        let path = self.path_of(upload.table, n);
        let dir = path.parent().unwrap_or(&self.root).to_path_buf();
        std::fs::create_dir_all(&dir)?;
        std::fs::rename(received, &path)?;
        sync_dir(&dir)?;
        let inserted = conn.execute(
            "INSERT INTO recordings (tbl, n, side, role, game, event_log_offset_ms,
             started_unix_ms, sample_rate, channels, duration_ms, bytes, received_unix_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                upload.table.0,
                n as i64,
                side_str(upload.side),
                upload.role.as_str(),
                upload.game,
                upload.event_log_offset_ms as i64,
                upload.started_unix_ms as i64,
                upload.sample_rate,
                upload.channels,
                upload.duration_ms as i64,
                upload.bytes as i64,
                upload.received_unix_ms as i64
            ],
        );
        if let Err(e) = inserted {
            // No row, no recording: the uploader is told it failed and sends it again.
            let _ = std::fs::remove_file(&path);
            return Err(e.into());
        }
        // The newest upload of its game and side: current.
        Ok(RecordingRow {
            n,
            upload: upload.clone(),
            current: true,
        })
    }

    /// The bytes of a table's recordings, every upload counted.
    fn table_bytes(&self, table: TableId) -> Result<u64, RecordingsError> {
        let bytes: i64 = self.c().query_row(
            "SELECT COALESCE(SUM(bytes), 0) FROM recordings WHERE tbl = ?1",
            params![table.0],
            |r| r.get(0),
        )?;
        Ok(bytes as u64)
    }

    /// The space free for the server on the file system of the recordings (that of the
    /// database beside them).
    fn free_bytes(&self) -> Option<std::io::Result<u64>> {
        let dir = self.root.parent().unwrap_or(&self.root);
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        Some(
            rustix::fs::statvfs(dir)
                .map(|s| s.f_bavail.saturating_mul(s.f_frsize))
                .map_err(std::io::Error::from),
        )
    }

    /// The recordings of a table, by number.
    fn list(&self, table: TableId) -> Result<Vec<RecordingRow>, RecordingsError> {
        self.select("WHERE r.tbl = ?1 ORDER BY r.n", params![table.0])
    }

    /// Every recording of every table, by table and number.
    fn all(&self) -> Result<Vec<RecordingRow>, RecordingsError> {
        self.select("ORDER BY r.tbl, r.n", [])
    }

    /// Recording `n` of `table`, if there is one.
    fn get(&self, table: TableId, n: u64) -> Result<Option<RecordingRow>, RecordingsError> {
        let mut rows = self.select("WHERE r.tbl = ?1 AND r.n = ?2", params![table.0, n as i64])?;
        Ok(rows.pop())
    }

    fn read(
        &self,
        table: TableId,
        n: u64,
        start: u64,
        len: usize,
    ) -> Result<Vec<u8>, RecordingsError> {
        let mut file = std::fs::File::open(self.path_of(table, n))?;
        file.seek(SeekFrom::Start(start))?;
        let mut out = Vec::with_capacity(len);
        file.take(len as u64).read_to_end(&mut out)?;
        Ok(out)
    }
}
