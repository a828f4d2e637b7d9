//! One sample of every message, command, event, refusal and reason, for the protocol's own
//! tests, the generated JS constants (`baoqi protocol js`) and the pages' tests (`baoqi
//! protocol samples`). Each list is checked by an exhaustive `match` ([`covers_all`]), so a
//! new variant does not compile until it has a sample, and the JS file (checked for
//! staleness) then names it.

mod commands;
mod events;
mod messages;
mod reasons;

pub use commands::{calls, commands, rejections};
pub use events::events;
pub use messages::{client_messages, server_messages, standing_answers};
pub use reasons::{end_causes, illegalities, unspeakables, violation_reasons, warnings};

use commands::{command_index, matter_index, rejection_index};
use events::event_index;
use messages::{client_index, server_index, standing_answer_index};
use reasons::{
    end_cause_index, illegality_index, unspeakable_index, violation_reason_index, warning_index,
};

use baoqi_arbiter::{Announcement, Article, ClockView, Illegality, Matter, Millis, Side, SideTime};
use baoqi_grammar::Word;
use baoqi_rules::{Kind, Move, Point};

use crate::envelope::ErrorCode;

fn mv(s: &str) -> Move {
    s.parse().expect("a sample move")
}

fn pt(s: &str) -> Point {
    s.parse().expect("a sample point")
}

fn words() -> [Word; 4] {
    [
        Word::Piece(Kind::Cannon),
        Word::Numeral(2),
        Word::Across,
        Word::Numeral(5),
    ]
}

fn art(s: &'static str) -> Article {
    Article::of(s)
}

fn clock() -> ClockView {
    ClockView {
        red_ms: 1_200_000,
        black_ms: 1_190_000,
        running: Some(Side::Red),
        since: Millis(5_000),
        delay_until: None,
    }
}

fn times() -> [SideTime; 2] {
    [
        SideTime {
            side: Side::Black,
            ms: 900_000,
        },
        SideTime {
            side: Side::Red,
            ms: 1_100_000,
        },
    ]
}

fn announcement() -> Announcement {
    Announcement {
        words: words(),
        mv: None,
        illegal: Some(Illegality::SelfCheck { mv: mv("h2e2") }),
        from: Some(pt("h2")),
    }
}

/// Whether `samples`, indexed by an exhaustive `match`, cover all `n` variants.
fn covers<T>(samples: &[T], index: fn(&T) -> usize, n: usize) -> Result<(), String> {
    let mut seen = vec![false; n];
    for s in samples {
        let i = index(s);
        *seen
            .get_mut(i)
            .ok_or_else(|| format!("index {i} out of {n}"))? = true;
    }
    match seen.iter().position(|s| !s) {
        Some(i) => Err(format!("variant {i} of {n} has no sample")),
        None => Ok(()),
    }
}

/// Checks that every list has a sample of every variant (see the module documentation).
pub fn covers_all() -> Result<(), String> {
    covers(&commands(), command_index, 29)?;
    covers(&events(), event_index, 35)?;
    covers(&rejections(), rejection_index, 28)?;
    covers(&end_causes(), end_cause_index, 10)?;
    covers(&violation_reasons(), violation_reason_index, 8)?;
    covers(&unspeakables(), unspeakable_index, 21)?;
    covers(&illegalities(), illegality_index, 5)?;
    covers(&warnings(), warning_index, 3)?;
    covers(&events::referee_call_kinds(), events::referee_call_index, 7)?;
    let matters: Vec<Matter> = calls().into_iter().map(|c| c.matter).collect();
    covers(&matters, matter_index, 9)?;
    covers(&client_messages(), client_index, 6)?;
    covers(&server_messages(), server_index, 11)?;
    covers(&standing_answers(), standing_answer_index, 4)?;
    Ok(())
}

/// Every sample as one JSON document, for the pages' tests (`baoqi protocol samples`).
pub fn all_json() -> serde_json::Value {
    let error_codes: Vec<serde_json::Value> = crate::variants::names::<ErrorCode>()
        .iter()
        .map(|c| serde_json::Value::from(*c))
        .collect();
    serde_json::json!({
        "events": events(),
        "commands": commands(),
        "rejections": rejections(),
        "calls": calls(),
        "end_causes": end_causes(),
        "client_messages": client_messages(),
        "server_messages": server_messages(),
        "standing_answers": standing_answers(),
        "error_codes": error_codes,
    })
}
