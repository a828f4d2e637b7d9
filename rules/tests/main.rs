//! All of baoqi-rules's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

mod perft;
mod properties;
mod repetition;
mod repetition_props;
