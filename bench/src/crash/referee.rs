//! The referee's monitor connection: resumes the match and follows the table's feed, so the
//! benchmark knows the clocks the referee would read at any instant.

use std::time::{Duration, Instant};

use baoqi_arbiter::{ClockView, Command, Event, Millis, View};
use baoqi_protocol::{ClientMsg, ServerMsg, TableId, encode_client};
use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;

use super::CrashError;
use crate::bot::{Ws, connect, next_msg};

/// The longest wait for an answer from the server.
pub(super) const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// One referee connection to `/ws/monitor`.
pub(super) struct Monitor {
    ws: Ws,
    table: TableId,
    /// The snapshot of the table's last `state`.
    pub(super) view: Box<View>,
    /// The last clock reported (by the `state` or an event).
    pub(super) clock: ClockView,
    /// The last sequence number of the table's feed.
    pub(super) seq: u64,
    /// Games over announced on the feed since the connection opened.
    pub(super) game_over: Vec<Event>,
    /// Clock reports received on the feed since the connection opened (a paused match
    /// sends none).
    pub(super) clock_reports: usize,
}

impl Monitor {
    /// Connects the referee's seat to the server at `base` (`ws://ADDR`) and reads until
    /// the table's state.
    pub(super) async fn join(
        base: &str,
        token: &str,
        table: TableId,
    ) -> Result<Monitor, CrashError> {
        let mut ws = connect(&format!("{base}/ws/monitor"), token, &None)
            .await
            .map_err(CrashError::Connection)?;
        loop {
            let m = tokio::time::timeout(ANSWER_TIMEOUT, next_msg(&mut ws))
                .await
                .map_err(|_| CrashError::Timeout("the referee's first state".into()))?
                .ok_or_else(|| CrashError::Connection("the referee was not let in".into()))?;
            if let ServerMsg::State {
                table: t,
                seq,
                snapshot,
                ..
            } = m
                && t == table
            {
                return Ok(Monitor {
                    ws,
                    table,
                    clock: snapshot.clock,
                    view: snapshot,
                    seq,
                    game_over: Vec::new(),
                    clock_reports: 0,
                });
            }
        }
    }

    /// The next message, followed.
    async fn recv(&mut self) -> Result<ServerMsg, CrashError> {
        let m = tokio::time::timeout(ANSWER_TIMEOUT, next_msg(&mut self.ws))
            .await
            .map_err(|_| CrashError::Timeout("the referee's feed".into()))?
            .ok_or_else(|| CrashError::Connection("the referee's connection closed".into()))?;
        self.follow(&m);
        Ok(m)
    }

    fn follow(&mut self, m: &ServerMsg) {
        match m {
            ServerMsg::State {
                table,
                seq,
                snapshot,
                ..
            } if *table == self.table => {
                self.seq = *seq;
                self.clock = snapshot.clock;
                self.view.clone_from(snapshot);
            }
            ServerMsg::Event {
                table, seq, event, ..
            } if *table == self.table => {
                self.seq = *seq;
                match &**event {
                    Event::Started { clock, .. } | Event::Clock { clock } => {
                        self.clock = *clock;
                        self.clock_reports += 1;
                    }
                    Event::GameOver { .. } => self.game_over.push((**event).clone()),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// Sends a referee command for the table; the sequence number of its acknowledgement.
    pub(super) async fn command(&mut self, command: Command) -> Result<u64, CrashError> {
        let id = "referee".to_owned();
        let msg = ClientMsg::Command {
            id: Some(id.clone()),
            table: Some(self.table),
            command: command.clone(),
        };
        self.send(&msg).await?;
        loop {
            match self.recv().await? {
                ServerMsg::Ack {
                    id: Some(a), seq, ..
                } if a == id => return Ok(seq),
                m @ (ServerMsg::Rejected { id: Some(_), .. }
                | ServerMsg::Error { id: Some(_), .. }) => {
                    return Err(CrashError::Refused {
                        what: format!("referee {command:?}"),
                        why: format!("{m:?}"),
                    });
                }
                _ => {}
            }
        }
    }

    /// Follows the feed for `how_long`.
    pub(super) async fn watch(&mut self, how_long: Duration) -> Result<(), CrashError> {
        let deadline = tokio::time::Instant::now() + how_long;
        loop {
            match tokio::time::timeout_at(deadline, next_msg(&mut self.ws)).await {
                Err(_) => return Ok(()),
                Ok(Some(m)) => self.follow(&m),
                Ok(None) => {
                    return Err(CrashError::Connection(
                        "the referee's connection closed".into(),
                    ));
                }
            }
        }
    }

    /// Pings: the server's instant at the pong, and when the pong arrived here.
    pub(super) async fn ping(&mut self) -> Result<(Millis, Instant), CrashError> {
        self.send(&ClientMsg::Ping {
            id: Some("kill".into()),
        })
        .await?;
        loop {
            if let ServerMsg::Pong { at, .. } = self.recv().await? {
                return Ok((at, Instant::now()));
            }
        }
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), CrashError> {
        self.ws
            .send(Message::text(encode_client(msg)))
            .await
            .map_err(|e| CrashError::Connection(e.to_string()))
    }
}
