//! Every kind of WebSocket frame a peer may send costs it from the one budget of messages
//! (`docs/protocol.md`, "Limits"): a flood of binary frames or of pings is closed like a
//! flood of malformed JSON, and the player beside it keeps playing.

use crate::common;

use baoqi_store::model::Role;
use common::{Client, ONE_TABLE, event_file, start};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Frames sent in a flood: four times the budget's burst (100), in well under a second.
const FLOOD: usize = 400;

/// Sends `n` copies of `frame`, stopping once the server has closed the connection.
async fn flood(c: &mut Client, n: usize, frame: &Message) {
    for _ in 0..n {
        if !c.send_frame(frame.clone()).await {
            return;
        }
    }
}

/// A player's `query_time` is answered.
async fn still_plays(c: &mut Client) {
    c.command("q", json!({"type": "query_time"})).await;
    let answer = c.answer("q").await;
    assert_eq!(answer["type"], "ack", "{answer}");
}

#[tokio::test]
async fn a_flood_of_binary_frames_is_closed_like_malformed_json() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    flood(&mut red, FLOOD, &Message::binary(vec![0u8; 16])).await;
    assert_eq!(
        red.close_code(5_000).await,
        Some(1008),
        "{:?}",
        red.seen.len()
    );
    let codes: Vec<_> = red.seen.iter().map(|v| v["code"].clone()).collect();
    assert!(codes.contains(&json!("malformed")), "{codes:?}");
    assert_eq!(
        codes.last(),
        Some(&json!("rate_limited")),
        "told why it is closed"
    );
    still_plays(&mut black).await;
    s.stop().await;
}

#[tokio::test]
async fn a_flood_of_websocket_pings_is_closed_like_json_pings() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    let mut black = Client::join(&s.url("seat"), &s.token(Role::Black, 0), None).await;
    flood(&mut red, FLOOD, &Message::Ping(b"p".to_vec().into())).await;
    assert_eq!(red.close_code(5_000).await, Some(1008));
    still_plays(&mut black).await;
    s.stop().await;
}

#[tokio::test]
async fn a_flood_of_unasked_pongs_is_closed_too() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    flood(&mut red, FLOOD, &Message::Pong(b"p".to_vec().into())).await;
    assert_eq!(red.close_code(5_000).await, Some(1008));
    s.stop().await;
}

#[tokio::test]
async fn a_player_answering_the_servers_pings_is_never_closed_for_them() {
    let limits = baoqi_server::limits::Limits {
        ping_every: std::time::Duration::from_millis(20),
        ..baoqi_server::limits::Limits::default()
    };
    let s = common::start_with(None, Some(&event_file(ONE_TABLE)), limits).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    // 50 pings a second for 3 s, each answered: 150 pongs, beyond the burst of 100.
    assert!(
        !red.closed_within(3_000).await,
        "closed for answering pings"
    );
    still_plays(&mut red).await;
    s.stop().await;
}
