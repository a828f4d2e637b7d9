//! Repetition (循環局面, 第10章) and the game-end rulings that depend on the history
//! (第11章 in the order of 第35條).
//!
//! - [`Game`] holds a start position and the moves played; [`Game::play`] returns a
//!   [`Review`]: the warnings of 第61條 and the [`Ruling`] when the move ended the game.
//! - `classify` decides 長將 / 長捉 / 一般循環 for one cycle; `chase` holds the
//!   attacker/victim analysis (真根, exceptions 58(2)(a)–(e)).
//! - The readings taken where the text is unclear (what a 捉着 and an 應捉 are, which moves
//!   form the cycle, whom 63 punishes) are in `docs/decisions.md`.

mod chase;
mod classify;
mod game;
mod verdict;

pub use game::{AlreadyOver, Game, PlayError, ReplayError, Review};
pub use verdict::{
    Classification, Outcome, Pattern, Repetition, Ruling, RulingReason, Warning, WarningKind,
};
