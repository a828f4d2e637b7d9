//! Backups of a hall's `SQLite` store while its server runs, and their restoring: `SQLite`'s own
//! online backup (`sqlite3_backup`, through rusqlite) copies the database as one
//! consistent snapshot, taken under a read transaction, so every command acknowledged
//! before the copy began is in it; the copy is checked (`PRAGMA integrity_check`) before
//! it is given its name. A federation's PostgreSQL is backed up with PostgreSQL's own
//! tools (`docs/deployment.md`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};

/// How long a backup waits for the server's writer to let it read.
const BUSY: Duration = Duration::from_secs(10);

/// Why a backup or a restore did not happen. Nothing is left at the target when it fails.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The store to copy is not there.
    #[error("{}: no such store", .0.display())]
    Missing(PathBuf),
    /// The target exists: a backup never overwrites a file.
    #[error("{} exists already: give a new file (nothing was written)", .0.display())]
    Exists(PathBuf),
    /// The copy (or the backup to restore) fails `SQLite`'s integrity check.
    #[error("{}: fails SQLite's integrity check: {verdict}", .path.display())]
    Damaged {
        /// The file checked.
        path: PathBuf,
        /// What the check said.
        verdict: String,
    },
    /// `SQLite` refused.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file system refused.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What a backup or restore copied: the log's entries, the events and tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    /// Entries of the tables' logs.
    pub entries: i64,
    /// Events.
    pub events: i64,
    /// Tables.
    pub tables: i64,
}

/// Copies the store at `from`, which a server may be writing, to the new file `to`.
pub fn backup(from: &Path, to: &Path) -> Result<Copied, BackupError> {
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|_| BackupError::Missing(from.to_owned()))?;
    copy(&source, to)
}

/// Makes `to` (a new file: the server stopped, the damaged file moved away) from the
/// backup `from`, once the backup passes the integrity check.
pub fn restore(from: &Path, to: &Path) -> Result<Copied, BackupError> {
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|_| BackupError::Missing(from.to_owned()))?;
    checked(&source, from)?;
    copy(&source, to)
}

/// Copies `source` into a new file beside `to`, checks it, and gives it its name.
fn copy(source: &Connection, to: &Path) -> Result<Copied, BackupError> {
    if to.exists() {
        return Err(BackupError::Exists(to.to_owned()));
    }
    source.busy_timeout(BUSY)?;
    let partial = to.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let result = (|| {
        let mut target = Connection::open(&partial)?;
        all_at_once(&Backup::new(source, &mut target)?)?;
        checked(&target, to)
    })();
    match result {
        Ok(copied) => {
            std::fs::rename(&partial, to)?;
            Ok(copied)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Copies every page in one step: one read transaction, one consistent snapshot (a copy in
/// several steps would start again at each write of the server). Waits while the server's
/// writer holds the database, up to [`BUSY`].
fn all_at_once(backup: &Backup<'_, '_>) -> Result<(), BackupError> {
    use rusqlite::backup::StepResult;
    let started = std::time::Instant::now();
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More | StepResult::Busy | StepResult::Locked
                if started.elapsed() < BUSY =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                return Err(BackupError::Sqlite(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                    Some("the server kept the database busy".into()),
                )));
            }
        }
    }
}

/// `SQLite`'s integrity check, then what the database holds.
fn checked(db: &Connection, path: &Path) -> Result<Copied, BackupError> {
    let verdict: String = db.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if verdict != "ok" {
        return Err(BackupError::Damaged {
            path: path.to_owned(),
            verdict,
        });
    }
    let count = |table: &str| -> Result<i64, rusqlite::Error> {
        db.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
    };
    Ok(Copied {
        entries: count("log")?,
        events: count("events")?,
        tables: count("tables")?,
    })
}
