//! Scripts for demos and tests (`--script FILE` of the keypad, `sim:FILE` boards): keys and
//! board lines with delays, and waits on what happens at the table. One step per line:
//!
//! ```text
//! # a comment
//! sleep 1500                 wait 1.5 s
//! keys 0 6 2 * 5             keys (a word per key token, or glued: 062*5); Enter, Backspace
//! L h2                       a board line (docs/board-protocol.md): L P S C A O
//! await my_turn              until it is this side's turn
//! await over                 until the game is over
//! await moved side=black     until an event of this type (fields as in the arbiter's JSON,
//!                            dotted paths allowed: mv.iccs=h9g7) arrives after the last await
//! ```

use baoqi_arbiter::Phase;
use serde_json::Value;

use super::machine::Session;
use crate::board::{SensorEvent, parse_line};
use crate::keypad::Key;

/// One step of a script.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Keys, pressed one after the other.
    Keys(Vec<Key>),
    /// A line of the tactile board.
    Board(SensorEvent),
    /// A pause, ms.
    Sleep(u64),
    /// A wait on the table.
    Await(Condition),
}

/// What an `await` waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The game is running and this side is to act.
    MyTurn,
    /// The game is over.
    Over,
    /// An event of this type whose fields have these values.
    Event {
        /// The event's `type`.
        kind: String,
        /// `(dotted path, value)` pairs.
        fields: Vec<(String, String)>,
    },
}

/// Why a script could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("script line {line}: {why}")]
pub struct ScriptError {
    /// The line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

fn key_token(t: &str) -> Result<Vec<Key>, String> {
    match t.to_ascii_lowercase().as_str() {
        "enter" => return Ok(vec![Key::Enter]),
        "backspace" => return Ok(vec![Key::Backspace]),
        _ => {}
    }
    t.chars()
        .map(|c| Key::from_char(c).ok_or_else(|| format!("`{c}` is no key")))
        .collect()
}

fn condition(args: &[&str]) -> Result<Condition, String> {
    match args {
        ["my_turn"] => Ok(Condition::MyTurn),
        ["over"] => Ok(Condition::Over),
        [kind, fields @ ..] => Ok(Condition::Event {
            kind: (*kind).to_owned(),
            fields: fields
                .iter()
                .map(|f| {
                    f.split_once('=')
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                        .ok_or_else(|| format!("`{f}` is not field=value"))
                })
                .collect::<Result<_, _>>()?,
        }),
        [] => Err("await what? (my_turn, over, or an event type)".into()),
    }
}

fn step(line: &str) -> Result<Option<Step>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(None),
        [first, ..] if first.starts_with('#') => Ok(None),
        ["sleep", ms] => ms
            .parse()
            .map(|ms| Some(Step::Sleep(ms)))
            .map_err(|_| format!("`{ms}` is not milliseconds")),
        ["keys", keys @ ..] if !keys.is_empty() => {
            let keys: Vec<Vec<Key>> = keys
                .iter()
                .map(|t| key_token(t))
                .collect::<Result<_, _>>()?;
            Ok(Some(Step::Keys(keys.concat())))
        }
        ["await", args @ ..] => condition(args).map(|c| Some(Step::Await(c))),
        _ => parse_line(line)
            .map(|e| e.map(Step::Board))
            .map_err(|e| e.to_string()),
    }
}

/// Reads a script.
pub fn parse_script(text: &str) -> Result<Vec<Step>, ScriptError> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            step(l)
                .map_err(|why| ScriptError { line: i + 1, why })
                .transpose()
        })
        .collect()
}

/// What a script wants now.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Press this key.
    Key(Key),
    /// Feed this board line.
    Board(SensorEvent),
    /// Nothing before this local instant.
    WaitUntil(u64),
    /// Nothing until the table changes.
    Blocked,
    /// The script is over.
    Done,
}

/// Plays a script against a session, one step at a time.
#[derive(Clone, Debug)]
pub struct Runner {
    steps: Vec<Step>,
    next: usize,
    /// Keys of the current `keys` step still to press.
    keys: Vec<Key>,
    gap_ms: u64,
    sleeping_until: Option<u64>,
    /// Events before this index of the session's history are used up by earlier awaits.
    cursor: usize,
    /// Events before this index were already looked at by the await now waiting (they
    /// will not match later either: each is turned into JSON once, not at every poll).
    scanned: usize,
}

