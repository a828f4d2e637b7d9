//! The thin tokio loop around a [`Session`]: one WebSocket to `/ws/seat`, local input (keys,
//! board lines) from a channel, scripts, the session's deadlines; reconnects with `since`
//! when the connection drops (the server then sends what was missed and the state).
//! What to say, the status line and the recording are the [`Frontend`]'s.

use std::time::{Duration, Instant};

use baoqi_audio::from_event::Heard;
use baoqi_protocol::TableId;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::machine::{Input, Session};
use super::script::{Action, Runner};
use super::wire::{ClientMsg, RecorderReport, decode, encode_client};
use crate::board::SensorEvent;
use crate::keypad::Key;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Where the client's output goes: speech, the status line, the game's recording.
pub trait Frontend {
    /// Plays and says what the session asks for, because of something that happened at
    /// `cause` (a key press, a server message's arrival).
    fn hear(&mut self, heard: &Heard, cause: Instant);
    /// The stop key: stop what is being read (echoes and alerts go on).
    fn stop_speech(&mut self);

    /// Speaks at `rate` from now on.
    fn set_rate(&mut self, rate: baoqi_audio::Rate);
    /// Called on every turn of the loop, to redraw the status and flush logs.
    fn refresh(&mut self, session: &Session, now_ms: u64);
    /// An unfinished game is followed (server instant `at`): a recording may start. Returns
    /// what the recorder now does, for the server, if it was asked to record.
    fn game_started(&mut self, table: TableId, at: u64) -> Option<RecorderReport>;
    /// The game ended: finish and upload the recording. Returns what became of it.
    fn game_over(&mut self, table: TableId) -> Option<RecorderReport>;
    /// The client stops: let speech finish (bounded).
    fn finish(&mut self);
}

/// Input from the keyboard or a board line reader.
#[derive(Clone, Debug, PartialEq)]
pub enum Local {
    /// A key.
    Key(Key),
    /// A board line.
    Board(SensorEvent),
    /// The input ended (the player quit).
    End,
}

/// Why the client stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The seat was refused for good.
    #[error("the server refused this seat: {0}")]
    Refused(String),
    /// The URL is not http(s):// or ws(s)://.
    #[error("bad server URL {0:?}")]
    Url(String),
}

/// The WebSocket URL of the seat endpoint for a server URL (`http://host:port`).
pub fn seat_url(server: &str) -> Result<String, NetError> {
    let base = server.trim_end_matches('/');
    let ws = if let Some(rest) = base.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = base.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if base.starts_with("ws://") || base.starts_with("wss://") {
        base.to_owned()
    } else {
        return Err(NetError::Url(server.to_owned()));
    };
    Ok(if ws.ends_with("/ws/seat") {
        ws
    } else {
        format!("{ws}/ws/seat")
    })
}

/// How the loop runs.
#[derive(Clone, Debug)]
pub struct LoopOptions {
    /// The seat endpoint (`ws://host:port/ws/seat`).
    pub url: String,
    /// Stop once the game is over and the scripts are done.
    pub exit_at_end: bool,
    /// Stop this long after the scripts are done, game over or not (a simulated board).
    pub exit_after_scripts: Option<Duration>,
    /// The TLS a `wss://` seat is reached with ([`super::tls::trusting`]); `None` for `ws://`.
    pub tls: Option<std::sync::Arc<rustls::ClientConfig>>,
}

struct Client<'a> {
    session: &'a mut Session,
    frontend: &'a mut dyn Frontend,
    ws: Option<Ws>,
    start: Instant,
    over_told: bool,
}

impl Client<'_> {
    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    async fn send_all(&mut self, messages: Vec<ClientMsg>) {
        for msg in messages {
            if let Some(ws) = self.ws.as_mut()
                && ws.send(Message::text(encode_client(&msg))).await.is_err()
            {
                self.ws = None;
            }
        }
    }

    async fn apply(&mut self, input: Input) -> Result<(), NetError> {
        self.apply_at(input, Instant::now()).await
    }

    /// Feeds an input that arrived at `cause` (a server frame is stamped as it is read).
    async fn apply_at(&mut self, input: Input, cause: Instant) -> Result<(), NetError> {
        let now = self.now();
        let out = self.session.handle(input, now);
        self.send_all(out.send).await;
        if out.stop_speech {
            self.frontend.stop_speech();
        }
        if let Some(rate) = out.rate {
            self.frontend.set_rate(rate);
        }
        for h in &out.heard {
            self.frontend.hear(h, cause);
        }
        let mut reports = Vec::new();
        if let Some((table, at)) = out.game_started {
            reports.extend(self.frontend.game_started(table, at));
        }
        if let Some(table) = out.game_over
            && !self.over_told
        {
            self.over_told = true;
            reports.extend(self.frontend.game_over(table));
        }
        for report in reports {
            let now = self.now();
            let told = self.session.handle(Input::Recorder(report), now);
            self.send_all(told.send).await;
        }
        match out.fatal {
            Some(why) => Err(NetError::Refused(why)),
            None => Ok(()),
        }
    }
}

