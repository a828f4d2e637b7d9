//! What one peer may cost the server: frames beyond the protocol are answered and closed
//! with a code, connections that send nothing are closed, one address cannot take every
//! socket, and a half-open WebSocket is found by its pings.

use crate::common;

use std::time::Duration;

use baoqi_server::limits::Limits;
use baoqi_store::model::Role;
use common::{Client, ONE_TABLE, event_file, start_with};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn short() -> Limits {
    Limits {
        header_read: Duration::from_millis(400),
        ping_every: Duration::from_millis(100),
        silent_for: Duration::from_millis(600),
        ..Limits::default()
    }
}

async fn server(limits: Limits) -> common::Server {
    start_with(None, Some(&event_file(ONE_TABLE)), limits).await
}

/// A masked client frame with opcode `op` and `payload` (RFC 6455 §5.2; short payloads).
fn frame(op: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mask = [1u8, 2, 3, 4];
    let mut out = vec![0x80 | op, 0x80 | payload.len() as u8];
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

fn error_code(c: &Client) -> Vec<String> {
    c.seen
        .iter()
        .filter(|v| v["type"] == "error")
        .map(|v| v["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn s16_10_a_frame_over_64_kib_is_answered_too_large_and_closed_1009() {
    let s = server(Limits::default()).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.send_raw(&"x".repeat(70 * 1024)).await;
    assert_eq!(red.close_code(3000).await, Some(1009), "{:?}", red.seen);
    assert_eq!(error_code(&red), ["too_large"]);
}

#[tokio::test]
async fn s16_10_a_text_frame_that_is_not_utf8_is_answered_and_closed_1007() {
    let s = server(Limits::default()).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.write_raw(&frame(0x1, &[0xff, 0xfe, 0x41])).await;
    assert_eq!(red.close_code(3000).await, Some(1007), "{:?}", red.seen);
    assert_eq!(error_code(&red), ["malformed"]);
}

#[tokio::test]
async fn s16_10_a_reserved_opcode_is_answered_and_closed_1002() {
    let s = server(Limits::default()).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    red.write_raw(&frame(0x3, b"")).await;
    assert_eq!(red.close_code(3000).await, Some(1002), "{:?}", red.seen);
    assert_eq!(error_code(&red), ["malformed"]);
}

/// Whether the server closes `tcp` within `ms` (reads what it sends meanwhile).
async fn closed_within(tcp: &mut TcpStream, ms: u64) -> bool {
    let mut buf = [0u8; 4096];
    let until = tokio::time::Instant::now() + Duration::from_millis(ms);
    loop {
        match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test]
async fn s16_6_a_connection_that_never_sends_a_request_is_closed() {
    let s = server(short()).await;
    let mut idle = TcpStream::connect(s.addr).await.unwrap();
    assert!(closed_within(&mut idle, 3000).await, "still open after 3 s");
}

#[tokio::test]
async fn s16_6_headers_sent_a_byte_at_a_time_are_cut_off() {
    let s = server(short()).await;
    let mut slow = TcpStream::connect(s.addr).await.unwrap();
    let request =
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let mut cut = false;
    for b in request {
        if slow.write_all(&[*b]).await.is_err() {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // 60 bytes at 20 a second take 3 s: the 400 ms header timeout must end it first.
    assert!(
        cut || closed_within(&mut slow, 100).await,
        "headers at 20 bytes/s accepted"
    );
}

async fn http_ok(addr: std::net::SocketAddr) -> bool {
    let Ok(mut tcp) = TcpStream::connect(addr).await else {
        return false;
    };
    let req = b"GET /api/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    if tcp.write_all(req).await.is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
    read.is_ok() && answer.starts_with(b"HTTP/1.1 200")
}

#[tokio::test]
async fn s16_6_one_address_cannot_take_every_socket() {
    let limits = Limits {
        per_address: 4,
        header_read: Duration::from_secs(30),
        ..Limits::default()
    };
    let s = server(limits).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(s.addr).await.unwrap());
    }
    let mut fifth = TcpStream::connect(s.addr).await.unwrap();
    assert!(
        closed_within(&mut fifth, 2000).await,
        "a fifth connection was kept"
    );
    assert!(
        !http_ok(s.addr).await,
        "a request beyond the address's share was served"
    );
    held.pop();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        http_ok(s.addr).await,
        "a place given back is not free again"
    );
}

#[tokio::test]
async fn s16_6_an_upgraded_websocket_keeps_its_place_until_it_closes() {
    let limits = Limits {
        per_address: 2,
        ..Limits::default()
    };
    let s = server(limits).await;
    let red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    assert!(
        !http_ok(s.addr).await,
        "two WebSockets hold the address's two places"
    );
    red.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(http_ok(s.addr).await);
    black.close().await;
}

#[tokio::test]
async fn s16_6_a_half_open_websocket_is_closed_when_its_pongs_stop() {
    let s = server(short()).await;
    let mut gone = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let mut here = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    // `gone` reads nothing (so answers no ping) for 1.5 s; `here` reads, and its library
    // answers every ping.
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    while tokio::time::Instant::now() < until {
        let _ = here.quiet(50).await;
    }
    assert!(
        gone.closed_within(1000).await,
        "a silent peer is still connected"
    );
    here.command("q", json!({"type": "query_time"})).await;
    let answer = here.answer("q").await;
    assert!(
        ["ack", "rejected"].contains(&answer["type"].as_str().unwrap()),
        "{answer}"
    );
}

fn stored(s: &common::Server) -> usize {
    s.hub.store().log(s.created.tables[0].id).unwrap().len()
}

/// Sends `n` copies of `command` without waiting, then reads the `n` answers; returns how
/// many of each type came back.
async fn flood(c: &mut Client, n: usize, command: serde_json::Value) -> (usize, usize) {
    for i in 0..n {
        c.command(&format!("f{i}"), command.clone()).await;
    }
    let (mut acks, mut limited) = (0, 0);
    for i in 0..n {
        let a = c.answer(&format!("f{i}")).await;
        match (a["type"].as_str(), a["code"].as_str()) {
            (Some("ack"), _) => acks += 1,
            (Some("error"), Some("rate_limited")) => limited += 1,
            _ => panic!("unexpected answer {a}"),
        }
    }
    (acks, limited)
}

#[tokio::test]
async fn s16_7_a_seat_flooding_queries_is_told_rate_limited_and_little_is_stored() {
    let s = server(Limits::default()).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let before = stored(&s);
    // 90 at once: within the connection's budget of messages (100 at once), beyond which
    // a client that ignores its answers is closed.
    let (acks, limited) = flood(&mut red, 90, json!({"type": "query_time"})).await;
    // A burst of 30, then 10 a second: a human asking the time is never refused.
    assert!((30..=45).contains(&acks), "{acks} acks");
    assert_eq!(acks + limited, 90);
    assert!(
        stored(&s) - before <= 45,
        "{} entries stored",
        stored(&s) - before
    );
    // The other seat is not limited by red's flood, and red's bucket refills.
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    black.command("b", json!({"type": "query_time"})).await;
    assert_eq!(black.answer("b").await["type"], "ack");
    tokio::time::sleep(Duration::from_millis(300)).await;
    red.command("r", json!({"type": "query_time"})).await;
    assert_eq!(red.answer("r").await["type"], "ack");
}

#[tokio::test]
async fn s16_7_ticks_that_change_nothing_are_not_stored() {
    let s = server(Limits::default()).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let before = stored(&s);
    let (acks, _) = flood(&mut red, 20, json!({"type": "tick"})).await;
    assert_eq!(acks, 20);
    assert_eq!(stored(&s), before, "empty ticks were stored");
}

#[tokio::test]
async fn s16_6_an_upload_at_a_byte_a_second_is_cut_off() {
    let limits = Limits {
        upload_grace: Duration::from_millis(300),
        upload_min_rate: 1000,
        ..Limits::default()
    };
    let s = server(limits).await;
    let mut tcp = TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /api/tables/{}/recording HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: audio/wav\r\nContent-Length: 100000\r\nX-Baoqi-Game: g\r\n\
         X-Baoqi-Event-Log-Offset-Ms: 0\r\nX-Baoqi-Started-Unix-Ms: 0\r\n\
         X-Baoqi-Sample-Rate: 22050\r\n\r\nRIFF",
        s.created.tables[0].id,
        s.token(Role::Red, 0)
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let (mut rd, mut wr) = tcp.into_split();
    let dribble = tokio::spawn(async move {
        // 20 bytes a second, for at most 4 s.
        for _ in 0..80 {
            if wr.write_all(b"x").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    let mut answer = vec![0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(3), rd.read(&mut answer))
        .await
        .expect("an answer before the upload's 4 s are over")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    dribble.abort();
}

/// A bare TCP connection from `from` (a loopback address other than the server's own), which
/// sends nothing.
async fn bare_from(from: [u8; 4], to: std::net::SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind((std::net::Ipv4Addr::from(from), 0).into())
        .unwrap();
    socket.connect(to).await.unwrap()
}

#[tokio::test]
async fn s16_6_loopback_addresses_share_one_share() {
    let limits = Limits {
        per_address: 4,
        header_read: Duration::from_secs(30),
        ..Limits::default()
    };
    let s = server(limits).await;
    let mut held = Vec::new();
    for last in 1..=4 {
        held.push(bare_from([127, 0, 0, last], s.addr).await);
    }
    let mut fifth = bare_from([127, 0, 0, 5], s.addr).await;
    assert!(
        closed_within(&mut fifth, 2000).await,
        "a fifth loopback address got a share of its own"
    );
}

/// A seat's WebSocket, joined with a timeout instead of a panic when the server turns it
/// away.
async fn try_join(url: &str, token: &str) -> Option<Client> {
    let joined = tokio::time::timeout(Duration::from_secs(3), Client::try_join(url, token));
    joined.await.ok().flatten()
}

#[tokio::test]
async fn s16_6_a_full_server_closes_a_bare_connection_to_let_a_seat_in() {
    let limits = Limits {
        total: 6,
        header_read: Duration::from_secs(30),
        ..Limits::default()
    };
    let s = server(limits).await;
    // A stranger's bare connections from four addresses fill the server.
    let mut bare = Vec::new();
    for i in 0..6u8 {
        bare.push(bare_from([127, 0, 1, 1 + i % 4], s.addr).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let red = try_join(&s.url("seat"), &s.token(Role::Red, 0)).await;
    let mut red = red.expect("the player was turned away from a server full of bare connections");
    let mut closed = 0;
    for tcp in &mut bare {
        closed += usize::from(closed_within(tcp, 200).await);
    }
    assert!(closed >= 1, "no bare connection made room");
    // More bare connections never take the player's place.
    for i in 0..6u8 {
        bare.push(bare_from([127, 0, 2, 1 + i], s.addr).await);
    }
    red.command("q", json!({"type": "query_time"})).await;
    assert_eq!(red.answer("q").await["type"], "ack");
}
