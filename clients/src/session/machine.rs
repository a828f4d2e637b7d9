//! The seat client's session as a pure state machine ([`Session`]): server messages, keys,
//! sensed board events and the passing of time go in ([`Input`]); messages to send, what to
//! say and what changed come out ([`Output`]). No I/O and no clock: the network loop
//! (`net.rs`) feeds it and carries out its output.
//!
//! What the player hears, besides the arbiter's events (`baoqi_audio::from_event`):
//! - every key at once: the word it gives (每一字不得反悔: the player hears what he said, before
//!   the server answers), the prompt of a two-key sequence, or that the key means nothing;
//! - the server's verdict on each word (touched piece, impossible prefix, a refusal);
//! - local answers: board queries, the opponent's last move, the last message, help;
//! - the server's answer to `/ Enter`: the player's place in the event's standings.

use std::collections::HashMap;

use baoqi_arbiter::{Command, Event, Speaker};
use baoqi_audio::from_event::{Heard, utterances};
use baoqi_audio::{Earcon, Notice, Rate, Refusal, Utterance, Verbosity};
use baoqi_grammar::speech::{self, Lang};
use baoqi_rules::Color;

use super::keys;
use super::table::{RepeatOwed, TableState};
use super::wire::{ClientMsg, RecorderReport, ServerMsg};
use crate::board::{BoardSensor, SenseMode, SensorEvent};
use crate::keypad::{Key, KeyMap};
use baoqi_protocol::{ErrorCode, Role, TableId};

/// What goes into the session.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The connection is open (the session says `hello`).
    Connected,
    /// The connection is lost.
    Disconnected,
    /// A message from the server.
    Server(ServerMsg),
    /// A key of the keypad.
    Key(Key),
    /// An event sensed by the attached tactile board.
    Board(SensorEvent),
    /// Time passes (board settling, the resignation's confirmation window).
    Tick,
    /// The client's game recorder changed state (reported to the server, and again after a
    /// reconnection while it records).
    Recorder(RecorderReport),
}

/// What the session asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// Messages to send, in order.
    pub send: Vec<ClientMsg>,
    /// What to play and say, in order.
    pub heard: Vec<Heard>,
    /// The game is running and this client knows its table: (table, server instant). Given
    /// once, when the first state of an unfinished game arrives (a recording may start).
    pub game_started: Option<(TableId, u64)>,
    /// The game just ended (the table's number).
    pub game_over: Option<TableId>,
    /// The server refused the seat for good (bad or revoked token): why.
    pub fatal: Option<String>,
    /// The player pressed the stop key: stop what is being read, before anything else.
    pub stop_speech: bool,
    /// The player changed the speech rate: speak at this one from now on.
    pub rate: Option<Rate>,
}

impl Output {
    pub(super) fn say(&mut self, earcon: Option<Earcon>, u: Utterance) {
        self.heard.push(Heard {
            earcon,
            say: vec![u],
        });
    }

    pub(super) fn notice(&mut self, earcon: Option<Earcon>, n: Notice) {
        self.say(earcon, Utterance::Client(n));
    }
}

/// Settings of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// How long the resignation waits for its confirmation, ms.
    pub resign_window_ms: u64,
    /// The attached tactile board's kind, if one is attached.
    pub board: Option<SenseMode>,
    /// The board's settle time, ms.
    pub settle_ms: u64,
    /// The speech rate at start (the player changes it with `0 +` / `0 -`).
    pub rate: Rate,
    /// The verbosity at start (the player changes it with `0 *`).
    pub verbosity: Verbosity,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            resign_window_ms: 10_000,
            board: None,
            settle_ms: crate::board::DEFAULT_SETTLE_MS,
            rate: Rate::DEFAULT,
            verbosity: Verbosity::Auto,
        }
    }
}

/// The connection to the server, as the session knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// No connection.
    Down,
    /// Connected, `hello` sent, no welcome yet.
    Up,
    /// The seat was welcomed on this connection.
    Welcomed,
}

/// One seat's session.
#[derive(Debug)]
pub struct Session {
    pub(super) opts: SessionOptions,
    token: String,
    pub(super) me: Option<Color>,
    pub(super) proxy: bool,
    pub(super) table: Option<TableState>,
    pub(super) keymap: KeyMap,
    pub(super) resign_until: Option<u64>,
    pub(super) last_message: Option<Utterance>,
    next_id: u64,
    sent: HashMap<String, Command>,
    pub(super) sensor: Option<BoardSensor>,
    link: Link,
    /// Every event received, in order (scripts wait on them).
    pub(super) history: Vec<Event>,
    started_told: bool,
    recorder: Option<RecorderReport>,
    /// Welcomed, and the state that follows is to be summed up aloud.
    standing_due: bool,
    /// The speech rate now.
    pub(super) rate: Rate,
    /// The verbosity now.
    pub(super) verbosity: Verbosity,
}

