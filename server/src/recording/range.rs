//! Serving a recording with byte ranges (RFC 9110 §14), so that an `<audio>` element can
//! seek in a long game without downloading it all: one `bytes=` range per request (what
//! browsers send for media); anything else is answered with the whole file.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;

/// What a `Range` header asks of a file of a known length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// The whole file (no header, a header this server does not serve, several ranges).
    Whole,
    /// Bytes `start..=end`, both within the file.
    Part {
        /// First byte.
        start: u64,
        /// Last byte (inclusive).
        end: u64,
    },
    /// A range that starts beyond the end of the file: 416.
    Unsatisfiable,
}

/// Reads a `Range` header value against a file of `len` bytes: `bytes=A-B`, `bytes=A-`
/// or `bytes=-N` (the last N bytes).
pub fn wanted(header: Option<&str>, len: u64) -> Wanted {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return Wanted::Whole;
    };
    if spec.contains(',') {
        return Wanted::Whole;
    }
    let Some((a, b)) = spec.split_once('-') else {
        return Wanted::Whole;
    };
    let (a, b) = (a.trim(), b.trim());
    let parsed = match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(start), Ok(end)) if start <= end => Some((start, end.min(len.saturating_sub(1)))),
        (Ok(start), Err(_)) if b.is_empty() => Some((start, len.saturating_sub(1))),
        (Err(_), Ok(n)) if a.is_empty() && n > 0 => {
            Some((len.saturating_sub(n), len.saturating_sub(1)))
        }
        (Err(_), Ok(0)) if a.is_empty() => return Wanted::Unsatisfiable,
        _ => None,
    };
    match parsed {
        None => Wanted::Whole,
        Some((start, _)) if start >= len => Wanted::Unsatisfiable,
        Some((start, end)) => Wanted::Part { start, end },
    }
}

/// The most bytes read at once for the streamed body (the PostgreSQL store's chunk).
const PIECE: usize = 512 * 1024;

/// Reads up to `len` bytes from byte `start` of what is served; blocking (a file, a
/// database).
pub type ReadAt = Arc<dyn Fn(u64, usize) -> std::io::Result<Vec<u8>> + Send + Sync>;

/// The bytes `start..start+len` of what `read` reads, streamed in pieces, each read on a
/// blocking thread.
fn body_of(read: ReadAt, start: u64, len: u64) -> Body {
    let pieces = stream::unfold((start, len), move |(at, left)| {
        let read = read.clone();
        async move {
            if left == 0 {
                return None;
            }
            let want = PIECE.min(left as usize);
            let got = tokio::task::spawn_blocking(move || read(at, want))
                .await
                .map_err(std::io::Error::other)
                .and_then(|r| r);
            match got {
                Ok(piece) if piece.is_empty() => None,
                Ok(piece) => {
                    let n = piece.len() as u64;
                    Some((Ok(piece), (at + n, left.saturating_sub(n))))
                }
                Err(e) => Some((Err(e), (at, 0))),
            }
        }
    });
    Body::from_stream(pieces)
}

/// Answers a GET of `len` bytes that `read` reads, with `content_type`, honouring a `Range`
/// header: 200 with the whole, 206 with the part asked, 416 for a range beyond its end.
pub fn serve(len: u64, content_type: &'static str, headers: &HeaderMap, read: ReadAt) -> Response {
    let range = headers.get(header::RANGE).and_then(|v| v.to_str().ok());
    let common = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::ACCEPT_RANGES, HeaderValue::from_static("bytes")),
    ];
    match wanted(range, len) {
        Wanted::Whole => (
            StatusCode::OK,
            common,
            [(header::CONTENT_LENGTH, len)],
            body_of(read, 0, len),
        )
            .into_response(),
        Wanted::Part { start, end } => {
            let part = end - start + 1;
            let content_range = format!("bytes {start}-{end}/{len}");
            (
                StatusCode::PARTIAL_CONTENT,
                common,
                [
                    (header::CONTENT_RANGE, content_range),
                    (header::CONTENT_LENGTH, part.to_string()),
                ],
                body_of(read, start, part),
            )
                .into_response()
        }
        Wanted::Unsatisfiable => (
            StatusCode::RANGE_NOT_SATISFIABLE,
            [(header::CONTENT_RANGE, format!("bytes */{len}"))],
            format!("the file has {len} bytes"),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        let w = |h: &str| wanted(Some(h), 1000);
        assert_eq!(wanted(None, 1000), Wanted::Whole);
        assert_eq!(w("bytes=0-99"), Wanted::Part { start: 0, end: 99 });
        assert_eq!(
            w("bytes=500-"),
            Wanted::Part {
                start: 500,
                end: 999
            }
        );
        assert_eq!(
            w("bytes=-100"),
            Wanted::Part {
                start: 900,
                end: 999
            }
        );
        assert_eq!(
            w("bytes=900-5000"),
            Wanted::Part {
                start: 900,
                end: 999
            }
        );
        assert_eq!(w("bytes=-5000"), Wanted::Part { start: 0, end: 999 });
    }

    #[test]
    fn a_range_past_the_end_is_unsatisfiable_and_odd_ones_get_the_whole_file() {
        let w = |h: &str| wanted(Some(h), 1000);
        assert_eq!(w("bytes=1000-"), Wanted::Unsatisfiable);
        assert_eq!(w("bytes=-0"), Wanted::Unsatisfiable);
        assert_eq!(wanted(Some("bytes=0-"), 0), Wanted::Unsatisfiable);
        for odd in [
            "bytes=5-1",
            "bytes=0-1,5-9",
            "items=0-1",
            "bytes=x-y",
            "bytes=7",
        ] {
            assert_eq!(w(odd), Wanted::Whole, "{odd}");
        }
    }
}
