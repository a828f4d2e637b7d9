//! The game timeline: milliseconds that run with the machine's monotonic clock while the
//! server runs and stand still while it is down. At start the timeline continues from the
//! last instant the store recorded, so the time the server was down is never charged to a
//! player (see `docs/decisions.md`).

use std::time::{Duration, Instant};

/// Milliseconds on the game timeline (monotonic, continuous across restarts, the time the
/// server was down excluded).
pub type Millis = u64;

/// Maps the monotonic clock of this process onto the game timeline.
#[derive(Debug)]
pub struct Timeline {
    origin: Instant,
    origin_ms: Millis,
}

impl Timeline {
    /// A timeline whose current instant is `resume_at` (the last recorded instant).
    pub fn resume_at(resume_at: Millis) -> Timeline {
        Timeline {
            origin: Instant::now(),
            origin_ms: resume_at,
        }
    }

    /// The current instant, in whole milliseconds.
    pub fn now(&self) -> Millis {
        self.origin_ms + self.origin.elapsed().as_millis() as u64
    }

    /// The current instant in microseconds, for measuring timer lateness.
    pub fn now_micros(&self) -> u64 {
        self.origin_ms * 1000 + self.origin.elapsed().as_micros() as u64
    }

    /// The monotonic instant at which the timeline reaches `at` (now if already past).
    pub fn instant_of(&self, at: Millis) -> tokio::time::Instant {
        let offset = at.saturating_sub(self.origin_ms);
        tokio::time::Instant::from_std(self.origin + Duration::from_millis(offset))
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
    }
}
