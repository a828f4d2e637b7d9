//! The server on the federation's PostgreSQL store: a game played over `WebSocket`s
//! survives a restart of the server on the same database, and a hall's `SQLite` file copied
//! into PostgreSQL (`baoqi db copy`) keeps its games and its players' tokens. Skipped (with
//! a note) when no PostgreSQL is configured; the test command requires one
//! (`BAOQI_REQUIRE_POSTGRES=1`).

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use baoqi_server::limits::Limits;
use baoqi_store::copy::{CopyError, copy};
use baoqi_store::model::{Role, TableId};
use baoqi_store::{SqliteStore, Store};
use common::{Client, ONE_TABLE, PgSchema, event_file, is_event, start, start_on};
use serde_json::{Value, json};

fn store(schema: &PgSchema) -> Arc<dyn Store> {
    Arc::new(schema.open())
}

async fn ack(c: &mut Client, id: &str, command: Value) {
    c.command(id, command).await;
    let a = c.answer(id).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

/// The referee starts the game and red plays 炮二平五: four words, the board, the clock.
async fn red_opens(
    url: impl Fn(&str) -> String,
    red: &str,
    referee: &str,
    table: TableId,
) -> Client {
    let mut referee = Client::join(&url("monitor"), referee, None).await;
    let mut red = Client::join(&url("seat"), red, None).await;
    let start = json!({"v": 2, "type": "command", "id": "s", "table": table,
                       "command": {"type": "start"}});
    referee.send(start).await;
    assert_eq!(referee.answer("s").await["type"], "ack");
    for (i, w) in "炮二平五".chars().enumerate() {
        ack(
            &mut red,
            &format!("w{i}"),
            json!({"type": "word", "text": w.to_string()}),
        )
        .await;
    }
    ack(&mut red, "b", json!({"type": "board_move", "mv": "h2e2"})).await;
    ack(&mut red, "p", json!({"type": "press_clock"})).await;
    referee.until(|v| is_event(v, "moved")).await;
    red
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_postgres_survives_a_restart_of_the_server() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let file = event_file(ONE_TABLE);
    let server = start_on(
        store(&schema),
        PathBuf::new(),
        Some(&file),
        Limits::default(),
    )
    .await;
    let (red, referee) = (server.token(Role::Red, 0), server.token(Role::Referee, 0));
    let table = server.created.tables[0].id;
    let url = |e: &str| server.url(e);
    let client = red_opens(url, &red, &referee, table).await;
    let seen = client
        .seen
        .iter()
        .filter_map(|v| v["seq"].as_u64())
        .max()
        .unwrap();
    client.close().await;
    server.stop().await;

    let again = start_on(store(&schema), PathBuf::new(), None, Limits::default()).await;
    let mut red = Client::join(&again.url("seat"), &red, Some(seen)).await;
    let state = red.until(|v| v["type"] == "state").await;
    let moves = state["snapshot"]["moves"].as_array().unwrap();
    assert_eq!(
        moves.len(),
        1,
        "the move committed before the restart: {state}"
    );
    assert_eq!(moves[0]["mv"]["iccs"], "h2e2", "{state}");
    assert_eq!(state["snapshot"]["paused"], "server_restart", "{state}");
    again.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hall_copied_into_postgres_keeps_its_game_and_its_tokens() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let file = event_file(ONE_TABLE);
    let hall = start(None, Some(&file)).await;
    let (red, referee) = (hall.token(Role::Red, 0), hall.token(Role::Referee, 0));
    let table = hall.created.tables[0].id;
    red_opens(|e: &str| hall.url(e), &red, &referee, table)
        .await
        .close()
        .await;
    let db = hall.stop().await;

    let federation = store(&schema);
    // Another hall's event is there first: the copied one is renumbered.
    federation
        .create_event("另一個賽區", &baoqi_store::config::EventSettings::default())
        .unwrap();
    let source = SqliteStore::open(&db, false).unwrap();
    let report = copy(&source, &*federation).unwrap();
    assert_eq!(report.tables, 1);
    assert!(report.events[0].1 != report.events[0].0, "{report:?}");
    assert!(
        matches!(
            copy(&source, &*federation),
            Err(CopyError::AlreadyCopied { .. })
        ),
        "a second copy of the same hall is refused"
    );
    drop(federation);

    let server = start_on(store(&schema), PathBuf::new(), None, Limits::default()).await;
    let mut red = Client::join(&server.url("seat"), &red, None).await;
    let state = red.until(|v| v["type"] == "state").await;
    assert_eq!(
        state["snapshot"]["moves"][0]["mv"]["iccs"], "h2e2",
        "{state}"
    );
    server.stop().await;
    let _ = std::fs::remove_file(db);
}
