//! What the crash benchmark measured: one line per round and a summary, with the checks
//! that make it fail.

use std::fmt;
use std::time::Duration;

/// One `kill -9` round.
#[derive(Debug, Clone, Default)]
pub struct RoundReport {
    /// 1, 2, …
    pub round: usize,
    /// How long the bots played after the referee resumed, before the kill.
    pub played: Duration,
    /// Commands acknowledged in the round (the referee's resume included).
    pub acked: usize,
    /// Acknowledged commands missing from the store after the kill.
    pub lost: usize,
    /// Players' commands stored in the round (acknowledged or not).
    pub stored: usize,
    /// The clocks (red, black) the referee would have read at the instant of the kill, ms.
    pub at_kill: (u64, u64),
    /// The clocks the restarted server shows, paused, ms.
    pub restored: (u64, u64),
    /// How long before the kill the store last recorded the game timeline, ms: a restart
    /// resumes the clocks from that instant, so this is the time given back to the side to
    /// move (the store writer records it every 50 ms when idle).
    pub mark_age_ms: u64,
    /// The side whose clock ran at the kill (`None`: neither).
    pub running: Option<baoqi_rules::Color>,
    /// The referee's view was completed with a clock the server stored but had not yet
    /// sent (a press between the last report and the kill).
    pub completed_from_store: bool,
    /// What the restarted, paused match did while watched.
    pub paused: PausedWatch,
    /// Spawn to `tables running` of the restarted server.
    pub restart: Duration,
    /// Entries in the table's log at the kill.
    pub log_entries: u64,
    /// A stored command that is not the script's (must be `None`).
    pub mismatch: Option<String>,
}

impl RoundReport {
    /// The largest difference between a clock at the kill and after the restart, ms.
    pub fn clock_diff(&self) -> u64 {
        self.at_kill
            .0
            .abs_diff(self.restored.0)
            .max(self.at_kill.1.abs_diff(self.restored.1))
    }

    /// Why the round failed, with `tolerance_ms` for the clocks; empty if it passed.
    pub fn failures(&self, tolerance_ms: u64) -> Vec<String> {
        let mut out = Vec::new();
        if self.lost > 0 {
            out.push(format!("{} acknowledged commands lost", self.lost));
        }
        if let Some(m) = &self.mismatch {
            out.push(m.clone());
        }
        if self.clock_diff() > tolerance_ms {
            out.push(format!(
                "clocks {:?} at the kill, {:?} after the restart: more than {tolerance_ms} ms apart",
                self.at_kill, self.restored
            ));
        }
        if self.paused.not_paused {
            out.push("the restarted match was not paused by the restart".into());
        }
        if self.paused.flag_falls > 0 {
            out.push(format!(
                "{} flag falls while paused",
                self.paused.flag_falls
            ));
        }
        if self.paused.clocks_moved {
            out.push("the clocks moved while paused".into());
        }
        out
    }
}

impl fmt::Display for RoundReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.running {
            Some(baoqi_rules::Color::Red) => "red",
            Some(baoqi_rules::Color::Black) => "black",
            None => "none",
        };
        write!(
            f,
            "round {:>3}: killed after {:>4} ms, {:>2} acked, {} lost, {:>2} stored; \
             clocks red/black {}/{} → {}/{} ms (Δ {} ms, {side} running{}, last mark {} ms \
             before the kill); \
             paused {:.1} s{}, {} flag falls{}; restart {} ms, log {}",
            self.round,
            self.played.as_millis(),
            self.acked,
            self.lost,
            self.stored,
            self.at_kill.0,
            self.at_kill.1,
            self.restored.0,
            self.restored.1,
            self.clock_diff(),
            if self.completed_from_store {
                ", last press read from the store"
            } else {
                ""
            },
            self.mark_age_ms,
            self.paused.watched.as_secs_f64(),
            if self.paused.could_fall {
                " (longer than the side to move had)"
            } else {
                ""
            },
            self.paused.flag_falls,
            if self.paused.clocks_moved {
                ", CLOCKS MOVED"
            } else {
                ""
            },
            self.restart.as_millis(),
            self.log_entries,
        )
    }
}

