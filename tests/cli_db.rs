//! `baoqi db` as the federation's administrator runs it: `db migrate` on a hall's
//! file and on PostgreSQL, `db copy` of a hall into PostgreSQL, and the clear refusals of
//! bad input. The PostgreSQL halves need `BAOQI_TEST_POSTGRES` (the test command starts
//! one and requires it).

use std::process::Command;

use crate::common;
use baoqi_store::PgStore;
use common::{BIN, Scratch};

fn baoqi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn postgres() -> Option<String> {
    let url = std::env::var("BAOQI_TEST_POSTGRES").ok();
    assert!(
        url.is_some() || std::env::var_os("BAOQI_REQUIRE_POSTGRES").is_none(),
        "BAOQI_REQUIRE_POSTGRES is set but BAOQI_TEST_POSTGRES is not"
    );
    url
}

#[test]
fn db_migrate_takes_the_migrations_once_and_then_says_up_to_date() {
    let dir = Scratch::new("db-migrate");
    let db = dir.join("hall.db");
    let db = db.to_str().unwrap();
    let (code, out, err) = baoqi(&["db", "migrate", "--db", db]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("took V1__initial"), "{out}");
    let (code, out, _) = baoqi(&["db", "migrate", "--db", &format!("sqlite:{db}")]);
    assert_eq!(code, Some(0));
    assert!(out.contains("up to date (V1__initial)"), "{out}");
}

#[test]
fn db_copy_refuses_a_missing_hall_and_a_copy_onto_itself() {
    let dir = Scratch::new("db-copy-bad");
    let missing = dir.join("nowhere.db");
    let missing = missing.to_str().unwrap();
    let (code, _, err) = baoqi(&["db", "copy", "--from", missing, "--to", "other.db"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no such file"), "{err}");
    let (code, _, err) = baoqi(&["db", "copy", "--from", "a.db", "--to", "sqlite:a.db"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("both"), "{err}");
}

#[test]
fn a_hall_is_copied_into_postgres_and_a_second_copy_is_refused() {
    let Some(url) = postgres() else {
        eprintln!("skipped: no BAOQI_TEST_POSTGRES");
        return;
    };
    let dir = Scratch::new("db-copy");
    let db = dir.join("hall.db");
    let db = db.to_str().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/event.toml");
    let (code, _, err) = baoqi(&["event", "create", "--config", sample, "--db", db]);
    assert_eq!(code, Some(0), "{err}");
    let schema = PgStore::create_schema(&url).unwrap();
    // The schema is chosen through the URL's options, as a federation could.
    let target = format!("{url}?options=-csearch_path%3D{schema}");
    let (code, out, err) = baoqi(&["db", "migrate", "--db", &target]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("took V1__initial, V2__leases, V3__nodes"),
        "{out}"
    );
    let (code, out, err) = baoqi(&[
        "db",
        "copy",
        "--from",
        &format!("sqlite:{db}"),
        "--to",
        &target,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("event 1 → event 1"), "{out}");
    assert!(out.contains("copied 1 events"), "{out}");
    let (code, _, err) = baoqi(&["db", "copy", "--from", db, "--to", &target]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("copied before"), "{err}");
    PgStore::drop_schema(&url, &schema).unwrap();
}
