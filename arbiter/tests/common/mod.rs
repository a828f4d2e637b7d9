//! A table for the tests: a match, a simulated clock, and short ways to speak, move and press.
#![allow(dead_code, unreachable_pub)]

use baoqi_arbiter::{
    BoardUse, Category, ClockMode, Command, Event, EventKind, Match, MatchConfig, Millis,
    Rejection, Seat, SideConfig, TimeControl,
};

/// A move written in ICCS (`h2e2`).
pub fn m(iccs: &str) -> baoqi_rules::Move {
    iccs.parse().expect("an ICCS move")
}

/// A point written in ICCS (`h2`).
pub fn pt(iccs: &str) -> baoqi_rules::Point {
    iccs.parse().expect("an ICCS point")
}

/// Words written as characters (`炮二平五`).
pub fn words(text: &str) -> Vec<baoqi_grammar::Word> {
    baoqi_grammar::parse_words(text)
}

/// Four words written as characters.
pub fn four(text: &str) -> [baoqi_grammar::Word; 4] {
    words(text).try_into().expect("four words")
}

/// An article reference.
pub fn art(text: &str) -> baoqi_arbiter::Article {
    text.parse().expect("an article")
}

/// A match and a clock that only moves when told.
pub struct Table {
    pub m: Match,
    pub now: u64,
    pub log: Vec<Event>,
}

pub fn blind(name: &str) -> SideConfig {
    SideConfig {
        name: name.into(),
        categories: vec![Category::Blind],
        ..SideConfig::default()
    }
}

pub fn sighted(name: &str) -> SideConfig {
    SideConfig {
        name: name.into(),
        ..SideConfig::default()
    }
}

pub fn tc(base_ms: u64, mode: ClockMode, extra_ms: u64) -> TimeControl {
    TimeControl {
        base_ms,
        mode,
        extra_ms,
    }
}

/// 視障賽: two blind players sharing one VI board.
pub fn part6() -> MatchConfig {
    let mut c = MatchConfig {
        kind: EventKind::Part6,
        red: blind("甲"),
        black: blind("乙"),
        ..MatchConfig::default()
    };
    c.time.default = tc(20 * 60_000, ClockMode::Increment, 10_000);
    c
}

/// 共融賽: a blind red player on the VI board, a sighted black player on a regular board.
pub fn part7() -> MatchConfig {
    let mut c = MatchConfig {
        kind: EventKind::Part7,
        red: blind("甲"),
        black: sighted("乙"),
        ..MatchConfig::default()
    };
    c.red.board = Some(BoardUse::Vi);
    c.black.board = Some(BoardUse::Regular);
    c.time.default = tc(20 * 60_000, ClockMode::Increment, 10_000);
    c
}

/// A regular game on one board.
pub fn regular() -> MatchConfig {
    let mut c = MatchConfig::default();
    c.time.default = tc(10 * 60_000, ClockMode::Increment, 5_000);
    c
}

impl Table {
    /// Creates the match at 0 and starts it at 0 (black presses, 95(3)).
    pub fn started(config: MatchConfig) -> Table {
        let mut t = Table {
            m: Match::new(config, Millis(0)).unwrap(),
            now: 0,
            log: Vec::new(),
        };
        t.ok(Seat::Referee, Command::Start);
        t
    }

    pub fn at(&mut self, ms: u64) -> &mut Table {
        self.now = ms;
        self
    }

    pub fn wait(&mut self, ms: u64) -> &mut Table {
        self.now += ms;
        self
    }

    pub fn try_cmd(&mut self, seat: Seat, c: Command) -> Result<Vec<Event>, Rejection> {
        let r = self.m.apply(seat, c, Millis(self.now));
        if let Ok(ev) = &r {
            self.log.extend(ev.iter().cloned());
        }
        r
    }

    pub fn ok(&mut self, seat: Seat, c: Command) -> Vec<Event> {
        let c2 = c.clone();
        self.try_cmd(seat, c)
            .unwrap_or_else(|e| panic!("{seat:?} {c2:?} refused: {e}"))
    }

    /// Says each character of `words` as one word.
    pub fn say(&mut self, seat: Seat, words: &str) -> Vec<Event> {
        let mut all = Vec::new();
        for ch in words.chars() {
            all.extend(self.ok(
                seat,
                Command::Word {
                    text: ch.to_string(),
                },
            ));
        }
        all
    }

    pub fn repeat(&mut self, seat: Seat, words: &str) -> Vec<Event> {
        let mut all = Vec::new();
        for ch in words.chars() {
            all.extend(self.ok(
                seat,
                Command::RepeatWord {
                    text: ch.to_string(),
                },
            ));
        }
        all
    }

    pub fn board(&mut self, seat: Seat, mv: &str) -> Vec<Event> {
        self.ok(
            seat,
            Command::BoardMove {
                board: None,
                mv: m(mv),
            },
        )
    }

    pub fn press(&mut self, seat: Seat) -> Vec<Event> {
        self.ok(seat, Command::PressClock)
    }

    /// Announce, move on the board, press: one full agreeing turn.
    pub fn turn(&mut self, seat: Seat, words: &str, mv: &str) -> Vec<Event> {
        let mut ev = self.say(seat, words);
        ev.extend(self.board(seat, mv));
        ev.extend(self.press(seat));
        ev
    }

    pub fn tick(&mut self) -> Vec<Event> {
        self.ok(Seat::Referee, Command::Tick)
    }
}

/// Whether some event matches.
#[macro_export]
macro_rules! has {
    ($events:expr, $pat:pat) => {
        $events.iter().any(|e| matches!(e, $pat))
    };
    ($events:expr, $pat:pat if $cond:expr) => {
        $events.iter().any(|e| matches!(e, $pat if $cond))
    };
}

/// The first event that matches, or a panic listing the events.
#[macro_export]
macro_rules! find {
    ($events:expr, $pat:pat => $out:expr) => {
        $events
            .iter()
            .find_map(|e| match e {
                $pat => Some($out),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {} in {:#?}", stringify!($pat), $events))
    };
}
