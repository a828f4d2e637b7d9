//! Issue 33, item 3: a club relaying its round polls each table's record. The live feed
//! (`/api/tables/T/live.pgn`) always returns the record as it stands, with an entity tag: a
//! poll whose `If-None-Match` names the current tag gets `304 Not Modified` and no body, and
//! a move or the end of the game changes the tag. A move sealed at an adjournment (第103條)
//! never appears in it.

use crate::common;
use crate::exports::{ok, play};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_arbiter::{Command, PauseReason};
use baoqi_server::Hub;
use baoqi_store::model::{Role, TableId};
use common::{event_file, start};
use tower::ServiceExt;

const EVENT: &str = r#"
name = "relayed"
[[referees]]
name = "chief"
[[tables]]
name = "board 1"
red = "甲"
black = "乙"
[tables.match]
kind = "regular"
time.default = { base_ms = 600_000, mode = "plain" }
"#;

/// A poll of the feed, with the tag the poller holds: status, tag, body.
async fn poll(
    hub: &std::sync::Arc<Hub>,
    table: TableId,
    held: Option<&str>,
) -> (StatusCode, String, String) {
    let mut req = Request::get(format!("/api/tables/{table}/live.pgn"));
    if let Some(tag) = held {
        req = req.header(header::IF_NONE_MATCH, tag);
    }
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = resp.into_parts();
    assert_eq!(
        parts.headers[header::CACHE_CONTROL],
        "no-cache",
        "polled, revalidated each time"
    );
    let tag = parts.headers[header::ETAG].to_str().unwrap().to_owned();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    (
        parts.status,
        tag,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

#[tokio::test]
async fn a_poll_is_answered_not_modified_until_a_move_and_a_sealed_move_never_shows() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let (hub, t) = (&s.hub, s.created.tables[0].id);
    let (status, tag, body) = poll(hub, t, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body.contains("[Red \"甲\"]") && body.contains("[Black \"乙\"]"),
        "{body}"
    );
    // Nothing changed: 304, no body.
    let (status, same, body) = poll(hub, t, Some(&tag)).await;
    assert_eq!(
        (status, same.as_str(), body.as_str()),
        (StatusCode::NOT_MODIFIED, tag.as_str(), "")
    );
    // Words, a start and a clock tick change nothing on the record: still 304.
    ok(hub, t, Role::Referee, Command::Start).await;
    assert_eq!(poll(hub, t, Some(&tag)).await.0, StatusCode::NOT_MODIFIED);
    // A move: the new record under a new tag.
    play(hub, t, Role::Red, "h2e2").await;
    let (status, moved, body) = poll(hub, t, Some(&tag)).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(moved, tag);
    assert!(body.contains("炮二平五"), "{body}");
    // 第103條: black seals 馬8進7 at an adjournment; the feed does not show it.
    ok(
        hub,
        t,
        Role::Referee,
        Command::Pause {
            reason: PauseReason::Adjournment,
        },
    )
    .await;
    ok(
        hub,
        t,
        Role::Referee,
        Command::SealMove {
            mv: "h9g7".parse().unwrap(),
        },
    )
    .await;
    let (status, still, _) = poll(hub, t, Some(&moved)).await;
    assert_eq!(
        (status, still),
        (StatusCode::NOT_MODIFIED, moved.clone()),
        "sealing changes nothing on the record"
    );
    let (_, _, body) = poll(hub, t, None).await;
    assert!(!body.contains("馬８進７"), "{body}");
    // The end of the game changes it again.
    ok(hub, t, Role::Referee, Command::Resume).await;
    ok(hub, t, Role::Black, Command::Resign).await;
    let (status, over, body) = poll(hub, t, Some(&moved)).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(over, moved);
    assert!(body.contains("1-0"), "{body}");
}
