//! A table that answers a [`Session`] as the server would: a real arbiter [`Match`] whose
//! events are numbered and routed by audience, commands acknowledged or rejected.

#![allow(dead_code, unreachable_pub)]

use baoqi_arbiter::{
    Audience, BoardUse, Category, ClockMode, Command, Event, EventKind, Match, MatchConfig, Millis,
    Rejection, Seat, SideConfig, TimeControl,
};
use baoqi_audio::Utterance;
use baoqi_clients::keypad::Key;
use baoqi_clients::session::{ClientMsg, Input, Output, ServerMsg, Session, SessionOptions};
use baoqi_protocol::{EventId, TableId};

/// The server side of a test.
pub struct Table {
    pub m: Match,
    pub seq: u64,
    pub now: u64,
    /// Every event with its number, for late joiners.
    pub log: Vec<(u64, Event)>,
}

fn side(name: &str, categories: Vec<Category>) -> SideConfig {
    SideConfig {
        name: name.into(),
        categories,
        ..SideConfig::default()
    }
}

/// A match of `kind` between 甲 (red) and 乙 (black) of the given categories, 20 minutes
/// each without increment.
fn config(kind: EventKind, red: Category, black: Category) -> MatchConfig {
    let mut c = MatchConfig {
        kind,
        red: side("甲", vec![red]),
        black: side("乙", vec![black]),
        ..MatchConfig::default()
    };
    c.time.default = TimeControl {
        base_ms: 20 * 60_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    };
    c
}

impl Table {
    /// 視障賽: two blind players on one VI board, 20 minutes, started.
    pub fn part6() -> Table {
        Table::started(config(EventKind::Part6, Category::Blind, Category::Blind))
    }

    /// [`Table::part6`] with the talking clock of 7.1(1)(b).
    pub fn part6_talking() -> Table {
        let mut c = Table::part6().m.config().clone();
        c.talking_clock = true;
        Table::started(c)
    }

    /// 共融賽 with mirrored boards: blind red on the VI board, sighted black on the regular.
    pub fn part7() -> Table {
        let mut c = config(EventKind::Part7, Category::Blind, Category::Sighted);
        c.red.board = Some(BoardUse::Vi);
        Table::started(c)
    }

    /// [`Table::part7`] with a red player who does not know notation (7.4(2)(c)).
    pub fn part7_red_without_notation() -> Table {
        let mut c = Table::part7().m.config().clone();
        c.red.knows_notation = false;
        Table::started(c)
    }

    /// 共融賽 of 7.4(2)(g)(iii): blind red, who named a proxy to operate his boards and
    /// clock, on the VI board; deaf black with the cards of 7.1(2) on the regular board.
    pub fn part7_proxy_and_deaf() -> Table {
        let mut c = config(EventKind::Part7, Category::Blind, Category::Deaf);
        c.red.board = Some(BoardUse::Vi);
        c.red.proxy = Some("丙".into());
        Table::started(c)
    }

    fn started(c: MatchConfig) -> Table {
        let mut t = Table {
            m: Match::new(c, Millis(0)).unwrap(),
            seq: 0,
            now: 0,
            log: Vec::new(),
        };
        t.run(Seat::Referee, Command::Start).expect("started");
        t
    }

    /// The `state` message.
    pub fn state(&self) -> ServerMsg {
        ServerMsg::State {
            table: TableId(1),
            seq: self.seq,
            at: Millis(self.now),
            snapshot: Box::new(self.m.snapshot()),
            recording: None,
        }
    }

    /// Applies a command; returns the numbered events, or the rejection.
    pub fn run(&mut self, seat: Seat, c: Command) -> Result<Vec<(u64, Event)>, Rejection> {
        self.now += 100;
        match self.m.apply(seat, c, Millis(self.now)) {
            Ok(events) => Ok(events
                .into_iter()
                .map(|e| {
                    self.seq += 1;
                    self.log.push((self.seq, e.clone()));
                    (self.seq, e)
                })
                .collect()),
            Err(r) => Err(r),
        }
    }

    /// Runs a command of another seat and shows its events to `s` (as `side` sees them).
    pub fn other(&mut self, s: &mut Session, seat: Seat, c: Command) -> Vec<Output> {
        let what = format!("{seat:?} {c:?}");
        let events = self
            .run(seat, c)
            .unwrap_or_else(|e| panic!("{what} refused: {e}"));
        deliver(s, &events, self.now)
    }

    /// `seat` gives the words of `words` one by one (each accepted).
    pub fn say(&mut self, seat: Seat, words: &str) {
        for c in words.chars() {
            let text = c.to_string();
            self.run(seat, Command::Word { text })
                .unwrap_or_else(|e| panic!("{seat:?} word {c}: {e}"));
        }
    }

