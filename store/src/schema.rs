//! Numbered schema migrations of both stores, run by one well-kept runner (refinery): each
//! store keeps in its database which migrations it has taken, and a migration once shipped
//! is never edited (the runner refuses a database whose applied migration differs from the
//! code's). A change to the schema is a new file `V<n+1>__<what>.sql` beside the others, for
//! both databases.
//!
//! The `SQLite` store's first migration is the schema as it stood before migrations were
//! numbered, every statement `IF NOT EXISTS`: a hall's existing file takes it as done.

use refinery::{Migration, Runner};

use super::StoreError;

/// The `SQLite` store's migrations, in order: (name, SQL).
const SQLITE: &[(&str, &str)] = &[(
    "V1__initial",
    include_str!("../migrations/sqlite/V1__initial.sql"),
)];

/// The PostgreSQL store's migrations, in order: (name, SQL).
const POSTGRES: &[(&str, &str)] = &[
    (
        "V1__initial",
        include_str!("../migrations/postgres/V1__initial.sql"),
    ),
    (
        "V2__leases",
        include_str!("../migrations/postgres/V2__leases.sql"),
    ),
    (
        "V3__nodes",
        include_str!("../migrations/postgres/V3__nodes.sql"),
    ),
    (
        "V4__recordings",
        include_str!("../migrations/postgres/V4__recordings.sql"),
    ),
];

/// Migrations whose text changed after they shipped in comments only, as (version, the
/// checksum refinery stored when the old text was applied, the migration's name). Their first
/// comment line named a tracker's number; it was reworded once. A database that took the
/// old text has its recorded checksum moved to the new one before the runner compares them,
/// and only when it matches the old text's exactly: any other difference is still refused.
const REWORDED: &[(i32, u64, &str)] = &[
    (2, 14_919_532_809_422_997_168, "V2__leases"),
    (3, 2_533_923_857_225_223_393, "V3__nodes"),
];

/// A key for PostgreSQL's advisory lock, held while one node migrates: several `baoqi
/// serve` nodes may start together on one database.
const MIGRATION_LOCK: i64 = 0x6261_6f71_6901;

/// The migrations a database took in this run, by name (empty when it was up to date).
pub type Applied = Vec<String>;

fn runner(list: &[(&str, &str)]) -> Result<Runner, StoreError> {
    let migrations = list
        .iter()
        .map(|(name, sql)| Migration::unapplied(name, sql))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| StoreError::Schema(Box::new(e)))?;
    Ok(Runner::new(&migrations))
}

fn names(report: &refinery::Report) -> Applied {
    report
        .applied_migrations()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Brings a `SQLite` database to the current schema.
pub fn sqlite(conn: &mut rusqlite::Connection) -> Result<Applied, StoreError> {
    let report = runner(SQLITE)?
        .run(conn)
        .map_err(|e| StoreError::Schema(Box::new(e)))?;
    Ok(names(&report))
}

/// Brings a PostgreSQL database to the current schema, one node at a time.
pub fn postgres(client: &mut postgres::Client) -> Result<Applied, StoreError> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let outcome = restamp_reworded(client).and_then(|()| {
        runner(POSTGRES)?
            .run(client)
            .map_err(|e| StoreError::Schema(Box::new(e)))
    });
    client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])?;
    Ok(names(&outcome?))
}

/// Moves the recorded checksum of each migration in [`REWORDED`] from its old text's to the
/// current text's, where the database recorded the old one. Refinery's history table is
/// looked up in the current schema (`search_path`) and may not exist yet.
fn restamp_reworded(client: &mut postgres::Client) -> Result<(), StoreError> {
    let history: Option<String> = client
        .query_one("SELECT to_regclass('refinery_schema_history')::text", &[])?
        .get(0);
    if history.is_none() {
        return Ok(());
    }
    for &(version, old, name) in REWORDED {
        let Some((_, sql)) = POSTGRES.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        let now = Migration::unapplied(name, sql)
            .map_err(|e| StoreError::Schema(Box::new(e)))?
            .checksum();
        client.execute(
            "UPDATE refinery_schema_history SET checksum = $1 WHERE version = $2 AND checksum = $3",
            &[&now.to_string(), &version, &old.to_string()],
        )?;
    }
    Ok(())
}

/// The latest migration each store's code knows (what `baoqi db migrate` brings a database
/// to).
pub fn latest() -> (&'static str, &'static str) {
    let last = |l: &[(&'static str, &str)]| l.last().map_or("none", |m| m.0);
    (last(SQLITE), last(POSTGRES))
}
