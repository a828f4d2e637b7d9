//! Property tests: random command streams from every seat. No panic; clocks stay sane; every
//! board equals the game (or shows a move in progress, or lags by the move to mirror) unless
//! a divergence is open; folding the event log (also after a JSON round trip), replaying
//! the commands (in place too), and a checkpoint of the middle with the commands after it
//! all rebuild exactly the same match.

use crate::common;

use baoqi_arbiter::{
    BoardId, Card, Command, Event, Match, MatchConfig, Millis, Seat, Stamped, ViolationKind,
};
use baoqi_grammar::{Style, render};
use baoqi_rules::{Move, Point};
use proptest::prelude::*;

/// What a random participant does; indices pick among what the position offers.
#[derive(Clone, Debug)]
enum Act {
    /// A whole agreeing turn of a legal move.
    Play(u8),
    /// A random word of a random legal move (or a random character).
    Word(u8, u8, u8),
    RepeatWord(u8, u8),
    Board(u8, u8),
    Lift(u8),
    Place(u8),
    Simple(u8),
    Referee(u8),
    Wait(u16),
    /// An announcement that is possible but illegal (derived from legal move `.0`), then the
    /// board move `.1`: check (b) or (c).
    Foul(u8, u8),
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        6 => any::<u8>().prop_map(Act::Play),
        3 => (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, c)| Act::Word(a, b, c)),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Act::RepeatWord(a, b)),
        2 => (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Act::Board(a, b)),
        1 => any::<u8>().prop_map(Act::Lift),
        1 => any::<u8>().prop_map(Act::Place),
        3 => any::<u8>().prop_map(Act::Simple),
        1 => any::<u8>().prop_map(Act::Referee),
        3 => any::<u16>().prop_map(Act::Wait),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Act::Foul(a, b)),
    ]
}

const SEATS: [Seat; 5] = [
    Seat::Red,
    Seat::Black,
    Seat::RedProxy,
    Seat::BlackProxy,
    Seat::Referee,
];
const CHARS: &str = "車馬炮相仕帥兵前後中進退平一二三四五六七八九１２３４５６７８９X";

fn configs() -> Vec<MatchConfig> {
    let mut deaf = common::part7();
    deaf.black.categories = vec![baoqi_arbiter::Category::Deaf];
    deaf.black.proxy = Some("丙".into());
    deaf.talking_clock = true;
    let mut p6 = common::part6();
    p6.red.knows_notation = false;
    p6.limits.clock = 0;
    let mut short = common::part6();
    short.time.default = common::tc(40_000, baoqi_arbiter::ClockMode::Hourglass, 0);
    vec![p6, common::part7(), deaf, common::regular(), short]
}

struct Run {
    m: Match,
    now: u64,
    cmds: Vec<Stamped>,
    events: Vec<Event>,
    /// The commands accepted, as a server stores them.
    accepted: Vec<Stamped>,
}

impl Run {
    fn send(&mut self, seat: Seat, command: Command) {
        let s = Stamped {
            at: Millis(self.now),
            seat,
            command,
        };
        if let Ok(ev) = self.m.apply_stamped(&s) {
            self.events.extend(ev);
            self.accepted.push(s.clone());
        }
        self.cmds.push(s);
    }

    fn mover(&self) -> Seat {
        Seat::player(self.m.to_move())
    }

    fn legal(&self, i: u8) -> Option<baoqi_rules::Move> {
        let moves = self.m.position().legal_moves();
        (!moves.is_empty()).then(|| moves[i as usize % moves.len()])
    }