    /// `seat` gives `words` and moves `mv` on its board, without pressing the clock.
    pub fn say_and_move(&mut self, seat: Seat, words: &str, mv: &str) {
        self.say(seat, words);
        let mv = mv.parse().expect("an ICCS move");
        self.run(seat, Command::BoardMove { board: None, mv })
            .unwrap_or_else(|e| panic!("{seat:?} board move: {e}"));
    }

    /// `seat` plays a whole turn: `words`, `mv` on its board, the clock pressed.
    pub fn play(&mut self, seat: Seat, words: &str, mv: &str) {
        self.say_and_move(seat, words, mv);
        self.run(seat, Command::PressClock)
            .unwrap_or_else(|e| panic!("{seat:?} press: {e}"));
    }

    /// Another seat announces `words` one by one, moves `mv` on its board and presses the
    /// clock, every event shown to `s`; the outputs of the press.
    pub fn other_plays(
        &mut self,
        s: &mut Session,
        seat: Seat,
        words: &str,
        mv: &str,
    ) -> Vec<Output> {
        for c in words.chars() {
            let text = c.to_string();
            self.other(s, seat, Command::Word { text });
        }
        let mv = mv.parse().expect("an ICCS move");
        self.other(s, seat, Command::BoardMove { board: None, mv });
        self.other(s, seat, Command::PressClock)
    }

    /// Carries out what a session sent, as the seat of `side` (or its proxy); returns the
    /// session's outputs for the answers.
    pub fn serve(&mut self, s: &mut Session, out: &Output, seat: Seat) -> Vec<Output> {
        let mut outs = Vec::new();
        for msg in &out.send {
            let ClientMsg::Command { id, command, .. } = msg else {
                continue;
            };
            match self.run(seat, command.clone()) {
                Ok(events) => {
                    outs.extend(deliver(s, &events, self.now));
                    let ack = ServerMsg::Ack {
                        id: id.clone(),
                        table: TableId(1),
                        seq: self.seq,
                    };
                    outs.push(s.handle(Input::Server(ack), self.now));
                }
                Err(rejection) => {
                    let rej = ServerMsg::Rejected {
                        id: id.clone(),
                        table: TableId(1),
                        rejection,
                    };
                    outs.push(s.handle(Input::Server(rej), self.now));
                }
            }
        }
        // What the answers sent in turn (a board sensor reporting, …) is served too.
        let more: Vec<Output> = outs.clone();
        for o in more.iter().filter(|o| !o.send.is_empty()) {
            outs.extend(self.serve(s, o, seat));
        }
        outs
    }
}

/// Shows numbered events to a session, skipping those not meant for its side.
pub fn deliver(s: &mut Session, events: &[(u64, Event)], now: u64) -> Vec<Output> {
    let me = s.side();
    events
        .iter()
        .filter(|(_, e)| match e.audience() {
            Audience::All => true,
            Audience::Side(side) => Some(side) == me,
            Audience::Referee => false,
        })
        .map(|(seq, e)| {
            let msg = ServerMsg::Event {
                table: TableId(1),
                seq: *seq,
                at: Millis(now),
                event: Box::new(e.clone()),
            };
            s.handle(Input::Server(msg), now)
        })
        .collect()
}

/// A session joined to `t` as `role` (`red`, `black`, `red_proxy`, …).
pub fn join(t: &Table, role: &str, opts: SessionOptions) -> Session {
    let mut s = Session::new("tok", opts);
    let hello = s.handle(Input::Connected, 0);
    assert_eq!(
        hello.send,
        vec![ClientMsg::Hello {
            token: "tok".into(),
            since: None
        }]
    );
    s.handle(
        Input::Server(ServerMsg::Welcome {
            role: baoqi_protocol::Role::parse(role).expect("a role"),
            name: "甲".into(),
            event: EventId(1),
            tables: vec![TableId(1)],
        }),
        0,
    );
    s.handle(Input::Server(t.state()), 0);
    s
}

/// Everything said in some outputs, in order.
pub fn said(outs: &[Output]) -> Vec<Utterance> {
    outs.iter()
        .flat_map(|o| o.heard.iter().flat_map(|h| h.say.clone()))
        .collect()
}

/// The commands sent in some outputs.
pub fn sent(outs: &[Output]) -> Vec<Command> {
    outs.iter()
        .flat_map(|o| o.send.iter())
        .filter_map(|m| match m {
            ClientMsg::Command { command, .. } => Some(command.clone()),
            _ => None,
        })
        .collect()
}

/// Presses `keys` (characters of the key map; `E` is Enter) and lets the table answer.
pub fn press(s: &mut Session, t: &mut Table, keys: &str, seat: Seat) -> Vec<Output> {
    let mut outs = Vec::new();
    for c in keys.chars() {
        let key = Key::from_char(c).expect("a key");
        let out = s.handle(Input::Key(key), t.now);
        let answers = t.serve(s, &out, seat);
        outs.push(out);
        outs.extend(answers);
    }
    outs
}