/// The watch of the restarted match, paused by the restart.
#[derive(Debug, Clone, Default)]
pub struct PausedWatch {
    /// How long the match was watched.
    pub watched: Duration,
    /// The side to move had less time than the watch lasted: had its clock run, it would
    /// have fallen during the watch (the check could fail).
    pub could_fall: bool,
    /// Games ended during the watch (must be 0).
    pub flag_falls: usize,
    /// The clocks changed or ran during the watch.
    pub clocks_moved: bool,
    /// After the restart the match was not paused by the restart.
    pub not_paused: bool,
}

/// The whole benchmark.
#[derive(Debug, Clone, Default)]
pub struct CrashReport {
    /// Every round, in order (fewer than asked when one could not go on).
    pub rounds: Vec<RoundReport>,
    /// Rounds asked for.
    pub asked: usize,
    /// Entries stored by the fill, before the first round.
    pub filled: u64,
    /// How long the fill took (in-process, no rate limit).
    pub fill_took: Duration,
    /// The clock tolerance, ms.
    pub tolerance_ms: u64,
    /// Why the benchmark stopped early, if it did.
    pub stopped: Option<String>,
}

fn median_max(mut v: Vec<u64>) -> (u64, u64) {
    v.sort_unstable();
    let median = v.get(v.len() / 2).copied().unwrap_or(0);
    (median, v.last().copied().unwrap_or(0))
}

impl CrashReport {
    /// Every failed check, round by round, and an early stop.
    pub fn failures(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rounds
            .iter()
            .flat_map(|r| {
                r.failures(self.tolerance_ms)
                    .into_iter()
                    .map(move |f| format!("round {}: {f}", r.round))
            })
            .collect();
        if let Some(s) = &self.stopped {
            out.push(format!("stopped after {} rounds: {s}", self.rounds.len()));
        } else if self.rounds.len() < self.asked {
            out.push(format!("{} of {} rounds", self.rounds.len(), self.asked));
        }
        out
    }

    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures().is_empty()
    }

    /// The clock difference of the running side at each kill (median, max), ms.
    pub fn running_diff(&self) -> (u64, u64) {
        median_max(self.rounds.iter().map(RoundReport::clock_diff).collect())
    }
}

impl fmt::Display for CrashReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sum = |g: fn(&RoundReport) -> usize| self.rounds.iter().map(g).sum::<usize>();
        let (diff_med, diff_max) = self.running_diff();
        let (mark_med, mark_max) = median_max(self.rounds.iter().map(|r| r.mark_age_ms).collect());
        let (restart_med, restart_max) = median_max(
            self.rounds
                .iter()
                .map(|r| r.restart.as_millis() as u64)
                .collect(),
        );
        writeln!(
            f,
            "rounds {} of {} (kill -9 each); fill: {} log entries in {:.1} s; log at the end: {} entries",
            self.rounds.len(),
            self.asked,
            self.filled,
            self.fill_took.as_secs_f64(),
            self.rounds.last().map_or(self.filled, |r| r.log_entries),
        )?;
        writeln!(
            f,
            "commands acknowledged {}, lost {}; player commands stored {}",
            sum(|r| r.acked),
            sum(|r| r.lost),
            sum(|r| r.stored),
        )?;
        writeln!(
            f,
            "clock at the kill → after the restart: median {diff_med} ms, max {diff_max} ms \
             (tolerance {} ms); last press read from the store in {} rounds",
            self.tolerance_ms,
            sum(|r| usize::from(r.completed_from_store)),
        )?;
        writeln!(
            f,
            "last timeline mark stored before the kill: median {mark_med} ms, max {mark_max} ms \
             before it (the time a restart gives back to the side to move)"
        )?;
        writeln!(
            f,
            "paused: flag falls {}, clocks moved in {} rounds, not paused in {}; the watch \
             outlasted the side to move's time in {} of {} rounds",
            sum(|r| r.paused.flag_falls),
            sum(|r| usize::from(r.paused.clocks_moved)),
            sum(|r| usize::from(r.paused.not_paused)),
            sum(|r| usize::from(r.paused.could_fall)),
            self.rounds.len(),
        )?;
        writeln!(
            f,
            "restart (spawn → tables running, store checked and match rebuilt): median \
             {restart_med} ms, max {restart_max} ms"
        )?;
        let failures = self.failures();
        if failures.is_empty() {
            writeln!(f, "PASS")
        } else {
            for line in &failures {
                writeln!(f, "FAIL {line}")?;
            }
            Ok(())
        }
    }
}
