//! `baoqi protocol heard`: what the keypad says for the protocol's sample events, seat by
//! seat, and for its sample refusals. The pages' test (`tests/web/phrases.test.js`) reads it
//! and holds the seat page's narration to the same words wherever the keypad's message is an
//! entry of the phrasebook the two share.
//!
//! The protocol's samples hold one event of each kind; the words of some kinds depend on
//! their values (a move that took or checked, a draw declined by card or by touch, a tally
//! with a limit or without, a game's outcome and cause, an alert in the last minute), so those
//! are widened here to every value that is worded apart.

use baoqi_arbiter::Millis;
use baoqi_arbiter::{Decline, EndCause, Event, Outcome, ReportReason, Side, ViolationKind};
use baoqi_audio::from_event::utterances;
use baoqi_audio::phrasebook::phrase;
use baoqi_audio::{Notice, Refusal};
use baoqi_rules::{Color, EndReason, Kind, Pattern};
use serde_json::{Value, json};

/// `{"events": [{"event": {…}, "seat": "red", "said": [{"entry": "move.captured" | null,
/// "text": "…"}]}], "refusals": [{"rejection": {…}, "entry": …, "text": "…"}], "notices":
/// [{"notice": "lost", "entry": …, "text": "…"}], "entries": [{"entry": "keypad.help_1",
/// "text": "…"}]}`: the notices are the connection lost and a command not sent; the entries,
/// every entry of the phrasebook with its slots filled with sample values (what the keypad
/// says of itself, its help and prompts).
pub(crate) fn heard() -> Value {
    let mut events = Vec::new();
    for event in sample_events() {
        for (seat, me) in [("red", Color::Red), ("black", Color::Black)] {
            let said: Vec<_> = utterances(&event, me)
                .say
                .iter()
                .map(|u| {
                    let p = phrase(u);
                    json!({ "entry": p.entry, "text": p.display })
                })
                .collect();
            events.push(json!({ "event": event, "seat": seat, "said": said }));
        }
    }
    let refusals: Vec<_> = baoqi_protocol::samples::rejections()
        .iter()
        .map(|r| {
            let p = Notice::Refused(Refusal::of(r)).phrase();
            json!({ "rejection": r, "entry": p.entry, "text": p.display })
        })
        .collect();
    let notices: Vec<_> = [
        ("lost", Notice::Disconnected),
        ("not_sent", Notice::NotSent),
    ]
    .into_iter()
    .map(|(name, n)| {
        let p = n.phrase();
        json!({ "notice": name, "entry": p.entry, "text": p.display })
    })
    .collect();
    json!({ "events": events, "refusals": refusals, "notices": notices, "standings": standings(), "entries": entries() })
}

/// Where a game stands as the keypad says it on (re)joining, part by part, for each seat of
/// a game at each stage the summary words apart: `[{"view": {…the state's snapshot},
/// "seat": "red", "said": [{"entry": "summary.turn_you", "text": "輪到你"}]}]`. The states
/// are a real 第六部分 game's, played through the arbiter.
fn standings() -> Vec<Value> {
    let mut out = Vec::new();
    for view in sample_views() {
        let state = baoqi_clients::session::TableState::from_view(
            baoqi_protocol::TableId(1),
            0,
            0,
            &view,
            0,
        );
        for (seat, me) in [("red", Color::Red), ("black", Color::Black)] {
            let st = state.standing(me);
            let said: Vec<_> = baoqi_audio::standing_parts(&st)
                .iter()
                .map(|p| json!({ "entry": p.entry, "text": p.display }))
                .collect();
            out.push(json!({ "view": view, "seat": seat, "said": said }));
        }
    }
    out
}

