//! All of baoqi-server's integration tests, one module per file beside this one, in one
//! test binary: the test command links each binary against the whole crate graph, and
//! one binary per package links once instead of once per file.

#[macro_use]
mod common;

mod access;
mod audience;
mod backup;
mod day;
mod day_whole;
mod export_stream;
mod exports;
mod frames;
mod game;
mod headers;
mod hostile;
mod knockout_lot;
mod limits;
mod live;
mod observe;
mod organiser;
mod organiser_overrides;
mod plumbing;
mod postgres;
mod recording;
mod recording_pg;
mod records;
mod register_api;
mod restart;
mod revocation;
mod rounds;
mod standing_query;
mod standings;
mod tls;
mod tournament;