impl Runner {
    /// A runner pressing the keys of one `keys` step `gap_ms` apart.
    pub fn new(steps: Vec<Step>, gap_ms: u64) -> Runner {
        Runner {
            steps,
            next: 0,
            keys: Vec::new(),
            gap_ms,
            sleeping_until: None,
            cursor: 0,
            scanned: 0,
        }
    }

    /// Whether every step is done.
    pub fn is_done(&self) -> bool {
        self.next >= self.steps.len() && self.keys.is_empty() && self.sleeping_until.is_none()
    }

    /// The next action at local instant `now`.
    pub fn poll(&mut self, session: &Session, now: u64) -> Action {
        if let Some(t) = self.sleeping_until {
            if now < t {
                return Action::WaitUntil(t);
            }
            self.sleeping_until = None;
        }
        if !self.keys.is_empty() {
            let k = self.keys.remove(0);
            if !self.keys.is_empty() {
                self.sleeping_until = Some(now + self.gap_ms);
            }
            return Action::Key(k);
        }
        let Some(step) = self.steps.get(self.next).cloned() else {
            return Action::Done;
        };
        match step {
            Step::Keys(keys) => {
                self.next += 1;
                self.keys = keys;
                self.poll(session, now)
            }
            Step::Board(e) => {
                self.next += 1;
                Action::Board(e)
            }
            Step::Sleep(ms) => {
                self.next += 1;
                self.sleeping_until = Some(now + ms);
                Action::WaitUntil(now + ms)
            }
            Step::Await(c) => {
                if let Some(cursor) = satisfied(session, &c, self.cursor.max(self.scanned)) {
                    self.cursor = cursor;
                    self.scanned = cursor;
                    self.next += 1;
                    self.poll(session, now)
                } else {
                    self.scanned = session.history().len();
                    Action::Blocked
                }
            }
        }
    }
}

/// Whether `c` holds; the history index after the matching event (or the current end).
pub fn satisfied(session: &Session, c: &Condition, from: usize) -> Option<usize> {
    let history = session.history();
    let table = session.table()?;
    match c {
        Condition::MyTurn => (table.phase == Phase::Playing
            && Some(table.to_move) == session.side()
            && table.result.is_none())
        .then_some(from.max(history.len())),
        Condition::Over => session.is_over().then_some(from.max(history.len())),
        Condition::Event { kind, fields } => history
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, e)| {
                let v = serde_json::to_value(e).unwrap_or_default();
                v.get("type").and_then(Value::as_str) == Some(kind.as_str())
                    && fields
                        .iter()
                        .all(|(path, want)| field(&v, path) == Some(want.clone()))
            })
            .map(|(i, _)| i + 1),
    }
}

fn field(v: &Value, path: &str) -> Option<String> {
    let mut cur = v;
    for part in path.split('.') {
        cur = cur.get(part)?;
    }
    Some(match cur {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_step_is_read() {
        let s = parse_script(
            "# demo\nsleep 200\nkeys 0 6 2*5 Enter\nL h2\nawait my_turn\nawait moved side=black mv.iccs=h9g7\n",
        )
        .unwrap();
        assert_eq!(s.len(), 5);
        assert_eq!(s[0], Step::Sleep(200));
        assert_eq!(
            s[1],
            Step::Keys(vec![
                Key::Digit(0),
                Key::Digit(6),
                Key::Digit(2),
                Key::Star,
                Key::Digit(5),
                Key::Enter
            ])
        );
        assert_eq!(s[2], Step::Board(SensorEvent::Lift("h2".parse().unwrap())));
        assert_eq!(s[3], Step::Await(Condition::MyTurn));
        assert_eq!(
            s[4],
            Step::Await(Condition::Event {
                kind: "moved".into(),
                fields: vec![
                    ("side".into(), "black".into()),
                    ("mv.iccs".into(), "h9g7".into())
                ]
            })
        );
    }

    #[test]
    fn bad_lines_name_their_line() {
        assert_eq!(parse_script("sleep soon").unwrap_err().line, 1);
        assert!(parse_script("\nkeys x").unwrap_err().why.contains("no key"));
        assert!(parse_script("await moved side").is_err());
        assert!(parse_script("Z e3").is_err());
    }
}
