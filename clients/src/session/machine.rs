//! The seat client's session as a pure state machine ([`Session`]): server messages, keys,
//! sensed board events and the passing of time go in ([`Input`]); messages to send, what to
//! say and what changed come out ([`Output`]). No I/O and no clock: the network loop
//! (`net.rs`) feeds it and carries out its output.
//!
//! What the player hears, besides the arbiter's events (`baoqi_audio::from_event`):
//! - every key at once: the word it gives (每一字不得反悔: the player hears what he said, before
//!   the server answers), the prompt of a two-key sequence, or that the key means nothing;
//! - the server's verdict on each word (touched piece, impossible prefix, a refusal);
//! - local answers: board queries, the opponent's last move, the last message, help.

use std::collections::HashMap;

use baoqi_arbiter::{BoardId, Command, Event, Seat, Speaker};
use baoqi_audio::from_event::{Heard, utterances};
use baoqi_audio::{Earcon, Notice, Refusal, Utterance};
use baoqi_grammar::speech::{self, Lang};
use baoqi_grammar::{Marks, parse_word};
use baoqi_rules::{Color, Position};

use super::keys;
use super::table::TableState;
use super::wire::{FromServer, ToServer};
use crate::board::{BoardOutput, BoardSensor, SenseMode, SensorEvent};
use crate::keypad::{Key, KeyMap};

/// What goes into the session.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// The connection is open (the session says `hello`).
    Connected,
    /// The connection is lost.
    Disconnected,
    /// A message from the server.
    Server(FromServer),
    /// A key of the keypad.
    Key(Key),
    /// An event sensed by the attached tactile board.
    Board(SensorEvent),
    /// Time passes (board settling, the resignation's confirmation window).
    Tick,
}

/// What the session asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// Messages to send, in order.
    pub send: Vec<ToServer>,
    /// What to play and say, in order.
    pub heard: Vec<Heard>,
    /// The game is running and this client knows its table: (table, server instant). Given
    /// once, when the first state of an unfinished game arrives (a recording may start).
    pub game_started: Option<(i64, u64)>,
    /// The game just ended (the table's number).
    pub game_over: Option<i64>,
    /// The server refused the seat for good (bad or revoked token): why.
    pub fatal: Option<String>,
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
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            resign_window_ms: 10_000,
            board: None,
            settle_ms: crate::board::DEFAULT_SETTLE_MS,
        }
    }
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
    sensor: Option<BoardSensor>,
    pub(super) connected: bool,
    /// Every event received, in order (scripts wait on them).
    pub(super) history: Vec<Event>,
    started_told: bool,
}

impl Session {
    /// A session for the seat holding `token`.
    pub fn new(token: &str, opts: SessionOptions) -> Session {
        Session {
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
            connected: false,
            history: Vec::new(),
            started_told: false,
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
        self.connected
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
                self.connected = true;
                out.send.push(ToServer::Hello {
                    token: self.token.clone(),
                    since: self.table.as_ref().map(|t| t.seq),
                });
            }
            Input::Disconnected => {
                if self.connected {
                    out.notice(Some(Earcon::Error), Notice::Disconnected);
                }
                self.connected = false;
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
        }
        self.remember(&out);
        out
    }

    /// Keeps the last message that was not an echo, for "repeat the last message".
    fn remember(&mut self, out: &Output) {
        let last = out
            .heard
            .iter()
            .flat_map(|h| h.say.iter())
            .rfind(|u| u.urgency() != baoqi_audio::Urgency::Echo);
        if let Some(u) = last {
            self.last_message = Some(u.clone());
        }
    }

    /// Sends a command with a fresh id, or says that it cannot be sent now.
    pub(super) fn send(&mut self, command: Command, out: &mut Output) -> bool {
        if !self.connected || self.me.is_none() {
            out.notice(Some(Earcon::Error), Notice::Disconnected);
            return false;
        }
        self.next_id += 1;
        let id = format!("k{}", self.next_id);
        self.sent.insert(id.clone(), command.clone());
        out.send.push(ToServer::Command { id, command });
        true
    }

    /// The text of a word as `side` writes it (`二` for red, `２` for black).
    pub(super) fn word_text(w: baoqi_grammar::Word, side: Color) -> String {
        speech::word(w, side, Lang::Yue).display
    }

    /// Whether a repeat is owed by this side now.
    pub(super) fn repeat_owed(&self) -> Option<(Color, String, String)> {
        let t = self.table.as_ref()?;
        t.repeat_due
            .clone()
            .filter(|(side, ..)| Some(*side) == self.me)
    }

    /// A move as spoken: `side`'s four words with marks.
    pub(super) fn move_utterance(
        side: Color,
        words: &str,
        capture: bool,
        check: bool,
    ) -> Utterance {
        let words = words
            .chars()
            .enumerate()
            .filter_map(|(i, c)| parse_word(&c.to_string(), i))
            .collect();
        Utterance::Move {
            side,
            words,
            marks: Marks {
                capture,
                check,
                draw_offer: false,
            },
        }
    }