    fn play(&mut self, i: u8) {
        let Some(mv) = self.legal(i) else { return };
        let words = render(self.m.position(), mv, Style::Traditional).unwrap();
        let seat = self.mover();
        let repeat = |run: &mut Run| {
            if let Some(r) = run.m.snapshot().pending.repeat {
                for c in baoqi_grammar::words_text(&r.words, r.mover).chars() {
                    run.send(
                        seat,
                        Command::RepeatWord {
                            text: c.to_string(),
                        },
                    );
                }
            }
        };
        repeat(self);
        // Mirror the opponent's last move on one's own board first (7.4(2)(g)(ii)).
        let v = self.m.snapshot();
        let game = placement(&v.fen).to_string();
        let last = self.events.iter().rev().find_map(|e| match e {
            Event::Moved { mv, .. } => Some(mv.iccs),
            _ => None,
        });
        if v.boards.len() == 2 {
            let own = if self.m.to_move() == baoqi_arbiter::Side::Red {
                BoardId::Vi
            } else {
                BoardId::Regular
            };
            if let (Some(b), Some(last)) = (v.boards.iter().find(|b| b.board == own), last)
                && b.placement != game
            {
                self.send(
                    seat,
                    Command::BoardMove {
                        board: None,
                        mv: last,
                    },
                );
            }
        }
        // A referee puts a disturbed board right before the move.
        let v = self.m.snapshot();
        for b in &v.boards {
            if b.placement != placement(&v.fen) || !b.hand.is_empty() {
                self.send(
                    Seat::Referee,
                    Command::CorrectBoard {
                        board: b.board,
                        placement: v.fen.clone(),
                    },
                );
            }
        }
        let board = Command::BoardMove { board: None, mv };
        if self.m.snapshot().pending.announce_for {
            self.send(seat, board);
            for c in words.chars() {
                self.send(
                    Seat::Referee,
                    Command::Word {
                        text: c.to_string(),
                    },
                );
            }
            repeat(self);
        } else {
            for c in words.chars() {
                self.send(
                    seat,
                    Command::Word {
                        text: c.to_string(),
                    },
                );
            }
            self.send(seat, board);
        }
        self.send(seat, Command::PressClock);
    }

    fn referee(&mut self, k: u8) {
        let cmd = match k % 10 {
            0 => Command::ConfirmCheck,
            1 => Command::Pause {
                reason: baoqi_arbiter::PauseReason::Adjournment,
            },
            2 => Command::Resume,
            3 => self
                .legal(k)
                .map_or(Command::Tick, |mv| Command::SealMove { mv }),
            4 => self
                .legal(k)
                .map_or(Command::Tick, |mv| Command::OverrideCheck { mv }),
            5 => Command::RecordViolation {
                side: baoqi_arbiter::Side::Red,
                kind: ViolationKind::Recording,
                note: String::new(),
            },
            6 => Command::RescindViolation {
                side: baoqi_arbiter::Side::Red,
                kind: ViolationKind::Recording,
            },
            7 => Command::CorrectBoard {
                board: if k.is_multiple_of(2) {
                    BoardId::Vi
                } else {
                    BoardId::Regular
                },
                placement: self.m.position().fen(),
            },
            8 => Command::IssueWarning {
                side: None,
                repetition: None,
                text: "警告".into(),
            },
            _ => Command::VerifyResult {
                note: String::new(),
            },
        };
        self.send(Seat::Referee, cmd);
    }

    fn foul(&mut self, first: u8, second: u8) {
        let (Some(announced), Some(played)) = (self.legal(first), self.legal(second)) else {
            return;
        };
        let pos = self.m.position().clone();
        let Ok(ws) = baoqi_grammar::words_of(&pos, announced) else {
            return;
        };
        let illegal = (1..=9u8).find_map(|n| {
            let mut w = ws;
            w[3] = baoqi_grammar::Word::Numeral(n);
            let mut ann = baoqi_grammar::Announcer::new(&pos, baoqi_grammar::Mode::Strict);
            let last = w.iter().map(|&x| ann.push(x)).last()?;
            matches!(
                last.complete,
                Some(baoqi_grammar::Completion::Illegal { .. })
            )
            .then(|| baoqi_grammar::Designation::from_words(w).map(|d| d.text(pos.turn())))
            .flatten()
        });
        let Some(text) = illegal else { return };
        let seat = self.mover();
        for c in text.chars() {
            self.send(
                seat,
                Command::Word {
                    text: c.to_string(),
                },
            );
        }
        self.send(
            seat,
            Command::BoardMove {
                board: None,
                mv: played,
            },
        );
        self.send(seat, Command::PressClock);
    }

