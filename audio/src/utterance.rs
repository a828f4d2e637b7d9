//! What there is to say, as pure data with slots: [`Utterance`]. The phrasebook
//! (`phrases/data/phrases.toml`, [`crate::phrasebook`]) turns each into words; the speech queue
//! ([`crate::queue`]) orders them by [`Urgency`].
//!
//! The arbiter's events are mapped to utterances in [`crate::from_event`]; this module does
//! not depend on the arbiter.

use std::time::Duration;

use baoqi_grammar::Word;
use baoqi_rules::{Color, EndReason, Pattern, Piece, WarningKind};

use crate::notice::Notice;
use crate::queue::Topic;

/// Which outcome of 走子檢查 (附表七 6.4 / 7.5) the referee or server found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckOutcome {
    /// (a): the announcement is legal, the board move differs: correct the board to the
    /// announcement, on the mover's time.
    CorrectBoard,
    /// (b): the announcement is illegal, the board move is a legal move of the announced
    /// piece: the board move stands, announce again (one 記錄違例).
    AnnounceAgain,
    /// (c): announcement illegal and the board move a legal move of another piece: the
    /// position is restored, another piece may be moved (one 技術犯規).
    RestoreOtherPiece,
    /// (c): announcement illegal and the board move illegal too: restored, as above.
    RestoreIllegalMove,
    /// The move after a pause is not the sealed move (125): restored (one 技術犯規).
    SealedMoveBroken,
    /// (a) done: the board now shows the announced move, and the move is complete (the
    /// player must not press again: the turn has passed).
    Corrected,
}

/// Something owed before the clock may be pressed (6.3(3), 7.4(2)(b)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Missing {
    /// The move on the board (走子).
    Move,
    /// The announcement (報棋).
    Announcement,
    /// The repeat (複讀).
    Repeat,
}

/// Why a violation was recorded (126), as the player is told.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Because {
    /// The clock was pressed with these still owed (6.3(3)).
    PressedEarly(Vec<Missing>),
    /// Pressed before announcing again the move that stands (6.4(b)).
    PressedBeforeReannouncing,
    /// Pressed before correcting the board to the announcement (6.4(a)).
    PressedBeforeCorrecting,
    /// The announcement was illegal (6.4(b), (c)).
    IllegalAnnouncement(Vec<Word>),
    /// The new announcement does not name the move that stands (6.4(b)).
    WrongReannouncement(Vec<Word>),
    /// The sealed move was not played (125).
    SealedMoveNotPlayed,
    /// A draw offered again before the opponent's material changed (69(2)(c)(ii)).
    ConsecutiveDrawOffer,
    /// The referee's ruling, with the referee's note (may be empty).
    Referee(String),
}

/// Whom a referee's warning is for, as the listener hears it (128(1)(a)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Warned {
    /// The listener.
    You,
    /// The listener's opponent.
    Opponent,
    /// Both players.
    Both,
}

/// How a draw offer was declined (69(2)(c)-(d), 7.1(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declined {
    /// By word or key.
    Said,
    /// The draw card was handed back (7.1(2)).
    CardReturned,
    /// The offered side touched a piece without answering (69(2)(d)).
    Touched,
}

/// Why the game is paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PauseWhy {
    /// The referee adjourned the game (103): the side to move seals a move.
    Adjournment,
    /// The server restarted: both clocks stopped, nothing is sealed.
    ServerRestart,
}

/// A kind of violation with a tally (126–127).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// 技術犯規.
    Technical,
    /// 記錄違例.
    Recording,
    /// 按鐘違規.
    ClockPress,
}

/// One side's clock, as read out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideTime {
    /// Whose clock.
    pub side: Color,
    /// Time left on it.
    pub left: Duration,
}

/// Why both times are read out; the order of the two sides is fixed by the caller with
/// [`Utterance::times`], after the rule that applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeReason {
    /// An automatic alert (6.6 / 7.7): the triggering side first.
    Alert,
    /// A player asked (6.5 / 7.6).
    Query,
    /// The talking clock after a press (7.1(1)(b)).
    ClockPress,
}

