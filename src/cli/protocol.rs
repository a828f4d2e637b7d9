//! `baoqi protocol`: what the pages are built from. `js` prints the constants module of the
//! web clients (`server/assets/app/protocol.js`) and `phrases` the shared phrasebook's
//! (`server/assets/app/phrases.js`), each checked for staleness by a test; `samples` prints
//! one sample of every message, event, refusal and call, for the pages' own tests, and
//! `heard` what the keypad says for each sample event, for the test that holds the pages to
//! the same words.

use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `baoqi protocol`.
#[derive(Debug, Args)]
pub(crate) struct ProtocolArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, Subcommand)]
enum What {
    /// The web clients' constants module (write it to server/assets/app/protocol.js).
    Js,
    /// The pages' copy of the shared phrasebook (write it to server/assets/app/phrases.js).
    Phrases,
    /// One sample of every message, event, refusal and call, as JSON.
    Samples,
    /// What the keypad says, seat by seat, for each sample event (`samples`' `events`, in
    /// order), as JSON: each message's text and the phrasebook entry it was made from.
    #[cfg(feature = "clients")]
    Heard,
}

/// Runs `baoqi protocol …`.
pub(crate) fn run(args: &ProtocolArgs) -> Result<(), CliError> {
    match args.what {
        What::Js => print!("{}", baoqi_protocol::js::constants()),
        What::Phrases => print!("{}", baoqi_phrases::js()),
        What::Samples => print_json(&baoqi_protocol::samples::all_json())?,
        #[cfg(feature = "clients")]
        What::Heard => print_json(&heard())?,
    }
    Ok(())
}

fn print_json(v: &serde_json::Value) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(v).map_err(|e| CliError::Failed(e.to_string()))?;
    println!("{text}");
    Ok(())
}

/// What the keypad says for the protocol's sample events (each `moved` also with and without
/// a capture and a check), seat by seat, and for its sample refusals, as JSON:
/// `{"events": [{"event": {…}, "seat": "red", "said": [{"entry": "move.captured" | null,
/// "text": "…"}]}], "refusals": [{"rejection": {…}, "entry": …, "text": "…"}]}`.
#[cfg(feature = "clients")]
fn heard() -> serde_json::Value {
    use baoqi_audio::from_event::utterances;
    use baoqi_audio::phrasebook::phrase;
    use baoqi_audio::{Notice, Refusal};
    use baoqi_rules::Color;
    use serde_json::json;
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
    json!({ "events": events, "refusals": refusals })
}

/// The protocol's sample events, each move also in the three other forms of what it did
/// (a capture or not, a check or not), each declined draw in every way of declining, each
/// read-back also complete and mismatched, the first violation of every kind, with a limit
/// and without, and the first end of a game with every outcome: each is read in words of its
/// own.
#[cfg(feature = "clients")]
fn sample_events() -> Vec<baoqi_arbiter::Event> {
    use baoqi_arbiter::{Decline, Event, Outcome, ViolationKind};
    use baoqi_rules::Kind;
    let mut out = Vec::new();
    let (mut kinds_shown, mut outcomes_shown) = (false, false);
    for event in baoqi_protocol::samples::events() {
        if let Event::GameOver { .. } = &event
            && !outcomes_shown
        {
            outcomes_shown = true;
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
        }
        if let Event::Violation { .. } = &event
            && !kinds_shown
        {
            kinds_shown = true;
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
        }
        if let Event::Repeated { .. } = &event {
            for (done, mismatch) in [(true, false), (false, true)] {
                let mut other = event.clone();
                if let Event::Repeated {
                    done: d,
                    mismatch: m,
                    ..
                } = &mut other
                {
                    (*d, *m) = (done, mismatch);
                }
                out.push(other);
            }
        }
        if let Event::DrawDeclined { side, how } = &event {
            for other in [
                Decline::Declined,
                Decline::CardReturned,
                Decline::TouchedPiece,
            ] {
                if other != *how {
                    out.push(Event::DrawDeclined {
                        side: *side,
                        how: other,
                    });
                }
            }
        }
        if let Event::Moved { mv, .. } = &event {
            for (captured, check) in [(None, false), (None, true), (Some(Kind::Horse), false)] {
                let mut other = event.clone();
                if let Event::Moved { mv: m, .. } = &mut other {
                    m.captured = captured;
                    m.check = check;
                }
                if (mv.captured, mv.check) != (captured, check) {
                    out.push(other);
                }
            }
        }
        out.push(event);
    }
    out
}

/// The ends of a game the protocol's samples leave out (they hold one of each kind): the other
/// board reasons and patterns, and resignation and agreement with and without cards.
#[cfg(feature = "clients")]
fn more_end_causes() -> Vec<baoqi_arbiter::EndCause> {
    use baoqi_arbiter::{EndCause, Side};
    use baoqi_rules::{EndReason, Pattern};
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