async fn next_frame(ws: &mut Option<Ws>) -> Option<Result<Message, ()>> {
    match ws.as_mut() {
        Some(s) => s.next().await.map(|r| r.map_err(|_| ())),
        None => std::future::pending().await,
    }
}

/// Runs the client until the game is over (with `exit_at_end`), the input ends, or the seat
/// is refused.
pub async fn run(
    opts: &LoopOptions,
    session: &mut Session,
    frontend: &mut dyn Frontend,
    mut scripts: Vec<Runner>,
    mut local: mpsc::UnboundedReceiver<Local>,
) -> Result<(), NetError> {
    let mut c = Client {
        session,
        frontend,
        ws: None,
        start: Instant::now(),
        over_told: false,
    };
    let mut backoff = Duration::from_millis(200);
    let mut retry_at = Instant::now();
    let mut local_open = true;
    let mut scripts_done_at: Option<Instant> = None;
    loop {
        if c.ws.is_none() && Instant::now() >= retry_at {
            let connector = opts.tls.clone().map(tokio_tungstenite::Connector::Rustls);
            let connect = tokio_tungstenite::connect_async_tls_with_config(
                opts.url.as_str(),
                None,
                false,
                connector,
            );
            if let Ok(Ok((ws, _))) = tokio::time::timeout(Duration::from_secs(5), connect).await {
                c.ws = Some(ws);
                backoff = Duration::from_millis(200);
                c.apply(Input::Connected).await?;
            } else {
                retry_at = Instant::now() + backoff;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
        let mut wake = c.now() + 50;
        // Scripts still pressing keys (not done, not waiting on the table) keep the client up.
        // Nothing is played before the seat is welcomed and the table known.
        let mut scripts_busy = false;
        let ready = c.session.table().is_some() && c.session.side().is_some();
        for r in scripts.iter_mut().filter(|_| ready) {
            loop {
                match r.poll(c.session, c.now()) {
                    Action::Key(k) => c.apply(Input::Key(k)).await?,
                    Action::Board(e) => c.apply(Input::Board(e)).await?,
                    Action::WaitUntil(t) => {
                        scripts_busy = true;
                        wake = wake.min(t);
                        break;
                    }
                    Action::Blocked | Action::Done => break,
                }
            }
        }
        if let Some(d) = c.session.next_deadline() {
            if d <= c.now() {
                c.apply(Input::Tick).await?;
            }
            wake = wake.min(d.max(c.now() + 1));
        }
        let now = c.now();
        c.frontend.refresh(c.session, now);
        if opts.exit_at_end && c.session.is_over() && !scripts_busy {
            break;
        }
        if !scripts.is_empty() && scripts.iter().all(Runner::is_done) {
            let done = *scripts_done_at.get_or_insert_with(Instant::now);
            if opts
                .exit_after_scripts
                .is_some_and(|grace| done.elapsed() >= grace)
            {
                break;
            }
        }
        if !local_open && scripts.is_empty() {
            break;
        }
        let sleep = Duration::from_millis(wake.saturating_sub(now).max(1));
        tokio::select! {
            frame = next_frame(&mut c.ws) => match frame {
                Some(Ok(Message::Text(t))) => match (Instant::now(), decode(t.as_str())) {
                    (arrived, Ok(msg)) => c.apply_at(Input::Server(msg), arrived).await?,
                    (_, Err(e)) => eprintln!("baoqi: {e}"),
                },
                Some(Ok(Message::Close(_)) | Err(())) | None => {
                    c.ws = None;
                    retry_at = Instant::now() + backoff;
                    c.apply(Input::Disconnected).await?;
                }
                Some(Ok(_)) => {}
            },
            input = local.recv(), if local_open && ready => match input {
                Some(Local::Key(k)) => c.apply(Input::Key(k)).await?,
                Some(Local::Board(e)) => c.apply(Input::Board(e)).await?,
                Some(Local::End) | None => local_open = false,
            },
            () = tokio::time::sleep(sleep) => {}
        }
    }
    if let Some(mut ws) = c.ws.take() {
        let _ = ws.close(None).await;
    }
    c.frontend.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_endpoint_is_found_from_the_server_url() {
        assert_eq!(
            seat_url("http://127.0.0.1:7878").unwrap(),
            "ws://127.0.0.1:7878/ws/seat"
        );
        assert_eq!(
            seat_url("https://x.example/").unwrap(),
            "wss://x.example/ws/seat"
        );
        assert_eq!(seat_url("ws://h:1/ws/seat").unwrap(), "ws://h:1/ws/seat");
        assert!(seat_url("ftp://h").is_err());
    }
}
