//! All of baoqi-protocol's tests, in one binary: the crate's own unit tests live here too
//! (they use its public API only), so that the test command does not compile the crate a
//! second time as a unit-test harness (`[lib] test = false`).

mod doc;
mod envelope;
mod fuzz;
mod js;
mod samples;
mod seat;
mod standing;
mod variants;