/// Which board a divergence is about (附表七 7.4(2)(g)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// The VI player's special board (視障棋盤).
    Special,
    /// The regular board (正規棋盤).
    Regular,
}

/// Why the referee was called (the referee's screen shows the details; the player hears
/// that the referee is coming and why).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// To announce a move for a player (6.3(7), 7.4(2)(c)-(d)).
    AnnounceFor {
        /// The side announced for, when known.
        side: Option<Color>,
        /// Whether it is the listener.
        you: bool,
    },
    /// To confirm a board correction of check (a) (6.4(a)).
    CorrectionPending,
    /// A repetition warning is due (121(2)).
    RepetitionWarning,
    /// The result is to be verified orally (6.8, 7.9).
    VerifyResult,
    /// A draw offer must be made before the referee (123(2)(a)).
    DrawOffer,
    /// A board move not made with the touched piece (32, 44).
    TouchedPiece,
    /// The referee recorded the oral verification of the result.
    ResultVerified,
}

/// Why a game ended, as it is spoken.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndCause {
    /// By the board alone: 將死, 困斃, 正和, 自然限着.
    Board(EndReason),
    /// 犯禁 (65(3)): the offender went on with a forbidden pattern after the warning.
    Forbidden {
        /// Who loses.
        offender: Color,
        /// 長將 or 長捉.
        pattern: Pattern,
    },
    /// 相同犯禁 (66(3)).
    MutualForbidden,
    /// 一般循環和局 (66(4)).
    CycleDraw,
    /// 官和 (67).
    OfficialDraw,
    /// Out of time (71(1)).
    Timeout {
        /// Whose flag fell.
        loser: Color,
    },
    /// A violation tally reached its limit (70(4)).
    ViolationLimit {
        /// Who loses.
        loser: Color,
        /// Which tally.
        violation: Violation,
        /// The count it reached.
        count: u32,
    },
    /// Resignation (card or word).
    Resignation {
        /// Who resigned.
        loser: Color,
        /// By handing over the resignation card (7.1(2)).
        card: bool,
    },
    /// A draw offer accepted.
    DrawAgreed {
        /// By exchanging draw cards (7.1(2)).
        card: bool,
    },
    /// The referee's decision, as he words it (said after 「裁判裁決」).
    Stated(String),
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 紅方勝.
    RedWins,
    /// 黑方勝.
    BlackWins,
    /// 和局.
    Draw,
    /// 雙負 (70(5)).
    BothLose,
}

impl GameResult {
    /// The result in which `winner` wins, or a draw.
    pub const fn of(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::Red) => GameResult::RedWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }
}

