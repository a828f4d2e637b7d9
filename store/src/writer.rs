//! Group commit: every match task hands its log entries to one writer thread, which commits
//! whatever has queued up in a single transaction and then answers each task. A task
//! acknowledges or broadcasts nothing before its answer arrives, so nothing acknowledged is
//! ever lost, and a burst of commands from many tables costs one commit instead of many.
//!
//! The writer also records the game timeline's current instant at least every
//! [`TIMELINE_MARK`], so that after a crash the clocks resume from (almost) where they
//! stood: at most one mark's worth of time is given back to the player on move. While the
//! timeline is held (the matches are being rebuilt after a restart) the mark stays at the
//! last instant recorded ([`Timeline::mark`]).

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use tokio::sync::oneshot;

use super::lease::Held;
use super::{LogEntry, Store, StoreError};
use crate::timeline::Timeline;

/// How often the timeline instant is written even when no table has anything to write.
pub const TIMELINE_MARK: Duration = Duration::from_millis(50);

/// Most entries committed in one transaction.
const MAX_BATCH: usize = 4096;

/// One request to the writer: entries to append (may be empty to only wait for a mark) and
/// where to send the outcome.
pub struct WriteItem {
    /// The entries, all of one table, in order.
    pub entries: Vec<LogEntry>,
    /// Receives `Ok` once the entries are committed, or why not.
    pub done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle match tasks use to write. Cloning is cheap.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<WriteItem>,
}

impl Writer {
    /// Starts the writer thread over `store`, marking `timeline`. The thread ends when every
    /// handle has been dropped.
    pub fn start(store: Arc<dyn Store>, timeline: Arc<Timeline>) -> Writer {
        Writer::spawn(store, timeline, None)
    }

    /// The writer of a node of a federation: every append carries the fences of the tables
    /// it writes, as `held` has them ([`Store::append_fenced`]); a table no longer held is
    /// refused ([`StoreError::Fenced`]) and nothing of its append is written.
    pub fn start_fenced(store: Arc<dyn Store>, timeline: Arc<Timeline>, held: Arc<Held>) -> Writer {
        Writer::spawn(store, timeline, Some(held))
    }

    fn spawn(store: Arc<dyn Store>, timeline: Arc<Timeline>, held: Option<Arc<Held>>) -> Writer {
        let (tx, rx) = mpsc::channel::<WriteItem>();
        std::thread::Builder::new()
            .name("baoqi-store-writer".into())
            .spawn(move || {
                let out = Out {
                    store: &*store,
                    held: held.as_deref(),
                };
                run(&out, &timeline, &rx);
            })
            .expect("spawn the store writer thread");
        Writer { tx }
    }

    /// Appends entries durably; returns once they are committed.
    pub async fn append(&self, entries: Vec<LogEntry>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.tx
            .send(WriteItem { entries, done })
            .map_err(|_| StoreError::WriterStopped)?;
        wait.await.map_err(|_| StoreError::WriterStopped)?
    }
}

/// Where the writer writes: the store, through the node's fences when it has them.
struct Out<'a> {
    store: &'a dyn Store,
    held: Option<&'a Held>,
}

impl Out<'_> {
    fn append(
        &self,
        entries: &[LogEntry],
        mark: Option<crate::timeline::Millis>,
    ) -> Result<(), StoreError> {
        match self.held {
            None => self.store.append(entries, mark),
            Some(held) => {
                let holdings = held.of(entries.iter().map(|e| e.table));
                self.store.append_fenced(entries, &holdings, mark)
            }
        }
    }
}

/// What the timeline's marks last met, so that a failure is logged once and again only when
/// it changes or ends (an error every 50 ms while the disk was full).
#[derive(Default)]
struct MarkFailure(Option<String>);

impl MarkFailure {
    fn record(&mut self, outcome: Result<(), StoreError>) {
        match (outcome, &self.0) {
            (Ok(()), None) => {}
            (Ok(()), Some(_)) => {
                tracing::warn!("timeline marks are written again");
                self.0 = None;
            }
            (Err(e), last) => {
                let why = e.to_string();
                if last.as_deref() != Some(why.as_str()) {
                    tracing::error!(
                        "timeline mark not written (said once until it changes): {why}"
                    );
                    self.0 = Some(why);
                }
            }
        }
    }
}

fn run(store: &Out<'_>, timeline: &Timeline, rx: &mpsc::Receiver<WriteItem>) {
    let mut failure = MarkFailure::default();
    loop {
        let first = match rx.recv_timeout(TIMELINE_MARK) {
            Ok(item) => item,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                failure.record(store.append(&[], Some(timeline.mark())));
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let mut batch = vec![first];
        let mut count = batch[0].entries.len();
        while count < MAX_BATCH {
            match rx.try_recv() {
                Ok(item) => {
                    count += item.entries.len();
                    batch.push(item);
                }
                Err(_) => break,
            }
        }
        commit(store, timeline, batch);
    }
}

fn commit(store: &Out<'_>, timeline: &Timeline, batch: Vec<WriteItem>) {
    let all: Vec<LogEntry> = batch
        .iter()
        .flat_map(|i| i.entries.iter().cloned())
        .collect();
    let started = std::time::Instant::now();
    let appended = store.append(&all, Some(timeline.mark()));
    // The group commit's time, for an operator's /metrics (a stall of the world shows here).
    metrics::histogram!("baoqi_commit_seconds").record(started.elapsed().as_secs_f64());
    metrics::counter!("baoqi_commits_total", "outcome" => if appended.is_ok() { "stored" } else { "failed" })
        .increment(1);
    match appended {
        Ok(()) => {
            for item in batch {
                let _ = item.done.send(Ok(()));
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(item) = batch.into_iter().next() {
                let _ = item.done.send(Err(e));
            }
        }
        Err(_) => {
            // One bad request must not fail the others: retry them one by one, each told
            // its own outcome.
            for item in batch {
                let _ = item.done.send(store.append(&item.entries, None));
            }
        }
    }
}
