//! Why things happen, typed: how a game ended ([`EndCause`]), why a violation was recorded
//! ([`ViolationReason`]) or taken off ([`Removal`]), what 走子檢查 compared
//! ([`CheckFinding`]), why an announced move is illegal ([`Illegality`]), how an offer was
//! declined ([`Decline`]) and a card moved ([`CardMove`]), why a game is paused
//! ([`PauseReason`]). Clients say them in their reader's language; nothing here is text.

use baoqi_grammar::Word;
use baoqi_rules::{EndReason, Move, Pattern, Point};
use serde::{Deserialize, Serialize};

use crate::command::{Side, ViolationKind};

/// Why a game ended. JSON: `{"cause": "timeout", "loser": "black"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum EndCause {
    /// By the board alone: 將死 (65(1)), 困斃 (65(2)), 正和 (66(1)), 自然限着 (66(2)).
    Board {
        /// Which ending.
        reason: EndReason,
    },
    /// 犯禁 (65(3)): the warned side went on with its forbidden pattern.
    Forbidden {
        /// Who loses.
        offender: Side,
        /// 長將 or 長捉.
        pattern: Pattern,
    },
    /// 相同犯禁 (66(3)).
    MutualForbidden,
    /// 一般循環和局 (66(4)).
    CycleDraw,
    /// 官和 (67).
    OfficialDraw,
    /// 超時 (71(1)).
    Timeout {
        /// Whose flag fell.
        loser: Side,
    },
    /// A violation tally reached its limit (70(4), 127).
    ViolationLimit {
        /// Who loses.
        loser: Side,
        /// Which tally.
        kind: ViolationKind,
        /// The tally reached.
        count: u32,
    },
    /// 認負 (69(1)), by word or by handing the resignation card (7.1(2)).
    Resigned {
        /// Who resigned.
        loser: Side,
        /// By card.
        card: bool,
    },
    /// A draw offer accepted (69(2)(e)), by word or by exchanging cards (7.1(2)).
    DrawAgreed {
        /// By cards.
        card: bool,
    },
    /// Adjudicated by the referee (70(1), 70(3), 70(5), 71(2), …), in the referee's words.
    Adjudicated {
        /// What the referee gave as the reason.
        reason: String,
    },
}

impl EndCause {
    /// Why the game ended in the words of the rule text, for the documents of the game (the
    /// scoresheet, the PGN's Termination, the results table); clients word it themselves.
    pub fn rule_text(&self) -> String {
        let side = |s: Side| format!("{}方", s.chinese());
        match self {
            EndCause::Board { reason } => reason.chinese().to_string(),
            EndCause::Forbidden { offender, pattern } => {
                format!("{}{}犯禁", side(*offender), pattern.chinese())
            }
            EndCause::MutualForbidden => "相同犯禁".into(),
            EndCause::CycleDraw => "一般循環和局".into(),
            EndCause::OfficialDraw => "官和".into(),
            EndCause::Timeout { loser } => format!("{}超時", side(*loser)),
            EndCause::ViolationLimit { loser, kind, count } => {
                format!("{}{}達 {count} 次上限", side(*loser), kind.chinese())
            }
            EndCause::Resigned { loser, card: false } => format!("{}認負", side(*loser)),
            EndCause::Resigned { loser, card: true } => format!("{}交出認負卡", side(*loser)),
            EndCause::DrawAgreed { card: false } => "雙方同意議和".into(),
            EndCause::DrawAgreed { card: true } => "雙方交換提和卡議和".into(),
            EndCause::Adjudicated { reason } => format!("裁判裁決：{reason}"),
        }
    }
}

/// What was still owed when the clock was pressed (6.3(3), 7.4(2)(b)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owed {
    /// The move on the board (走子).
    Move,
    /// The announcement (報棋).
    Announcement,
    /// The repeat (複讀) of the opponent's move or of the referee's words.
    Repeat,
}

