//! Game recordings on the server (建議每局對賽設錄音設備, 附表七 part 6): a
//! table client uploads with the audio crate's own `HttpUploader`, the referee lists the
//! recordings and plays them back with seeking, refusals carry a reason, nothing is lost
//! across a restart, and the recorder status of each seat reaches the monitor.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_audio::recording::{RATE, Recorder, RecordingMeta};
use baoqi_audio::upload::{HttpUploader, UploadError, Uploader};
use baoqi_store::model::{Role, TableId};
use common::{Client, Server, event_file, start};
use serde_json::{Value, json};
use tower::ServiceExt;

pub(crate) const EVENT: &str = r#"
name = "recordings"
spectators = 1
[[tables]]
name = "t1"
red = "r1"
black = "b1"
red_proxy = "p1"
[[tables]]
name = "t2"
red = "r2"
black = "b2"
"#;

/// A real recording of the audio crate: `ms` of a tone, its first sample at event-log
/// time `offset_ms`.
pub(crate) fn record(dir: &Path, name: &str, game: &str, offset_ms: u64, ms: u64) -> RecordingMeta {
    let wav = dir.join(format!("{name}.wav"));
    let rec = Recorder::start(&wav, game, Duration::from_millis(offset_ms), None).unwrap();
    let n = (u64::from(RATE) * ms / 1000) as usize;
    let tone: Vec<f32> = (0..n)
        .map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / RATE as f32).sin() * 0.3)
        .collect();
    rec.tap().push(Instant::now(), RATE, &tone, false);
    rec.finish().unwrap()
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baoqi-rec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn upload_url(s: &Server, table: TableId) -> String {
    format!("http://{}/api/tables/{table}/recording", s.addr)
}

/// Uploads with the table client's uploader (blocking, off the runtime).
pub(crate) async fn upload(
    url: String,
    token: Option<String>,
    meta: RecordingMeta,
) -> Result<(), String> {
    tokio::task::spawn_blocking(move || {
        HttpUploader::new(&url, token.as_deref())
            .and_then(|u| u.upload(&meta))
            .map_err(|e| match e {
                UploadError::Status(s) => s,
                other => format!("not a refusal: {other}"),
            })
    })
    .await
    .unwrap()
}

