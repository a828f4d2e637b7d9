//! Revoking a token did not end a live connection (a revoked referee's `pause` and
//! `issue_warning` were still accepted 10 s later). Now the server reads the revoked seats
//! at each store scan and closes their sessions, telling the client why.

use crate::common;

use baoqi_store::model::Role;
use common::{Client, event_file, start};
use serde_json::json;

use common::ONE_TABLE as EVENT;

#[tokio::test]
async fn a_revoked_seat_is_told_and_disconnected_and_the_others_go_on() {
    let s = start(None, Some(&event_file(EVENT))).await;
    let referee_token = s.token(Role::Referee, 0);
    let mut referee = Client::join(&s.url("monitor"), &referee_token, None).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    referee.until(|v| v["type"] == "state").await;
    red.until(|v| v["type"] == "state").await;
    assert!(baoqi_organiser::admin::revoke(&**s.hub.store(), &referee_token).unwrap());
    s.hub.check_revocations().await.unwrap();
    let told = referee.until(|v| v["type"] == "error").await;
    assert_eq!(told["code"], "revoked", "{told}");
    assert!(
        referee.closed_within(2_000).await,
        "the revoked session is closed"
    );
    // The player's session is untouched: his command is answered.
    red.command("q", json!({"type": "query_time"})).await;
    let answer = red.answer("q").await;
    assert_ne!(answer["type"], "error", "{answer}");
    // And the revoked token cannot join again.
    let mut again = Client::connect(&s.url("monitor")).await;
    again
        .send(json!({"v": 2, "type": "hello", "token": referee_token}))
        .await;
    assert_eq!(again.next().await["code"], "revoked");
    s.stop().await;
}
