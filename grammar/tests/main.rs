//! All of baoqi-grammar's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod announce;
mod cchess_diff;
mod corpus;
#[path = "../../corpus/unpack.rs"]
mod corpus_unpack;
mod formats_fuzz;
mod fuzz;
mod notation;
mod pgn;
mod possible;
mod roundtrip;
mod speech;
