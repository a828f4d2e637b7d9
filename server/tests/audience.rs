//! An event reaches only its audience, even when it is read back from a damaged log: the
//! sealed move of 第103條(1)(b) goes to the referee alone, and an event the server cannot
//! read is delivered to nobody — the client is told that its resync failed, never that it
//! missed nothing.

use crate::common;

use baoqi_store::model::{Role, TableId};
use baoqi_store::replay::HISTORY;
use common::{Client, event_file, is_event};
use serde_json::{Value, json};

use common::ONE_TABLE as EVENT;

/// Sends `command` to table `t` as `id` and expects it acknowledged.
async fn acked(referee: &mut Client, t: TableId, id: &str, command: Value) {
    referee
        .send(json!({"v": 2, "type": "command", "id": id, "table": t, "command": command}))
        .await;
    assert_eq!(referee.answer(id).await["type"], "ack", "{id}");
}

/// Reads up to and including the `state` that ends a resync.
async fn resync(c: &mut Client) -> Vec<Value> {
    let mut got = Vec::new();
    loop {
        let v = c.next().await;
        let done = v["type"] == "state";
        got.push(v);
        if done {
            return got;
        }
    }
}

#[tokio::test]
async fn a103_1_b_a_sealed_move_unreadable_in_the_log_reaches_no_player_and_the_client_is_told() {
    // Over 500 commands as fast as the table answers: beyond a seat's rate limit.
    let limits = baoqi_server::limits::Limits::unmetered();
    let s = common::start_with(None, Some(&event_file(EVENT)), limits).await;
    let t = s.created.tables[0].id;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    referee.until(|v| v["type"] == "state").await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let before = red.until(|v| v["type"] == "state").await["seq"]
        .as_u64()
        .unwrap();
    red.close().await;

    // 第103條(1)(b): at an adjournment the move is sealed, for the referee only.
    acked(&mut referee, t, "start", json!({"type": "start"})).await;
    acked(&mut referee, t, "pause", json!({"type": "pause"})).await;
    acked(
        &mut referee,
        t,
        "seal",
        json!({"type": "seal_move", "mv": "h2e2"}),
    )
    .await;
    referee.until(|v| is_event(v, "sealed")).await;
    acked(&mut referee, t, "resume", json!({"type": "resume"})).await;
    // More events than a table keeps in memory: a resync from `before` reads the log.
    for i in 0..=HISTORY {
        let id = format!("n{i}");
        let noise = json!({"type": "word", "text": "noise"});
        acked(&mut referee, t, &id, noise).await;
    }

    // The log as written: the spectator's resync holds every event it may see, not the seal.
    let mut watch = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), Some(before)).await;
    let got = resync(&mut watch).await;
    assert!(
        got.len() > HISTORY,
        "the resync read the log: {}",
        got.len()
    );
    assert!(got.iter().any(|v| is_event(v, "started")));
    assert!(!got.iter().any(|v| is_event(v, "sealed")), "103(1)(b)");

    // The sealed move's record is damaged: its kind, hence its audience, cannot be read.
    let db = rusqlite::Connection::open(&s.db).unwrap();
    let damaged = db
        .execute(
            r#"UPDATE log SET events = replace(events, '"type":"sealed"', '"type":"se@led"')
               WHERE tbl = ?1 AND events LIKE '%"type":"sealed"%'"#,
            [t.0],
        )
        .unwrap();
    assert_eq!(damaged, 1, "the sealed move is in the log once");

    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), Some(before)).await;
    let got = resync(&mut red).await;
    assert_eq!(got.len(), 2, "the failure, then the state: {got:?}");
    assert_eq!(
        (got[0]["type"].as_str(), got[0]["code"].as_str()),
        (Some("error"), Some("resync")),
        "{}",
        got[0]
    );
    assert!(
        !got.iter().any(|v| v.to_string().contains("h2e2")),
        "{got:?}"
    );
    s.stop().await;
}