/// Something to say to a player, with every slot filled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Utterance {
    /// The echo of one announced word (每一字不得反悔: the player hears what he said).
    Word {
        /// The word.
        word: Word,
        /// Whose word (red and black write numerals differently; both are spoken alike).
        side: Color,
    },
    /// The player's own announcement, complete and binding, read back at once (short form):
    /// every word binds (6.3(6)(a)), so he hears the whole of what he bound himself to.
    ReadBack {
        /// Whose words (red and black write numerals differently).
        side: Color,
        /// The four words.
        words: Vec<Word>,
    },
    /// The first two words named a piece of the player: it is now the touched piece.
    PieceTouched {
        /// The words naming it (e.g. 前 車, 炮 二).
        words: Vec<Word>,
        /// Whose piece.
        side: Color,
    },
    /// The words so far cannot be any move: the player may correct (6.3(6)(b)).
    Impossible {
        /// The words said so far, the impossible one last.
        words: Vec<Word>,
        /// Whose words.
        side: Color,
    },
    /// A whole move, read out (the opponent's, or one's own on request).
    Move {
        /// Who played it.
        side: Color,
        /// Its four words.
        words: Vec<Word>,
        /// The piece it captured.
        captured: Option<Piece>,
        /// Whether it gives check (將軍).
        check: bool,
    },
    /// The listener's own move took a piece or gives check: he is told as his opponent is
    /// (「吃馬，將軍」 for both players).
    YourMove {
        /// The piece taken, if any.
        captured: Option<Piece>,
        /// Whether it gives check.
        check: bool,
    },
    /// The game started (95(3)).
    Started {
        /// Who moves first.
        first: Color,
    },
    /// The outcome of 走子檢查 for `side`'s move, with what was announced and what the
    /// board showed, so that the player knows what to do.
    Check {
        /// Whose move.
        side: Color,
        /// Whether the listener's: said to him in the second person, what he must do first.
        you: bool,
        /// Which outcome.
        outcome: CheckOutcome,
        /// The words announced.
        announced: Vec<Word>,
        /// The board move in the mover's words, when it is a legal move.
        board: Option<Vec<Word>>,
    },
    /// A violation recorded, why, and the tally now and its limit.
    Violation {
        /// Who committed it.
        side: Color,
        /// Whether the listener did: said to him in the second person, the tally first.
        you: bool,
        /// Which kind.
        violation: Violation,
        /// Why.
        because: Because,
        /// The tally including this one.
        count: u32,
        /// The tally that loses the game.
        limit: u32,
    },
    /// Both times, `first` said first.
    Times {
        /// Why they are read.
        reason: TimeReason,
        /// Said first.
        first: SideTime,
        /// Said second.
        second: SideTime,
        /// The listener's side: each time is said as his (你) or his opponent's (對手).
        me: Color,
    },
    /// A repetition warning of 第61條 (or renewed by 第62條), said verbatim.
    Repetition {
        /// Which warning.
        kind: WarningKind,
    },
    /// The opponent offered a draw (draw card handed over, or said).
    DrawOffered {
        /// Who offered.
        by: Color,
    },
    /// A draw offer was accepted.
    DrawAccepted {
        /// Who accepted.
        by: Color,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// Who declined.
        by: Color,
        /// Whether the listener did: said to him in the second person.
        you: bool,
        /// How.
        how: Declined,
    },
    /// A resignation (the card takes effect at once).
    Resigned {
        /// Who resigned.
        by: Color,
    },
    /// A board's reported position differs from the game.
    BoardDiverged {
        /// Which board.
        board: Board,
    },
    /// A board agrees with the game again.
    BoardAgrees {
        /// Which board.
        board: Board,
    },
    /// The game is over.
    GameEnd {
        /// The result.
        result: GameResult,
        /// Why.
        cause: EndCause,
        /// The listener's side: the result is said to him (你勝, 你負) before why.
        me: Color,
    },
    /// A warning in the referee's own words (口頭警告, 128(1)(a)), said as written after
    /// whom it warns (display and both voices get the text).
    Referee {
        /// The referee's words.
        text: String,
        /// Whom it warns, as the listener hears it.
        warned: Warned,
    },
    /// A repeat is owed by the listener: the announcement to repeat (mirroring,
    /// 7.4(2)(g)(ii); after the referee, 6.3(7), 7.4(2)(c)).
    RepeatDue {
        /// Whose move the words name.
        mover: Color,
        /// The four words.
        words: Vec<Word>,
        /// The opponent's move, to be played on the listener's own board first and read
        /// back (7.4(2)(g)(ii)); else the referee's announcement of the listener's own move
        /// (6.3(7), 7.4(2)(c)).
        mirror: bool,
    },
    /// The listener's repeat is complete and right.
    Repeated,
    /// A repeated word differs from the announcement: the repeat starts again.
    RepeatMismatch,
    /// The referee is called.
    RefereeCalled {
        /// Why.
        call: Call,
    },
    /// The game is paused: by the referee (103; `side` seals its move), or by a server
    /// restart (both clocks stopped, nothing sealed).
    Paused {
        /// The side to move (the 續着方 of an adjournment).
        side: Color,
        /// Why.
        why: PauseWhy,
    },
    /// The game goes on (104).
    Resumed,
    /// Said by the table client itself (keypad prompts, query answers, help, refusals).
    Client(Notice),
}

/// How urgently an utterance must be heard; see [`crate::queue`] for the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Urgency {
    /// Readings: times, board queries, help. Never interrupt anything; cut for good by
    /// anything more urgent (asked for again with `.`).
    Reading,
    /// News the player must hear: the opponent's move, a check's outcome, a violation, an
    /// offer. Cuts a Reading; said again from the start when an alert or a key cuts it.
    News,
    /// The prompt after the first key of a two-key sequence (`指令`, `棋子`): an echo that
    /// the next key makes pointless, so a waiting prompt gives way to any newer echo.
    Prompt,
    /// The echo of the player's own key or word: said at once; a newer echo cuts it.
    Echo,
    /// Time alerts, referee messages, repetition warnings, game end: interrupt readings and
    /// echoes, never each other.
    Urgent,
}

