//! Server-side measurements: how late the match tasks' timers fire relative to the engine's
//! deadlines (the 20 ms bound on clock alerts), and how long group commits take.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

const BUCKETS: usize = 1000;
const BUCKET_US: u64 = 100;

/// A lock-free histogram of microsecond durations in 0.1 ms buckets up to 100 ms; the last
/// bucket holds everything from 99.9 ms up, so a percentile that falls in it is only known to
/// be at least the cap ([`Summary::p99_capped`]).
pub struct Histogram {
    buckets: Vec<AtomicU64>,
    count: AtomicU64,
    max_us: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
            max_us: AtomicU64::new(0),
        }
    }
}

/// Percentiles of a [`Histogram`], in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// How many samples.
    pub count: u64,
    /// Median (bucket upper bound).
    pub p50_ms: f64,
    /// 99th percentile (bucket upper bound).
    pub p99_ms: f64,
    /// The median fell in the overflow bucket: it is at least `p50_ms`, not `p50_ms`.
    pub p50_capped: bool,
    /// The 99th percentile fell in the overflow bucket: at least `p99_ms`.
    pub p99_capped: bool,
    /// The largest sample, exactly.
    pub max_ms: f64,
}

impl Summary {
    /// `p50 1.2 ms, p99 ≥ 100.0 ms, max 230.4 ms (12 samples)`: a percentile in the overflow
    /// bucket is given as at least the cap, never as the cap.
    pub fn line(&self) -> String {
        let at = |ms: f64, capped: bool| {
            if capped {
                format!("≥ {ms:.1} ms")
            } else {
                format!("{ms:.1} ms")
            }
        };
        format!(
            "p50 {}, p99 {}, max {:.1} ms ({} samples)",
            at(self.p50_ms, self.p50_capped),
            at(self.p99_ms, self.p99_capped),
            self.max_ms,
            self.count
        )
    }
}

impl Histogram {
    /// Records one duration.
    pub fn record(&self, micros: u64) {
        let i = ((micros / BUCKET_US) as usize).min(BUCKETS - 1);
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.max_us.fetch_max(micros, Ordering::Relaxed);
    }

    /// p50, p99 and max so far.
    pub fn summary(&self) -> Summary {
        let count = self.count.load(Ordering::Relaxed);
        // The bucket the percentile falls in: its upper bound, and whether it is the
        // overflow bucket.
        let pct = |p: f64| {
            let target = ((count as f64) * p).ceil().max(1.0) as u64;
            let mut seen = 0;
            for (i, b) in self.buckets.iter().enumerate() {
                seen += b.load(Ordering::Relaxed);
                if seen >= target {
                    let capped = i == BUCKETS - 1;
                    let bound = if capped { i } else { i + 1 };
                    return ((bound as u64 * BUCKET_US) as f64 / 1000.0, capped);
                }
            }
            (
                (BUCKETS as u64 - 1) as f64 * BUCKET_US as f64 / 1000.0,
                true,
            )
        };
        if count == 0 {
            return Summary::default();
        }
        let ((p50_ms, p50_capped), (p99_ms, p99_capped)) = (pct(0.50), pct(0.99));
        let max_ms = self.max_us.load(Ordering::Relaxed) as f64 / 1000.0;
        // A bucket's upper bound may lie above every sample in it (p50 was once above max):
        // no percentile is more than the largest sample.
        Summary {
            count,
            p50_ms: p50_ms.min(max_ms),
            p99_ms: p99_ms.min(max_ms),
            p50_capped,
            p99_capped,
            max_ms,
        }
    }
}

/// Everything the server measures, shared by all tasks.
#[derive(Default)]
pub struct Metrics {
    /// Timer lateness: actual firing instant minus the engine's deadline.
    pub timer_lateness: Histogram,
    /// Command taken by its table's task → durably stored and published.
    pub command_latency: Histogram,
    /// Command read from its connection → answered: the table's queue included, so a table
    /// held up (a 6 s stall once did not show) is seen.
    pub command_answer: Histogram,
}

/// The measurements as served at `/api/stats`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stats {
    /// Timer lateness.
    pub timer_lateness: Summary,
    /// Command handling time inside the table's task (including the group commit).
    pub command_latency: Summary,
    /// From the command read off its connection to its answer (the table's queue included).
    pub command_answer: Summary,
}

impl Metrics {
    /// A snapshot of the summaries.
    pub fn stats(&self) -> Stats {
        Stats {
            timer_lateness: self.timer_lateness.summary(),
            command_latency: self.command_latency.summary(),
            command_answer: self.command_answer.summary(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_buckets() {
        let h = Histogram::default();
        for us in 1..=100 {
            h.record(us * 100);
        }
        let s = h.summary();
        assert_eq!(s.count, 100);
        assert!((s.p50_ms - 5.1).abs() < 0.11, "{s:?}");
        assert!((s.max_ms - 10.0).abs() < 1e-9);
        assert!(!s.p99_capped);
    }

    #[test]
    fn no_percentile_is_above_the_largest_sample() {
        let h = Histogram::default();
        for _ in 0..10 {
            h.record(30);
        }
        let s = h.summary();
        assert!(s.p50_ms <= s.max_ms && s.p99_ms <= s.max_ms, "{s:?}");
        assert!((s.max_ms - 0.03).abs() < 1e-9);
    }

    /// "p99 100.0 ms" was once the histogram's cap, not a measurement.
    #[test]
    fn a_percentile_past_the_cap_is_reported_as_at_least_the_cap() {
        let h = Histogram::default();
        for _ in 0..98 {
            h.record(1_000);
        }
        for _ in 0..2 {
            h.record(230_000);
        }
        let s = h.summary();
        assert!(s.p99_capped && !s.p50_capped, "{s:?}");
        assert!(
            s.line().contains("p99 ≥ 99.9 ms") && s.line().contains("max 230.0 ms"),
            "{}",
            s.line()
        );
    }
}