/// A GET through the server's router as the event's referee (the recordings are the
/// referee's): status, headers, body.
pub(crate) async fn get(
    s: &Server,
    path: &str,
    range: Option<&str>,
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let referee = s.token(Role::Referee, 0);
    let mut req = Request::get(path).header(header::AUTHORIZATION, format!("Bearer {referee}"));
    if let Some(r) = range {
        req = req.header(header::RANGE, r);
    }
    let resp = baoqi_server::http::router(s.hub.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    (parts.status, parts.headers, bytes.to_vec())
}

pub(crate) async fn list(s: &Server, table: TableId) -> Value {
    let (status, _, body) = get(s, &format!("/api/tables/{table}/recordings"), None).await;
    assert_eq!(status, StatusCode::OK);
    serde_json::from_slice(&body).unwrap()
}

fn cleanup(db: &Path, dir: &Path) {
    let mut kept = db.as_os_str().to_owned();
    kept.push(".recordings");
    let _ = std::fs::remove_dir_all(kept);
    let _ = std::fs::remove_file(db);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn s7p6_a_seat_uploads_its_recording_and_the_referee_plays_it_back_after_a_restart() {
    let dir = scratch("upload");
    let s = start(None, Some(&event_file(EVENT))).await;
    let t1 = s.created.tables[0].id;
    let meta = record(&dir, "game", "視障賽 第1輪", 1_234, 500);
    let wav = std::fs::read(&meta.wav).unwrap();
    upload(
        upload_url(&s, t1),
        Some(s.token(Role::Red, 0)),
        meta.clone(),
    )
    .await
    .unwrap();

    let listed = list(&s, t1).await;
    let r = &listed["recordings"][0];
    assert_eq!(listed["recordings"].as_array().unwrap().len(), 1);
    assert_eq!(
        (r["n"].as_u64(), r["side"].as_str(), r["role"].as_str()),
        (Some(1), Some("red"), Some("red"))
    );
    assert_eq!(
        r["game"], "視障賽 第1輪",
        "a Chinese name in the header arrives intact"
    );
    assert_eq!(r["event_log_offset_ms"], 1_234);
    assert_eq!(r["started_unix_ms"], meta.started_unix_ms);
    assert_eq!(r["sample_rate"], RATE);
    assert_eq!(r["bytes"], wav.len());
    let duration = r["duration_ms"].as_u64().unwrap();
    assert!((480..=600).contains(&duration), "{duration} ms");
    assert!(r["received_unix_ms"].as_u64().unwrap() >= meta.started_unix_ms);
    assert_eq!(r["current"], true);
    assert_eq!(listed["status"]["red"]["state"], "uploaded");
    let url = r["url"].as_str().unwrap().to_string();
    assert_eq!(url, format!("/api/tables/{t1}/recordings/1.wav"));

    // The whole file, byte for byte, and a part of it for seeking.
    let (status, headers, body) = get(&s, &url, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "audio/wav");
    assert_eq!(headers[header::ACCEPT_RANGES], "bytes");
    assert!(body == wav, "the download is the uploaded file");
    let (status, headers, body) = get(&s, &url, Some("bytes=100-199")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        headers[header::CONTENT_RANGE],
        format!("bytes 100-199/{}", wav.len()).as_str()
    );
    assert_eq!(body, &wav[100..200]);
    let (status, _, _) = get(&s, &url, Some(&format!("bytes={}-", wav.len()))).await;
    assert_eq!(status, StatusCode::RANGE_NOT_SATISFIABLE);
    for missing in [
        format!("/api/tables/{t1}/recordings/9.wav"),
        format!("/api/tables/{t1}/recordings/1.mp3"),
        "/api/tables/999/recordings".to_string(),
    ] {
        assert_eq!(
            get(&s, &missing, None).await.0,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }

    // A second upload of the same game from the same seat (here its proxy) is a new
    // version; the first stays.
    let again = record(&dir, "again", "視障賽 第1輪", 1_300, 200);
    upload(upload_url(&s, t1), Some(s.token(Role::RedProxy, 0)), again)
        .await
        .unwrap();
    let listed = list(&s, t1).await;
    let current: Vec<_> = listed["recordings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["n"].clone(), r["current"].clone(), r["role"].clone()))
        .collect();
    assert_eq!(
        current,
        [
            (json!(1), json!(false), json!("red")),
            (json!(2), json!(true), json!("red_proxy"))
        ]
    );

    // After a restart everything is still there.
    let created = s.created.clone();
    let db = s.stop().await;
    let mut s2 = start(Some(db.clone()), None).await;
    s2.created = created;
    let listed = list(&s2, t1).await;
    assert_eq!(listed["recordings"].as_array().unwrap().len(), 2);
    assert_eq!(listed["status"]["red"]["state"], "uploaded");
    assert_eq!(listed["status"]["red"]["n"], 2);
    let (_, _, body) = get(&s2, &url, None).await;
    assert!(body == wav, "the first recording survived the restart");
    s2.stop().await;
    cleanup(&db, &dir);
}

#[tokio::test]
async fn s7p6_uploads_by_the_wrong_seat_or_of_the_wrong_thing_are_refused_with_a_reason() {
    let dir = scratch("refuse");
    let s = start(None, Some(&event_file(EVENT))).await;
    let (t1, t2) = (s.created.tables[0].id, s.created.tables[1].id);
    let meta = record(&dir, "ok", "g", 0, 100);
    let url = upload_url(&s, t1);
    let refused = |r: Result<(), String>| r.expect_err("refused");

    let e = refused(upload(url.clone(), None, meta.clone()).await);
    assert!(e.contains("401"), "no token: {e}");
    let e = refused(upload(url.clone(), Some("ab".repeat(32)), meta.clone()).await);
    assert!(e.contains("401"), "unknown token: {e}");
    let e = refused(upload(url.clone(), Some(s.token(Role::Spectator, 0)), meta.clone()).await);
    assert!(e.contains("403"), "spectator: {e}");
    let e = refused(upload(url.clone(), Some(s.token(Role::Referee, 0)), meta.clone()).await);
    assert!(e.contains("403"), "referee: {e}");
    let e = refused(upload(url.clone(), Some(s.token(Role::Black, 1)), meta.clone()).await);
    assert!(e.contains("403"), "another table's player: {e}");

    let red = Some(s.token(Role::Red, 0));
    let text = dir.join("notes.wav");
    std::fs::write(&text, "this is not audio at all").unwrap();
    let not_wav = RecordingMeta {
        wav: text,
        ..meta.clone()
    };
    let e = refused(upload(url.clone(), red.clone(), not_wav).await);
    assert!(e.contains("415"), "not a WAV: {e}");
    let wrong_rate = RecordingMeta {
        rate: 44_100,
        ..meta.clone()
    };
    let e = refused(upload(url.clone(), red.clone(), wrong_rate).await);
    assert!(e.contains("400"), "rate differs from the WAV: {e}");

    s.hub.recordings().set_limit(1024);
    let e = refused(upload(url.clone(), red.clone(), meta.clone()).await);
    assert!(e.contains("413"), "over the limit: {e}");

    assert_eq!(
        list(&s, t1).await["recordings"],
        json!([]),
        "nothing was stored"
    );
    assert_eq!(list(&s, t2).await["recordings"], json!([]));
    let db = s.stop().await;
    cleanup(&db, &dir);
}

#[tokio::test]
async fn s7p6_recorder_status_reaches_the_monitor_and_a_stopped_recorder_is_missing_at_game_end() {
    let dir = scratch("status");
    let s = start(None, Some(&event_file(EVENT))).await;
    let t1 = s.created.tables[0].id;
    let mut referee = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    let st = referee
        .until(|v| v["type"] == "state" && v["table"] == t1.0)
        .await;
    assert_eq!(
        st["recording"],
        json!({"red": {"state": "off"}, "black": {"state": "off"}})
    );
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.until(|v| v["type"] == "state").await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    black.until(|v| v["type"] == "state").await;

    red.send(json!({"v": 2, "type": "recording", "state": "on", "microphone": true}))
        .await;
    let m = referee.until(|v| v["type"] == "recording").await;
    assert_eq!(m["table"], t1.0);
    assert_eq!(m["seats"]["red"]["state"], "recording");
    assert_eq!(m["seats"]["red"]["microphone"], true);
    assert!(m["seats"]["red"]["since"].is_u64());
    let echo = red.until(|v| v["type"] == "recording").await;
    assert_eq!(echo["seats"], m["seats"], "the reporting seat hears it too");

    // Black's recorder ran and stopped; then the game ends without its upload.
    black
        .send(json!({"v": 2, "type": "recording", "state": "on"}))
        .await;
    referee
        .until(|v| v["type"] == "recording" && v["seats"]["black"]["state"] == "recording")
        .await;
    black
        .send(json!({"v": 2, "type": "recording", "state": "off"}))
        .await;
    referee
        .until(|v| v["type"] == "recording" && v["seats"]["black"]["state"] == "off")
        .await;
    referee.send(json!({"v": 2, "type": "command", "id": "go", "table": t1, "command": {"type": "start"}})).await;
    assert_eq!(referee.answer("go").await["type"], "ack");
    red.command("gg", json!({"type": "resign"})).await;
    assert_eq!(red.answer("gg").await["type"], "ack", "red resigns");
    let m = referee
        .until(|v| v["type"] == "recording" && v["seats"]["black"]["state"] == "missing")
        .await;
    assert_eq!(
        m["seats"]["red"]["state"], "recording",
        "red is still recording"
    );

    // Red's upload arrives: the monitor hears it, and a fresh state carries it.
    let meta = record(&dir, "red", "t1", 0, 100);
    upload(upload_url(&s, t1), Some(s.token(Role::Red, 0)), meta)
        .await
        .unwrap();
    let m = referee
        .until(|v| v["type"] == "recording" && v["seats"]["red"]["state"] == "uploaded")
        .await;
    assert_eq!(m["seats"]["red"]["n"], 1);
    let mut late = Client::join(&s.url("monitor"), &s.token(Role::Referee, 0), None).await;
    let st = late
        .until(|v| v["type"] == "state" && v["table"] == t1.0)
        .await;
    assert_eq!(st["recording"]["red"]["state"], "uploaded");
    assert_eq!(st["recording"]["black"]["state"], "missing");

    // Only a table's seats report recorders; other tables' monitors-only messages stay apart.
    referee
        .send(json!({"v": 2, "type": "recording", "id": "r", "state": "on"}))
        .await;
    let e = referee.answer("r").await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("forbidden"))
    );
    let mut watcher = Client::join(&s.url("watch"), &s.token(Role::Spectator, 0), None).await;
    watcher
        .send(json!({"v": 2, "type": "recording", "id": "w", "state": "on"}))
        .await;
    assert_eq!(watcher.answer("w").await["code"], "forbidden");
    red.send(json!({"v": 2, "type": "recording", "state": "sideways"}))
        .await;
    assert_eq!(
        red.until(|v| v["type"] == "error").await["code"],
        "malformed"
    );
    let db = s.stop().await;
    cleanup(&db, &dir);
}

#[tokio::test]
async fn s7p6_each_refusal_says_why_in_words() {
    let dir = scratch("why");
    let s = start(None, Some(&event_file(EVENT))).await;
    let (t1, t2) = (s.created.tables[0].id, s.created.tables[1].id);
    let meta = record(&dir, "ok", "g", 0, 100);
    let wav = std::fs::read(&meta.wav).unwrap();
    let complete = [
        ("content-type", "audio/wav"),
        ("x-baoqi-game", "g"),
        ("x-baoqi-event-log-offset-ms", "0"),
        ("x-baoqi-started-unix-ms", "0"),
        ("x-baoqi-sample-rate", "22050"),
    ];
    let red_token = s.token(Role::Red, 0);
    let cases = [
        (
            t2,
            None,
            None,
            StatusCode::FORBIDDEN,
            format!("does not belong to table {t2}"),
        ),
        (
            t1,
            Some("content-type"),
            Some("text/plain"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be audio/wav".into(),
        ),
        (
            t1,
            Some("x-baoqi-game"),
            None,
            StatusCode::BAD_REQUEST,
            "header x-baoqi-game is missing".into(),
        ),
        (
            t1,
            Some("x-baoqi-sample-rate"),
            Some("fast"),
            StatusCode::BAD_REQUEST,
            "is not a number".into(),
        ),
        (
            TableId(999),
            None,
            None,
            StatusCode::NOT_FOUND,
            "no table 999".into(),
        ),
    ];
    for (table, name, value, status, reason) in cases {
        let mut req = Request::post(format!("/api/tables/{table}/recording"))
            .header(header::AUTHORIZATION, format!("Bearer {red_token}"));
        for (h, v) in complete {
            match (Some(h) == name, value) {
                (false, _) => req = req.header(h, v),
                (true, Some(other)) => req = req.header(h, other),
                (true, None) => {}
            }
        }
        let resp = baoqi_server::http::router(s.hub.clone())
            .oneshot(req.body(Body::from(wav.clone())).unwrap())
            .await
            .unwrap();
        assert_eq!(resp.status(), status, "{reason}");
        let why = axum::body::to_bytes(resp.into_body(), 4096).await.unwrap();
        let why = String::from_utf8_lossy(&why);
        assert!(why.contains(&reason), "{why:?} should say {reason:?}");
    }
    let db = s.stop().await;
    cleanup(&db, &dir);
}

/// A proxy seat for a side with no named proxy uploaded a recording that became that side's
/// current one. It is refused like every other command of that seat (7.4(2)(d)(ii)), and
/// nothing is listed.
#[tokio::test]
async fn an_unnamed_sides_proxy_seat_may_not_upload() {
    let dir = scratch("unnamed-proxy");
    let s = start(None, Some(&event_file(EVENT))).await;
    let t1 = s.created.tables[0].id;
    // A proxy seat for black, whose side names no proxy (seats are issued only for named
    // proxies today; an older store or a hand-made seat may still hold one).
    let seat = baoqi_organiser::admin::issue(
        &**s.hub.store(),
        s.created.event,
        Role::BlackProxy,
        "unnamed",
        vec![t1],
    )
    .unwrap();
    let token = seat.token.secret().to_string();
    let meta = record(&dir, "game", "視障賽 第1輪", 0, 200);
    let refused = upload(upload_url(&s, t1), Some(token), meta).await;
    let why = refused.expect_err("refused");
    assert!(why.contains("403 Forbidden"), "{why}");
    let listed = list(&s, t1).await;
    assert!(
        listed["recordings"].as_array().unwrap().is_empty(),
        "{listed}"
    );
    let db = s.stop().await;
    cleanup(&db, &dir);
}
