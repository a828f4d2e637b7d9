//! The game timeline: milliseconds that run with the machine's monotonic clock while the
//! server runs and stand still while it is down. At start the timeline continues from the
//! last instant the store recorded, so the time the server was down is never charged to a
//! player (see `docs/decisions.md`). A server that is rebuilding its matches is still down:
//! its timeline is held until the matches run again ([`Timeline::release`]), so neither the
//! rebuild nor a crash during it costs anyone time.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Milliseconds on the game timeline (monotonic, continuous across restarts, the time the
/// server was down excluded).
pub type Millis = u64;

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
}

impl Timeline {
    /// A running timeline whose current instant is `resume_at`.
    pub fn resume_at(resume_at: Millis) -> Timeline {
        Timeline {
            origin: OnceLock::from(Instant::now()),
            origin_ms: resume_at,
            held_mark: resume_at.saturating_sub(1),
        }
    }

    /// A timeline that stands still one millisecond after `last_stored` (the last instant
    /// the store recorded) until [`Timeline::release`], and meanwhile marks `last_stored`.
    pub fn held_after(last_stored: Millis) -> Timeline {
        Timeline {
            origin: OnceLock::new(),
            origin_ms: last_stored + 1,
            held_mark: last_stored,
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
        self.origin_ms + self.elapsed().as_millis() as u64
    }

    /// The current instant in microseconds, for measuring timer lateness.
    pub fn now_micros(&self) -> u64 {
        self.origin_ms * 1000 + self.elapsed().as_micros() as u64
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

    /// The monotonic instant at which the timeline reaches `at` (now if already past). While
    /// held, as if it were released now.
    pub fn instant_of(&self, at: Millis) -> tokio::time::Instant {
        let offset = at.saturating_sub(self.origin_ms);
        let origin = self.origin.get().copied().unwrap_or_else(Instant::now);
        tokio::time::Instant::from_std(origin + Duration::from_millis(offset))
    }

    fn elapsed(&self) -> Duration {
        self.origin.get().map_or(Duration::ZERO, Instant::elapsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_continues_from_the_recorded_instant() {
        let t = Timeline::resume_at(5_000);
        let now = t.now();
        assert!((5_000..5_100).contains(&now));
        assert!(t.instant_of(4_000) <= tokio::time::Instant::now());
        assert!(t.instant_of(6_000) > tokio::time::Instant::now());
        assert!(!t.is_held());
    }

    #[test]
    fn a_held_timeline_stands_still_and_marks_the_last_stored_instant() {
        let t = Timeline::held_after(5_000);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(
            (t.now(), t.mark()),
            (5_001, 5_000),
            "held: time stands still"
        );
        t.release();
        std::thread::sleep(Duration::from_millis(30));
        let now = t.now();
        assert!(
            (5_030..5_200).contains(&now),
            "released, it runs from 5001: {now}"
        );
        assert!(t.mark() >= now, "released, it marks the current instant");
    }
}
