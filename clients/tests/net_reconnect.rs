//! The network loop against a stand-in server (tokio-tungstenite): the client says `hello`,
//! follows the table, hears that the connection dropped, reconnects by itself asking for the
//! events it missed (`since`), and stops once the game is over. Its recorder's state goes to
//! the server (`recording`), again after the reconnection, and `off` once the game is over
//! and the recording uploaded.

use std::time::Duration;

use baoqi_arbiter::{
    Category, Command, EventKind, Match, MatchConfig, Millis, Seat, SideConfig, View,
};
use baoqi_audio::from_event::Heard;
use baoqi_audio::{Notice, Utterance};
use baoqi_clients::session::net::{Frontend, LoopOptions, run};
use baoqi_clients::session::{RecorderReport, Session, SessionOptions};
use baoqi_protocol::TableId;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

#[derive(Default)]
struct Ears {
    said: Vec<Utterance>,
    over: bool,
}

impl Frontend for Ears {
    fn hear(&mut self, heard: &Heard, _: std::time::Instant) {
        self.said.extend(heard.say.iter().cloned());
    }
    fn stop_speech(&mut self) {}
    fn set_rate(&mut self, _: baoqi_audio::Rate) {}
    fn refresh(&mut self, _: &Session, _: u64) {}
    fn game_started(&mut self, _: TableId, _: u64) -> Option<RecorderReport> {
        Some(RecorderReport::On { microphone: true })
    }
    fn game_over(&mut self, _: TableId) -> Option<RecorderReport> {
        self.over = true;
        Some(RecorderReport::Off)
    }
    fn finish(&mut self) {}
}

fn views() -> (View, View) {
    let blind = |n: &str| SideConfig {
        name: n.into(),
        categories: vec![Category::Blind],
        ..SideConfig::default()
    };
    let c = MatchConfig {
        kind: EventKind::Part6,
        red: blind("甲"),
        black: blind("乙"),
        ..MatchConfig::default()
    };
    let mut m = Match::new(c, Millis(0)).unwrap();
    m.apply(Seat::Referee, Command::Start, Millis(0)).unwrap();
    let playing = m.snapshot();
    m.apply(Seat::Black, Command::Resign, Millis(500)).unwrap();
    (playing, m.snapshot())
}

/// Reads the client's `hello`; returns its `since`.
async fn hello<S>(ws: &mut tokio_tungstenite::WebSocketStream<S>) -> Value
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        if let Some(Ok(Message::Text(t))) = ws.next().await {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "hello" {
                return v["since"].clone();
            }
        }
    }
}

#[test]
fn the_client_reconnects_with_since_and_stops_at_the_end_of_the_game() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws/seat", listener.local_addr().unwrap());
        let (playing, over) = views();
        let server = tokio::spawn(async move {
            let welcome = json!({"v": 2, "type": "welcome", "role": "red", "name": "甲",
                                 "event": 1, "tables": [1]});
            let (mut sinces, mut recorded) = (Vec::new(), Vec::new());
            for view in [playing, over] {
                let (tcp, _) = listener.accept().await.unwrap();
                let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
                sinces.push(hello(&mut ws).await);
                let state = json!({"v": 2, "type": "state", "table": 1, "seq": 7, "at": 900,
                                   "snapshot": view});
                for m in [&welcome, &state] {
                    ws.send(Message::text(m.to_string())).await.unwrap();
                }
                let mut reports = Vec::new();
                // Long enough for the client's report under a loaded machine (200 ms was
                // once too short beside the browser tests); the client sends it at once.
                let window = tokio::time::sleep(Duration::from_secs(1));
                tokio::pin!(window);
                loop {
                    tokio::select! {
                        () = &mut window => break,
                        m = ws.next() => match m {
                            Some(Ok(Message::Text(t))) => {
                                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                                if v["type"] == "recording" {
                                    reports.push(v["state"].as_str().unwrap().to_owned());
                                }
                            }
                            Some(Ok(_)) => {}
                            _ => break,
                        },
                    }
                }
                recorded.push(reports);
                let _ = ws.close(None).await;
            }
            (sinces, recorded)
        });
        let mut session = Session::new("tok", SessionOptions::default());
        let mut fe = Ears::default();
        let (_tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let opts = LoopOptions {
            url,
            exit_at_end: true,
            exit_after_scripts: None,
            tls: None,
        };
        let done = tokio::time::timeout(
            Duration::from_secs(20),
            run(&opts, &mut session, &mut fe, Vec::new(), rx),
        )
        .await;
        assert!(matches!(done, Ok(Ok(()))), "{done:?}");
        let (sinces, recorded) = server.await.unwrap();
        assert_eq!(sinces, vec![Value::Null, json!(7)]);
        // First connection: recording. Second: recording again (the server keeps live
        // reports in memory only), then, the game over and the recording uploaded, off.
        assert_eq!(recorded, vec![vec!["on"], vec!["on", "off"]]);
        assert!(fe.over, "the end of the game reached the frontend");
        assert!(fe.said.contains(&Utterance::Client(Notice::Disconnected)));
        assert!(session.is_over());
    });
}
