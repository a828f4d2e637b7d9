//! What the table sends the arbiter: [`Command`]s from a [`Seat`] at an instant ([`Millis`]).

use std::fmt;

use baoqi_rules::{Move, Point, WarningKind};
use serde::{Deserialize, Serialize};

use crate::article::Article;
use crate::config::BoardId;
use crate::reasons::PauseReason;

/// Milliseconds on a monotonic timeline chosen by the caller (e.g. since the server started
/// the match). No clock is ever read inside the arbiter, so commands can be stored and
/// replayed.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// `self - earlier`, or 0 when `earlier` is later.
    pub const fn since(self, earlier: Millis) -> u64 {
        self.0.saturating_sub(earlier.0)
    }

    /// `self + ms`.
    #[must_use]
    pub const fn plus(self, ms: u64) -> Millis {
        Millis(self.0.saturating_add(ms))
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

/// A side: the rules' [`baoqi_rules::Color`], JSON `"red"` / `"black"`.
pub use baoqi_rules::Color as Side;

/// Who sends a command. The server authenticates the seat; the arbiter checks that the seat
/// may do what it asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The red player.
    Red,
    /// The black player.
    Black,
    /// Red's proxy (代理 / 助手), when named in the configuration.
    RedProxy,
    /// Black's proxy.
    BlackProxy,
    /// The supervising referee (監局裁判).
    Referee,
}

impl Seat {
    /// The side a player or proxy seat belongs to; `None` for the referee.
    pub const fn side(self) -> Option<Side> {
        match self {
            Seat::Red | Seat::RedProxy => Some(Side::Red),
            Seat::Black | Seat::BlackProxy => Some(Side::Black),
            Seat::Referee => None,
        }
    }

    /// Whether this is a proxy seat.
    pub const fn is_proxy(self) -> bool {
        matches!(self, Seat::RedProxy | Seat::BlackProxy)
    }

    /// The player seat of a side.
    pub const fn player(side: Side) -> Seat {
        match side {
            Side::Red => Seat::Red,
            Side::Black => Seat::Black,
        }
    }
}

/// The two cards of each side (7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// 提和卡.
    Draw,
    /// 認負卡.
    Resign,
}

/// The three violation records of 126(1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// 技術犯規 (126(1)(c)).
    Technical,
    /// 違反記錄規則 / 記錄違例 (126(1)(b)).
    Recording,
    /// 違反按棋鐘規則 (126(1)(a)).
    Clock,
}

impl ViolationKind {
    /// The name in the rule text.
    pub const fn chinese(self) -> &'static str {
        match self {
            ViolationKind::Technical => "技術犯規",
            ViolationKind::Recording => "違反記錄規則",
            ViolationKind::Clock => "違反按棋鐘規則",
        }
    }
}

/// A referee's adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum Adjudication {
    /// 官和 (67, 122): only when both players agreed to 第67條 (64(2)).
    OfficialDraw,
    /// Any other result the referee rules (70(1) 強制認負, 70(3) 強制和棋, 70(5) 雙負, 71(2)…):
    /// the winner (`None` for a draw), the reason and the article.
    Result {
        /// The winning side, or `None` for a draw.
        winner: Option<Side>,
        /// Both sides lose (雙負, 70(5)).
        #[serde(default)]
        both_lose: bool,
        /// Why, in the referee's words.
        reason: String,
        /// The article, e.g. `70(1)`.
        article: Article,
    },
}

