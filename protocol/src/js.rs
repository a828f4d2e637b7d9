//! The pages' constants, generated from the crate (`baoqi protocol js >
//! server/assets/app/protocol.js`): the version, the name of every message, command, event,
//! refusal and reason the server may send, the default limits, and the words of the rule
//! text in traditional characters as the Rust side writes them (pieces and numerals per
//! side, the words of 第61條, outcomes). A test fails when the committed file is stale.

use std::fmt::Write as _;

use baoqi_arbiter::{
    Act, AnnouncedFor, BoardId, CallAction, Card, CardMove, Category, CheckOutcome, Decline,
    EventKind, Limits, Outcome, Owed, PauseReason, Phase, RefereeCall, Removal, ReportReason,
    RestoreCause, Seat, Side, Speaker, Threshold, ViolationKind, Wait,
};
use baoqi_grammar::{Word, words_text};
use baoqi_rules::{EndReason, Kind, Pattern};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::envelope::{ErrorCode, MAX_FRAME, VERSION};
use crate::recording::RecorderState;
use crate::samples;
use crate::seat::Role;
use crate::variants::names;

/// The distinct values of `field` in the JSON of `samples`, in order.
fn tags<T: Serialize>(samples: &[T], field: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in samples {
        let v = serde_json::to_value(s).unwrap_or(Value::Null);
        if let Some(tag) = v.get(field).and_then(Value::as_str)
            && !out.iter().any(|t| t == tag)
        {
            out.push(tag.to_owned());
        }
    }
    out
}

/// The wire names of every unit enum a page reads.
fn enums() -> Value {
    let mut m = Map::new();
    let mut put = |name: &str, list: &[&str]| {
        m.insert(name.into(), json!(list));
    };
    put("side", names::<Side>());
    put("seat", names::<Seat>());
    put("role", names::<Role>());
    put("kind", names::<Kind>());
    put("card", names::<Card>());
    put("board", names::<BoardId>());
    put("event_kind", names::<EventKind>());
    put("category", names::<Category>());
    put("phase", names::<Phase>());
    put("speaker", names::<Speaker>());
    put("report_reason", names::<ReportReason>());
    put("check_outcome", names::<CheckOutcome>());
    put("referee_call", names::<RefereeCall>());
    put("outcome", names::<Outcome>());
    put("violation_kind", names::<ViolationKind>());
    put("owed", names::<Owed>());
    put("removal", names::<Removal>());
    put("decline", names::<Decline>());
    put("card_move", names::<CardMove>());
    put("pause_reason", names::<PauseReason>());
    put("threshold", names::<Threshold>());
    put("announced_for", names::<AnnouncedFor>());
    put("restore_cause", names::<RestoreCause>());
    put("call_action", names::<CallAction>());
    put("act", names::<Act>());
    put("wait", names::<Wait>());
    put("end_reason", names::<EndReason>());
    put("pattern", names::<Pattern>());
    put("error_code", names::<ErrorCode>());
    put("recorder_state", names::<RecorderState>());
    Value::Object(m)
}

/// Every word as each side writes it in traditional characters: `{"red": {"cannon": "炮",
/// "2": "二", …}, "black": {…, "2": "２"}}`.
fn word_text() -> Value {
    let side = |color| {
        let m: Map<String, Value> = Word::all()
            .into_iter()
            .map(|w| (w.token().to_owned(), json!(words_text(&[w], color))))
            .collect();
        Value::Object(m)
    };
    json!({"red": side(Side::Red), "black": side(Side::Black)})
}

/// The characters of the word keys a page offers, each with its word's token: the piece
/// names of both sides' sets (第12條), 前 中 後, 進 退 平, red's numerals 一…九 and black's 1…9.
const KEY_CHARS: &str = "車馬炮相象仕士帥將兵卒前中後進退平一二三四五六七八九123456789";

/// The word keys: `[character, token]` pairs, read by the grammar (the key sends the
/// character; the server's `next` words are tokens).
fn key_words() -> Value {
    let pairs: Vec<Value> = KEY_CHARS
        .chars()
        .filter_map(|c| {
            let slot = if "進退平".contains(c) { 2 } else { 0 };
            baoqi_grammar::parse_word(&c.to_string(), slot)
                .map(|w| json!([c.to_string(), w.token()]))
        })
        .collect();
    Value::Array(pairs)
}