impl Utterance {
    /// Both times in the order the rules prescribe:
    /// - alert (6.6(3), 7.7(3)): `lead` is the triggering side;
    /// - query, part 6 (6.5(2)): `lead` is the side to move; part 7 (7.6(2)): the asker;
    /// - talking clock (7.1(1)(b), silent on order): `lead` is the side now to move, as for
    ///   a part-6 query (see `docs/decisions.md`).
    ///
    /// `me` is the listener's side: each time is said as his or his opponent's.
    pub fn times(
        reason: TimeReason,
        lead: Color,
        red: Duration,
        black: Duration,
        me: Color,
    ) -> Utterance {
        let of = |side| SideTime {
            side,
            left: if side == Color::Red { red } else { black },
        };
        Utterance::Times {
            reason,
            first: of(lead),
            second: of(lead.other()),
            me,
        }
    }

    /// How urgently it must be heard.
    pub fn urgency(&self) -> Urgency {
        match self {
            Utterance::Word { .. }
            | Utterance::PieceTouched { .. }
            | Utterance::Impossible { .. }
            | Utterance::Repeated
            | Utterance::RepeatMismatch
            | Utterance::ReadBack { .. } => Urgency::Echo,
            Utterance::Times {
                reason: TimeReason::Alert,
                ..
            }
            | Utterance::Referee { .. }
            | Utterance::Repetition { .. }
            | Utterance::Paused { .. }
            | Utterance::GameEnd { .. } => Urgency::Urgent,
            Utterance::Client(n) => n.urgency(),
            Utterance::Times { .. } | Utterance::BoardAgrees { .. } => Urgency::Reading,
            // The rest is News, the game's start and resumption too (not Urgent: the player
            // starts typing as soon as he hears them, and his echoes must not wait behind
            // them; an echo that cuts one has it said again after).
            _ => Urgency::News,
        }
    }

    /// What it answers, so that a newer answer replaces an older one still waiting.
    pub fn topic(&self) -> Topic {
        match self {
            Utterance::Times {
                reason: TimeReason::Query | TimeReason::ClockPress,
                ..
            } => Topic::Times,
            Utterance::Client(Notice::Pieces(_)) => Topic::Board,
            Utterance::Client(Notice::Help(_)) => Topic::Help,
            Utterance::Client(Notice::Standing(_))
            | Utterance::Started { .. }
            | Utterance::Resumed => Topic::Status,
            Utterance::Move { .. } => Topic::Move,
            _ => Topic::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s7p6_6_3_alert_names_the_triggering_side_first() {
        let u = Utterance::times(
            TimeReason::Alert,
            Color::Black,
            Duration::from_secs(600),
            Duration::from_secs(300),
            Color::Red,
        );
        let Utterance::Times { first, second, .. } = u else {
            panic!("not times")
        };
        assert_eq!((first.side, first.left.as_secs()), (Color::Black, 300));
        assert_eq!((second.side, second.left.as_secs()), (Color::Red, 600));
    }

    #[test]
    fn urgencies_follow_the_queue_policy() {
        let impossible = Utterance::Impossible {
            words: vec![Word::Piece(baoqi_rules::Kind::Horse)],
            side: Color::Red,
        };
        assert_eq!(impossible.urgency(), Urgency::Echo);
        let alert = Utterance::times(
            TimeReason::Alert,
            Color::Red,
            Duration::ZERO,
            Duration::ZERO,
            Color::Red,
        );
        assert_eq!(alert.urgency(), Urgency::Urgent);
        let query = Utterance::times(
            TimeReason::Query,
            Color::Red,
            Duration::ZERO,
            Duration::ZERO,
            Color::Red,
        );
        assert_eq!(query.urgency(), Urgency::Reading);
        assert!(Urgency::Urgent > Urgency::Echo && Urgency::Echo > Urgency::Reading);
    }
}
