//! The braille display at work: a thread that holds the `BrlAPI` connection, writes each
//! message (contracted) through the [`Reader`], moves it by the display's keys, and passes
//! what is typed on its braille keyboard to the keypad as keys.

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use baoqi_audio::{Urgency, Utterance, phrasebook};
use tokio::sync::mpsc::UnboundedSender;

use super::brlapi::{Connection, DisplayKey};
use super::contract::Contractor;
use super::reader::{Incoming, Move, Reader};
use super::{BrailleError, BrailleOptions};
use crate::keypad::Key;
use crate::session::net::Local;

/// How long a key is waited for before the messages are looked at again.
const POLL: Duration = Duration::from_millis(20);
/// After a key typed, how long the display waits for its answer before it changes: the
/// pins do not flicker back to a message between a word's two keys.
const HOLD: Duration = Duration::from_millis(150);

/// What the keypad says, on its way to the display.
#[derive(Clone, Debug)]
enum Said {
    Word(String),
    Prompt(String),
    Answer(String),
    Aside(String),
    News(String),
}

/// The display's side of the keypad: hand it every utterance.
#[derive(Debug)]
pub struct BrailleDisplay {
    tx: Sender<Said>,
}

impl BrailleDisplay {
    /// Reads the table, connects to BRLTTY and takes the display; then keeps it on a thread
    /// of its own, sending what is typed on it to `keys`.
    pub fn start(
        opts: &BrailleOptions,
        keys: UnboundedSender<Local>,
    ) -> Result<BrailleDisplay, BrailleError> {
        let contractor = Contractor::new(opts.table)?;
        let connection = Connection::open(opts.host.as_deref(), opts.auth.as_deref())?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            if let Err(e) = run(connection, &contractor, &rx, &keys) {
                eprintln!("baoqi: braille display: {e}");
            }
        });
        Ok(BrailleDisplay { tx })
    }

    /// Shows `u` as the keypad would say it.
    pub fn show(&self, u: &Utterance) {
        let text = phrasebook::phrase(u).display;
        let said = match (u, u.urgency()) {
            (Utterance::Word { .. }, _) => Said::Word(text),
            (Utterance::PieceTouched { .. }, _) => Said::Aside(text),
            (_, Urgency::Prompt) => Said::Prompt(text),
            // What answers his own keys: echoes, and the readings he asked for.
            (_, Urgency::Echo | Urgency::Reading) => Said::Answer(text),
            (_, Urgency::News | Urgency::Urgent) => Said::News(text),
        };
        let _ = self.tx.send(said);
    }
}

/// The display's loop, until the keypad or BRLTTY goes.
fn run(
    mut c: Connection,
    contractor: &Contractor,
    rx: &Receiver<Said>,
    keys: &UnboundedSender<Local>,
) -> Result<(), BrailleError> {
    let mut reader = Reader::new(c.cells());
    let mut shown = Vec::new();
    let mut held: Option<Instant> = None;
    loop {
        loop {
            match rx.try_recv() {
                Ok(said) => {
                    reader.arrive(incoming(contractor, said));
                    held = None;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        held = held.filter(|until| Instant::now() < *until);
        let window = reader.window();
        if window != shown && held.is_none() {
            c.write_dots(&window)?;
            shown = window;
        }
        let Some(code) = c.read_key(POLL)? else {
            continue;
        };
        let Some(k) = DisplayKey::of(code) else {
            continue;
        };
        if let Some(m) = movement(k) {
            reader.go(m);
        } else if let Some(key) = keypad_key(k) {
            reader.typing();
            held = Some(Instant::now() + HOLD);
            if keys.send(Local::Key(key)).is_err() {
                return Ok(());
            }
        }
    }
}

fn incoming(contractor: &Contractor, said: Said) -> Incoming {
    match said {
        Said::Word(t) => Incoming::Word(contractor.cells(&t)),
        Said::Prompt(t) => Incoming::Prompt(contractor.cells(&t)),
        Said::Answer(t) => Incoming::Answer(contractor.cells(&t)),
        Said::Aside(t) => Incoming::Aside(contractor.cells(&t)),
        Said::News(t) => Incoming::News(contractor.cells(&t)),
    }
}

/// The display keys that move through the messages.
fn movement(k: DisplayKey) -> Option<Move> {
    Some(match k {
        DisplayKey::PanLeft => Move::PanLeft,
        DisplayKey::PanRight => Move::PanRight,
        DisplayKey::LineUp => Move::Previous,
        DisplayKey::LineDown => Move::Next,
        DisplayKey::Top => Move::First,
        DisplayKey::Bottom => Move::Newest,
        _ => return None,
    })
}

/// What the braille keyboard typed, as a key of the keypad.
fn keypad_key(k: DisplayKey) -> Option<Key> {
    match k {
        DisplayKey::Char(c) => Key::from_char(c),
        DisplayKey::Enter => Some(Key::Enter),
        DisplayKey::Backspace => Some(Key::Backspace),
        _ => None,
    }
}
