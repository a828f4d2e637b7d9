//! The vocabulary the events are written in: who hears, who spoke, a move on the record,
//! the clock, the outcomes of 走子檢查, why the referee is called, how a game ended.

use serde::{Deserialize, Serialize};

use baoqi_grammar::Word;
use baoqi_rules::{Kind, Move};

use crate::command::{Millis, Side};

/// Who an event is for, so the server can route it (the referee sees everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone at the table and spectators.
    All,
    /// One side (player and proxy) and the referee.
    Side(Side),
    /// The referee only (e.g. a sealed move).
    Referee,
}

/// Who spoke an announcement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// The player.
    Player,
    /// The player's proxy (7.4(2)(d)(ii)).
    Proxy,
    /// The referee (6.3(7), 7.4(2)(c)-(d)); the board move governs (7.4(2)(f)(iii)).
    Referee,
}

/// A move on the record, typed: the move, its four words as the mover designates it (附表六
/// 第一部份), and the marks it earns (第二部份). Clients write the words in their reader's
/// characters and numerals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// The move (ICCS in JSON: `"h2e2"`).
    pub iccs: Move,
    /// The four words, e.g. 炮 二 平 五.
    pub words: [Word; 4],
    /// The piece taken (×), if any.
    pub captured: Option<Kind>,
    /// Whether the move gives check (○): both players hear 將軍.
    pub check: bool,
}

/// The clock at an instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// Red's time left at `since`, in milliseconds.
    pub red_ms: u64,
    /// Black's time left at `since`.
    pub black_ms: u64,
    /// The side whose clock runs, if any.
    pub running: Option<Side>,
    /// The instant the values were taken.
    pub since: Millis,
    /// 延時制: the running clock does not count down before this instant.
    pub delay_until: Option<Millis>,
}

impl ClockView {
    /// `side`'s time left at `now`: the running clock counted down (from the end of a 延時制
    /// delay), never below zero. What a client shows between the server's reports.
    pub fn remaining(&self, side: baoqi_rules::Color, now: Millis) -> u64 {
        crate::clock::remaining(self, side, now)
    }
}

/// One side's time in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideTime {
    /// The side.
    pub side: Side,
    /// Time left in milliseconds.
    pub ms: u64,
}

/// Why a time report is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Talking clock on a press (7.1(1)(b)).
    Press,
    /// A seat asked (6.5, 7.6).
    Query,
}

/// The result of 走子檢查 (6.4, 7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    /// Announcement and board agree.
    Agree,
    /// (a) legal announcement, different board move: correct the board on the mover's time.
    A,
    /// (b) illegal announcement, legal board move of the announced piece: the board stands,
    /// announce again, one 記錄違例.
    B,
    /// (c) illegal announcement, board move of another piece or illegal: restore, one
    /// 技術犯規, another piece may be moved.
    C,
    /// The referee announced: the board move governs (7.4(2)(f)(iii)).
    BoardGoverns,
    /// No announcement required: the board move is checked for legality alone.
    BoardOnly,
    /// After a pause the move differs from the sealed move (125): restore, 技術犯規.
    SealedMoveBroken,
    /// The referee ruled which move stands (overriding the check).
    RefereeRuling,
    /// Check (a) done: the board now shows the announced move (or the referee confirmed it).
    Corrected,
}

/// Why the referee is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefereeCall {
    /// A move must be announced for a player (6.3(7), 7.4(2)(c)-(d)).
    AnnounceFor,
    /// A board differs from the game (7.4(2)(g)(iv)).
    BoardDivergence,
    /// A board correction is pending (check (a)).
    CorrectionPending,
    /// A repetition warning is due (121(2)).
    RepetitionWarning,
    /// A result must be verified orally (6.8, 7.9).
    VerifyResult,
    /// A draw offer must happen in the referee's presence (123(2)(a)).
    DrawOffer,
    /// A board move that was not made with the touched piece (32, 44).
    TouchedPiece,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// 紅方勝.
    RedWins,
    /// 黑方勝.
    BlackWins,
    /// 和局.
    Draw,
    /// 雙負 (70(5)).
    BothLose,
}
