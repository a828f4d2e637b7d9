//! All of baoqi's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod adjudicate;
mod backup;
mod bench_crash;
mod braille;
mod cli_board;
mod cli_db;
mod cli_desk;
mod cli_export;
mod cli_links;
mod cli_notation;
mod cli_protocol;
mod cli_records;
mod cli_register;
mod cli_results;
mod cli_rounds;
mod cli_rules;
mod cli_server;
mod cli_simulate;
mod cli_tournament;
#[path = "../corpus/unpack.rs"]
mod corpus_unpack;
mod crash;
mod deploy;
mod e2e_by_ear;
mod e2e_by_ear_live;
mod e2e_keypad;
mod keypad_terminal;
mod keypad_tls;
mod nodes;
mod pyffish_diff;
mod recording_crash;
mod records_cchess;
mod shm;
mod stall;