impl Session {
    /// A session for the seat holding `token`.
    pub fn new(token: &str, opts: SessionOptions) -> Session {
        Session {
            rate: opts.rate,
            verbosity: opts.verbosity,
            opts,
            token: token.to_owned(),
            me: None,
            proxy: false,
            table: None,
            keymap: KeyMap::new(),
            resign_until: None,
            last_message: None,
            next_id: 0,
            sent: HashMap::new(),
            sensor: None,
            link: Link::Down,
            history: Vec::new(),
            started_told: false,
            recorder: None,
            standing_due: false,
        }
    }

    /// The side played (or served by a proxy), once welcomed.
    pub fn side(&self) -> Option<Color> {
        self.me
    }

    /// Whether this seat is a proxy.
    pub fn is_proxy(&self) -> bool {
        self.proxy
    }

    /// Whether the connection is up.
    pub fn is_connected(&self) -> bool {
        self.link != Link::Down
    }

    /// The table as known, once a state has arrived.
    pub fn table(&self) -> Option<&TableState> {
        self.table.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.table
            .as_ref()
            .and_then(|t| t.result.as_ref())
            .is_some()
    }

    /// The events received so far, in order.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// When [`Input::Tick`] is next needed, if something waits on time.
    pub fn next_deadline(&self) -> Option<u64> {
        let board = self.sensor.as_ref().and_then(BoardSensor::next_deadline);
        match (board, self.resign_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Feeds one input at local instant `now_ms`.
    pub fn handle(&mut self, input: Input, now_ms: u64) -> Output {
        let mut out = Output::default();
        match input {
            Input::Connected => {
                self.link = Link::Up;
                out.send.push(ClientMsg::Hello {
                    token: self.token.clone(),
                    since: self.table.as_ref().map(|t| t.seq),
                });
            }
            Input::Disconnected => {
                if self.is_connected() {
                    out.notice(Some(Earcon::Error), Notice::Disconnected);
                }
                self.link = Link::Down;
            }
            Input::Server(msg) => self.server(msg, now_ms, &mut out),
            Input::Key(key) => keys::key(self, key, now_ms, &mut out),
            Input::Board(ev) => {
                let sensed = self
                    .sensor
                    .as_mut()
                    .map(|s| s.feed(ev, now_ms))
                    .unwrap_or_default();
                self.board_outputs(sensed, &mut out);
            }
            Input::Tick => {
                let sensed = self
                    .sensor
                    .as_mut()
                    .map(|s| s.poll(now_ms))
                    .unwrap_or_default();
                self.board_outputs(sensed, &mut out);
                if self.resign_until.is_some_and(|t| now_ms >= t) {
                    self.resign_until = None;
                    out.notice(None, Notice::ResignCancelled);
                }
            }
            Input::Recorder(report) => {
                if self.link == Link::Welcomed {
                    out.send.push(report.message());
                }
                self.recorder = Some(report);
            }
        }
        self.remember(&out);
        out
    }

    /// Keeps the last message that was not an echo, for "repeat the last message".
    fn remember(&mut self, out: &Output) {
        let last = out.heard.iter().flat_map(|h| h.say.iter()).rfind(|u| {
            !matches!(
                u.urgency(),
                baoqi_audio::Urgency::Echo | baoqi_audio::Urgency::Prompt
            )
        });
        if let Some(u) = last {
            self.last_message = Some(u.clone());
        }
    }

    /// Sends a command with a fresh id, or says that it cannot be sent now.
    pub(super) fn send(&mut self, command: Command, out: &mut Output) -> bool {
        let Some(id) = self.fresh_id(out) else {
            return false;
        };
        self.sent.insert(id.clone(), command.clone());
        out.send.push(ClientMsg::Command {
            id: Some(id),
            table: None,
            command,
        });
        true
    }

    /// Asks for the player's place in the event's standings (no game command: the server
    /// answers `standing`), or says that it cannot be sent now.
    pub(super) fn ask_standing(&mut self, out: &mut Output) -> bool {
        let Some(id) = self.fresh_id(out) else {
            return false;
        };
        out.send.push(ClientMsg::QueryStanding { id: Some(id) });
        true
    }

    /// A fresh message id, when a message can be sent now; else says why not.
    fn fresh_id(&mut self, out: &mut Output) -> Option<String> {
        if !self.is_connected() || self.me.is_none() {
            out.notice(Some(Earcon::Error), Notice::NotSent);
            return None;
        }
        self.next_id += 1;
        Some(format!("k{}", self.next_id))
    }

    /// The text of a word as `side` writes it (`二` for red, `２` for black).
    pub(super) fn word_text(w: baoqi_grammar::Word, side: Color) -> String {
        speech::word(w, side, Lang::Yue).display
    }

    /// Whether a repeat is owed by this side now.
    pub(super) fn repeat_owed(&self) -> Option<RepeatOwed> {
        let t = self.table.as_ref()?;
        t.repeat_due.clone().filter(|r| Some(r.side) == self.me)
    }

    /// A move as spoken: `side`'s four words, the piece it captured (of `side`'s
    /// opponent) and whether it checks.
    pub(super) fn move_utterance(
        side: Color,
        words: &[baoqi_grammar::Word],
        captured: Option<baoqi_rules::Kind>,
        check: bool,
    ) -> Utterance {
        Utterance::Move {
            side,
            words: words.to_vec(),
            captured: captured.map(|k| baoqi_rules::Piece::new(side.other(), k)),
            check,
        }
    }

    fn server(&mut self, msg: ServerMsg, now: u64, out: &mut Output) {
        match msg {
            ServerMsg::Welcome { role, .. } => {
                let (Some(side), proxy) = (
                    role.side(),
                    matches!(role, Role::RedProxy | Role::BlackProxy),
                ) else {
                    out.fatal = Some(format!("a {role} seat cannot use this client"));
                    return;
                };
                self.me = Some(side);
                self.proxy = proxy;
                self.link = Link::Welcomed;
                out.notice(None, Notice::Connected { side, proxy });
                self.standing_due = true;
                // The server keeps live recorder reports in memory only: say it again.
                if let Some(r) = &self.recorder {
                    out.send.push(r.message());
                }
            }
            ServerMsg::State {
                table,
                seq,
                at,
                snapshot,
                ..
            } => {
                let state = TableState::from_view(table, seq, at.0, &snapshot, now);
                if std::mem::take(&mut self.standing_due)
                    && let Some(me) = self.me
                {
                    out.notice(None, Notice::Standing(state.standing(me)));
                }
                self.table = Some(state);
                self.sync_sensor();
                if !self.started_told && !self.is_over() {
                    self.started_told = true;
                    out.game_started = Some((table, at.0));
                } else if self.started_told && self.is_over() {
                    // The end came while we were away and only the state says so.
                    out.game_over = Some(table);
                }
            }
            ServerMsg::Event { seq, at, event, .. } => self.event(seq, at.0, &event, now, out),
            ServerMsg::Ack { id, .. } => {
                if let Some(id) = id {
                    self.sent.remove(&id);
                }
            }
            ServerMsg::Rejected { id, rejection, .. } => {
                if let Some(id) = id {
                    self.sent.remove(&id);
                }
                out.notice(
                    Some(Earcon::Error),
                    Notice::Refused(Refusal::of(&rejection)),
                );
            }
            ServerMsg::Error { code, message, .. } => {
                if matches!(
                    code,
                    ErrorCode::BadToken | ErrorCode::Revoked | ErrorCode::WrongEndpoint
                ) {
                    out.fatal = Some(format!("{code:?}: {message}"));
                } else {
                    let refusal = match code {
                        ErrorCode::Forbidden => Refusal::NotAllowed,
                        ErrorCode::Unavailable => Refusal::TableAway,
                        _ => Refusal::Other,
                    };
                    out.notice(Some(Earcon::Error), Notice::Refused(refusal));
                }
            }
            ServerMsg::Standing { standing, .. } => {
                out.notice(None, Notice::Ranking(super::wire::ranking(standing)));
            }
            // A player's seat is one table: the event's list is never sent to it.
            ServerMsg::Pong { .. }
            | ServerMsg::Recording { .. }
            | ServerMsg::Tables { .. }
            | ServerMsg::Recorded { .. } => {}
        }
    }

    fn event(&mut self, seq: u64, at: u64, event: &Event, now: u64, out: &mut Output) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        if seq <= table.seq {
            return; // already in the state (a resync sends events, then the state)
        }
        table.apply(seq, at, event, now);
        self.history.push(event.clone());
        let Some(me) = self.me else { return };
        let mut heard = utterances(event, me);
        if let Event::Word { side, by, .. } = event
            && (*side) == me
            && *by == Speaker::Player
        {
            // Echoed at the key press already.
            heard.say.clear();
            heard.earcon = None;
        }
        if heard.earcon.is_some() || !heard.say.is_empty() {
            out.heard.push(heard);
        }
        if let (Event::Resumed { .. }, Some(t)) = (event, &self.table) {
            // After any pause (103–104, a server's restart, a node's takeover) whose move it
            // is and which words already bind (6.3(6)(a)), said at once after 對局繼續.
            out.notice(None, Notice::Standing(t.standing(me)));
        }
        match event {
            // Our own reports are already in the sensor (an illegal one stays pending there
            // until the board is restored); another seat's report of the sensed board (a
            // referee's correction, the proxy, a second board client) is followed, and a
            // report of the other board (the sighted side's, 7.4(2)(g)) is not ours to show.
            Event::Board {
                board,
                placement,
                by,
                ..
            } if *by != self.seat(me) && Some(*board) == self.sensor_board() => {
                self.board_changed(placement);
            }
            Event::Moved { .. } => {
                // A move the game took stands: the board cannot take it back any more.
                if let Some(s) = self.sensor.as_mut() {
                    s.forget_last();
                }
                if let Some(t) = &self.table
                    && let Some(id) = self.sensor_board()
                    && t.board(id).is_none()
                {
                    // A game without a board report: the board follows the game.
                    let pos = t.position.clone();
                    if let Some(s) = self.sensor.as_mut() {
                        s.set_position(pos);
                    }
                }
            }
            Event::GameOver { .. } => {
                out.game_over = Some(self.table.as_ref().map_or(TableId(0), |t| t.table));
            }
            _ => {}
        }
    }
}
