//! Game recordings on the federation's PostgreSQL store (建議每局對賽設錄音設備, 附表七
//! 第六部分): a seat uploads its recording to one node and the referee plays it back, with
//! seeking, through another node on the same database. On the code before, a server on
//! PostgreSQL refused every upload ("this server's store keeps no files"): a federation kept
//! no game's audio. Skipped (with a note) when no PostgreSQL is configured.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::{StatusCode, header};
use baoqi_server::limits::Limits;
use baoqi_store::Store;
use baoqi_store::model::Role;
use common::{PgSchema, event_file, start_on};

use super::recording::{get, list, record, scratch, upload, upload_url};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s7p6_a_recording_uploaded_to_one_node_plays_back_through_another() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let dir = scratch("pg");
    let on = |schema: &PgSchema| -> Arc<dyn Store> { Arc::new(schema.open()) };
    let file = event_file(super::recording::EVENT);
    let a = start_on(on(&schema), PathBuf::new(), Some(&file), Limits::default()).await;
    let mut b = start_on(on(&schema), PathBuf::new(), None, Limits::default()).await;
    b.created = a.created.clone();
    let t1 = a.created.tables[0].id;
    // 25 s of audio (1.1 MB): its bytes span three of the database's chunks.
    let meta = record(&dir, "game", "共融賽 第2輪", 2_000, 25_000);
    let wav = std::fs::read(&meta.wav).unwrap();
    upload(upload_url(&a, t1), Some(a.token(Role::Black, 0)), meta)
        .await
        .expect("node a keeps the recording in PostgreSQL");

    let listed = list(&b, t1).await;
    let r = &listed["recordings"][0];
    assert_eq!(
        (r["n"].as_u64(), r["side"].as_str(), r["game"].as_str()),
        (Some(1), Some("black"), Some("共融賽 第2輪")),
        "node b lists it: {listed}"
    );
    assert_eq!(r["bytes"], wav.len());
    let url = r["url"].as_str().unwrap().to_string();
    let (status, headers, body) = get(&b, &url, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::CONTENT_LENGTH],
        wav.len().to_string().as_str()
    );
    assert!(body == wav, "node b plays back the file node a received");
    // Seeking: a range across a chunk's end.
    let (status, headers, body) = get(&b, &url, Some("bytes=524000-525000")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        headers[header::CONTENT_RANGE],
        format!("bytes 524000-525000/{}", wav.len()).as_str()
    );
    assert!(
        body == wav[524_000..=525_000],
        "the part asked, byte for byte"
    );
    let _ = std::fs::remove_dir_all(&dir);
    a.stop().await;
    b.stop().await;
}
