//! The organiser's actions on a database from the command line, whether or not a server is
//! running on it (a hall's `SQLite` file, made when missing, or the federation's PostgreSQL,
//! which running nodes may share; new tables start within seconds): `baoqi event
//! create|revoke`, `baoqi table add`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use baoqi_arbiter::MatchConfig;
use baoqi_store::config::{EventFile, EventFileError, TableSpec, check_url};
use baoqi_store::model::EventId;
use baoqi_store::{Database, Store, StoreError};

use crate::admin::{self, AdminError};

/// Why an organiser's command failed.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The event file is not usable.
    #[error("{path}: {source}")]
    EventFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: EventFileError,
    },
    /// A match configuration file is not usable.
    #[error("{path}: {source}")]
    MatchFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: toml::de::Error,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An organiser action failed.
    #[error(transparent)]
    Admin(#[from] AdminError),
    /// There is no such event.
    #[error("there is no event {0}")]
    NoEvent(EventId),
    /// The event's links cannot be made.
    #[error(transparent)]
    Links(#[from] crate::links::LinkError),
}

/// The store of an offline command: a hall's `SQLite` file (made when missing) or the
/// federation's PostgreSQL, which running nodes may share.
fn open(db: &Database) -> Result<Arc<dyn Store>, OfflineError> {
    Ok(db.open(false)?)
}

fn read(path: &Path) -> Result<String, OfflineError> {
    std::fs::read_to_string(path).map_err(|source| OfflineError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// `baoqi event create`: creates the event of a TOML file; returns the seats' listing. The
/// address given (`url`) is kept with the event, so later commands make links on it; without
/// one, the file's `settings.url`, else [`crate::links::DEFAULT_URL`].
pub fn create_event(
    db: &Database,
    config: &Path,
    url: Option<&str>,
) -> Result<String, OfflineError> {
    let (mut file, tournament) =
        EventFile::with_tournament(&read(config)?).map_err(|source| OfflineError::EventFile {
            path: config.to_path_buf(),
            source,
        })?;
    if let Some(url) = url {
        check_url(url).map_err(|source| OfflineError::EventFile {
            path: config.to_path_buf(),
            source,
        })?;
        file.settings.url = Some(url.to_string());
    }
    let base = file
        .settings
        .url
        .clone()
        .unwrap_or_else(|| crate::links::DEFAULT_URL.to_string());
    let store = open(db)?;
    let created = match &tournament {
        Some(t) => admin::create_tournament(&*store, &file, t)?,
        None => admin::create_event(&*store, &file)?,
    };
    Ok(admin::describe(&created, &base))
}

/// `baoqi table add`: adds a table and its seats; returns the seats' listing, its links on
/// `url`, else the event's address.
pub fn add_table(
    db: &Database,
    event: EventId,
    spec: &TableSpec,
    url: Option<&str>,
) -> Result<String, OfflineError> {
    let store = open(db)?;
    let ev = store
        .events()?
        .into_iter()
        .find(|e| e.id == event)
        .ok_or(OfflineError::NoEvent(event))?;
    let base = crate::links::base(&*store, event, url)?;
    let (row, seats) = admin::add_table(&*store, event, spec)?;
    let created = admin::Created {
        event,
        name: ev.name,
        tables: vec![row],
        seats,
    };
    Ok(admin::describe(&created, &base))
}

/// `baoqi event revoke`: revokes the seat holding a token.
pub fn revoke(db: &Database, token: &str) -> Result<bool, OfflineError> {
    Ok(admin::revoke(&*open(db)?, token)?)
}

/// Reads a match configuration (the arbiter's `MatchConfig`) from a TOML file.
pub fn match_config_from_toml(path: &Path) -> Result<MatchConfig, OfflineError> {
    MatchConfig::from_toml(&read(path)?).map_err(|source| OfflineError::MatchFile {
        path: path.to_path_buf(),
        source,
    })
}