    fn step(&mut self, a: &Act) {
        match *a {
            Act::Play(i) => self.play(i),
            Act::Word(s, i, w) => {
                let text = match self.legal(i) {
                    Some(mv) if w % 3 != 0 => render(self.m.position(), mv, Style::Traditional)
                        .unwrap()
                        .chars()
                        .nth(w as usize % 4)
                        .unwrap()
                        .to_string(),
                    _ => CHARS
                        .chars()
                        .nth(w as usize % CHARS.chars().count())
                        .unwrap()
                        .to_string(),
                };
                self.send(SEATS[s as usize % 5], Command::Word { text });
            }
            Act::RepeatWord(s, w) => {
                let text = CHARS
                    .chars()
                    .nth(w as usize % CHARS.chars().count())
                    .unwrap()
                    .to_string();
                let cmd = if w % 4 == 0 {
                    Command::ConfirmRepeat
                } else {
                    Command::RepeatWord { text }
                };
                self.send(SEATS[s as usize % 5], cmd);
            }
            Act::Board(s, i) => {
                let any = || {
                    let from = Point::new(i % 9, i % 10)?;
                    let to = Point::new((i / 9) % 9, (i / 3) % 10)?;
                    (from != to).then(|| Move::new(from, to))
                };
                let mv = match self.legal(i) {
                    Some(m) if i % 4 != 0 => Some(m),
                    _ => any(),
                };
                let board = [None, Some(BoardId::Vi), Some(BoardId::Regular)][s as usize % 3];
                if let Some(mv) = mv {
                    self.send(SEATS[s as usize % 5], Command::BoardMove { board, mv });
                }
            }
            Act::Lift(p) => {
                let point = Point::new(p % 9, (p / 9) % 10).expect("on the board");
                self.send(SEATS[p as usize % 5], Command::Lift { board: None, point });
            }
            Act::Place(p) => {
                let point = Point::new(p % 9, (p / 9) % 10).expect("on the board");
                self.send(SEATS[p as usize % 5], Command::Place { board: None, point });
            }
            Act::Simple(k) => {
                let seat = SEATS[(k / 16) as usize % 5];
                let cmd = match k % 16 {
                    0 => Command::PressClock,
                    2 => Command::QueryTime,
                    3 | 4 => Command::OfferDraw,
                    5 => Command::AcceptDraw,
                    6 => Command::DeclineDraw,
                    7 if k > 200 => Command::Resign,
                    8 => Command::HandCard { card: Card::Draw },
                    9 if k > 220 => Command::HandCard { card: Card::Resign },
                    10 => Command::ReturnCard,
                    11 => Command::ExchangeCards,
                    1 | 12 => Command::Signal,
                    _ => Command::Tick,
                };
                self.send(seat, cmd);
            }
            Act::Referee(k) => self.referee(k),
            Act::Foul(i, j) => self.foul(i, j),
            Act::Wait(ms) => {
                self.now += u64::from(ms) % 20_000;
                self.send(Seat::Referee, Command::Tick);
            }
        }
    }
}

fn placement(fen: &str) -> &str {
    fen.split(' ').next().unwrap()
}

fn squares(p: &str) -> Vec<char> {
    p.split('/')
        .flat_map(|row| {
            row.chars().flat_map(|c| match c.to_digit(10) {
                Some(n) => vec!['.'; n as usize],
                None => vec![c],
            })
        })
        .collect()
}

