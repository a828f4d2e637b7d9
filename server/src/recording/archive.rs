//! Where uploaded recordings are kept: WAV files in a directory beside the `SQLite` database
//! (`<db>.recordings/table-<id>/<n>.wav`) and one row per recording in a `recordings` table
//! of the same database. A recording is written to `incoming/` first, synced, renamed into
//! place, the directory synced, and only then its row committed (`synchronous=FULL`): once
//! the upload is answered 2xx it survives a crash or a power cut. Uploads are versioned,
//! never overwritten: a re-upload of the same game from the same seat gets the next number
//! and becomes the current one, the earlier file stays.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use baoqi_store::model::{Role, TableId};

use super::Side;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS recordings (
    tbl INTEGER NOT NULL, n INTEGER NOT NULL, side TEXT NOT NULL, role TEXT NOT NULL,
    game TEXT NOT NULL, event_log_offset_ms INTEGER NOT NULL,
    started_unix_ms INTEGER NOT NULL, sample_rate INTEGER NOT NULL,
    channels INTEGER NOT NULL, duration_ms INTEGER NOT NULL, bytes INTEGER NOT NULL,
    received_unix_ms INTEGER NOT NULL, PRIMARY KEY (tbl, n));
";

/// A storage failure of the recordings.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// A file could not be written, synced, renamed or read.
    #[error("recording file: {0}")]
    Io(#[from] std::io::Error),
    /// The database refused.
    #[error("recordings table: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// What the uploader says about a recording (its request headers), checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The table.
    pub table: TableId,
    /// The side whose seat (player or proxy) uploaded it.
    pub side: Side,
    /// The uploading seat's role.
    pub role: Role,
    /// The game, as the recorder named it (`X-Baoqi-Game`).
    pub game: String,
    /// Event-log time of the first sample, ms on the game timeline.
    pub event_log_offset_ms: u64,
    /// Wall-clock time of the first sample, ms since the Unix epoch.
    pub started_unix_ms: u64,
    /// Samples per second (checked against the WAV).
    pub sample_rate: u32,
    /// Channels (from the WAV).
    pub channels: u16,
    /// Length of the audio (from the WAV).
    pub duration_ms: u64,
    /// Size of the file.
    pub bytes: u64,
    /// When the server received it, ms since the Unix epoch.
    pub received_unix_ms: u64,
}

/// A stored recording, as the recordings list shows it: the upload's facts, its number and
/// whether it is current.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordingRow {
    /// 1, 2, 3, … within the table: `/api/tables/{table}/recordings/{n}.wav`.
    pub n: u64,
    /// What the uploader said about it, checked (an event logged at `at` is heard at
    /// `at - event_log_offset_ms` into the recording).
    #[serde(flatten)]
    pub upload: Upload,
    /// Whether this is the latest upload of its game from its side (earlier uploads are
    /// kept, not current).
    pub current: bool,
}

/// The recordings of a server: a directory and a table of the database.
pub struct Archive {
    root: PathBuf,
    conn: Mutex<Connection>,
}

