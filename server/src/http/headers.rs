//! The security headers of every response, pages and API alike (`docs/decisions.md`, "The
//! pages' security headers"). The pages are plain HTML with their scripts and styles in
//! files under `/assets/`, so the policy allows nothing but this server: no inline script
//! or style, no plug-in, no other site's frame around a page.

use axum::http::HeaderValue;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::response::Response;

/// The pages' Content-Security-Policy: scripts, styles, images, fonts, fetches and
/// WebSocket connections to this server only (`'self'` covers `ws:` and `wss:` to the same
/// host); images also as `data:` (the pages' empty icon, `data:,`, spares the browser a
/// request for `/favicon.ico`); a game recording plays from the object URL its download made (`blob:`); no plug-in, no
/// `<base>` that would move the scripts' addresses, forms sent only here, and no frame
/// around a page (`frame-ancestors 'none'`: a seat's resign button or a referee's ruling
/// cannot be clicked through another site's page).
pub const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; font-src 'self'; connect-src 'self'; media-src 'self' blob:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to `response`: the policy, `X-Frame-Options: DENY` for
/// browsers that know no `frame-ancestors`, `X-Content-Type-Options: nosniff` (a record
/// download is never run as a script), `Referrer-Policy: no-referrer` (a page's address
/// never leaves for another site).
pub async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
