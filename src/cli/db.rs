//! `baoqi db`: the store itself: bring a database's schema up to date, move a hall's events
//! into the federation's PostgreSQL database, back a hall's file up while it is served and
//! restore it.

use std::path::{Path, PathBuf};

use baoqi_store::backup::{self, BackupError, Copied};
use baoqi_store::copy::copy;
use baoqi_store::{Database, schema};
use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `baoqi db`.
#[derive(Debug, Args)]
pub(crate) struct DbArgs {
    #[command(subcommand)]
    action: DbAction,
}

#[derive(Debug, Subcommand)]
enum DbAction {
    /// Bring a database's schema to this baoqi's (and an old log to the current format);
    /// prints the migrations taken. Every `baoqi serve` does the same when it starts.
    Migrate {
        /// The store: a `SQLite` file (or `sqlite:FILE`), or `postgres://USER@HOST:PORT/DB`.
        #[arg(long)]
        db: Database,
    },
    /// Copy every event of one store (a hall's file) into another (the federation's
    /// database): events and tables get the target's next numbers, seats keep their tokens.
    Copy {
        /// The store to read (left unchanged), e.g. `sqlite:hall.db`.
        #[arg(long)]
        from: Database,
        /// The store to write, e.g. `postgres://baoqi@127.0.0.1:5432/baoqi`.
        #[arg(long)]
        to: Database,
    },
    /// Copy a hall's `SQLite` file to a new file while its server runs (an online
    /// backup: one consistent snapshot, every acknowledged command in it), checked before it
    /// is named. A federation's PostgreSQL: `pg_dump` (docs/deployment.md).
    Backup {
        /// The hall's store (a `SQLite` file).
        #[arg(long)]
        db: Database,
        /// The new file to write (never overwritten).
        #[arg(long)]
        to: PathBuf,
    },
    /// Make a hall's `SQLite` file from a backup, once the backup passes an integrity
    /// check. The server must be stopped and the old file moved away: nothing is overwritten.
    Restore {
        /// The backup to read.
        #[arg(long)]
        from: PathBuf,
        /// The store to make (a new `SQLite` file).
        #[arg(long)]
        db: Database,
    },
}

/// Runs `baoqi db …`.
pub(crate) fn run(args: &DbArgs) -> Result<(), CliError> {
    match &args.action {
        DbAction::Migrate { db } => migrate(db),
        DbAction::Copy { from, to } => copy_between(from, to),
        DbAction::Backup { db, to } => sqlite_only(db).and_then(|file| {
            let copied = backup::backup(file, to).map_err(|e| failed(&e))?;
            println!(
                "{}: backed up to {} ({})",
                file.display(),
                to.display(),
                said(copied)
            );
            Ok(())
        }),
        DbAction::Restore { from, db } => sqlite_only(db).and_then(|file| {
            let copied = backup::restore(from, file).map_err(|e| failed(&e))?;
            println!(
                "{}: restored from {} ({})",
                file.display(),
                from.display(),
                said(copied)
            );
            Ok(())
        }),
    }
}

/// The `SQLite` file of a hall; a federation's database is backed up with its own tools.
fn sqlite_only(db: &Database) -> Result<&Path, CliError> {
    match db {
        Database::Sqlite(path) => Ok(path),
        Database::Postgres(_) => Err(CliError::Usage(format!(
            "{db}: back a federation's PostgreSQL up with pg_dump and restore it with pg_restore (docs/deployment.md)"
        ))),
    }
}

/// A refused backup or restore: a missing store or a target that exists is the user's to
/// put right (exit 2); anything else failed (exit 1).
fn failed(e: &BackupError) -> CliError {
    match e {
        BackupError::Missing(_) | BackupError::Exists(_) => CliError::Usage(e.to_string()),
        _ => CliError::Failed(e.to_string()),
    }
}

/// What a copy holds, in a few words.
fn said(c: Copied) -> String {
    format!(
        "{} events, {} tables, {} log entries; integrity ok",
        c.events, c.tables, c.entries
    )
}

fn migrate(db: &Database) -> Result<(), CliError> {
    let applied = db
        .migrate()
        .map_err(|e| CliError::Failed(format!("{db}: {e}")))?;
    let (sqlite, postgres) = schema::latest();
    let latest = match db {
        Database::Sqlite(_) => sqlite,
        Database::Postgres(_) => postgres,
    };
    if applied.is_empty() {
        println!("{db}: up to date ({latest})");
    } else {
        println!("{db}: took {}; now at {latest}", applied.join(", "));
    }
    Ok(())
}

fn copy_between(from: &Database, to: &Database) -> Result<(), CliError> {
    if from == to {
        return Err(CliError::Usage(format!("--from and --to are both {from}")));
    }
    if let Database::Sqlite(path) = from
        && !path.exists()
    {
        return Err(CliError::Usage(format!("{from}: no such file")));
    }
    let open = |db: &Database| {
        db.open(false)
            .map_err(|e| CliError::Failed(format!("{db}: {e}")))
    };
    let (source, target) = (open(from)?, open(to)?);
    let report = copy(&*source, &*target).map_err(|e| CliError::Failed(e.to_string()))?;
    for (old, new) in &report.events {
        println!("event {old} → event {new}");
    }
    println!(
        "copied {} events, {} tables, {} seats, {} log entries, {} recordings from {from} to {to}",
        report.events.len(),
        report.tables,
        report.seats,
        report.entries,
        report.recordings
    );
    Ok(())
}
