//! baoqi-organiser's integration tests against a store on a temporary file, one module per
//! file beside this one, in one test binary.

mod prizes;
mod register;
mod standings;
