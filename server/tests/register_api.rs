//! The register over HTTP, as on the command line: the register imported from a file's
//! bytes (UTF-8, UTF-16 or Big5, the encoding said; anything else refused with the fix in
//! words), a second player of a name and club taken only with the organiser's word
//! (`allow_same_name`), a line entered by mistake struck before the player is paired.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_store::model::Role;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::organiser::{call, event_at, finish, pair, token};

/// POSTs `bytes` as the body of `path`.
async fn send(
    hub: &std::sync::Arc<baoqi_server::Hub>,
    path: &str,
    token: &str,
    bytes: Vec<u8>,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "text/csv")
        .body(Body::from(bytes))
        .unwrap();
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(req)
        .await
        .unwrap();
    let status = resp.status();
    let body = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// "姓名,所屬團體\n陳大文,盲人會\n…" in UTF-16 LE with its BOM, tab-separated: a
/// spreadsheet's "Unicode Text".
fn unicode_text(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xFE];
    for unit in text.replace(',', "\t").encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    bytes
}

#[tokio::test]
async fn the_register_api_imports_a_file_and_asks_the_organisers_word_on_a_namesake() {
    let (store, c, db) = event_at("swiss", 20);
    let e = c.event;
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    let hub = server.hub.clone();
    let referee = token(&c, Role::Referee);
    let import = format!("/api/events/{e}/players/import");

    let (status, body) = send(&hub, &import, &referee, b"name\n\x80\x81\n".to_vec()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("encoding"))
    );
    assert!(
        body["error"].as_str().unwrap().contains("CSV UTF-8"),
        "{body}"
    );

    let twice = "姓名,所屬團體\n陳大文,盲人會\n李明,\n陳大文,盲人會\n";
    let (status, body) = send(&hub, &import, &referee, unicode_text(twice)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("line 4"), "{body}");
    let confirmed = format!("{import}?allow_same_name=true");
    let (status, body) = send(&hub, &confirmed, &referee, unicode_text(twice)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        body,
        json!({"players": 3, "encoding": "UTF-16 LE", "unread": []})
    );

    let players = format!("/api/events/{e}/players");
    let again = json!({"name": "李明"});
    let (status, body) = call(&hub, "POST", &players, Some(&referee), Some(again)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("same_name"))
    );
    let confirmed = json!({"name": "李明", "allow_same_name": true});
    let (status, body) = call(&hub, "POST", &players, Some(&referee), Some(confirmed)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["player"]["id"], 4);
    let unknown = json!({"name": "李四", "colour": "red"});
    let (status, _) = call(&hub, "POST", &players, Some(&referee), Some(unknown)).await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown fields stay refused"
    );

    let delete = format!("{players}/4/delete");
    let reason = json!({"reason": "entered twice"});
    let (status, body) = call(&hub, "POST", &delete, Some(&referee), Some(reason)).await;
    assert_eq!((status, &body["name"]), (StatusCode::OK, &json!("李明")));
    let (status, body) = call(&hub, "GET", &players, Some(&referee), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["players"].as_array().unwrap().len(), 3);
    let texts = body["changes"].to_string();
    assert!(texts.contains("struck from the register"), "{texts}");
}

#[tokio::test]
async fn the_register_api_refuses_bidi_controls_and_zero_width_characters() {
    let (store, c, db) = event_at("swiss", 20);
    let e = c.event;
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    let hub = server.hub.clone();
    let referee = token(&c, Role::Referee);
    let players = format!("/api/events/{e}/players");
    for name in ["周\u{202E}四", "周四\u{200B}", "\u{2066}周四"] {
        let add = json!({"name": name});
        let (status, body) = call(&hub, "POST", &players, Some(&referee), Some(add)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{name:?}: {body}");
        assert!(body.to_string().contains("U+"), "{body}");
    }
    let patch = json!({"club": "南\u{202D}區"});
    let (status, body) = call(
        &hub,
        "PATCH",
        &format!("{players}/1"),
        Some(&referee),
        Some(patch),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let import = format!("/api/events/{e}/players/import");
    let file = "姓名\n周\u{202E}四\n".as_bytes().to_vec();
    let (status, body) = send(&hub, &import, &referee, file).await;
    assert!(status.is_client_error(), "{status}: {body}");
    let reason = json!({"reason": "身體\u{202E}不適"});
    let withdraw = format!("{players}/2/withdraw");
    let (status, body) = call(
        &hub,
        "POST",
        &withdraw,
        Some(&referee),
        Some(reason.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let delete = format!("{players}/3/delete");
    let (status, body) = call(&hub, "POST", &delete, Some(&referee), Some(reason)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("U+202E"), "{body}");
    server.stop().await;
}

#[tokio::test]
async fn a_late_entrant_given_half_points_by_the_api_scores_a_draw_for_the_round_he_missed() {
    let (store, c, db) = event_at("swiss", 20);
    let e = c.event;
    let first = pair(&store, e);
    finish(&store, e, &first);
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    let hub = server.hub.clone();
    let referee = token(&c, Role::Referee);
    let players = format!("/api/events/{e}/players");
    let add = json!({"name": "周四", "missed": "half_point"});
    let (status, body) = call(&hub, "POST", &players, Some(&referee), Some(add)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["player"]["id"], 6, "{body}");
    // What his missed rounds score is chosen when he is added, not in a correction.
    let edit = json!({"club": "南區", "missed": "nothing"});
    let path = format!("{players}/6");
    let (status, body) = call(&hub, "PATCH", &path, Some(&referee), Some(edit)).await;
    assert!(status.is_client_error(), "{status} {body}");

    let standings = format!("/api/events/{e}/standings.json");
    let (status, body) = call(&hub, "GET", &standings, None, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let line = body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["player"]["name"] == "周四")
        .unwrap_or_else(|| panic!("{body}"));
    // Round 1 as a draw under the event's game points: half a point.
    assert_eq!(
        (line["halves"].clone(), line["score"].clone()),
        (json!(1), json!("½"))
    );
    let row = body["crosstable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == 6)
        .unwrap_or_else(|| panic!("{body}"));
    assert_eq!(row["cells"][0]["result"], "half_bye", "{row}");
    // Logged with the organiser's choice.
    let (_, view) = call(&hub, "GET", &players, Some(&referee), None).await;
    assert!(view.to_string().contains("half_point"), "{view}");
}
