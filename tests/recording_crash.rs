//! A recording survives a crash of the real binary (附表七 part 6 建議每局對賽設錄音設備;
//! `docs/product.md` §11 nothing acknowledged is ever lost): `baoqi serve --demo` receives
//! a game's recording from the table client's own uploader, is killed with SIGKILL the
//! moment the upload is answered, restarts on the same database, and lists and serves the
//! recording byte for byte.

use std::time::{Duration, Instant};

use baoqi_audio::recording::{RATE, Recorder};
use baoqi_audio::upload::{HttpUploader, Uploader};

use crate::common;
use common::{Scratch, Server, get_with};

#[test]
fn s7p6_an_acknowledged_recording_survives_sigkill() {
    let dir = Scratch::new("rec-crash");
    let db = dir.join("crash.db");
    let mut server = Server::start(&db, true);
    let red = server.token("red", Some(1));
    let referee = server.token("referee", None);

    let wav = dir.join("game.wav");
    let rec = Recorder::start(&wav, "視障賽", Duration::from_millis(500), None).unwrap();
    let tone: Vec<f32> = (0..RATE).map(|i| ((i % 50) as f32 / 50.0) - 0.5).collect();
    rec.tap().push(Instant::now(), RATE, &tone, false);
    let meta = rec.finish().unwrap();
    let url = format!("{}/api/tables/1/recording", server.url);
    HttpUploader::new(&url, Some(&red))
        .unwrap()
        .upload(&meta)
        .expect("the upload is accepted");
    server.kill();

    let server = Server::start(&db, false);
    let addr = server.addr();
    let (status, body) = get_with(addr, "/api/tables/1/recordings", Some(&referee));
    assert!(status.contains("200"), "{status}");
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(list["recordings"][0]["game"], "視障賽");
    assert_eq!(list["recordings"][0]["event_log_offset_ms"], 500);
    assert_eq!(list["status"]["red"]["state"], "uploaded");
    let (status, body) = get_with(addr, "/api/tables/1/recordings/1.wav", Some(&referee));
    assert!(status.contains("200"), "{status}");
    assert!(
        body == std::fs::read(&meta.wav).unwrap(),
        "the recording is the one uploaded"
    );
}
