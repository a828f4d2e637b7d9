//! The arbiter of baoqi (報棋): a pure, sans-IO match state machine that enforces what a
//! supervising referee enforces at a table for blind, deaf and sighted players (附表七
//! 第六部分 視障賽 and 第七部分 共融賽 of the 通用象棋規則, `docs/product.md` §5–§10).
//!
//! - [`MatchConfig`] (serde, TOML): event kind, each side's categories and aids, time
//!   controls per category (附表三), alerts, violation limits (127(2)), scoresheet header.
//! - [`Match::new`]`(config, now)`; [`Match::apply`]`(seat, command, now) -> Result<Vec<Event>,
//!   Rejection>`: the [`Seat`] is the authenticated sender (the server tags each command);
//!   a refused command changes nothing. Time is [`Millis`] on the caller's monotonic timeline.
//! - [`Match::next_deadline`]: the next instant at which something happens by itself (an
//!   alert, a flag fall); call `apply(_, Command::Tick, deadline)` then. Every command first
//!   catches up with the time that passed, so a late tick loses nothing: alerts and flag fall
//!   carry their true instant.
//! - [`Event`] is the single source of truth: [`Match::from_events`] folds a stored log back
//!   into the same state; [`Match::replay`] re-applies stored commands ([`Stamped`]).
//! - `serde` for [`Match`] writes the whole state and reads it back exactly (a checkpoint: a
//!   server rebuilds from the last one and the commands after it, [`CHECKPOINT_FORMAT`]);
//!   [`Match::reapply`] replays a stored command in place, so a long log replays in linear
//!   time.
//! - [`Match::snapshot`] gives the whole visible state ([`View`]) for a reconnecting client
//!   or the referee monitor; [`Match::scoresheet`] and [`Match::pgn`] export the record.
//! - [`script`]: scripted matches (`baoqi simulate`), one JSON command per line.
//!
//! Readings of the rule text are listed in `docs/decisions.md`.

mod api;
mod article;
mod board_steps;
pub mod bounds;
mod calls;
mod checkpoint;
mod clock;
mod command;
mod config;
mod event;
mod fold;
mod move_check;
mod moves;
mod offers;
mod physical_board;
mod reasons;
mod referee;
mod rejection;
mod render;
mod repeat;
mod scoresheet;
pub use scoresheet::{cited, marked, result_line};
pub mod script;
mod state;
mod time;
mod turn;
mod view;
mod violations;
mod vocab;

pub use api::ConfigError;
pub use article::{Article, ParseArticleError, articles};
pub use calls::{CallAction, Matter, OpenCall, RestoreCause, Tally};
pub use checkpoint::CHECKPOINT_FORMAT;
pub use command::{Adjudication, Card, Command, Millis, Seat, Side, Stamped, ViolationKind};
pub use config::{
    AlertConfig, AlertSet, BoardId, BoardUse, Category, ClockMode, EventKind, Header, Limits,
    MatchConfig, PART6_THRESHOLDS_MS, PART7_THRESHOLDS_MS, SideConfig, TimeControl, TimeTable,
};
pub use event::{
    Audience, CheckOutcome, ClockView, Event, MoveView, Outcome, RefereeCall, ReportReason,
    SideTime, Speaker,
};
pub use physical_board::{BoardError, PlacementError};
pub use reasons::{
    AnnouncedFor, Announcement, BoardStep, CardMove, CheckFinding, Decline, EndCause, Illegality,
    Owed, PauseReason, Removal, Threshold, ViolationReason,
};
pub use rejection::{Act, CardProblem, Rejection, Wait};
pub use state::Match;
pub use view::{
    BoardView, CardView, GivenWarning, InHand, LoggedWord, Names, OfferView, Pending, Phase,
    RepeatOwed, ResultView, SheetMove, Tallies, TallyView, Touch, View,
};
