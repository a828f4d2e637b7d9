//! All of baoqi-store's integration tests, one module per file beside this one, in one
//! test binary.

mod event_file;
mod leases;
mod legacy;
mod pools;
mod reconnect;
mod recordings;
mod schema;
mod store_suite;
