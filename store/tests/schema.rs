//! A federation database that took a migration's text before one of its comments was
//! reworded still opens: the runner's recorded checksum of the old text is moved to the new
//! text's. Any other difference from the code's migrations is still refused, so a database
//! whose history was changed by hand never starts. Skipped (with a note) when no PostgreSQL
//! is configured; the test command requires one.

use baoqi_store::testing::PgSchema;
use baoqi_store::{PgStore, StoreError};

/// The checksum refinery recorded for `V2__leases` as first shipped (its first comment line
/// then named a tracker's number).
const V2_AS_SHIPPED: &str = "14919532809422997168";

fn history(schema: &PgSchema) -> postgres::Client {
    let mut c = postgres::Client::connect(&schema.url, postgres::NoTls).unwrap();
    c.batch_execute(&format!("SET search_path TO {}", schema.name))
        .unwrap();
    c
}

fn checksum(c: &mut postgres::Client, version: i32) -> String {
    c.query_one(
        "SELECT checksum FROM refinery_schema_history WHERE version = $1",
        &[&version],
    )
    .unwrap()
    .get(0)
}

#[test]
fn a_database_migrated_with_the_old_comment_opens_and_is_restamped() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    drop(schema.open());
    let mut c = history(&schema);
    let current = checksum(&mut c, 2);
    assert_ne!(current, V2_AS_SHIPPED, "the comment was reworded");
    c.execute(
        "UPDATE refinery_schema_history SET checksum = $1 WHERE version = 2",
        &[&V2_AS_SHIPPED],
    )
    .unwrap();
    PgStore::open_in(&schema.url, Some(&schema.name)).expect("the old database opens");
    assert_eq!(
        checksum(&mut c, 2),
        current,
        "restamped to the current text"
    );
}

#[test]
fn a_migration_changed_otherwise_is_still_refused() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    drop(schema.open());
    let mut c = history(&schema);
    c.execute(
        "UPDATE refinery_schema_history SET checksum = '42' WHERE version = 3",
        &[],
    )
    .unwrap();
    let refused = PgStore::open_in(&schema.url, Some(&schema.name));
    assert!(
        matches!(refused, Err(StoreError::Schema(_))),
        "a divergent history must be refused, got {:?}",
        refused.err()
    );
}
