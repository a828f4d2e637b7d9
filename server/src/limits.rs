//! What one peer may cost the server: connections per address, how long a request's headers
//! may take, how long a WebSocket may stay silent, and how many commands a seat may send.
//! The values are documented in `docs/protocol.md` ("Limits") and the reasons in
//! `docs/decisions.md`.

use std::time::Duration;

use baoqi_store::timeline::Millis;

/// The limits a server applies. [`Limits::default`] is what `baoqi serve` uses; tests
/// shorten the times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once from one address, or one group of addresses a device may
    /// hold ([`crate::occupancy::group_of`]: an IPv6 /64, the loopback network); a hall's
    /// tablets and keypads each have their own address; the load benchmark raises it for
    /// its bots on loopback.
    pub per_address: usize,
    /// Connections open at once in all (derived from the file-descriptor limit at start);
    /// when they are all open, an unauthenticated one is closed to let a newcomer in
    /// ([`crate::occupancy`]).
    pub total: usize,
    /// How long a client may take to send a request's headers, counted from the moment the
    /// connection opens or the previous response ends (idle keep-alive included).
    pub header_read: Duration,
    /// How often the server pings a WebSocket.
    pub ping_every: Duration,
    /// A WebSocket from which nothing at all (not even a pong) arrives for this long is
    /// taken for a half-open peer and closed.
    pub silent_for: Duration,
    /// How many commands a seat may send at once, and how fast afterwards.
    pub commands: Rate,
    /// How many `sync`s of one table a connection may send at once, and how fast
    /// afterwards: each costs the table a state, and may read back events from the store.
    pub syncs: Rate,
    /// How many messages of any kind one connection may send at once, and how fast
    /// afterwards; a connection beyond it is closed (1008): a client that ignores its
    /// `rate_limited` answers and sends on in a loop.
    pub messages: Rate,
    /// An upload must go on at this average rate (bytes a second), once
    /// [`Limits::upload_grace`] has passed.
    pub upload_min_rate: u64,
    /// How long an upload may go slower than [`Limits::upload_min_rate`] at first.
    pub upload_grace: Duration,
    /// How long a request body of the organiser's API may take to arrive.
    pub body_within: Duration,
    /// How long a write may wait for the peer to take bytes before its connection is
    /// closed.
    pub write_within: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            per_address: 256,
            total: 4096,
            header_read: Duration::from_secs(10),
            ping_every: Duration::from_secs(10),
            silent_for: Duration::from_secs(30),
            commands: Rate {
                burst: 30,
                per_second: 10,
            },
            syncs: Rate {
                burst: 10,
                per_second: 5,
            },
            messages: Rate {
                burst: 100,
                per_second: 20,
            },
            upload_min_rate: 1024,
            upload_grace: Duration::from_secs(30),
            body_within: Duration::from_secs(10),
            write_within: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// No limit on connections nor commands: for the load benchmark, whose bots all come
    /// from loopback, and for tests that drive a table faster than people can. The times
    /// stay the defaults.
    pub fn unmetered() -> Limits {
        Limits {
            per_address: usize::MAX,
            total: usize::MAX,
            commands: Rate {
                burst: u32::MAX,
                per_second: u32::MAX,
            },
            syncs: Rate {
                burst: u32::MAX,
                per_second: u32::MAX,
            },
            messages: Rate {
                burst: u32::MAX,
                per_second: u32::MAX,
            },
            ..Limits::default()
        }
    }
}

/// File descriptors kept for the store, the recordings and the logs.
const RESERVED_FDS: u64 = 64;

/// How many connections may be open at once: the file-descriptor limit, raised to its hard
/// limit first (with `ulimit -n 256`, 300 idle sockets made every new connection time out),
/// less what the server needs for itself.
pub fn connection_budget() -> usize {
    let fds = rlimit::increase_nofile_limit(u64::MAX).unwrap_or_else(|e| {
        tracing::warn!("the file-descriptor limit could not be read or raised: {e}");
        1024
    });
    let budget = fds.saturating_sub(RESERVED_FDS).max(16);
    tracing::info!(fds, budget, "connections allowed at once");
    usize::try_from(budget).unwrap_or(usize::MAX)
}

/// A token bucket's size: `burst` at once, then `per_second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Commands at once.
    pub burst: u32,
    /// Commands a second, sustained.
    pub per_second: u32,
}

/// One seat's bucket of commands, on the server's timeline (milliseconds).
#[derive(Debug, Clone)]
pub struct Bucket {
    rate: Rate,
    /// Tokens, in thousandths of a command.
    milli_tokens: u64,
    last: Millis,
}

impl Bucket {
    /// A full bucket at `now`.
    pub fn new(rate: Rate, now: Millis) -> Bucket {
        Bucket {
            rate,
            milli_tokens: u64::from(rate.burst) * 1000,
            last: now,
        }
    }

    /// Takes one command's token at `now`; false when the seat has sent too many.
    pub fn take(&mut self, now: Millis) -> bool {
        let elapsed = now.since(self.last);
        self.last = self.last.max(now);
        let cap = u64::from(self.rate.burst) * 1000;
        let refill = elapsed.saturating_mul(u64::from(self.rate.per_second));
        self.milli_tokens = self.milli_tokens.saturating_add(refill).min(cap);
        if self.milli_tokens < 1000 {
            return false;
        }
        self.milli_tokens -= 1000;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_a_burst_then_its_rate() {
        let rate = Rate {
            burst: 3,
            per_second: 2,
        };
        let mut b = Bucket::new(rate, Millis(1000));
        assert!((0..3).all(|_| b.take(Millis(1000))));
        assert!(!b.take(Millis(1000)), "the burst is spent");
        assert!(!b.take(Millis(1400)), "0.8 of a command after 400 ms");
        assert!(
            b.take(Millis(1500)),
            "one command after 500 ms at 2 a second"
        );
        assert!(!b.take(Millis(1500)));
        assert!(
            (0..3).all(|_| b.take(Millis(60_000))),
            "refilled, but never beyond the burst"
        );
        assert!(!b.take(Millis(60_000)));
    }
}
