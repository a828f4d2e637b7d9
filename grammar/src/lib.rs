//! Xiangqi notation for baoqi (報棋), after 附表六 and 附表七 6.3, 7.4(2) of the 通用象棋規則.
//!
//! - Syntax apart from legality: [`parse`] reads text into a [`Notation`] (a [`Designation`]
//!   or an ICCS move); [`Designation::resolve`] turns it into a move in a position or a
//!   precise [`ResolveError`].
//! - [`render`] writes any legal move in each [`Style`].
//! - [`Announcer`] follows an announcement word by word (報棋, 附表七 6.3, 7.4(2)).
//! - [`speech`] gives display and speakable words; [`pgn`] reads and writes game records.
//!
//! Pure: no I/O, no clock.

mod announce;
pub mod cbf;
mod designation;
pub mod dhtmlxq;
mod locate;
mod parse;
pub mod pgn;
pub mod record;
mod render;
mod resolve;
pub mod speech;
mod unspeakable;
mod word_serde;
pub mod words;
pub mod xqf;

pub use announce::{Announcer, Completion, Step};
pub use designation::{Designation, Motion, Order, PieceName};
pub use locate::{Impossible, NameError, Points, candidates, destination, motion_between};
pub use parse::{Notation, ParseError, parse, parse_word, parse_words};
pub use render::{
    RenderError, Style, canonical_name, designate, marks_of, render, render_marked, words_of,
    words_text,
};
pub use resolve::{Mode, NotationError, ResolveError, parse_move};
pub use unspeakable::Unspeakable;
pub use word_serde::{ParseTokenError, kind_token};
pub use words::{CharSide, Marks, NumeralStyle, Word};