/// One thing a seat does at the table. Serialised with a `type` field in snake case:
/// `{"type": "word", "text": "炮"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Lets time pass: fires alerts and the flag fall due by `now`. Any seat; never refused.
    Tick,
    /// Starts the clocks (95(3)-(4)): the referee, or black's seat pressing the clock.
    Start,
    /// One announced word (報棋, 附表七 6.3, 7.4(2)) from a player, a proxy or the referee.
    Word {
        /// The word: a character (`炮`, `二`, `平`) or any form the grammar reads.
        text: String,
    },
    /// One word of a repeat: of the opponent's announcement (mirroring, 7.4(2)(g)(ii)) or of
    /// the referee's announcement for a player who does not know notation (6.3(7), 7.4(2)(c)).
    RepeatWord {
        /// The word.
        text: String,
    },
    /// Confirms the opponent's announcement on a card UI instead of repeating it aloud.
    ConfirmRepeat,
    /// A deaf player signals that the move is made and asks for it to be announced (7.4(2)(d)).
    Signal,
    /// A whole move on a board (sensor board or a report), ICCS `h2e2`.
    BoardMove {
        /// The board; default the seat's own.
        #[serde(default)]
        board: Option<BoardId>,
        /// The move.
        mv: Move,
    },
    /// A piece lifted from a point of a board.
    Lift {
        /// The board; default the seat's own.
        #[serde(default)]
        board: Option<BoardId>,
        /// The point (`h2`).
        point: Point,
    },
    /// The lifted piece placed on a point (capturing what stood there).
    Place {
        /// The board; default the seat's own.
        #[serde(default)]
        board: Option<BoardId>,
        /// The point.
        point: Point,
    },
    /// A clock press (按鐘).
    PressClock,
    /// Asks for both times (6.5, 7.6).
    QueryTime,
    /// Offers a draw in one's own turn (69(2)(b)).
    OfferDraw,
    /// Accepts the opponent's draw offer (69(2)(e)).
    AcceptDraw,
    /// Declines the opponent's draw offer (69(2)(c)).
    DeclineDraw,
    /// Resigns (69(1)).
    Resign,
    /// Hands one's card to the opponent (7.1(2)): a draw card offers, a resignation card
    /// resigns at once.
    HandCard {
        /// Which card.
        card: Card,
    },
    /// Returns the opponent's draw card: declines (7.1(2)).
    ReturnCard,
    /// Hands one's own draw card in exchange for the opponent's: accepts (7.1(2)).
    ExchangeCards,
    /// Referee: confirms the pending board correction of check (a) as done.
    ConfirmCheck,
    /// Referee: overrides the pending check and rules that `mv` (legal) is played.
    OverrideCheck {
        /// The move that stands.
        mv: Move,
    },
    /// Referee: corrects a board to a placement (FEN board part) (7.4(2)(g)(iv)).
    CorrectBoard {
        /// The board.
        board: BoardId,
        /// FEN placement, e.g. `rnbakabnr/9/...`; the side to move part may be omitted.
        placement: String,
    },
    /// Referee: records a violation (126).
    RecordViolation {
        /// The offending side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
        /// Why.
        #[serde(default)]
        note: String,
    },
    /// Referee: takes back the last violation of a kind (a ruling corrected).
    RescindViolation {
        /// The side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
    },
    /// Referee: gives a warning: a due 61 repetition warning (121(2)), or 口頭警告 in the
    /// referee's words (128(1)(a)).
    IssueWarning {
        /// The side warned; `None` for both.
        #[serde(default)]
        side: Option<Side>,
        /// The 61 warning given, when it is one (its words are those of 第61條).
        #[serde(default)]
        repetition: Option<WarningKind>,
        /// The referee's words (may be empty for a 61 warning).
        #[serde(default)]
        text: String,
    },
    /// Referee: ends the game by adjudication.
    Adjudicate {
        /// The ruling.
        #[serde(flatten)]
        ruling: Adjudication,
    },
    /// Referee: records the oral verification of the result (6.8, 7.9).
    VerifyResult {
        /// What was said.
        #[serde(default)]
        note: String,
    },
    /// Pauses the game. By the referee, an adjournment (103): the side to move must then
    /// seal a move. By the server after a restart: both clocks stop, no seal is owed.
    Pause {
        /// Why (default: an adjournment).
        #[serde(default)]
        reason: PauseReason,
    },
    /// The 續着方 (or the referee writing for him) seals the 繼續着法 (103(1)(a)-(b)).
    SealMove {
        /// The sealed move; must be legal.
        mv: Move,
    },
    /// Referee: resumes the game (104(a)).
    Resume,
}

/// A command with its seat and instant: one line of a script, one row of the store.
/// JSON: `{"at": 1500, "seat": "red", "type": "word", "text": "炮"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamped {
    /// When.
    pub at: Millis,
    /// Who.
    pub seat: Seat,
    /// What.
    #[serde(flatten)]
    pub command: Command,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command survives a JSON round trip as a script line (flattened, tagged).
    #[test]
    fn stamped_commands_round_trip_through_json() {
        let all = vec![
            Command::Tick,
            Command::Start,
            Command::Word { text: "炮".into() },
            Command::RepeatWord { text: "二".into() },
            Command::ConfirmRepeat,
            Command::Signal,
            Command::BoardMove {
                board: Some(BoardId::Vi),
                mv: "h2e2".parse().unwrap(),
            },
            Command::Lift {
                board: None,
                point: "h2".parse().unwrap(),
            },
            Command::Place {
                board: Some(BoardId::Regular),
                point: "e2".parse().unwrap(),
            },
            Command::PressClock,
            Command::QueryTime,
            Command::OfferDraw,
            Command::AcceptDraw,
            Command::DeclineDraw,
            Command::Resign,
            Command::HandCard { card: Card::Resign },
            Command::ReturnCard,
            Command::ExchangeCards,
            Command::ConfirmCheck,
            Command::OverrideCheck {
                mv: "h2e2".parse().unwrap(),
            },
            Command::CorrectBoard {
                board: BoardId::Vi,
                placement: "9/9/9/9/9/9/9/9/9/9".into(),
            },
            Command::RecordViolation {
                side: Side::Red,
                kind: ViolationKind::Clock,
                note: "n".into(),
            },
            Command::RescindViolation {
                side: Side::Black,
                kind: ViolationKind::Technical,
            },
            Command::IssueWarning {
                side: None,
                repetition: None,
                text: "警告".into(),
            },
            Command::IssueWarning {
                side: Some(Side::Red),
                repetition: Some(WarningKind::Ordinary),
                text: String::new(),
            },
            Command::Adjudicate {
                ruling: Adjudication::OfficialDraw,
            },
            Command::Adjudicate {
                ruling: Adjudication::Result {
                    winner: Some(Side::Red),
                    both_lose: false,
                    reason: "強制認負".into(),
                    article: Article::of("70(1)"),
                },
            },
            Command::VerifyResult {
                note: String::new(),
            },
            Command::Pause {
                reason: PauseReason::Adjournment,
            },
            Command::Pause {
                reason: PauseReason::ServerRestart,
            },
            Command::SealMove {
                mv: "h2e2".parse().unwrap(),
            },
            Command::Resume,
        ];
        for command in all {
            let s = Stamped {
                at: Millis(1500),
                seat: Seat::Referee,
                command,
            };
            let json = serde_json::to_string(&s).unwrap();
            assert!(
                json.starts_with("{\"at\":1500,\"seat\":\"referee\",\"type\":"),
                "{json}"
            );
            let back: Stamped = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s, "{json}");
        }
    }
}
