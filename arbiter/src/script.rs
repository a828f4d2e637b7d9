//! Scripted matches (`baoqi simulate`): a script is one [`Stamped`] command per line (JSON);
//! blank lines and lines starting with `#` are comments. Time passes between lines: every
//! deadline up to a line's instant is ticked first, so alerts and flag fall appear at their
//! true instants. Each event comes out as one [`Output`] line with its time.

use serde::{Deserialize, Serialize};

use crate::api::ConfigError;
use crate::command::{Command, Millis, Seat, Stamped};
use crate::config::MatchConfig;
use crate::event::Event;
use crate::rejection::Rejection;
use crate::state::Match;

/// Why a script cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ScriptError {
    /// The line number (1 for the first).
    pub line: usize,
    /// Why.
    pub why: String,
}

/// One line of output: an event, or a refused command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Output {
    /// An event at an instant (a command's, or a deadline's for alerts and flag fall).
    Event {
        /// When it was emitted.
        at: Millis,
        /// The event.
        event: Event,
    },
    /// A refused command: nothing changed.
    Rejected {
        /// When.
        at: Millis,
        /// Who sent it.
        seat: Seat,
        /// What.
        command: Command,
        /// Why it was refused.
        rejected: Rejection,
    },
}

impl Output {
    /// The line as one line of JSON.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// Reads a script.
pub fn parse_script(text: &str) -> Result<Vec<Stamped>, ScriptError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| ScriptError {
                line: i + 1,
                why: e.to_string(),
            })
        })
        .collect()
}

/// Runs a script from a fresh match created at 0, then lets the time run out to the end of
/// the last line (no further ticks). Returns the match and every output line in order.
pub fn simulate(
    config: MatchConfig,
    script: &[Stamped],
) -> Result<(Match, Vec<Output>), ConfigError> {
    let mut m = Match::new(config, Millis(0))?;
    let mut out = Vec::new();
    for s in script {
        while let Some(d) = m.next_deadline().filter(|&d| d <= s.at) {
            let events = m.apply(Seat::Referee, Command::Tick, d).unwrap_or_default();
            if events.is_empty() {
                break;
            }
            out.extend(
                events
                    .into_iter()
                    .map(|event| Output::Event { at: d, event }),
            );
        }
        match m.apply_stamped(s) {
            Ok(events) => out.extend(
                events
                    .into_iter()
                    .map(|event| Output::Event { at: s.at, event }),
            ),
            Err(rejected) => out.push(Output::Rejected {
                at: s.at,
                seat: s.seat,
                command: s.command.clone(),
                rejected,
            }),
        }
    }
    Ok((m, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_line_is_a_stamped_command_in_json() {
        let script = parse_script(
            "# a comment\n\n{\"at\": 0, \"seat\": \"referee\", \"type\": \"start\"}\n\
             {\"at\": 1500, \"seat\": \"red\", \"type\": \"word\", \"text\": \"炮\"}\n",
        )
        .unwrap();
        assert_eq!(script.len(), 2);
        assert_eq!(script[1].command, Command::Word { text: "炮".into() });
        let err = parse_script("{\"at\": 0}").unwrap_err();
        assert_eq!(err.line, 1);
        let (_, out) = simulate(MatchConfig::default(), &script).unwrap();
        assert!(matches!(
            out[0],
            Output::Event {
                at: Millis(0),
                event: Event::Started { .. }
            }
        ));
        assert!(
            matches!(out.last(), Some(Output::Rejected { .. })),
            "no words in a regular game"
        );
    }
}
