//! [`Voice`]: a thread that owns a [`Speaker`], serves the [`SpeechQueue`] and writes the
//! [`SpokenLog`] (every utterance with its times and fate: said, interrupted and re-queued,
//! superseded, failed, given up, silenced). Callers never wait on speech: [`Voice::say`] returns at once, and the
//! thread itself only ever waits with a timeout (it polls the speaker every
//! [`Voice::POLL`] and gives up on an item past its maximum duration).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use baoqi_grammar::speech::Lang;

use crate::phrasebook;
use crate::phrasebook::Phrase;
use crate::queue::{Item, SpeechQueue, Topic};
use crate::rate::Rate;
use crate::speaker::{SpeakError, Speaker};
use crate::utterance::{Urgency, Utterance};

enum Command {
    Say(Phrase, Urgency, Topic, Instant),
    Rate(Rate),
    Stop,
    Silence,
    Shutdown,
}

/// A speaking thread in one language.
pub struct Voice {
    tx: mpsc::Sender<Command>,
    log: SpokenLog,
    pending: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
    speaker: String,
}

impl std::fmt::Debug for Voice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Voice({})", self.speaker)
    }
}

impl Voice {
    /// How often the thread looks at the speaker while something is being said.
    pub const POLL: Duration = Duration::from_millis(2);

