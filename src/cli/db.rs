//! `baoqi db`: the store itself: bring a database's schema up to date, or move a
//! hall's events into the federation's PostgreSQL database.

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
}

/// Runs `baoqi db …`.
pub(crate) fn run(args: &DbArgs) -> Result<(), CliError> {
    match &args.action {
        DbAction::Migrate { db } => migrate(db),
        DbAction::Copy { from, to } => copy_between(from, to),
    }
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
        "copied {} events, {} tables, {} seats, {} log entries from {from} to {to}",
        report.events.len(),
        report.tables,
        report.seats,
        report.entries
    );
    Ok(())
}