    fn server(&mut self, msg: FromServer, now: u64, out: &mut Output) {
        match msg {
            FromServer::Welcome { role, .. } => {
                let (side, proxy) = match role.as_str() {
                    "red" => (Color::Red, false),
                    "black" => (Color::Black, false),
                    "red_proxy" => (Color::Red, true),
                    "black_proxy" => (Color::Black, true),
                    other => {
                        out.fatal = Some(format!("a {other} seat cannot use this client"));
                        return;
                    }
                };
                self.me = Some(side);
                self.proxy = proxy;
                out.notice(None, Notice::Connected { side, proxy });
            }
            FromServer::State {
                table,
                seq,
                at,
                view,
            } => {
                let state = TableState::from_view(table, seq, at, &view, now);
                self.table = Some(state);
                self.sync_sensor();
                if !self.started_told && !self.is_over() {
                    self.started_told = true;
                    out.game_started = Some((table, at));
                }
            }
            FromServer::Event { seq, at, event } => self.event(seq, at, &event, now, out),
            FromServer::Ack { id } => {
                if let Some(id) = id {
                    self.sent.remove(&id);
                }
            }
            FromServer::Rejected { id, code, .. } => {
                if let Some(id) = id {
                    self.sent.remove(&id);
                }
                let r = Refusal::from_code(&code);
                out.notice(Some(Earcon::Error), Notice::Refused(r));
            }
            FromServer::Error { code, message, .. } => {
                if matches!(code.as_str(), "bad_token" | "revoked" | "wrong_endpoint") {
                    out.fatal = Some(format!("{code}: {message}"));
                } else {
                    out.notice(
                        Some(Earcon::Error),
                        Notice::Refused(Refusal::from_code(&code)),
                    );
                }
            }
            FromServer::Pong { .. } | FromServer::Other(_) => {}
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
            && Color::from(*side) == me
            && *by == Speaker::Player
        {
            // Echoed at the key press already.
            heard.say.clear();
            heard.earcon = None;
        }
        if heard.earcon.is_some() || !heard.say.is_empty() {
            out.heard.push(heard);
        }
        match event {
            // Our own reports are already in the sensor (an illegal one stays pending there
            // until the board is restored); another seat's (a referee's correction, the
            // proxy, a second board client) is followed.
            Event::Board { placement, by, .. } if *by != self.seat(me) => {
                self.board_changed(placement);
            }
            Event::Moved { .. } => {
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
                out.game_over = Some(self.table.as_ref().map_or(0, |t| t.table));
            }
            _ => {}
        }
    }

    /// This client's seat.
    fn seat(&self, me: Color) -> Seat {
        match (me, self.proxy) {
            (Color::Red, true) => Seat::RedProxy,
            (Color::Black, true) => Seat::BlackProxy,
            (c, false) => Seat::player(c),
        }
    }

    /// The board the attached sensor board is: the VI board when there is one.
    fn sensor_board(&self) -> Option<BoardId> {
        self.opts.board?;
        let t = self.table.as_ref()?;
        if t.boards.iter().any(|(b, _)| *b == BoardId::Vi) || t.boards.is_empty() {
            Some(BoardId::Vi)
        } else {
            t.boards.first().map(|(b, _)| *b)
        }
    }

    /// The position the attached board should show: its placement, with the side to move
    /// of the game when it shows the game, else of the side whose move it still lacks.
    fn board_position(&self, placement: &str) -> Option<Position> {
        let t = self.table.as_ref()?;
        let game = t.position.fen();
        let same = game.split(' ').next() == Some(placement);
        let turn = if same { t.to_move } else { t.to_move.other() };
        let side = if turn == Color::Red { 'w' } else { 'b' };
        Position::from_fen(&format!("{placement} {side} - - 0 1")).ok()
    }

    fn sync_sensor(&mut self) {
        let Some(mode) = self.opts.board else { return };
        let Some(t) = self.table.as_ref() else { return };
        let placement = self
            .sensor_board()
            .and_then(|id| t.board(id))
            .map(str::to_owned);
        let pos = placement
            .and_then(|p| self.board_position(&p))
            .unwrap_or_else(|| t.position.clone());
        match self.sensor.as_mut() {
            Some(s) => s.set_position(pos),
            None => {
                self.sensor = Some(BoardSensor::new(pos, mode).with_settle_ms(self.opts.settle_ms));
            }
        }
    }

    /// A board report (ours or another seat's): follow it unless the sensor already shows it.
    fn board_changed(&mut self, placement: &str) {
        let Some(s) = &self.sensor else { return };
        let shown = s.position().fen();
        if shown.split(' ').next() == Some(placement) {
            return;
        }
        if let Some(pos) = self.board_position(placement)
            && let Some(s) = self.sensor.as_mut()
        {
            s.set_position(pos);
        }
    }

    fn board_outputs(&mut self, sensed: Vec<BoardOutput>, out: &mut Output) {
        for o in sensed {
            match o {
                BoardOutput::Moved { mv, legal } => {
                    self.send(
                        Command::BoardMove {
                            board: None,
                            mv: mv.to_string(),
                        },
                        out,
                    );
                    if !legal {
                        out.notice(Some(Earcon::Error), Notice::BoardIllegal);
                    }
                }
                BoardOutput::Restored => out.notice(None, Notice::BoardRestored),
                BoardOutput::Clock => {
                    if self.send(Command::PressClock, out) {
                        out.heard.push(Heard {
                            earcon: Some(Earcon::ClockPress),
                            say: Vec::new(),
                        });
                    }
                }
                BoardOutput::Announce => {
                    self.send(Command::Signal, out);
                }
                BoardOutput::Touched(_)
                | BoardOutput::PutBack(_)
                | BoardOutput::Disturbed { .. } => {}
            }
        }
    }
}
