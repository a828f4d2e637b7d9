//! A backup of one event from the organiser page, for a second laptop: a hall's file holding
//! that event alone, which opens as a store, with every game's log and every seat's token
//! working; only a referee of the whole event gets it.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_store::model::{Role, Token};
use baoqi_store::{SqliteStore, Store};
use tower::ServiceExt;

use crate::organiser::{event_at, pair, token};

/// GETs `path` with an optional bearer token: status, content type, body.
async fn get(
    hub: &std::sync::Arc<baoqi_server::Hub>,
    path: &str,
    token: Option<&str>,
) -> (StatusCode, String, Vec<u8>) {
    let mut req = Request::builder().uri(path);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .unwrap();
    (status, kind, bytes.to_vec())
}

#[tokio::test]
async fn the_organiser_downloads_the_event_as_a_halls_file_that_opens_with_everything() {
    let (store, c, db) = event_at("swiss", 20);
    let e = c.event;
    let paired = pair(&store, e);
    let source_tables = store.tables(Some(e)).unwrap();
    let source_seats = store.seats(e).unwrap();
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    let hub = server.hub.clone();
    let path = format!("/api/events/{e}/backup");

    let (status, _, _) = get(&hub, &path, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = get(&hub, &path, Some(&token(&c, Role::Spectator))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, kind, bytes) = get(&hub, &path, Some(&token(&c, Role::Referee))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/vnd.sqlite3");

    // The second laptop's file.
    let dir = std::env::temp_dir().join(format!("baoqi-backup-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("event.db");
    std::fs::write(&file, &bytes).unwrap();
    let copy = SqliteStore::open(&file, false).unwrap();
    let events = copy.events().unwrap();
    assert_eq!(events.len(), 1, "the event alone");
    assert_eq!(events[0].name, "共融賽");
    let copied = events[0].id;
    let tables = copy.tables(Some(copied)).unwrap();
    assert_eq!(tables.len(), source_tables.len());
    assert_eq!(tables.len(), paired.created.tables.len());
    // Every seat's link goes on working: its token finds its seat in the copy.
    assert_eq!(copy.seats(copied).unwrap().len(), source_seats.len());
    for s in &c.seats {
        let found = copy
            .seat(&Token::from_secret(s.token.secret()).hash())
            .unwrap();
        assert!(
            found.is_some(),
            "the seat of {} is in the backup",
            s.seat.name
        );
    }
    // The register and the round: the tournament's records came along.
    let records = copy.tournaments().unwrap();
    assert_eq!(records.players(copied).unwrap().len(), 5);
    assert_eq!(
        records.pairings(copied).unwrap().len(),
        3,
        "two boards and a bye"
    );
    drop(copy);
    let _ = std::fs::remove_dir_all(&dir);

    let (status, _, _) = get(
        &hub,
        "/api/events/999/backup",
        Some(&token(&c, Role::Referee)),
    )
    .await;
    assert!(status.is_client_error(), "{status}");
}