/// A 第六部分 game at every stage its summary words apart: not started; red to move with
/// nothing said, two words said, the whole announcement said; black's offer standing on
/// red's turn; adjourned; over by resignation.
fn sample_views() -> Vec<baoqi_arbiter::View> {
    use baoqi_arbiter::{Command, Match, MatchConfig, PauseReason, Seat};
    let config = MatchConfig {
        kind: baoqi_arbiter::EventKind::Part6,
        ..MatchConfig::default()
    };
    let mut m = Match::new(config, Millis(0)).expect("the default part 6 configuration");
    let mut views = vec![m.snapshot()];
    let mut at = 0;
    let mut run = |m: &mut Match, seat: Seat, c: Command| {
        at += 1_000;
        m.apply(seat, c, Millis(at))
            .unwrap_or_else(|e| panic!("a sample game's command refused: {e}"));
    };
    let say = |run: &mut dyn FnMut(&mut Match, Seat, Command), m: &mut Match, seat, words: &str| {
        for c in words.chars() {
            run(
                m,
                seat,
                Command::Word {
                    text: c.to_string(),
                },
            );
        }
    };
    run(&mut m, Seat::Black, Command::Start);
    views.push(m.snapshot());
    say(&mut run, &mut m, Seat::Red, "炮二");
    views.push(m.snapshot());
    say(&mut run, &mut m, Seat::Red, "平五");
    views.push(m.snapshot());
    for (seat, mv) in [(Seat::Red, "h2e2"), (Seat::Black, "h9g7")] {
        if seat == Seat::Black {
            say(&mut run, &mut m, seat, "馬8進7");
            run(&mut m, seat, Command::OfferDraw);
        }
        let mv = mv.parse().expect("an ICCS move");
        run(&mut m, seat, Command::BoardMove { board: None, mv });
        run(&mut m, seat, Command::PressClock);
    }
    views.push(m.snapshot());
    run(
        &mut m,
        Seat::Referee,
        Command::Pause {
            reason: PauseReason::Adjournment,
        },
    );
    views.push(m.snapshot());
    run(&mut m, Seat::Red, Command::Resign);
    views.push(m.snapshot());
    views
}

/// Every entry of the phrasebook, display form, each slot filled with a sample of its kind
/// (a slot of the same name means the same thing in every entry, but `{board}`, a board's
/// name in `board.*` and a move as the board shows it elsewhere).
fn entries() -> Vec<Value> {
    let value = |v: &str| baoqi_phrases::Phrase::new(v, v, v);
    let samples: Vec<_> = SAMPLE_SLOTS.iter().map(|&(s, v)| (s, value(v))).collect();
    let (board_name, board_move) = (value("視障棋盤"), value("炮二平五"));
    let mut keys: Vec<_> = baoqi_phrases::keys().collect();
    keys.sort_unstable();
    keys.into_iter()
        .map(|key| {
            let board = if key.starts_with("board.") {
                &board_name
            } else {
                &board_move
            };
            let slots: Vec<(&str, &baoqi_phrases::Phrase)> = samples
                .iter()
                .map(|(s, p)| (*s, p))
                .chain([("board", board)])
                .collect();
            json!({ "entry": key, "text": baoqi_phrases::fill(key, &slots).display })
        })
        .collect()
}

/// A sample value for each slot the phrasebook names, as long as it commonly gets.
const SAMPLE_SLOTS: &[(&str, &str)] = &[
    ("side", "紅方"),
    ("piece", "炮"),
    ("move", "炮二平五"),
    ("announced", "炮二進四"),
    ("violation", "技術犯規"),
    ("count", "2"),
    ("limit", "4"),
    ("because", "走子未完成便按鐘"),
    ("missing", "走子"),
    ("first_side", "對手"),
    ("first_time", "1 小時 15 分 20 秒"),
    ("second_side", "你"),
    ("second_time", "1 小時 18 分 20 秒"),
    ("warning", "紅方長將，紅方不變作負"),
    ("pattern", "長將"),
    ("first", "紅方"),
    ("second", "黑方"),
    ("outcome", "你勝"),
    ("cause", "黑方超時"),
    ("reason", "雙方同意"),
    ("note", "棋盤已核實"),
    ("text", "請稍候"),
    ("file", "八"),
    ("rank", "三"),
    ("pieces", "車、馬"),
    ("percent", "120%"),
    ("round", "3"),
    ("place", "15"),
    ("points", "3分半"),
    ("players", "40"),
    ("n", "3"),
];

