//! After the game a player downloads it in the format his software opens — `game.xqf`
//! (象棋演播室), `game.cbf` (象棋橋), `game.dhtmlxq` (東萍象棋網) beside `game.pgn` — and a
//! club downloads the event's games as one ZIP, each game in every format. Each file reads
//! back with the game's moves and result.

use std::io::Read;

use crate::common;
use crate::exports::{ok, play};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_arbiter::Command;
use baoqi_grammar::record::{RecordGame, RecordResult};
use baoqi_grammar::{cbf, dhtmlxq, pgn, xqf};
use baoqi_server::Hub;
use baoqi_store::model::Role;
use common::{start, two_boards};
use tower::ServiceExt;

/// A GET: status, `Content-Disposition`, body.
async fn get(hub: &std::sync::Arc<Hub>, path: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = resp.into_parts();
    let disposition = parts
        .headers
        .get(header::CONTENT_DISPOSITION)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    (parts.status, disposition, bytes.to_vec())
}

/// A file of a record format read back by baoqi's readers.
fn read(name: &str, bytes: &[u8]) -> RecordGame {
    let ext = name.rsplit('.').next().unwrap();
    match ext {
        "xqf" => xqf::read_xqf(bytes).unwrap(),
        "cbf" => cbf::read_cbf_bytes(bytes).unwrap(),
        "txt" | "dhtmlxq" => dhtmlxq::read_dhtmlxq_bytes(bytes).unwrap(),
        "pgn" => {
            let r = pgn::replay_bytes(bytes).unwrap();
            RecordGame {
                start: r.start,
                moves: r.moves,
                result: RecordResult::Unknown,
                players: [String::new(), String::new()],
            }
        }
        other => panic!("{name}: unexpected extension {other}"),
    }
}

fn iccs(g: &RecordGame) -> Vec<String> {
    g.moves.iter().map(ToString::to_string).collect()
}

#[tokio::test]
async fn a_game_downloads_in_each_format_and_the_event_as_one_zip() {
    let s = start(None, Some(&two_boards("club night"))).await;
    let (hub, t) = (&s.hub, s.created.tables[0].id);
    let event = s.created.event;
    // Before any game begins there is nothing to archive: said, not an empty ZIP.
    let (status, _, body) = get(hub, &format!("/api/events/{event}/games.zip")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(String::from_utf8_lossy(&body).contains("has begun yet"));
    ok(hub, t, Role::Referee, Command::Start).await;
    play(hub, t, Role::Red, "h2e2").await;
    play(hub, t, Role::Black, "h9g7").await;
    ok(hub, t, Role::Black, Command::Resign).await;
    let moves = ["h2e2", "h9g7"].map(String::from).to_vec();

    for (path, ext) in [
        ("game.xqf", ".xqf"),
        ("game.cbf", ".cbf"),
        ("game.dhtmlxq", ".dhtmlxq.txt"),
    ] {
        let (status, disposition, body) = get(hub, &format!("/api/tables/{t}/{path}")).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            disposition.starts_with("attachment; filename=\"baoqi-club-night-r")
                && disposition.contains(&format!("{ext}\"")),
            "{path}: {disposition}"
        );
        let g = read(path, &body);
        assert_eq!(iccs(&g), moves, "{path}");
        assert_eq!(g.result, RecordResult::RedWins, "{path}: black resigned");
        assert_eq!(g.players, ["甲".to_string(), "乙".to_string()], "{path}");
    }

    // The event: only the game that began is in it, in the four formats.
    let (status, disposition, body) = get(hub, &format!("/api/events/{event}/games.zip")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(disposition.contains("games.zip"), "{disposition}");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(body)).unwrap();
    let mut names: Vec<String> = zip.file_names().map(|n| n.unwrap().into_owned()).collect();
    names.sort();
    assert_eq!(names.len(), 4, "{names:?}");
    for ext in [".cbf", ".dhtmlxq.txt", ".pgn", ".xqf"] {
        assert!(names.iter().any(|n| n.ends_with(ext)), "{ext} in {names:?}");
    }
    for name in &names {
        let mut bytes = Vec::new();
        zip.by_name(name).unwrap().read_to_end(&mut bytes).unwrap();
        assert_eq!(iccs(&read(name, &bytes)), moves, "{name}");
    }

    let (status, _, body) = get(
        hub,
        &format!("/api/events/{event}/games.zip?format=xqf,cbf"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let zip = zip::ZipArchive::new(std::io::Cursor::new(body)).unwrap();
    assert_eq!(zip.len(), 2);
    // A format asked twice is one format (it once answered 500, "Duplicate filename").
    let (status, _, body) = get(
        hub,
        &format!("/api/events/{event}/games.zip?format=pgn,pgn,xqf,pgn"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let zip = zip::ZipArchive::new(std::io::Cursor::new(body)).unwrap();
    assert_eq!(zip.len(), 2);
    let (status, _, body) = get(hub, &format!("/api/events/{event}/games.zip?format=docx")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8_lossy(&body).contains("pgn, xqf, cbf or dhtmlxq"));
    let (status, _, _) = get(hub, "/api/events/999/games.zip").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
