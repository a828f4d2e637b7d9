//! Test harness: a server on port 0 over a temporary database, and WebSocket clients.

#![allow(dead_code, unreachable_pub, missing_docs)]

pub mod flaky;

pub use baoqi_store::testing::{PgSchema, played_log};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use baoqi_organiser::admin::{self, Created};
use baoqi_server::Hub;
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

/// A running server and what was created in it.
pub struct Server {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    pub created: Created,
    pub db: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// The token of the first seat of `role` (on table index `table` for players).
    pub fn token(&self, role: Role, table: usize) -> String {
        let id = self.created.tables[table].id;
        self.created
            .seats
            .iter()
            .find(|s| {
                s.seat.role == role && (s.seat.tables.is_empty() || s.seat.tables.contains(&id))
            })
            .map(|s| s.token.secret().to_string())
            .expect("a seat of this role")
    }

    /// A GET through the server's router with an optional bearer token: status, headers,
    /// body.
    pub async fn get(
        &self,
        path: &str,
        token: Option<&str>,
    ) -> (axum::http::StatusCode, axum::http::HeaderMap, String) {
        use tower::ServiceExt;
        let mut req = axum::http::Request::get(path);
        if let Some(t) = token {
            req = req.header(axum::http::header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let resp = baoqi_server::http::router(self.hub.clone())
            .oneshot(req.body(axum::body::Body::empty()).unwrap())
            .await
            .unwrap();
        let (parts, body) = resp.into_parts();
        let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        (
            parts.status,
            parts.headers,
            String::from_utf8_lossy(&bytes).into_owned(),
        )
    }

    pub fn url(&self, endpoint: &str) -> String {
        format!("ws://{}/ws/{endpoint}", self.addr)
    }

    /// Stops the server (graceful) and waits for it.
    pub async fn stop(mut self) -> PathBuf {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.task.await;
        self.db
    }
}

/// An event of one 視障賽 table (two blind players), a referee of it and a spectator link.
pub const ONE_TABLE: &str = r#"
name = "one table"
spectators = 1
[[tables]]
name = "t1"
red = "r1"
black = "b1"
[tables.match]
kind = "part6"
red = { name = "r1", categories = ["blind"] }
black = { name = "b1", categories = ["blind"] }
[[referees]]
name = "ref of t1"
tables = [1]
"#;

/// An event named `name` of two regular games of 10 minutes a side (甲 v 乙 on board 1,
/// 丙 v 丁 on board 2) under one chief referee.
pub fn two_boards(name: &str) -> EventFile {
    event_file(&format!(
        r#"
name = "{name}"
[[referees]]
name = "chief"
[[tables]]
name = "board 1"
red = "甲"
black = "乙"
[tables.match]
kind = "regular"
time.default = {{ base_ms = 600_000, mode = "plain" }}
[[tables]]
name = "board 2"
red = "丙"
black = "丁"
[tables.match]
kind = "regular"
time.default = {{ base_ms = 600_000, mode = "plain" }}
"#
    ))
}

/// An event file read from TOML text.
pub fn event_file(toml: &str) -> EventFile {
    EventFile::from_toml(toml).expect("event file")
}

/// Starts a server on port 0 over `db` (new when `None`), creating `file`'s event first
/// when given.
pub async fn start(db: Option<PathBuf>, file: Option<&EventFile>) -> Server {
    start_with(db, file, baoqi_server::limits::Limits::default()).await
}

/// [`start`] under other limits (shorter times for the limits' own tests).
pub async fn start_with(
    db: Option<PathBuf>,
    file: Option<&EventFile>,
    limits: baoqi_server::limits::Limits,
) -> Server {
    let (store, db) = match db {
        Some(p) => (SqliteStore::open(&p, false).unwrap(), p),
        None => SqliteStore::open_temp().unwrap(),
    };
    start_on(Arc::new(store), db, file, limits).await
}

/// [`start_with`] over any store (`db` is what [`Server::stop`] returns).
pub async fn start_on(
    store: Arc<dyn Store>,
    db: PathBuf,
    file: Option<&EventFile>,
    limits: baoqi_server::limits::Limits,
) -> Server {
    let created = match file {
        Some(f) => admin::create_event(&*store, f).unwrap(),
        None => Created {
            event: EventId(0),
            name: String::new(),
            tables: Vec::new(),
            seats: Vec::new(),
        },
    };
    serve_created(store, db, created, limits).await
}

/// Serves a store whose event was `created` already (its tables' logs may be written).
pub async fn serve_created(
    store: Arc<dyn Store>,
    db: PathBuf,
    created: Created,
    limits: baoqi_server::limits::Limits,
) -> Server {
    serve_secured(store, db, created, limits, None).await
}

/// [`serve_created`], speaking TLS only when `tls` is given.
pub async fn serve_secured(
    store: Arc<dyn Store>,
    db: PathBuf,
    created: Created,
    limits: baoqi_server::limits::Limits,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> Server {
    let hub = Hub::open_with(store, limits).unwrap();
    hub.start_tables(true).await.unwrap();
    // As `baoqi serve` does: tables added to the store later start within a scan.
    hub.watch_store();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let h = hub.clone();
    let task = tokio::spawn(async move {
        baoqi_server::run_secured(listener, h, tls, async move {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Server {
        addr,
        hub,
        created,
        db,
        stop: Some(stop),
        task,
    }
}

/// A protocol client over tokio-tungstenite.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub seen: Vec<Value>,
}

impl Client {
    /// A client of a TLS listener (`wss://…`), trusting what `tls` trusts.
    pub async fn connect_tls(url: &str, tls: Arc<rustls::ClientConfig>) -> Client {
        let connector = tokio_tungstenite::Connector::Rustls(tls);
        let (ws, _) =
            tokio_tungstenite::connect_async_tls_with_config(url, None, true, Some(connector))
                .await
                .expect("connect over TLS");
        Client {
            ws,
            seen: Vec::new(),
        }
    }

    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .expect("connect");
        Client {
            ws,
            seen: Vec::new(),
        }
    }

    /// Connects with a 4 KiB receive buffer (no autotuning): a client whose socket fills up
    /// quickly when it does not read.
    pub async fn connect_small(url: &str) -> Client {
        let addr = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("connect");
        Client {
            ws,
            seen: Vec::new(),
        }
    }

    /// Connects and says hello; returns the client after its `welcome`.
    pub async fn join(url: &str, token: &str, since: Option<u64>) -> Client {
        let mut c = Client::connect(url).await;
        c.send(json!({"v": 2, "type": "hello", "token": token, "since": since}))
            .await;
        let w = c.next().await;
        assert_eq!(w["type"], "welcome", "{w}");
        c
    }

    /// Connects and says hello; `None` when the server turns the connection away or sends
    /// no `welcome`.
    pub async fn try_join(url: &str, token: &str) -> Option<Client> {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.ok()?;
        let mut c = Client {
            ws,
            seen: Vec::new(),
        };
        c.ws.send(Message::text(
            json!({"v": 2, "type": "hello", "token": token}).to_string(),
        ))
        .await
        .ok()?;
        while let Some(Ok(msg)) = c.ws.next().await {
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).ok()?;
                return (v["type"] == "welcome").then_some(c);
            }
        }
        None
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::text(text.to_string())).await.unwrap();
    }

    /// Sends one frame as it is (a binary frame, a ping…), not a protocol message; false
    /// once the connection is gone (a flood goes on until the server closes it).
    pub async fn send_frame(&mut self, frame: Message) -> bool {
        self.ws.send(frame).await.is_ok()
    }

    /// Sends a command with an id.
    pub async fn command(&mut self, id: &str, command: Value) {
        self.send(json!({"v": 2, "type": "command", "id": id, "command": command}))
            .await;
    }

    /// Sends a command for `table` (a seat that follows several).
    pub async fn command_on(&mut self, id: &str, table: TableId, command: Value) {
        self.send(json!({"v": 2, "type": "command", "id": id, "table": table, "command": command}))
            .await;
    }

    /// The next protocol message (5 s at most).
    pub async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(5), self.ws.next())
                .await
                .expect("a message within 5 s")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(v["v"], 2, "{v}");
                self.seen.push(v.clone());
                return v;
            }
        }
    }

    /// Reads until a message satisfies `pred`; returns it.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.next().await;
            if pred(&v) {
                return v;
            }
        }
    }

    /// The answer (ack, rejected or error) to command `id`.
    pub async fn answer(&mut self, id: &str) -> Value {
        self.until(|v| v["id"] == id && v["type"] != "event").await
    }

    /// Whether nothing arrives within `ms`.
    pub async fn quiet(&mut self, ms: u64) -> bool {
        match tokio::time::timeout(Duration::from_millis(ms), self.ws.next()).await {
            Err(_) => true,
            Ok(Some(Ok(Message::Text(t)))) => {
                self.seen.push(serde_json::from_str(t.as_str()).unwrap());
                false
            }
            Ok(_) => false,
        }
    }

    /// Whether the server closes the connection within `ms` (text frames read meanwhile are
    /// kept in `seen`).
    pub async fn closed_within(&mut self, ms: u64) -> bool {
        let until = tokio::time::Instant::now() + Duration::from_millis(ms);
        loop {
            match tokio::time::timeout_at(until, self.ws.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_) | Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(Message::Text(t)))) => {
                    self.seen.push(serde_json::from_str(t.as_str()).unwrap());
                }
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// The code of the server's close frame, if one arrives within `ms` (text frames read
    /// meanwhile are kept in `seen`); `None` when the time runs out or the socket just ends.
    pub async fn close_code(&mut self, ms: u64) -> Option<u16> {
        let until = tokio::time::Instant::now() + Duration::from_millis(ms);
        loop {
            match tokio::time::timeout_at(until, self.ws.next()).await {
                Ok(Some(Ok(Message::Close(frame)))) => return frame.map(|f| f.code.into()),
                Ok(Some(Ok(Message::Text(t)))) => {
                    self.seen.push(serde_json::from_str(t.as_str()).unwrap());
                }
                Ok(Some(Ok(_))) => {}
                Err(_) | Ok(None | Some(Err(_))) => return None,
            }
        }
    }

    /// Writes raw bytes on the socket, under the WebSocket layer (frames the library would
    /// refuse to send).
    pub async fn write_raw(&mut self, bytes: &[u8]) {
        use tokio::io::AsyncWriteExt as _;
        let MaybeTlsStream::Plain(tcp) = self.ws.get_mut() else {
            panic!("a plain socket")
        };
        tcp.write_all(bytes).await.unwrap();
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The `event` payload of an `event` message whose payload type is `t`.
pub fn is_event(v: &Value, t: &str) -> bool {
    v["type"] == "event" && v["event"]["type"] == t
}