    /// Starts the thread; `make` builds the speaker on it (a `tts` handle cannot move
    /// between threads). Fails if the speaker cannot be made.
    pub fn spawn<F>(lang: Lang, make: F) -> Result<Voice, SpeakError>
    where
        F: FnOnce() -> Result<Box<dyn Speaker>, SpeakError> + Send + 'static,
    {
        let (tx, rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel();
        let log = SpokenLog::new();
        let pending = Arc::new(AtomicU64::new(0));
        let (log2, pending2) = (log.clone(), pending.clone());
        let thread = std::thread::Builder::new()
            .name("baoqi-voice".into())
            .spawn(move || match make() {
                Ok(speaker) => {
                    let _ = ready_tx.send(Ok(speaker.name()));
                    Worker {
                        speaker,
                        lang,
                        queue: SpeechQueue::new(),
                        log: log2,
                        pending: pending2,
                        next_id: 0,
                        current: None,
                        requested: HashMap::new(),
                    }
                    .run(&rx);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| SpeakError::Dispatcher(e.to_string()))?;
        let speaker = ready_rx
            .recv()
            .map_err(|_| SpeakError::Dispatcher("voice thread died".into()))??;
        Ok(Voice {
            tx,
            log,
            pending,
            thread: Some(thread),
            speaker,
        })
    }

    /// Says `u` (phrasebook wording) under the queue policy; returns at once.
    pub fn say(&self, u: &Utterance) {
        self.say_at(u, Instant::now());
    }

    /// [`Voice::say`] for something that happened at `cause` (a key press, an event's
    /// arrival): the log's latency is counted from that instant to the first sample.
    pub fn say_at(&self, u: &Utterance, cause: Instant) {
        self.send_say(phrasebook::phrase(u), u.urgency(), u.topic(), cause);
    }

    /// Says a ready phrase with an urgency; returns at once.
    pub fn say_phrase(&self, phrase: Phrase, urgency: Urgency) {
        self.send_say(phrase, urgency, Topic::Other, Instant::now());
    }

    fn send_say(&self, phrase: Phrase, urgency: Urgency, topic: Topic, cause: Instant) {
        // Counted before it is sent: the worker counts it down when its fate is final.
        self.pending.fetch_add(1, Ordering::SeqCst);
        let _ = self.tx.send(Command::Say(phrase, urgency, topic, cause));
    }

    /// The stop key: stops the reading, news or prompt being said and drops the readings
    /// and prompts waiting (each logged as stopped); echoes and urgent items stay.
    pub fn stop(&self) {
        let _ = self.tx.send(Command::Stop);
    }

    /// Speaks at `rate` from the next item on (what is being said finishes at its rate).
    pub fn set_rate(&self, rate: Rate) {
        let _ = self.tx.send(Command::Rate(rate));
    }

    /// Stops speaking and empties the queue (each item logged as silenced).
    pub fn silence(&self) {
        let _ = self.tx.send(Command::Silence);
    }

    /// The spoken-text log.
    pub fn log(&self) -> &SpokenLog {
        &self.log
    }

    /// The speaker's name.
    pub fn speaker(&self) -> &str {
        &self.speaker
    }

    /// Waits until everything asked for has been dealt with, at most `timeout`; returns
    /// whether it is idle.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.pending.load(Ordering::SeqCst) == 0 {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.pending.load(Ordering::SeqCst) == 0
    }
}

impl Drop for Voice {
    fn drop(&mut self) {
        let _ = self.tx.send(Command::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What happened to an utterance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Asked for.
    Requested,
    /// Said to the end.
    Spoken,
    /// Cut by a more urgent item and put back in the queue: it will be said again.
    Interrupted,
    /// A Reading cut for good by a more urgent item (not said again unless asked for).
    Cut {
        /// The id of the item that cut it.
        by: u64,
    },
    /// Stopped by the player's stop key.
    Stopped,
    /// Cut or removed by a newer item: an echo, or a newer reading of the same topic
    /// (entry number of the superseding item).
    Superseded {
        /// The id of the item that replaced it.
        by: u64,
    },
    /// The speaker could not say it.
    Failed(String),
    /// The speaker was still busy past the item's maximum duration; stopped.
    TimedOut,
    /// Removed by a request for silence.
    Silenced,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The utterance's number (several entries per utterance: requested, then its fate).
    pub id: u64,
    /// Time since the voice started.
    pub at: Duration,
    /// Wall-clock time.
    pub wall: SystemTime,
    /// What is shown for it.
    pub display: String,
    /// What the voice was fed.
    pub speak: String,
    /// Its class.
    pub urgency: Urgency,
    /// What happened.
    pub fate: Fate,
    /// From the request to the first sample written, when the speaker could tell (for
    /// `Spoken`, `Interrupted` and `TimedOut`).
    pub latency: Option<Duration>,
    /// For `Requested`: how many items were to be said before it (0: said at once, so its
    /// latency is the pipeline's own, from cause to sound).
    pub ahead: Option<usize>,
}

/// A shared, append-only log.
#[derive(Clone, Debug)]
pub struct SpokenLog {
    start: Instant,
    entries: Arc<Mutex<Vec<Entry>>>,
}

impl Default for SpokenLog {
    fn default() -> SpokenLog {
        SpokenLog::new()
    }
}

impl SpokenLog {
    /// An empty log whose times count from now.
    pub fn new() -> SpokenLog {
        SpokenLog {
            start: Instant::now(),
            entries: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Entry>> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends an entry stamped now.
    pub fn push(
        &self,
        id: u64,
        phrase: (&str, &str),
        urgency: Urgency,
        fate: Fate,
        latency: Option<Duration>,
    ) {
        self.push_entry(id, phrase, urgency, fate, latency, None);
    }

    /// Appends the `Requested` entry of an item with `ahead` items to be said before it.
    pub fn push_requested(&self, id: u64, phrase: (&str, &str), urgency: Urgency, ahead: usize) {
        self.push_entry(id, phrase, urgency, Fate::Requested, None, Some(ahead));
    }

    fn push_entry(
        &self,
        id: u64,
        phrase: (&str, &str),
        urgency: Urgency,
        fate: Fate,
        latency: Option<Duration>,
        ahead: Option<usize>,
    ) {
        let entry = Entry {
            id,
            at: self.start.elapsed(),
            wall: SystemTime::now(),
            display: phrase.0.to_owned(),
            speak: phrase.1.to_owned(),
            urgency,
            fate,
            latency,
            ahead,
        };
        self.lock().push(entry);
    }

    /// A copy of every entry so far.
    pub fn entries(&self) -> Vec<Entry> {
        self.lock().clone()
    }

    /// A copy of the entries after the first `n` (what a reader that has seen `n` lacks).
    pub fn entries_after(&self, n: usize) -> Vec<Entry> {
        self.lock()
            .get(n..)
            .map(<[Entry]>::to_vec)
            .unwrap_or_default()
    }

    /// The display texts of what was said to the end, in order.
    pub fn spoken(&self) -> Vec<String> {
        self.lock()
            .iter()
            .filter(|e| e.fate == Fate::Spoken)
            .map(|e| e.display.clone())
            .collect()
    }

    /// The log as text, one line per entry: `12.345s #3 spoken 紅方：炮二平五`.
    pub fn to_text(&self) -> String {
        self.lock().iter().fold(String::new(), |mut out, e| {
            let _ = writeln!(
                out,
                "{:.3}s #{} {:?} {:?} {}",
                e.at.as_secs_f64(),
                e.id,
                e.urgency,
                e.fate,
                e.display
            );
            out
        })
    }
}

/// The item being said: when it was asked for, when it started, how long it may last.
struct Current {
    requested: Instant,
    started: Instant,
    limit: Duration,
}

struct Worker {
    speaker: Box<dyn Speaker>,
    lang: Lang,
    queue: SpeechQueue,
    log: SpokenLog,
    pending: Arc<AtomicU64>,
    next_id: u64,
    current: Option<Current>,
    /// When each item still in the queue was asked for.
    requested: HashMap<u64, Instant>,
}

impl Worker {
    fn run(mut self, rx: &mpsc::Receiver<Command>) {
        loop {
            let wait = if self.current.is_some() {
                Voice::POLL
            } else {
                Duration::from_millis(200)
            };
            match rx.recv_timeout(wait) {
                Ok(Command::Say(phrase, urgency, topic, at)) => {
                    self.next_id += 1;
                    let id = self.next_id;
                    self.requested.insert(id, at);
                    let ahead = self.queue.ahead_of(urgency);
                    self.log.push_requested(
                        id,
                        (&phrase.display, phrase.speak(self.lang)),
                        urgency,
                        ahead,
                    );
                    self.offer(Item {
                        id,
                        phrase,
                        urgency,
                        topic,
                    });
                }
                Ok(Command::Stop) => {
                    let stopped = self.queue.stop();
                    if self.queue.current().is_none() && self.current.is_some() {
                        self.speaker.stop();
                        self.current = None;
                    }
                    for it in stopped {
                        self.log_item(&it.phrase, it.id, it.urgency, Fate::Stopped, None);
                    }
                }
                Ok(Command::Rate(rate)) => {
                    if let Err(e) = self.speaker.set_rate(rate) {
                        // Logged where every failure to speak is: the player's log.
                        let what = format!("{} wpm", rate.wpm());
                        let fate = Fate::Failed(format!("rate: {e}"));
                        self.log.push(0, (&what, ""), Urgency::Echo, fate, None);
                    }
                }
                Ok(Command::Silence) => {
                    self.speaker.stop();
                    self.current = None;
                    for it in self.queue.clear() {
                        self.log_item(&it.phrase, it.id, it.urgency, Fate::Silenced, None);
                    }
                }
                Ok(Command::Shutdown) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.speaker.stop();
                    return;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            self.check_current();
            self.start_next();
        }
    }

    fn log_item(&mut self, p: &Phrase, id: u64, u: Urgency, fate: Fate, lat: Option<Duration>) {
        if !matches!(fate, Fate::Requested | Fate::Interrupted) {
            self.requested.remove(&id);
            self.pending.fetch_sub(1, Ordering::SeqCst);
        }
        self.log
            .push(id, (&p.display, p.speak(self.lang)), u, fate, lat);
    }

    fn latency(&mut self) -> Option<Duration> {
        let cur = self.current.as_ref()?;
        let first = self.speaker.first_sample()?;
        (first >= cur.started).then(|| first.saturating_duration_since(cur.requested))
    }

    fn offer(&mut self, item: Item) {
        let new_id = item.id;
        let offer = self.queue.offer(item);
        let latency = offer.interrupt.then(|| self.latency()).flatten();
        if offer.interrupt {
            self.speaker.stop();
            self.current = None;
            if let Some(id) = offer.requeued {
                // The re-queued item is at the front of its class; log it from there.
                let p = self.find_waiting(id);
                if let Some((p, u)) = p {
                    self.log_item(&p, id, u, Fate::Interrupted, latency);
                }
            }
        }
        if let Some(it) = offer.cut {
            self.log_item(
                &it.phrase,
                it.id,
                it.urgency,
                Fate::Cut { by: new_id },
                latency,
            );
        }
        for it in offer.superseded {
            let fate = Fate::Superseded { by: new_id };
            self.log_item(&it.phrase, it.id, it.urgency, fate, None);
        }
    }

    fn find_waiting(&self, id: u64) -> Option<(Phrase, Urgency)> {
        self.queue
            .peek_waiting(id)
            .map(|it| (it.phrase.clone(), it.urgency))
    }

    fn check_current(&mut self) {
        let Some(cur) = &self.current else { return };
        let over_time = cur.started.elapsed() > cur.limit;
        if self.speaker.busy() && !over_time {
            return;
        }
        let latency = self.latency();
        if over_time {
            self.speaker.stop();
        }
        self.current = None;
        if let Some(it) = self.queue.finish() {
            let fate = if over_time {
                Fate::TimedOut
            } else {
                Fate::Spoken
            };
            self.log_item(&it.phrase, it.id, it.urgency, fate, latency);
        }
    }

    fn start_next(&mut self) {
        while self.current.is_none() {
            let Some(item) = self.queue.take_next().cloned() else {
                return;
            };
            let started = Instant::now();
            match self.speaker.start(&item.phrase, self.lang) {
                Ok(()) => {
                    self.current = Some(Current {
                        requested: self.requested.get(&item.id).copied().unwrap_or(started),
                        started,
                        limit: self.speaker.max_duration(&item.phrase, self.lang),
                    });
                }
                Err(e) => {
                    self.queue.finish();
                    let fate = Fate::Failed(e.to_string());
                    self.log_item(&item.phrase, item.id, item.urgency, fate, None);
                }
            }
        }
    }
}
