//! All of baoqi-audio's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod espeak;
mod from_event;
mod lengths;
mod phrasebook;
mod recording;
mod referee_and_mirror;
mod speechd;
mod tap;
mod voice;