/// The recordings directory of a database file: `<db>.recordings` beside it.
pub fn root_of(db: &Path) -> PathBuf {
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
            side: if side == "black" {
                Side::Black
            } else {
                Side::Red
            },
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

impl Archive {
    /// Opens the recordings of the database at `db` (its own connection; the table is
    /// created if missing; the directory only with the first upload). Unfinished uploads
    /// left by a crash are removed: they were never acknowledged.
    pub fn open(db: &Path) -> Result<Archive, ArchiveError> {
        let root = root_of(db);
        if let Ok(left) = std::fs::read_dir(root.join("incoming")) {
            for entry in left.flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        let conn = baoqi_store::connect(db)?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(SCHEMA)?;
        Ok(Archive {
            root,
            conn: Mutex::new(conn),
        })
    }

    fn c(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A fresh temporary path for an upload being received (its directory is created).
    pub fn incoming(&self) -> std::io::Result<PathBuf> {
        let dir = self.root.join("incoming");
        std::fs::create_dir_all(&dir)?;
        let token = baoqi_store::model::Token::generate();
        let name = &token.secret()[..16];
        Ok(dir.join(format!("{name}.part")))
    }

    /// The file of recording `n` of `table`.
    fn path_of(&self, table: TableId, n: u64) -> PathBuf {
        self.root
            .join(format!("table-{table}"))
            .join(format!("{n}.wav"))
    }

    /// Moves a received and synced file into place under the next number of its table and
    /// commits its row; blocking. Numbers are taken under the connection's lock, so two
    /// uploads at once never share one.
    pub fn commit(&self, received: &Path, upload: &Upload) -> Result<RecordingRow, ArchiveError> {
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
                super::side_str(upload.side),
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

    /// The rows of [`SELECT`] followed by `tail` (a filter and an order).
    fn select(
        &self,
        tail: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<RecordingRow>, ArchiveError> {
        let conn = self.c();
        let mut st = conn.prepare(&format!("{SELECT} {tail}"))?;
        let rows = st.query_map(params, row_from)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The bytes of a table's recordings, every upload counted.
    pub fn table_bytes(&self, table: TableId) -> Result<u64, ArchiveError> {
        let bytes: i64 = self.c().query_row(
            "SELECT COALESCE(SUM(bytes), 0) FROM recordings WHERE tbl = ?1",
            params![table.0],
            |r| r.get(0),
        )?;
        Ok(bytes as u64)
    }

    /// The space free for the server on the file system of the recordings (that of the
    /// database beside them).
    pub fn free_bytes(&self) -> std::io::Result<u64> {
        let dir = self.root.parent().unwrap_or(&self.root);
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let s = rustix::fs::statvfs(dir)?;
        Ok(s.f_bavail.saturating_mul(s.f_frsize))
    }

    /// The recordings of a table, by number.
    pub fn list(&self, table: TableId) -> Result<Vec<RecordingRow>, ArchiveError> {
        self.select("WHERE r.tbl = ?1 ORDER BY r.n", params![table.0])
    }

    /// Every recording of every table, by table and number.
    pub fn all(&self) -> Result<Vec<RecordingRow>, ArchiveError> {
        self.select("ORDER BY r.tbl, r.n", [])
    }

    /// Recording `n` of `table`, if there is one.
    pub fn get(&self, table: TableId, n: u64) -> Result<Option<RecordingRow>, ArchiveError> {
        let mut rows = self.select("WHERE r.tbl = ?1 AND r.n = ?2", params![table.0, n as i64])?;
        Ok(rows.pop())
    }

    /// Recording `n` of `table` and its file.
    pub fn file(
        &self,
        table: TableId,
        n: u64,
    ) -> Result<Option<(RecordingRow, PathBuf)>, ArchiveError> {
        Ok(self.get(table, n)?.map(|r| (r, self.path_of(table, n))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(table: TableId, side: Side, game: &str) -> Upload {
        Upload {
            table,
            side,
            role: Role::Red,
            game: game.into(),
            event_log_offset_ms: 1_000,
            started_unix_ms: 1_700_000_000_000,
            sample_rate: 22_050,
            channels: 1,
            duration_ms: 1_500,
            bytes: 3,
            received_unix_ms: 1_700_000_100_000,
        }
    }

    fn received(archive: &Archive, bytes: &[u8]) -> PathBuf {
        let p = archive.incoming().unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn s7p6_recordings_are_numbered_per_table_and_reuploads_keep_the_first() {
        let dir = std::env::temp_dir().join(format!("baoqi-archive-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("a.db");
        let archive = Archive::open(&db).unwrap();
        let first = archive
            .commit(
                &received(&archive, b"one"),
                &upload(TableId(1), Side::Red, "g"),
            )
            .unwrap();
        let second = archive
            .commit(
                &received(&archive, b"two"),
                &upload(TableId(1), Side::Red, "g"),
            )
            .unwrap();
        let other = archive
            .commit(
                &received(&archive, b"abc"),
                &upload(TableId(2), Side::Black, "h"),
            )
            .unwrap();
        assert_eq!((first.n, second.n, other.n), (1, 2, 1));
        let listed = archive.list(TableId(1)).unwrap();
        assert_eq!(
            listed.iter().map(|r| r.current).collect::<Vec<_>>(),
            [false, true]
        );
        let (_, path) = archive.file(TableId(1), 1).unwrap().unwrap();
        assert_eq!(std::fs::read(path).unwrap(), b"one");
        drop(archive);
        let reopened = Archive::open(&db).unwrap();
        assert_eq!(reopened.all().unwrap().len(), 3);
        assert!(reopened.file(TableId(1), 9).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
