//! Every page and every API response carries the security headers: the pages load scripts
//! and styles from the server alone and may not be framed by another site (clickjacking of
//! a seat's resign or a referee's ruling), no response is sniffed as another type, and no
//! address (which may carry a token) leaves as a referrer.

use crate::common;

use axum::http::HeaderMap;
use common::{ONE_TABLE, event_file, start};

/// The header `name`, or "" when absent.
fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn every_page_and_api_response_carries_the_security_headers() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let table = s.created.tables[0].id;
    let paths = [
        "/".to_string(),
        "/seat".into(),
        "/monitor".into(),
        "/client".into(),
        "/organiser".into(),
        "/standings".into(),
        "/assets/app/common.js".into(),
        "/assets/style.css".into(),
        "/api/events".into(),
        format!("/api/tables/{table}"),
        format!("/api/tables/{table}/game.pgn"),
        "/api/no-such-thing".into(),
    ];
    for path in &paths {
        let (status, headers, _) = s.get(path, None).await;
        let csp = header(&headers, "content-security-policy");
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'none'",
        ] {
            assert!(csp.contains(part), "{path} ({status}): {part} in «{csp}»");
        }
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(header(&headers, "x-frame-options"), "DENY", "{path}");
        assert_eq!(
            header(&headers, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
        assert_eq!(header(&headers, "referrer-policy"), "no-referrer", "{path}");
    }
    s.stop().await;
}

#[tokio::test]
async fn no_page_holds_an_inline_script_or_style_the_policy_would_block() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    for path in [
        "/",
        "/seat",
        "/card",
        "/monitor",
        "/watch",
        "/proxy",
        "/client",
        "/organiser",
        "/standings",
    ] {
        let (_, _, body) = s.get(path, None).await;
        for inline in ["<script>", "<style", " style=\"", " onclick=", " onload="] {
            assert!(!body.contains(inline), "{path} holds {inline}");
        }
    }
    s.stop().await;
}
