//! An axum WebSocket as the connection's two streams ([`crate::ws::serve`]): frames in as
//! [`Incoming`], [`Outgoing`] out as frames. A frame beyond the protocol is not dropped in
//! silence: it arrives as [`Incoming::Broken`], which the connection answers with an
//! `error` and a close code (RFC 6455 §7.4.1).

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::future::ready;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite;

use crate::hub::Hub;
use crate::occupancy::Place;
use baoqi_protocol::ErrorCode;

use crate::ws::{self, Endpoint, Incoming};

/// Largest WebSocket message accepted from a client.
const MAX_MESSAGE: usize = baoqi_protocol::MAX_FRAME;
/// Read buffer of a WebSocket connection (it grows for a larger message).
pub const READ_BUFFER: usize = 4 * 1024;

/// Upgrades the request and serves the connection on `endpoint`; its `place` is told when
/// the connection authenticates.
pub(crate) fn upgrade(
    hub: Arc<Hub>,
    endpoint: Endpoint,
    place: Option<Arc<Place>>,
    up: WebSocketUpgrade,
) -> Response {
    // tungstenite zero-fills its read buffer up to this size on every read: protocol
    // messages are small, so a small buffer saves most of the server's time under load.
    up.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket: WebSocket| async move {
            let (sink, stream) = socket.split();
            // Everything up to the first close or error, that error included.
            let input = stream.scan(false, |ended, m| {
                if *ended {
                    return ready(None);
                }
                let item = incoming(m);
                *ended = !matches!(
                    item,
                    Some(Incoming::Text(_) | Incoming::Binary | Incoming::Ping | Incoming::Pong)
                );
                ready(item)
            });
            let output = sink.with(|o: Outgoing| ready(Ok::<_, axum::Error>(frame(o))));
            ws::serve(hub, endpoint, place, input, Box::pin(output)).await;
        })
}

/// What a frame (or a failed read) means to the connection; `None` ends the input.
fn incoming(m: Result<Message, axum::Error>) -> Option<Incoming> {
    match m {
        Ok(Message::Text(t)) => Some(Incoming::Text(t.as_str().to_owned())),
        Ok(Message::Binary(_)) => Some(Incoming::Binary),
        Ok(Message::Ping(_)) => Some(Incoming::Ping),
        Ok(Message::Pong(_)) => Some(Incoming::Pong),
        Ok(Message::Close(frame)) => Some(Incoming::Closed(frame.map(|f| f.code))),
        Err(e) => broken(e).map(Incoming::Broken),
    }
}

/// Which rule of the protocol a failed read broke; `None` when the peer just went away.
fn broken(e: axum::Error) -> Option<Broken> {
    let e = e.into_inner().downcast::<tungstenite::Error>().ok()?;
    match *e {
        tungstenite::Error::Capacity(_) => Some(Broken::TooLarge),
        tungstenite::Error::Utf8(_) => Some(Broken::NotUtf8),
        tungstenite::Error::Protocol(_) => Some(Broken::Protocol),
        _ => None,
    }
}

fn frame(o: Outgoing) -> Message {
    match o {
        Outgoing::Text(s) => Message::Text(s.into()),
        Outgoing::Ping => Message::Ping(axum::body::Bytes::new()),
        Outgoing::Close(code, reason) => Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })),
    }
}

/// Why the transport could not read a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Broken {
    /// Larger than [`baoqi_protocol::MAX_FRAME`]: closed with 1009.
    TooLarge,
    /// A text frame that is not UTF-8: closed with 1007.
    NotUtf8,
    /// Not a WebSocket frame (a reserved opcode, an unmasked frame…): closed with 1002.
    Protocol,
}

impl Broken {
    /// The close code (RFC 6455 §7.4.1), the error to send first and its text.
    pub(crate) fn answer(self) -> (u16, ErrorCode, &'static str) {
        match self {
            Broken::TooLarge => (1009, ErrorCode::TooLarge, "a frame is limited to 64 KiB"),
            Broken::NotUtf8 => (1007, ErrorCode::Malformed, "a text frame must be UTF-8"),
            Broken::Protocol => (1002, ErrorCode::Malformed, "not a WebSocket frame"),
        }
    }
}

/// A message to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outgoing {
    /// A text frame (a protocol message).
    Text(String),
    /// A ping: the peer's library answers it.
    Ping,
    /// A close frame: code and reason.
    Close(u16, &'static str),
}
