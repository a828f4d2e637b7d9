//! The sealed move was public over HTTP during an adjournment (`/api/tables/1/log.json`
//! showed `seal_move` and the referee-only `sealed` event), defeating 第103條(1)(b). The
//! logs and the recordings are now a referee's: `Authorization: Bearer <token>` of a
//! referee of that table (or of the whole event, for the event's log); 401 without a token,
//! 403 with one that does not cover it, a JSON error either way. The results, the
//! scoresheet and the PGN stay public, and hold nothing of the sealed move.

use crate::common;

use axum::http::{StatusCode, header};
use baoqi_store::model::{Role, TableId};
use common::{Client, Server, event_file, start};
use serde_json::{Value, json};

/// Two tables, a referee of each, a referee of the whole event, a spectator.
const EVENT: &str = r#"
name = "adjourned"
spectators = 1
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[[tables]]
name = "t2"
red = "r2"
black = "b2"
[[referees]]
name = "ref of t1"
tables = [1]
[[referees]]
name = "ref of t2"
tables = [2]
[[referees]]
name = "chief"
"#;

/// The token of the referee named `name`.
fn referee(s: &Server, name: &str) -> String {
    s.created
        .seats
        .iter()
        .find(|i| i.seat.role == Role::Referee && i.seat.name == name)
        .map(|i| i.token.secret().to_string())
        .expect("a referee of this name")
}

/// Expects a refusal with `status` and a JSON body naming `code`.
async fn refused(s: &Server, path: &str, token: Option<&str>, status: StatusCode, code: &str) {
    let (got, headers, body) = s.get(path, token).await;
    assert_eq!(got, status, "{path}: {body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("JSON: {body}"));
    assert_eq!(v["code"], code, "{path}: {body}");
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    if status == StatusCode::UNAUTHORIZED {
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer", "{path}");
    }
}

/// Starts table 1 and adjourns it: red, to move, seals 炮二平五 (h2e2).
async fn adjourn(s: &Server, t: TableId) {
    let mut chief = Client::join(&s.url("monitor"), &referee(s, "chief"), None).await;
    chief.until(|v| v["type"] == "state").await;
    for (id, command) in [
        ("start", json!({"type": "start"})),
        ("pause", json!({"type": "pause"})),
        ("seal", json!({"type": "seal_move", "mv": "h2e2"})),
    ] {
        chief
            .send(json!({"v": 2, "type": "command", "id": id, "table": t, "command": command}))
            .await;
        assert_eq!(chief.answer(id).await["type"], "ack", "{id}");
    }
}

#[tokio::test]
async fn a103_1_b_the_sealed_move_is_read_over_http_by_the_referee_alone() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let (t1, t2, event) = (
        s.created.tables[0].id,
        s.created.tables[1].id,
        s.created.event,
    );
    adjourn(&s, t1).await;
    let log = format!("/api/tables/{t1}/log.json");
    let event_log = format!("/api/events/{event}/log.json");

    // Nobody without a referee's token for table 1.
    refused(&s, &log, None, StatusCode::UNAUTHORIZED, "unauthorized").await;
    refused(
        &s,
        &log,
        Some("0123"),
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    for token in [
        s.token(Role::Red, 0),
        s.token(Role::Black, 0),
        s.token(Role::Spectator, 0),
        referee(&s, "ref of t2"),
    ] {
        refused(&s, &log, Some(&token), StatusCode::FORBIDDEN, "forbidden").await;
    }
    // The event's log is for a referee of every table.
    refused(
        &s,
        &event_log,
        None,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    refused(
        &s,
        &event_log,
        Some(&referee(&s, "ref of t1")),
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;

    // The referees of the table read the sealed move.
    for token in [referee(&s, "ref of t1"), referee(&s, "chief")] {
        let (status, _, body) = s.get(&log, Some(&token)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(
            body.contains(r#""type":"sealed""#) && body.contains("h2e2"),
            "{body}"
        );
    }
    let (status, _, body) = s.get(&event_log, Some(&referee(&s, "chief"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains(r#""type":"seal_move""#), "{body}");

    // A revoked referee no longer reads it.
    let revoked = referee(&s, "ref of t1");
    assert!(baoqi_organiser::admin::revoke(&**s.hub.store(), &revoked).unwrap());
    refused(
        &s,
        &log,
        Some(&revoked),
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;

    // What stays public holds nothing of the sealed move: not as ICCS, not in words.
    for path in [
        format!("/api/tables/{t1}/scoresheet.txt"),
        format!("/api/tables/{t1}/game.pgn"),
        format!("/api/tables/{t1}"),
        format!("/api/events/{event}/results.txt"),
        format!("/api/events/{event}/results.json"),
        "/".to_string(),
    ] {
        let (status, _, body) = s.get(&path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        for sealed in ["h2e2", "二平五", "炮二", "seal_move"] {
            assert!(!body.contains(sealed), "{path} shows {sealed}: {body}");
        }
    }
    // The index page no longer links to the event's log.
    assert!(!s.get("/", None).await.2.contains("log.json"));
    let _ = t2;
    s.stop().await;
}

#[tokio::test]
async fn s7p6_recordings_are_listed_and_played_for_the_referees_of_their_table_alone() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let t1 = s.created.tables[0].id;
    for path in [
        format!("/api/tables/{t1}/recordings"),
        format!("/api/tables/{t1}/recordings/1.wav"),
    ] {
        refused(&s, &path, None, StatusCode::UNAUTHORIZED, "unauthorized").await;
        for token in [s.token(Role::Red, 0), referee(&s, "ref of t2")] {
            refused(&s, &path, Some(&token), StatusCode::FORBIDDEN, "forbidden").await;
        }
    }
    let (status, _, body) = s
        .get(
            &format!("/api/tables/{t1}/recordings"),
            Some(&referee(&s, "ref of t1")),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(listed["recordings"], json!([]));
    // An unknown table is 404 to a referee.
    refused(
        &s,
        "/api/tables/999/recordings",
        Some(&referee(&s, "chief")),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    s.stop().await;
}