/// The invariants after each command.
fn check(run: &Run, start_fen: &str, budget: u64) {
    let v = run.m.snapshot();
    let now = Millis(run.now);
    for side in [baoqi_arbiter::Side::Red, baoqi_arbiter::Side::Black] {
        assert!(run.m.time_left(side, now) <= budget, "clock out of range");
    }
    assert!(v.clock.red_ms <= budget && v.clock.black_ms <= budget);
    let game = squares(placement(&v.fen));
    let prev = v
        .moves
        .len()
        .checked_sub(2)
        .map(|_| ())
        .and_then(|()| {
            run.events
                .iter()
                .rev()
                .filter_map(|e| match e {
                    Event::Moved { fen, .. } => Some(fen.clone()),
                    _ => None,
                })
                .nth(1)
        })
        .unwrap_or_else(|| start_fen.to_string());
    let prev = squares(placement(&prev));
    for b in &v.boards {
        if b.diverging || !b.hand.is_empty() || v.phase == baoqi_arbiter::Phase::Over {
            continue;
        }
        let sq = squares(&b.placement);
        let diff = sq.iter().zip(&game).filter(|(a, b)| a != b).count();
        assert!(
            diff == 0 || diff == 2 || sq == prev,
            "board {:?} differs from the game by {diff} points without a divergence",
            b.board
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        // 64 by default; `PROPTEST_CASES=1000` for a longer run.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_streams_keep_the_invariants_and_replay_exactly(
        which in 0usize..5,
        acts in proptest::collection::vec(act(), 1..120),
    ) {
        let cfg = configs()[which].clone();
        let start_fen = baoqi_rules::START_FEN.to_string();
        let mut run = Run { m: Match::new(cfg.clone(), Millis(0)).unwrap(), now: 0, cmds: Vec::new(), events: Vec::new(), accepted: Vec::new() };
        run.send(Seat::Black, Command::PressClock);
        let base = cfg.time.for_side(&cfg.red).base_ms + cfg.time.for_side(&cfg.black).base_ms;
        let mut middle = None;
        for (i, a) in acts.iter().enumerate() {
            if i == acts.len() / 2 {
                middle = Some((serde_json::to_string(&run.m).unwrap(), run.cmds.len()));
            }
            run.step(a);
            let budget = base + 20_000 * run.m.position().fullmoves() as u64 * 2;
            check(&run, &start_fen, budget);
        }
        // A checkpoint reads back as the same match, and the checkpoint of the middle with
        // the commands after it rebuilds the end.
        let json = serde_json::to_string(&run.m).unwrap();
        let back: Match = serde_json::from_str(&json).unwrap();
        prop_assert!(back == run.m, "the checkpoint differs");
        prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let (json, from) = middle.unwrap();
        let mut resumed: Match = serde_json::from_str(&json).unwrap();
        for s in &run.cmds[from..] {
            let _ = resumed.apply_stamped(s);
        }
        prop_assert!(resumed == run.m, "checkpoint and tail differ");
        prop_assert_eq!(resumed.snapshot(), run.m.snapshot());
        // The accepted commands, applied again in place, rebuild it too.
        let mut again = Match::new(cfg.clone(), Millis(0)).unwrap();
        for s in &run.accepted {
            again.reapply(s.seat, s.command.clone(), s.at).unwrap();
        }
        prop_assert!(again == run.m, "reapply differs");
        let folded = Match::from_events(cfg.clone(), Millis(0), &run.events).unwrap();
        prop_assert!(folded == run.m, "from_events differs");
        let json: Vec<String> = run.events.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
        let back: Vec<Event> = json.iter().map(|j| serde_json::from_str(j).unwrap()).collect();
        prop_assert_eq!(&back, &run.events);
        let replayed = Match::replay(cfg, Millis(0), &run.cmds).unwrap();
        prop_assert!(replayed == run.m, "replay differs");
        prop_assert_eq!(replayed.snapshot(), run.m.snapshot());
    }
}

/// The generator really plays: over a fixed pseudo-random stream, every configuration moves,
/// announces, diverges, violates and ends games, so the properties above are not vacuous.
#[test]
fn the_random_streams_exercise_the_match() {
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for cfg in configs() {
        for _ in 0..6 {
            let mut run = Run {
                m: Match::new(cfg.clone(), Millis(0)).unwrap(),
                now: 0,
                cmds: Vec::new(),
                events: Vec::new(),
                accepted: Vec::new(),
            };
            run.send(Seat::Black, Command::PressClock);
            for _ in 0..150 {
                let r = next();
                let b = (r >> 8) as u8;
                let a = match r % 20 {
                    0..=7 => Act::Play(b),
                    8..=10 => Act::Word((r >> 16) as u8, b, (r >> 24) as u8),
                    11 => Act::RepeatWord((r >> 16) as u8, b),
                    12 | 13 => Act::Board((r >> 16) as u8, b),
                    14 => Act::Lift(b),
                    15 => Act::Place(b),
                    16 | 17 => Act::Simple(b),
                    18 if b.is_multiple_of(2) => Act::Referee(b),
                    18 => Act::Foul(b, (r >> 16) as u8),
                    _ => Act::Wait((r >> 16) as u16),
                };
                run.step(&a);
            }
            for e in &run.events {
                let name = serde_json::to_value(e).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string();
                *seen.entry(name).or_default() += 1;
            }
            assert!(Match::from_events(cfg.clone(), Millis(0), &run.events).unwrap() == run.m);
            let json = serde_json::to_string(&run.m).unwrap();
            assert!(
                serde_json::from_str::<Match>(&json).unwrap() == run.m,
                "checkpoint"
            );
        }
    }
    for kind in [
        "moved",
        "word",
        "announced",
        "impossible",
        "checked",
        "violation",
        "board_diverges",
        "board_agrees",
        "game_over",
        "time_alert",
        "repeated",
        "draw_offered",
        "restore_required",
    ] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} in {seen:?}"
        );
    }
}
