//! The tournament core of baoqi (報棋): the organiser's side of an event, pure and sans-IO
//! like the arbiter (no I/O, no clock). 附表二 (常見賽制), 第87–91、108條 and 附表七 7.2 of
//! the 通用象棋規則.
//!
//! - [`Player`], [`read_register`]: the register, imported from CSV (its bytes read by
//!   [`decode_register`]: UTF-8, UTF-16 or Big5); [`EventRules`] derives
//!   each player's settings (time allowance by category, 7.2) and each game's
//!   [`baoqi_arbiter::MatchConfig`] from it.
//! - Systems (附表二 第一部份): [`berger`] (單循環, 雙循環), [`swiss`] (積分編排制),
//!   [`knockout`] (淘汰 with tie-break games).
//! - Scoring (第二部份): [`System`] (1/½/0, 2/1/0, 3/1/0, 黃氏計分法), [`team_match`];
//!   [`standings`] with the tie-breaks of 名次分先 and Buchholz / Sonneborn-Berger.
//! - [`prizes`]: the prize lists given from the final standings, one prize per player.
//! - [`changes`]: the organiser's changes (108, 89(2), late entrants), each a logged value;
//!   [`regrouped`]: who a late correction of a result moved to another score group (87).
//!
//! Readings of the rule text are listed in `docs/decisions.md` (附表二).

pub mod berger;
pub mod changes;
mod decode;
mod event;
mod fields;
pub mod knockout;
mod player;
pub mod prizes;
mod register;
mod regroup;
mod result;
mod scoring;
pub mod standings;
pub mod swiss;

pub use decode::{DecodeError, Decoded, SAVE_AS_UTF8, TextEncoding, decode_register};
pub use event::{Entry, Game, Records, Round, colours, records, score};
pub use fields::{
    FieldProblem, check_text, parse_board, parse_categories, parse_category, parse_sex,
    parse_whole, parse_year, parse_yes_no,
};
pub use player::{EventRules, Player, PlayerId, PlayerSettings, RoundNumber, Sex};
pub use register::{
    LineError, MAX_PLAYERS, MAX_REGISTER_BYTES, MAX_TEXT_CHARS, RegisterError, SameName,
    read_register, read_register_with, unread_columns,
};
pub use regroup::{Regrouped, regrouped};
pub use result::{GameResult, Mark};
pub use scoring::{ByeScore, Points, Scoring, System, TeamMethod, team_match};
