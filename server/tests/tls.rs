//! TLS on the server's own listener, with a hall's own certificate authority (made here with
//! rcgen, as a hall would with its own tools): a game's commands over `wss://` with the
//! authority trusted, `/healthz` over https; a plain `ws://` or `http://` request on the
//! same listener is refused, so no token is read in clear; a client that does not trust
//! the hall's authority is refused too.

use crate::common;

use std::sync::Arc;

use baoqi_store::SqliteStore;
use baoqi_store::model::Role;
use common::{Client, event_file};
use rustls::pki_types::CertificateDer;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A hall's authority and a certificate it signed for 127.0.0.1, written as PEM files:
/// (the authority's certificate, the server's certificate file, its key file).
fn hall_pki(
    dir: &std::path::Path,
) -> (
    CertificateDer<'static>,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "hall CA");
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca = ca.self_signed(&ca_key).unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .unwrap();
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf = leaf.signed_by(&leaf_key, &ca, &ca_key).unwrap();
    let (cert, key) = (dir.join("hall.crt"), dir.join("hall.key"));
    std::fs::write(&cert, leaf.pem()).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    std::fs::write(&key, leaf_key.serialize_pem()).unwrap();
    (ca.der().clone(), cert, key)
}

/// A client configuration that trusts `roots` only.
fn trusting(roots: &[CertificateDer<'static>]) -> Arc<rustls::ClientConfig> {
    let mut store = rustls::RootCertStore::empty();
    for r in roots {
        store.add(r.clone()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(store)
            .with_no_client_auth(),
    )
}

#[tokio::test]
async fn a_game_over_wss_with_the_halls_own_authority_and_nothing_in_clear() {
    let dir = tempdir();
    let (ca, cert, key) = hall_pki(&dir);
    let tls = baoqi_server::tls::server_config(&cert, &key).unwrap();
    let (store, db) = SqliteStore::open_temp().unwrap();
    let store: Arc<dyn baoqi_store::Store> = Arc::new(store);
    let created =
        baoqi_organiser::admin::create_event(&*store, &event_file(common::ONE_TABLE)).unwrap();
    let s = common::serve_secured(
        store,
        db,
        created,
        baoqi_server::limits::Limits::default(),
        Some(tls),
    )
    .await;
    let url = format!("wss://127.0.0.1:{}/ws/seat", s.addr.port());
    let token = s.token(Role::Red, 0);

    // Trusting the hall's authority: joined, and a command answered by the arbiter (the
    // game has not started: refused, as in clear).
    let mut red = Client::connect_tls(&url, trusting(&[ca])).await;
    red.send(json!({"v": 2, "type": "hello", "token": token}))
        .await;
    red.until(|v| v["type"] == "welcome").await;
    red.command("w", json!({"type": "word", "text": "x"})).await;
    let answer = red.answer("w").await;
    assert_eq!(
        (
            answer["type"].as_str(),
            answer["rejection"]["reason"].as_str()
        ),
        (Some("rejected"), Some("not_started")),
        "{answer}"
    );

    // In clear, on the same listener: no WebSocket, no page, no token read.
    let plain =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/ws/seat", s.addr.port())).await;
    assert!(plain.is_err(), "a plain ws:// connection was accepted");
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        tcp.read_to_end(&mut answer),
    )
    .await;
    assert!(
        !String::from_utf8_lossy(&answer).contains("200 OK"),
        "plain http answered"
    );

    // A client that does not trust the hall's authority is refused at the handshake.
    let stranger = rcgen::generate_simple_self_signed(vec!["elsewhere".to_owned()]).unwrap();
    let refused = tokio_tungstenite::connect_async_tls_with_config(
        url.as_str(),
        None,
        true,
        Some(tokio_tungstenite::Connector::Rustls(trusting(&[stranger
            .cert
            .der()
            .clone()]))),
    )
    .await;
    assert!(
        refused.is_err(),
        "a client that trusts another authority connected"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s7p6_a_recording_is_uploaded_over_https_trusting_the_halls_authority_alone() {
    use baoqi_audio::upload::{HttpUploader, Uploader};
    let dir = tempdir();
    let (_, cert, key) = hall_pki(&dir);
    let tls = baoqi_server::tls::server_config(&cert, &key).unwrap();
    let (store, db) = SqliteStore::open_temp().unwrap();
    let store: Arc<dyn baoqi_store::Store> = Arc::new(store);
    let created =
        baoqi_organiser::admin::create_event(&*store, &event_file(common::ONE_TABLE)).unwrap();
    let s = common::serve_secured(
        store,
        db,
        created,
        baoqi_server::limits::Limits::default(),
        Some(tls),
    )
    .await;
    let table = s.created.tables[0].id;
    let meta = super::recording::record(&dir, "game", "視障賽", 1_000, 300);
    let (port, token) = (s.addr.port(), s.token(Role::Red, 0));
    let path = format!("/api/tables/{table}/recording");
    let (ca, up) = (dir.join("ca.pem"), meta.clone());
    let uploaded = tokio::task::spawn_blocking(move || {
        let https = format!("https://127.0.0.1:{port}{path}");
        // Trusting the public authorities only: refused at the handshake, nothing sent.
        let stranger = HttpUploader::new(&https, Some(&token)).unwrap().upload(&up);
        // In clear on the TLS listener: nothing answered, the token not read.
        let plain = HttpUploader::new(&format!("http://127.0.0.1:{port}{path}"), Some(&token))
            .unwrap()
            .upload(&up);
        let trusted = HttpUploader::new(&https, Some(&token))
            .unwrap()
            .trusting(&ca)
            .unwrap()
            .upload(&up);
        (stranger, plain, trusted)
    })
    .await
    .unwrap();
    assert!(
        uploaded.0.is_err(),
        "an untrusted server took the recording"
    );
    assert!(uploaded.1.is_err(), "the TLS listener answered in clear");
    uploaded
        .2
        .expect("uploaded over https with the hall's authority");
    let kept = s.hub.recordings().archive().unwrap().list(table).unwrap();
    assert_eq!(kept.len(), 1, "the one upload over https is kept");
    assert_eq!(
        kept[0].upload.bytes,
        std::fs::metadata(&meta.wav).unwrap().len()
    );
}

#[test]
fn a_certificate_and_key_that_cannot_be_used_are_said_so() {
    let dir = tempdir();
    let (_, cert, key) = hall_pki(&dir);
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    let e = baoqi_server::tls::server_config(&empty, &key).unwrap_err();
    assert!(e.to_string().contains("no certificate"), "{e}");
    let e = baoqi_server::tls::server_config(&cert, &dir.join("missing.key")).unwrap_err();
    assert!(e.to_string().contains("missing.key"), "{e}");
    // A key that is not the certificate's.
    let (_, _, other_key) = hall_pki(&dir.join("other"));
    assert!(baoqi_server::tls::server_config(&cert, &other_key).is_err());
}

/// A scratch folder of this test's own.
fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "baoqi-tls-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("other")).unwrap();
    dir
}
