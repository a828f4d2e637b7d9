//! A seat's WebSocket to a `baoqi serve` process, as the process tests drive it: join with a
//! token, send a command, read the next message, play a game's script, and read back what
//! the store kept of it.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baoqi_store::model::Role;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::BIN;

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

/// The next text message as JSON; `None` after 10 s of silence or when the connection is gone.
pub async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).ok();
        }
    }
}

/// The next message `pred` accepts.
pub async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next(ws).await.expect("a message");
        if pred(&v) {
            return v;
        }
    }
}

/// The players' commands of `moves` moves (seat 0 red, 1 black), each as sent over the
/// socket: a walk that never ends the game (the crash benchmark's).
pub fn script(moves: usize) -> Vec<(usize, Value)> {
    baoqi_store::testing::walk::quiet_game(moves, 0, 7)
        .unwrap()
        .into_iter()
        .map(|(role, command)| {
            let seat = usize::from(role == Role::Black);
            (seat, serde_json::to_value(command).unwrap())
        })
        .collect()
}

/// The players' commands stored for the table, from `baoqi export --log`.
pub fn stored_player_commands(db: &std::path::Path) -> Vec<Value> {
    let out = Command::new(BIN)
        .args(["export", "--log", "1", "--db"])
        .arg(db)
        .output()
        .expect("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log: Value = serde_json::from_slice(&out.stdout).expect("JSON log");
    log.as_array()
        .unwrap()
        .iter()
        .filter(|e| e["table"] == 1 && e["kind"] == "command")
        .filter(|e| matches!(e["actor"]["seat"].as_str(), Some("red" | "black")))
        .map(|e| e["command"].clone())
        .collect()
}

/// Plays the script from `from` on; pushes the index of every acknowledged command.
pub async fn play(
    mut seats: [Ws; 2],
    steps: Vec<(usize, Value)>,
    from: usize,
    acked: Arc<Mutex<Vec<usize>>>,
) {
    for (k, (who, cmd)) in steps.into_iter().enumerate().skip(from) {
        let id = format!("c{k}");
        let msg = json!({"v": 2, "type": "command", "id": id, "command": cmd});
        if seats[who]
            .send(Message::text(msg.to_string()))
            .await
            .is_err()
        {
            return;
        }
        loop {
            let Some(v) = next(&mut seats[who]).await else {
                return;
            };
            if v["id"] == id.as_str() {
                assert_eq!(v["type"], "ack", "{cmd}: {v}");
                acked.lock().unwrap().push(k);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
}

/// Sends a referee command to table 1 and expects it to be acknowledged.
pub async fn referee_command(referee: &mut Ws, command: Value) {
    let msg = json!({"v": 2, "type": "command", "id": "go", "table": 1, "command": command});
    referee.send(Message::text(msg.to_string())).await.unwrap();
    let go = until(referee, |v| v["id"] == "go").await;
    assert_eq!(go["type"], "ack", "the match resumes: {go}");
}
