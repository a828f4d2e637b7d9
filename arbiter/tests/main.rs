//! All of baoqi-arbiter's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod announcement;
mod arrival;
mod calls;
mod clock;
mod draws;
mod mirror;
mod move_check;
mod props;
mod referee;
mod scripts;
