//! The keypad client's pure parts: the key map and the board queries it answers by ear.

pub mod keymap;
pub mod queries;

pub use keymap::{KIND_KEYS, Key, KeyCommand, KeyMap, KeyOutcome, Prefix, keys_for};
