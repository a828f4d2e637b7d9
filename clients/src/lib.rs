//! The blind player's clients (`docs/product.md` §1; 附表七 6.3, 7.4(2)): a numeric keypad
//! and a tactile sensor board.
//!
//! - [`board`]: the serial line protocol of a sensor board and the logic that turns lifts,
//!   places and presses into moves, captures in either order, slides and put-backs.
//! - [`braille`]: the keypad on a braille display, for a deafblind player.
//! - [`keypad`]: the key map that reaches every announcement word in at most two keys, and the
//!   keypad's commands.
//! - [`session`]: the networked seat client (`baoqi keypad`, `baoqi board`): a pure session
//!   state machine, its scripts and status line.

pub mod board;
pub mod braille;
pub mod keypad;
pub mod session;
