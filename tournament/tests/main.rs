//! All of baoqi-tournament's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod berger;
mod changes;
mod knockout;
mod prizes;
mod register;
mod register_files;
mod scoring;
mod swiss;
