//! Where a store lives, as the command line names it (`--db`): a `SQLite` file for one hall
//! (`FILE` or `sqlite:FILE`), or the federation's PostgreSQL database (`postgres://…`).

use std::path::PathBuf;
use std::sync::Arc;

use super::{PgStore, SqliteStore, Store, StoreError, schema};

/// A store's location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A `SQLite` file.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by URL.
    Postgres(String),
}

/// Why a `--db` value names no database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatabaseError {
    /// Nothing was given.
    #[error("no database named: give a file, sqlite:FILE or postgres://USER@HOST:PORT/DB")]
    Empty,
}

impl std::str::FromStr for Database {
    type Err = DatabaseError;

    fn from_str(s: &str) -> Result<Database, DatabaseError> {
        let s = s.trim();
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return Ok(Database::Postgres(s.to_owned()));
        }
        let file = s.strip_prefix("sqlite:").unwrap_or(s);
        if file.is_empty() {
            return Err(DatabaseError::Empty);
        }
        Ok(Database::Sqlite(PathBuf::from(file)))
    }
}

impl std::fmt::Display for Database {
    /// The location, a PostgreSQL password replaced by `***` (it may reach a log).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&redacted(url)),
        }
    }
}

/// `url` with the password of its user info, if any, replaced by `***`.
pub(super) fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

impl Database {
    /// Opens the store (bringing its schema up to date). `durable_power_loss` is the
    /// `SQLite` store's `synchronous=FULL`; PostgreSQL's commits are flushed by the server.
    pub fn open(&self, durable_power_loss: bool) -> Result<Arc<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path, durable_power_loss)?),
            Database::Postgres(url) => Arc::new(PgStore::open(url)?),
        })
    }

    /// `baoqi db migrate`: brings the schema to this code's and returns the migrations
    /// taken now (none when it was up to date); a log of an earlier format is migrated too.
    pub fn migrate(&self) -> Result<schema::Applied, StoreError> {
        let applied = match self {
            Database::Sqlite(path) => schema::sqlite(&mut super::connect(path)?)?,
            Database::Postgres(url) => {
                schema::postgres(&mut postgres::Client::connect(url, postgres::NoTls)?)?
            }
        };
        self.open(false)?;
        Ok(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_db_argument_names_a_file_or_a_postgres_url() {
        let p = |s: &str| s.parse::<Database>();
        assert_eq!(p("hall.db"), Ok(Database::Sqlite("hall.db".into())));
        assert_eq!(
            p("sqlite:/srv/hall.db"),
            Ok(Database::Sqlite("/srv/hall.db".into()))
        );
        assert_eq!(
            p("postgres://baoqi@127.0.0.1:5432/fed"),
            Ok(Database::Postgres(
                "postgres://baoqi@127.0.0.1:5432/fed".into()
            ))
        );
        assert_eq!(p(""), Err(DatabaseError::Empty));
        assert_eq!(p("sqlite:"), Err(DatabaseError::Empty));
    }

    #[test]
    fn a_password_never_reaches_the_printed_location() {
        let db: Database = "postgres://baoqi:s3cret@db.example:5432/fed"
            .parse()
            .unwrap();
        assert_eq!(db.to_string(), "postgres://baoqi:***@db.example:5432/fed");
        let plain: Database = "postgres://baoqi@db/fed".parse().unwrap();
        assert_eq!(plain.to_string(), "postgres://baoqi@db/fed");
    }
}
