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

/// A command as a client frame.
fn command(c: &serde_json::Value) -> String {
    json!({"v": 2, "type": "command", "id": "c", "command": c}).to_string()
}

#[test]
fn a_word_is_a_word_of_notation_and_a_note_a_sentence() {
    let refused = |c: serde_json::Value| {
        let e = decode(&command(&c)).unwrap_err();
        assert_eq!(
            (e.code, e.id.as_deref()),
            (ErrorCode::BadCommand, Some("c"))
        );
        e.message
    };
    assert!(refused(json!({"type": "word", "text": "炮".repeat(17)})).contains("17 characters"));
    assert!(refused(json!({"type": "repeat_word", "text": ""})).contains("empty"));
    assert!(refused(json!({"type": "word", "text": " \t"})).contains("empty"));
    assert!(refused(json!({"type": "word", "text": "炮\u{0}"})).contains("U+0000"));
    assert!(refused(json!({"type": "word", "text": "二\r"})).contains("U+000D"));
    // Bidi controls and zero-width characters reorder or hide what a referee reads.
    assert!(refused(json!({"type": "word", "text": "炮\u{202E}"})).contains("U+202E"));
    assert!(refused(json!({"type": "word", "text": "\u{200B}二"})).contains("U+200B"));
    assert!(
        refused(json!({"type": "record_violation", "side": "red", "kind": "clock", "note": "遲\u{2066}到"}))
            .contains("U+2066")
    );
    assert!(
        refused(json!({"type": "issue_warning", "side": "red", "text": "\u{FEFF}警告"}))
            .contains("U+FEFF")
    );
    let long_note = "x".repeat(501);
    assert!(
        refused(
            json!({"type": "record_violation", "side": "red", "kind": "clock", "note": long_note})
        )
        .contains("501")
    );
    assert!(
        refused(
            json!({"type": "adjudicate", "ruling": "result", "winner": null,
            "reason": "a\u{7}", "article": "70(3)"})
        )
        .contains("U+0007")
    );
    for word in ["炮", "二", "C", "=", "pau3", "８"] {
        assert!(
            decode(&command(&json!({"type": "word", "text": word}))).is_ok(),
            "{word}"
        );
    }
    let two_lines = json!({"type": "verify_result", "note": "雙方口頭確認\n紅勝"});
    assert!(decode(&command(&two_lines)).is_ok());
}

#[test]
fn an_id_is_short() {
    let text = json!({"v": 2, "type": "ping", "id": "i".repeat(65)}).to_string();
    let e = decode(&text).unwrap_err();
    assert_eq!((e.code, e.id), (ErrorCode::Malformed, None));
    let text = json!({"v": 2, "type": "ping", "id": "i".repeat(64)}).to_string();
    assert!(decode(&text).is_ok());
}

#[test]
fn a_frame_that_is_not_an_object_is_malformed_not_a_wrong_version() {
    for text in ["[]", "3", "\"ping\"", "null"] {
        assert_eq!(
            decode(text).unwrap_err().code,
            ErrorCode::Malformed,
            "{text}"
        );
    }
}