/// Why a violation was recorded (126). JSON: `{"reason": "pressed_early", "missing":
/// ["announcement"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ViolationReason {
    /// The clock was pressed before the move, the announcement or the repeat was complete
    /// (6.3(3), 7.4(2)(b)).
    PressedEarly {
        /// What was missing.
        missing: Vec<Owed>,
    },
    /// The clock was pressed before the move that stands was announced again (6.4(b)).
    PressedBeforeReannouncing,
    /// The clock was pressed before the board was corrected to the announcement (6.4(a)).
    PressedBeforeCorrecting,
    /// The announcement was illegal (6.4(b): a 記錄違例; 6.4(c): a 技術犯規).
    IllegalAnnouncement {
        /// The words announced.
        words: Vec<Word>,
    },
    /// The new announcement does not name the move that stands (6.4(b), 126(4)).
    WrongReannouncement {
        /// The words announced.
        words: [Word; 4],
        /// The move that stands.
        stands: Move,
    },
    /// The 續着方 did not play the sealed move (125).
    SealedMoveNotPlayed {
        /// The sealed move.
        sealed: Move,
    },
    /// A second draw offer before the opponent's material changed (69(2)(c)(ii), 123(2)(c)).
    ConsecutiveDrawOffer,
    /// Recorded by the referee (126), with the referee's note (may be empty).
    Referee {
        /// The referee's words.
        note: String,
    },
}

/// Why a violation was taken off a tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// A technical foul of the same turn absorbs the clock-press violations (126(3)).
    AbsorbedByFoul,
    /// The referee rescinded it.
    Rescinded,
}

/// Why a move cannot be played in the position: an announced one stays binding and goes to
/// 走子檢查 (6.3, 7.4(2)); one the referee gives is refused. JSON: `{"illegal": "self_check", "mv": "h2h9"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "illegal", rename_all = "snake_case")]
pub enum Illegality {
    /// The piece cannot go there here: blocked, or out of its area (第5章).
    Blocked {
        /// The move the words designate.
        mv: Move,
    },
    /// The move would leave or put the mover's general in check, or make the generals face
    /// (第30條).
    SelfCheck {
        /// The move the words designate.
        mv: Move,
    },
    /// The words name no single move here (several pieces could make it).
    Unresolved,
    /// There is no piece on the point the move starts from.
    NoPiece {
        /// The point.
        point: Point,
    },
    /// The piece on that point is the other side's.
    NotYours {
        /// The point.
        point: Point,
    },
}

/// A complete, binding announcement (後兩字落子無悔).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Announcement {
    /// The four words.
    pub words: [Word; 4],
    /// The move they name, when legal.
    pub mv: Option<Move>,
    /// Why it is illegal, when it is.
    pub illegal: Option<Illegality>,
    /// The point of the announced piece (頭兩字摸子走子), when the first two words named one.
    pub from: Option<Point>,
}

/// What 走子檢查 compared (6.4, 7.5): the announcement and the board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckFinding {
    /// What was announced, if anything.
    pub announced: Option<Announcement>,
    /// The move the board shows, if a board is used.
    pub board: Option<Move>,
    /// The board move in the mover's words, when it is a legal move.
    pub board_words: Option<[Word; 4]>,
}

/// How a draw offer was declined (69(2)(c)-(d), 7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decline {
    /// Declined by word.
    Declined,
    /// The offered draw card was returned (7.1(2)).
    CardReturned,
    /// The opponent touched a piece without answering (69(2)(d)).
    TouchedPiece,
}

/// How a card changed hands (7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardMove {
    /// Handed to the opponent (an offer, or a resignation).
    Handed,
    /// Returned to its owner (a declined offer).
    Returned,
    /// Given in exchange for the opponent's draw card (an accepted offer).
    Exchanged,
}

/// Why a game is paused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// The referee adjourned it (103): the side to move seals a move on its own time.
    #[default]
    Adjournment,
    /// The server restarted: both clocks stand until the referee resumes; no seal is owed.
    ServerRestart,
}

/// Which alert a threshold is (6.6(2), 7.7(2)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Threshold {
    /// A fixed time left (15 min, 10 s, …).
    #[default]
    Fixed,
    /// Half of the side's time (6.6(2)(a)).
    Half,
}

/// One step on a physical board, as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum BoardStep {
    /// A whole move.
    Move {
        /// The move.
        mv: Move,
    },
    /// A piece lifted.
    Lift {
        /// From this point.
        point: Point,
    },
    /// The lifted piece placed.
    Place {
        /// On this point.
        point: Point,
    },
    /// The referee set the board (7.4(2)(g)(iv)).
    Corrected,
}

/// Why another speaks a side's move for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnouncedFor {
    /// A deaf player moves, signals, and the referee or his proxy announces (7.4(2)(d)).
    Deaf,
    /// 共融賽 without notation: the player moves first, the referee announces, the player
    /// repeats (7.4(2)(c)).
    MovesFirst,
    /// 視障賽 without notation: the referee announces first, the player repeats (6.3(7)).
    RefereeFirst,
}
