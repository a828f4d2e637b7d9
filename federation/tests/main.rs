//! All of baoqi-federation's tests that need no NATS server, in one binary: the crate's own
//! unit tests live here (they use its public API only), so that the test command does not
//! compile the crate a second time as a unit-test harness (`[lib] test = false`). The
//! nodes themselves are tested end to end in the workspace's `tests/nodes/`.

mod share;
mod takeover;
mod wire;