/// The words of every warning of 第61條, keyed `kind/side/pattern` (`ordinary//`,
/// `forbidden/red/perpetual_check`, `mutual/black/perpetual_chase` with the side named first).
fn warning_text() -> Value {
    let m: Map<String, Value> = samples::warnings()
        .into_iter()
        .map(|w| {
            let v = serde_json::to_value(w).unwrap_or_default();
            let field = |k: &str| {
                v.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let side = if field("side").is_empty() {
                field("first")
            } else {
                field("side")
            };
            let key = format!("{}/{side}/{}", field("kind"), field("pattern"));
            (key, json!(w.text()))
        })
        .collect();
    Value::Object(m)
}

/// A unit enum value's wire name.
fn key<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// An object from pairs of a unit enum value and its words.
fn named<T: Serialize>(pairs: impl IntoIterator<Item = (T, &'static str)>) -> Value {
    Value::Object(
        pairs
            .into_iter()
            .map(|(k, v)| (key(&k), json!(v)))
            .collect(),
    )
}

/// Names of the rule text for outcomes, violations, boards, endings and patterns.
fn rule_words() -> Value {
    let outcomes = [
        Outcome::RedWins,
        Outcome::BlackWins,
        Outcome::Draw,
        Outcome::BothLose,
    ];
    let kinds = [
        ViolationKind::Technical,
        ViolationKind::Recording,
        ViolationKind::Clock,
    ];
    let endings = [
        EndReason::DeadDraw,
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::NaturalLimit,
    ];
    let patterns = [Pattern::PerpetualCheck, Pattern::PerpetualChase];
    json!({
        "outcome": named(outcomes.map(|o| (o, o.chinese()))),
        "score": named(outcomes.map(|o| (o, o.score()))),
        "violation_kind": named(kinds.map(|k| (k, k.chinese()))),
        "board": named([BoardId::Vi, BoardId::Regular].map(|b| (b, b.chinese()))),
        "end_reason": named(endings.map(|r| (r, r.chinese()))),
        "pattern": named(patterns.map(|p| (p, p.chinese()))),
    })
}

/// The whole constants file.
pub fn constants() -> String {
    let matters: Vec<_> = samples::calls().into_iter().map(|c| c.matter).collect();
    let limits = Limits::default();
    let consts: Vec<(&str, Value)> = vec![
        ("VERSION", json!(VERSION)),
        ("MAX_FRAME", json!(MAX_FRAME)),
        (
            "CLIENT_MESSAGES",
            json!(tags(&samples::client_messages(), "type")),
        ),
        (
            "SERVER_MESSAGES",
            json!(tags(&samples::server_messages(), "type")),
        ),
        ("COMMANDS", json!(tags(&samples::commands(), "type"))),
        ("EVENTS", json!(tags(&samples::events(), "type"))),
        ("REJECTIONS", json!(tags(&samples::rejections(), "reason"))),
        ("END_CAUSES", json!(tags(&samples::end_causes(), "cause"))),
        (
            "VIOLATION_REASONS",
            json!(tags(&samples::violation_reasons(), "reason")),
        ),
        ("UNSPEAKABLE", json!(tags(&samples::unspeakables(), "why"))),
        (
            "IMPOSSIBLE",
            json!(tags(&samples::unspeakables(), "impossible")),
        ),
        (
            "ILLEGALITIES",
            json!(tags(&samples::illegalities(), "illegal")),
        ),
        ("CALL_KINDS", json!(tags(&matters, "kind"))),
        (
            "STANDING_ANSWERS",
            json!(tags(&samples::standing_answers(), "answer")),
        ),
        ("ENUMS", enums()),
        (
            "LIMITS",
            json!({"technical": limits.technical, "recording": limits.recording, "clock": limits.clock}),
        ),
        (
            "WORDS",
            json!(Word::all().iter().map(|w| w.token()).collect::<Vec<_>>()),
        ),
        ("WORD_TEXT", word_text()),
        ("KEY_WORDS", key_words()),
        ("WARNING_TEXT", warning_text()),
        ("RULE_WORDS", rule_words()),
    ];
    let mut out = String::from(
        "// Generated from the protocol crate (protocol/src/js.rs) by `baoqi protocol js`: do not\n\
         // edit. A test fails when it is stale; regenerate it with\n\
         //   cargo run -- protocol js > server/assets/app/protocol.js\n\n",
    );
    for (name, value) in consts {
        let text = serde_json::to_string(&value).unwrap_or_default();
        if value.is_object() || value.is_array() {
            let _ = writeln!(out, "export const {name} = Object.freeze({text});");
        } else {
            let _ = writeln!(out, "export const {name} = {text};");
        }
    }
    out
}
