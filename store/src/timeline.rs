//! The game timeline: milliseconds that run with the machine's monotonic clock while the
//! server runs and stand still while it is down. At start the timeline continues from the
//! last instant the store recorded, so the time the server was down is never charged to a
//! player (see `docs/decisions.md`). A server that is rebuilding its matches is still down:
//! its timeline is held until the matches run again ([`Timeline::release`]), so neither the
//! rebuild nor a crash during it costs anyone time.
//!
//! A server that stands still without stopping (frozen by SIGSTOP, a paused virtual
//! machine, a suspended host) is down too: the timeline leaves out every gap longer than
//! [`STALL`] during which nothing in the process read the clock, while a watchdog thread
//! reads it every [`WATCH_EVERY`] ([`Timeline::watch_stalls`]). The commands that arrived
//! during the freeze are then taken at the instant it began. A node of a federation does
//! not: its timeline follows the database's clock like its peers', and a node frozen past
//! its lease loses its tables, which are paused at its last renewal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How often the watchdog reads the clock.
pub const WATCH_EVERY: Duration = Duration::from_millis(10);

/// A gap between two readings of the clock longer than this is a stall of the whole
/// process: its time beyond one watchdog period is left out of the timeline.
pub const STALL: Duration = Duration::from_millis(250);

/// Milliseconds on the game timeline (monotonic, continuous across restarts, the time the
/// server was down excluded): the arbiter's instants.
pub use baoqi_arbiter::Millis;

/// Maps the monotonic clock of this process onto the game timeline.
#[derive(Debug)]
pub struct Timeline {
    /// When the timeline started running in this process (unset while held).
    origin: OnceLock<Instant>,
    /// The timeline's instant at `origin`.
    origin_ms: Millis,
    /// What [`Timeline::mark`] answers while held: the last instant at which the clocks
    /// were known to run.
    held_mark: Millis,
    /// The readings of the clock, one at a time, so that the timeline never goes back.
    readings: Mutex<Readings>,
    /// Stalls are left out ([`Timeline::watch_stalls`]).
    excluding: AtomicBool,
}

/// What the readings of the monotonic clock have seen, in microseconds since `origin`.
#[derive(Debug, Default)]
struct Readings {
    /// The latest reading.
    seen_us: u64,
    /// The time left out as stalls.
    skipped_us: u64,
    /// How many stalls were left out.
    stalls: u64,
}

impl Timeline {
    /// A running timeline whose current instant is `resume_at`.
    pub fn resume_at(resume_at: Millis) -> Timeline {
        Timeline {
            origin: OnceLock::from(Instant::now()),
            origin_ms: resume_at,
            held_mark: Millis(resume_at.0.saturating_sub(1)),
            readings: Mutex::default(),
            excluding: AtomicBool::new(false),
        }
    }

    /// A timeline that stands still one millisecond after `last_stored` (the last instant
    /// the store recorded) until [`Timeline::release`], and meanwhile marks `last_stored`.
    pub fn held_after(last_stored: Millis) -> Timeline {
        Timeline {
            origin: OnceLock::new(),
            origin_ms: Millis(last_stored.0 + 1),
            held_mark: last_stored,
            readings: Mutex::default(),
            excluding: AtomicBool::new(false),
        }
    }

    /// Starts the timeline running from where it stands (no effect when it runs already).
    pub fn release(&self) {
        let _ = self.origin.set(Instant::now());
    }

    /// Whether the timeline is held.
    pub fn is_held(&self) -> bool {
        self.origin.get().is_none()
    }

    /// The current instant, in whole milliseconds.
    pub fn now(&self) -> Millis {
        Millis(self.origin_ms.0 + self.elapsed().as_millis() as u64)
    }

    /// The current instant in microseconds, for measuring timer lateness.
    pub fn now_micros(&self) -> u64 {
        self.origin_ms.0 * 1000 + self.elapsed().as_micros() as u64
    }

    /// The instant to record in the store as reached: the current one while running; while
    /// held, the last instant the store had recorded, so that a server killed before its
    /// matches ran again leaves the record where it found it.
    pub fn mark(&self) -> Millis {
        if self.is_held() {
            self.held_mark
        } else {
            self.now()
        }
    }

    /// The monotonic instant at which the timeline reaches `at` (now if already past), as
    /// things stand: a stall later pushes the instant back, so whoever sleeps until it checks
    /// the timeline again on waking. While held, as if it were released now.
    pub fn instant_of(&self, at: Millis) -> tokio::time::Instant {
        let offset = Duration::from_millis(at.since(self.origin_ms));
        let skipped = Duration::from_micros(self.readings().skipped_us);
        let origin = self.origin.get().copied().unwrap_or_else(Instant::now);
        tokio::time::Instant::from_std(origin + offset + skipped)
    }

