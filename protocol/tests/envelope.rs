//! The wire's envelope, from outside the crate.

use baoqi_arbiter::Millis;
use baoqi_protocol::*;
use serde_json::Value;
use serde_json::json;

#[test]
fn messages_carry_the_version() {
    let text = encode(&ServerMsg::Pong {
        id: None,
        at: Millis(3),
    });
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v, json!({"v": 2, "type": "pong", "id": null, "at": 3}));
}

#[test]
fn s11_bad_messages_get_precise_errors() {
    let code = |t: &str| decode(t).err().map(|e| e.code);
    assert_eq!(code("{"), Some(ErrorCode::Malformed));
    assert_eq!(code(r#"{"type":"ping"}"#), Some(ErrorCode::Version));
    assert_eq!(code(r#"{"v":1,"type":"ping"}"#), Some(ErrorCode::Version));
    assert_eq!(code(r#"{"v":2,"type":"fly"}"#), Some(ErrorCode::Malformed));
    let bad_move =
        r#"{"v":2,"type":"command","id":"c1","command":{"type":"board_move","mv":"h2h2"}}"#;
    let e = decode(bad_move).unwrap_err();
    assert_eq!(
        (e.code, e.id.as_deref()),
        (ErrorCode::BadCommand, Some("c1"))
    );
    assert!(e.message.contains("change the point"), "{}", e.message);
    assert_eq!(
        decode(r#"{"v":2,"type":"hello","token":"ab"}"#).unwrap(),
        ClientMsg::Hello {
            token: "ab".into(),
            since: None
        }
    );
}

#[test]
fn the_restart_pause_is_the_servers_alone() {
    let seat_pause = r#"{"type":"pause","reason":"server_restart"}"#;
    assert!(server_only(&serde_json::from_str(seat_pause).unwrap()));
    assert!(!server_only(
        &serde_json::from_str(r#"{"type":"pause"}"#).unwrap()
    ));
}
