//! A club relaying its round polls each table's record. The live feed
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
use common::{start, two_boards};
use tower::ServiceExt;

/// A poll of a table's feed, with the tag the poller holds: status, tag, body.
async fn poll(
    hub: &std::sync::Arc<Hub>,
    table: TableId,
    held: Option<&str>,
) -> (StatusCode, String, String) {
    poll_path(hub, &format!("/api/tables/{table}/live.pgn"), held).await
}

/// A poll of the feed at `path`.
async fn poll_path(
    hub: &std::sync::Arc<Hub>,
    path: &str,
    held: Option<&str>,
) -> (StatusCode, String, String) {
    let mut req = Request::get(path);
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
    let s = start(None, Some(&two_boards("relayed"))).await;
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

/// The next `record` event of a live stream: its id (the tag) and its data.
async fn next_record(
    stream: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
) -> (String, String) {
    use futures_util::StreamExt;
    let mut text = String::new();
    loop {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), stream.next())
            .await
            .expect("a record within 5 s")
            .expect("the stream goes on")
            .expect("a chunk");
        text.push_str(&String::from_utf8_lossy(&chunk));
        if let Some(end) = text.find("\n\n") {
            let event = &text[..end];
            if event.contains("event: record") {
                let field = |name: &str| {
                    event
                        .lines()
                        .filter_map(|l| l.strip_prefix(name))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                return (field("id: "), field("data: "));
            }
            text.drain(..end + 2);
        }
    }
}

#[tokio::test]
async fn a_viewer_gets_the_record_pushed_at_once_and_at_each_move() {
    let s = start(None, Some(&two_boards("relayed"))).await;
    let (hub, t) = (&s.hub, s.created.tables[0].id);
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(
            Request::get(format!("/api/tables/{t}/live.sse"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.headers()[header::CONTENT_TYPE], "text/event-stream");
    let mut stream = resp.into_body().into_data_stream();
    let (first, record) = next_record(&mut stream).await;
    assert!(record.contains("[Red \"甲\"]"), "{record}");
    ok(hub, t, Role::Referee, Command::Start).await;
    play(hub, t, Role::Red, "h2e2").await;
    let (moved, record) = next_record(&mut stream).await;
    assert_ne!(moved, first, "a new version");
    assert!(record.contains("炮二平五"), "{record}");
    // Its tag is the poll's: a poller and a viewer agree on the version.
    assert_eq!(poll(hub, t, Some(&moved)).await.0, StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn the_event_feed_holds_every_table_and_changes_with_any_of_them() {
    let s = start(None, Some(&two_boards("relayed"))).await;
    let (hub, t2) = (&s.hub, s.created.tables[1].id);
    let path = format!("/api/events/{}/live.pgn", s.created.event);
    let (status, tag, body) = poll_path(hub, &path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body.contains("[Red \"甲\"]") && body.contains("[Red \"丙\"]"),
        "{body}"
    );
    assert_eq!(
        poll_path(hub, &path, Some(&tag)).await.0,
        StatusCode::NOT_MODIFIED
    );
    ok(hub, t2, Role::Referee, Command::Start).await;
    play(hub, t2, Role::Red, "h2e2").await;
    let (status, moved, body) = poll_path(hub, &path, Some(&tag)).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(moved, tag);
    assert!(body.contains("炮二平五"), "{body}");
}

#[tokio::test]
async fn the_feed_in_dhtmlxq_reads_back_with_the_game_and_its_tag() {
    let s = start(None, Some(&two_boards("relayed"))).await;
    let (hub, t) = (&s.hub, s.created.tables[0].id);
    ok(hub, t, Role::Referee, Command::Start).await;
    play(hub, t, Role::Red, "h2e2").await;
    play(hub, t, Role::Black, "h9g7").await;
    let path = format!("/api/tables/{t}/live.dhtmlxq");
    let (status, tag, body) = poll_path(hub, &path, None).await;
    assert_eq!(status, StatusCode::OK);
    let game = baoqi_grammar::dhtmlxq::read_dhtmlxq(&body).expect("a DhtmlXQ record");
    let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["h2e2", "h9g7"], "{body}");
    assert_eq!(game.players, ["甲".to_string(), "乙".to_string()]);
    assert_eq!(
        poll_path(hub, &path, Some(&tag)).await.0,
        StatusCode::NOT_MODIFIED
    );
}