    /// The stalls left out so far: how many, and how long in all.
    pub fn stalls(&self) -> (u64, Duration) {
        let r = self.readings();
        (r.stalls, Duration::from_micros(r.skipped_us))
    }

    fn readings(&self) -> std::sync::MutexGuard<'_, Readings> {
        self.readings.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// From now on leaves stalls of the process out of the timeline, and starts the
    /// watchdog thread that reads the clock every [`WATCH_EVERY`], so that a stall is seen as
    /// one however idle the server is. The thread ends when the timeline is dropped.
    pub fn watch_stalls(self: &Arc<Self>) {
        {
            // What ran before counts as run: the first gap is measured from here.
            let mut r = self.readings();
            if self.excluding.swap(true, Ordering::Relaxed) {
                return;
            }
            r.seen_us = self
                .origin
                .get()
                .map_or(0, |o| o.elapsed().as_micros() as u64);
        }
        let timeline: Weak<Timeline> = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("baoqi-stall-watch".into())
            .spawn(move || {
                while let Some(t) = timeline.upgrade() {
                    let _ = t.elapsed();
                    drop(t);
                    std::thread::sleep(WATCH_EVERY);
                }
            });
        if let Err(e) = spawned {
            tracing::error!("the stall watchdog could not start: {e}");
        }
    }

    /// The time run since `origin`, stalls left out.
    fn elapsed(&self) -> Duration {
        let Some(origin) = self.origin.get() else {
            return Duration::ZERO;
        };
        if !self.excluding.load(Ordering::Relaxed) {
            return origin.elapsed();
        }
        // Read under the lock: the readings come in order, and the timeline never goes back.
        let mut r = self.readings();
        let raw = origin.elapsed().as_micros() as u64;
        let gap = raw.saturating_sub(r.seen_us);
        if gap > STALL.as_micros() as u64 {
            r.skipped_us += gap - WATCH_EVERY.as_micros() as u64;
            r.stalls += 1;
        }
        r.seen_us = r.seen_us.max(raw);
        Duration::from_micros(raw.saturating_sub(r.skipped_us))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_continues_from_the_recorded_instant() {
        let t = Timeline::resume_at(Millis(5_000));
        let now = t.now();
        assert!((Millis(5_000)..Millis(5_100)).contains(&now));
        assert!(t.instant_of(Millis(4_000)) <= tokio::time::Instant::now());
        assert!(t.instant_of(Millis(6_000)) > tokio::time::Instant::now());
        assert!(!t.is_held());
    }

    #[test]
    fn a_held_timeline_stands_still_and_marks_the_last_stored_instant() {
        let t = Timeline::held_after(Millis(5_000));
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(
            (t.now(), t.mark()),
            (Millis(5_001), Millis(5_000)),
            "held: time stands still"
        );
        t.release();
        std::thread::sleep(Duration::from_millis(30));
        let now = t.now();
        assert!(
            (Millis(5_030)..Millis(5_200)).contains(&now),
            "released, it runs from 5001: {}",
            now.0
        );
        assert!(t.mark() >= now, "released, it marks the current instant");
    }

    #[test]
    fn a_freeze_of_the_process_is_left_out_and_the_timeline_never_goes_back() {
        let t = Arc::new(Timeline::resume_at(Millis(5_000)));
        std::thread::sleep(Duration::from_millis(300));
        t.watch_stalls();
        let before = t.now();
        assert!(
            before >= Millis(5_300),
            "what ran before watching counts: {}",
            before.0
        );
        // A freeze: the watchdog and everyone else stand still (here: the lock is held,
        // as every reader waits on it, for longer than a stall).
        {
            let _frozen = t.readings();
            std::thread::sleep(Duration::from_millis(600));
        }
        let after = t.now();
        assert!(after >= before, "never back");
        assert!(
            after.since(before) < 100,
            "the freeze is left out: {} → {}",
            before.0,
            after.0
        );
        let (stalls, skipped) = t.stalls();
        assert_eq!(stalls, 1);
        assert!(skipped >= Duration::from_millis(500), "{skipped:?}");
        // Time runs on afterwards.
        std::thread::sleep(Duration::from_millis(50));
        assert!(t.now() >= Millis(after.0 + 40));
    }

    #[test]
    fn a_timeline_not_watched_charges_every_millisecond() {
        let t = Timeline::resume_at(Millis(0));
        std::thread::sleep(Duration::from_millis(300));
        assert!(t.now() >= Millis(300));
        assert_eq!(t.stalls().0, 0);
    }
}
