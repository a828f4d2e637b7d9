//! A seat's WebSocket to a `baoqi serve` process, as the process tests drive it: join with a
//! token, send a command.

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A client connection.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Connects to `endpoint` (seat, monitor, watch) and says hello with `token`.
pub async fn join(addr: &str, endpoint: &str, token: &str) -> Ws {
    let url = format!("ws://{addr}/ws/{endpoint}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    let hello = json!({"v": 2, "type": "hello", "token": token});
    ws.send(Message::text(hello.to_string())).await.unwrap();
    ws
}

/// Sends `command` under `id`; an error when the connection is gone.
pub async fn send(
    ws: &mut Ws,
    id: &str,
    command: Value,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    let msg = json!({"v": 2, "type": "command", "id": id, "command": command});
    ws.send(Message::text(msg.to_string())).await
}
