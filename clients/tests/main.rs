//! All of baoqi-clients's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod board_sensor;
mod board_session;
mod keypad_session;
mod keypad_speech;
mod keypad_standing;
mod net_reconnect;