/// The protocol's sample events, each preceded by its other values worded apart (for the
/// first sample of a kind only, where one would do).
fn sample_events() -> Vec<Event> {
    let mut out = Vec::new();
    let mut widened = Vec::new();
    for event in baoqi_protocol::samples::events() {
        let kind = std::mem::discriminant(&event);
        if !widened.contains(&kind) {
            widened.push(kind);
            out.extend(others(&event));
        }
        out.push(event);
    }
    out
}

/// `event` with each other value its kind is worded apart for.
fn others(event: &Event) -> Vec<Event> {
    let with = |change: &dyn Fn(&mut Event)| {
        let mut other = event.clone();
        change(&mut other);
        other
    };
    match event {
        Event::Moved { .. } => [(None, false), (None, true), (Some(Kind::Horse), false)]
            .map(|(taken, check)| {
                with(&|e| {
                    if let Event::Moved { mv, .. } = e {
                        (mv.captured, mv.check) = (taken, check);
                    }
                })
            })
            .into(),
        Event::DrawDeclined { .. } => [Decline::Declined, Decline::CardReturned]
            .map(|way| with(&|e| set_decline(e, way)))
            .into(),
        Event::Repeated { .. } => [(true, false), (false, true)]
            .map(|(d, m)| {
                with(&|e| {
                    if let Event::Repeated { done, mismatch, .. } = e {
                        (*done, *mismatch) = (d, m);
                    }
                })
            })
            .into(),
        Event::Violation { .. } => violations(event),
        Event::GameOver { .. } => game_ends(event),
        Event::TimeAlert { .. } => vec![with(&|e| {
            if let Event::TimeAlert { times, .. } = e {
                times[0].ms = times[0].ms.min(30_000);
            }
        })],
        Event::TimeReport { .. } => vec![with(&|e| {
            if let Event::TimeReport { reason, by, .. } = e {
                (*reason, *by) = (ReportReason::Press, None);
            }
        })],
        _ => Vec::new(),
    }
}

fn set_decline(e: &mut Event, way: Decline) {
    if let Event::DrawDeclined { how, .. } = e {
        *how = way;
    }
}

/// A counted violation of every kind, with a limit and without.
fn violations(event: &Event) -> Vec<Event> {
    let mut out = Vec::new();
    for kind in [
        ViolationKind::Technical,
        ViolationKind::Recording,
        ViolationKind::Clock,
    ] {
        for limit in [0, 2] {
            let mut other = event.clone();
            if let Event::Violation {
                kind: k,
                limit: l,
                counted,
                ..
            } = &mut other
            {
                (*k, *l, *counted) = (kind, limit, true);
            }
            out.push(other);
        }
    }
    out
}

/// The end of a game with every outcome, and with the causes the samples leave out.
fn game_ends(event: &Event) -> Vec<Event> {
    let mut out = Vec::new();
    for outcome in [Outcome::RedWins, Outcome::BlackWins, Outcome::BothLose] {
        let mut other = event.clone();
        if let Event::GameOver { outcome: o, .. } = &mut other {
            *o = outcome;
        }
        out.push(other);
    }
    for cause in more_end_causes() {
        let mut other = event.clone();
        if let Event::GameOver { cause: c, .. } = &mut other {
            *c = cause;
        }
        out.push(other);
    }
    out
}

/// The ends of a game the protocol's samples leave out (they hold one of each kind): the other
/// board reasons and patterns, and resignation and agreement with and without cards.
fn more_end_causes() -> Vec<EndCause> {
    let board = [
        EndReason::Stalemate,
        EndReason::DeadDraw,
        EndReason::NaturalLimit,
    ];
    let mut out: Vec<_> = board.map(|reason| EndCause::Board { reason }).into();
    out.extend([
        EndCause::Forbidden {
            offender: Side::Black,
            pattern: Pattern::PerpetualCheck,
        },
        EndCause::Resigned {
            loser: Side::Red,
            card: false,
        },
        EndCause::DrawAgreed { card: true },
    ]);
    out
}
