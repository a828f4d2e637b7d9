//! The tactile-board client's pure parts: the serial line protocol and the sensing logic.

pub mod protocol;
pub mod sensor;

pub use protocol::{LineError, SensorEvent, parse_line};
pub use sensor::{BoardOutput, BoardSensor, DEFAULT_SETTLE_MS, SenseMode};
