//! [`Event`]: what happened, the single source of truth, typed end to end: moves are
//! [`Move`]s, points [`Point`]s, words [`Word`]s, articles [`Article`]s, reasons enums
//! ([`crate::EndCause`], [`crate::ViolationReason`], …). Clients render and speak events in
//! their reader's language without re-deriving rules or reading text back;
//! [`crate::Match::from_events`] rebuilds the match from them.

use baoqi_grammar::{Unspeakable, Word};
use baoqi_rules::{Kind, Move, Point, WarningKind};
use serde::{Deserialize, Serialize};

use crate::article::Article;
use crate::command::{Card, Millis, Seat, Side, ViolationKind};
use crate::config::BoardId;
use crate::reasons::{
    Announcement, BoardStep, CardMove, CheckFinding, Decline, EndCause, PauseReason, Removal,
    Threshold, ViolationReason,
};
use crate::view::InHand;
pub use crate::vocab::{
    Audience, CheckOutcome, ClockView, MoveView, Outcome, RefereeCall, ReportReason, SideTime,
    Speaker,
};

/// Everything that happens in a match. Serialised with a `type` field in snake case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The clocks started (95(3)); red to move.
    Started {
        /// When.
        at: Millis,
        /// The clock.
        clock: ClockView,
    },
    /// A turn begins: `side` is to move (or, after check (b), still owes the announcement).
    Turn {
        /// The side to move.
        side: Side,
        /// The ply of the move to be made (1 for the first).
        ply: usize,
    },
    /// The clock state changed (press, pause, correction, timeout). Clients keep the last.
    Clock {
        /// The clock.
        clock: ClockView,
    },
    /// One announced word, with the prefix state after it (附表七 6.3, 7.4(2)).
    Word {
        /// Whose announcement.
        side: Side,
        /// Who spoke.
        by: Speaker,
        /// When.
        at: Millis,
        /// The text as given (a key, a character, a typed form).
        text: String,
        /// The word it is (`None` when the text is no word of the notation).
        word: Option<Word>,
        /// The attempt (0, 1, …; a new one after an impossible prefix).
        attempt: usize,
        /// Its place 0..4 in the attempt.
        slot: usize,
        /// Whether the words so far can still be a move.
        possible: bool,
        /// Why not, when not.
        why: Option<Unspeakable>,
        /// How many four-word designations remain.
        completions: usize,
        /// The words that may come next.
        next: Vec<Word>,
    },
    /// The first two words touched a piece (頭兩字摸子走子), or a board lift did (31).
    Touched {
        /// Whose piece.
        side: Side,
        /// Where.
        point: Point,
        /// Which kind of piece.
        kind: Kind,
        /// Whether it has a legal move (if not, the touch binds nothing, 31(1), 45).
        can_move: bool,
    },
    /// The words so far cannot be any move: the player may correct (6.3(6)(b), 7.4(2)(f)(ii)).
    Impossible {
        /// Whose announcement.
        side: Side,
        /// The words of the failed attempt that were words.
        words: Vec<Word>,
        /// Why.
        why: Unspeakable,
    },
    /// Four words complete and binding (後兩字落子無悔).
    Announced {
        /// Whose move.
        side: Side,
        /// Who spoke.
        by: Speaker,
        /// The announcement.
        #[serde(flatten)]
        announcement: Announcement,
    },
    /// A repeat word (mirroring or after the referee).
    Repeated {
        /// Who repeats.
        side: Side,
        /// When.
        at: Millis,
        /// The text as given (empty for a card UI's confirmation).
        text: String,
        /// The word it is, if any.
        word: Option<Word>,
        /// Whether the repeat is now complete and right.
        done: bool,
        /// Whether the word differs from what is to be repeated (the repeat restarts).
        mismatch: bool,
    },
    /// A repeat is required from a side.
    RepeatDue {
        /// Who must repeat.
        side: Side,
        /// The words to repeat.
        words: [Word; 4],
        /// Whose move the words are: the opponent's when mirroring, else the side's own.
        mover: Side,
        /// The article.
        article: Article,
        /// Whether the words are the opponent's move, repeated to mirror it on the side's own
        /// board (7.4(2)(g)(ii)); else they are the referee's announcement of the side's own
        /// move (6.3(7), 7.4(2)(c)).
        mirror: bool,
    },
    /// A deaf player signalled that the move is made (7.4(2)(d)).
    Signalled {
        /// The side.
        side: Side,
    },
    /// A board's placement changed.
    Board {
        /// Which board.
        board: BoardId,
        /// Who operated it.
        by: Seat,
        /// The step.
        step: BoardStep,
        /// The placement (FEN board part).
        placement: String,
        /// Pieces in hand (lifted, not placed).
        hand: Vec<InHand>,
    },
    /// A board differs from the game (7.4(2)(g)(iv)); open until [`Event::BoardAgrees`].
    BoardDiverges {
        /// Which board.
        board: BoardId,
        /// The game's placement.
        expected: String,
        /// The board's.
        found: String,
        /// Points that differ.
        points: Vec<Point>,
    },
    /// A diverging board agrees with the game again.
    BoardAgrees {
        /// Which board.
        board: BoardId,
    },
    /// A clock press was accepted.
    Pressed {
        /// Whose press.
        side: Side,
        /// Who pressed.
        by: Seat,
        /// When.
        at: Millis,
    },
    /// The result of 走子檢查.
    Checked {
        /// The mover.
        side: Side,
        /// The outcome.
        outcome: CheckOutcome,
        /// What was compared.
        #[serde(flatten)]
        finding: CheckFinding,
        /// The articles the outcome follows.
        articles: Vec<Article>,
    },
    /// A violation recorded, with the tally (126–127).
    Violation {
        /// The side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
        /// Whether it counted (several technical fouls in one turn count once, 126(2); a
        /// technical foul absorbs the clock-press violations of its turn, 126(3)).
        counted: bool,
        /// The tally after it.
        count: u32,
        /// The limit (0: none).
        limit: u32,
        /// Why.
        #[serde(flatten)]
        reason: ViolationReason,
        /// The articles.
        articles: Vec<Article>,
    },
    /// A violation taken off the tally.
    ViolationRemoved {
        /// The side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
        /// The tally after it.
        count: u32,
        /// Why.
        why: Removal,
    },
    /// A move is on the game record.
    Moved {
        /// Who moved.
        side: Side,
        /// The ply (1 for the first move).
        ply: usize,
        /// When.
        at: Millis,
        /// The move.
        mv: MoveView,
        /// The position after it (FEN).
        fen: String,
        /// The clock after the move (附表四 3(12)).
        clock_ms: u64,
        /// Who announced it, if announced.
        by: Option<Speaker>,
    },
    /// The board must be put back (check (c), 125): the mover moves again.
    RestoreRequired {
        /// The mover.
        side: Side,
        /// The move to take back.
        mv: Option<Move>,
    },
    /// The board must be corrected to the announcement on the mover's time (check (a)).
    CorrectionRequired {
        /// The mover.
        side: Side,
        /// The announced move, which the board must show.
        mv: Move,
        /// The words announced.
        words: [Word; 4],
    },
    /// The mover must announce the move again (check (b)).
    ReannounceRequired {
        /// The mover.
        side: Side,
        /// The move that stands.
        mv: Move,
        /// Its words, which are to be announced.
        words: [Word; 4],
    },
    /// A time alert (6.6, 7.7): the triggering side's time first.
    TimeAlert {
        /// The side whose clock crossed the threshold.
        side: Side,
        /// The threshold, ms.
        threshold_ms: u64,
        /// A fixed threshold or half time.
        threshold: Threshold,
        /// The true instant of the crossing.
        at: Millis,
        /// The triggering side's time, then the other's.
        times: [SideTime; 2],
        /// Who hears it.
        audience: Audience,
    },
    /// Both times, in the order of the part (6.5(2), 7.6(2)) or of the talking clock.
    TimeReport {
        /// Why.
        reason: ReportReason,
        /// Who asked (queries).
        by: Option<Seat>,
        /// When.
        at: Millis,
        /// The two times, the first to be said first.
        times: [SideTime; 2],
    },
    /// A draw offer made (69(2)(b)); valid once the offering turn ends.
    DrawOffered {
        /// The offering side.
        side: Side,
        /// By card (7.1(2)) or by voice.
        card: bool,
    },
    /// The offer is now valid (the offering turn ended).
    DrawOfferStands {
        /// The offering side.
        side: Side,
    },
    /// A draw offer declined (69(2)(c)-(d)).
    DrawDeclined {
        /// The declining side.
        side: Side,
        /// How.
        how: Decline,
    },
    /// A card handed, returned or exchanged (7.1(2)); shown to the deaf player, spoken to a VI one.
    CardMoved {
        /// Whose card.
        owner: Side,
        /// Which card.
        card: Card,
        /// Now in the hand of.
        holder: Side,
        /// How.
        how: CardMove,
    },
    /// A repetition warning of 第61條 (or 62) is due: the referee gives it (121(2)).
    RepetitionWarning {
        /// The ply of the 警誡盤面.
        ply: usize,
        /// Which warning (its words are those of 第61條).
        warning: WarningKind,
        /// `61(1)`, `61(2)`, `61(3)` or `62`.
        article: Article,
        /// The sides warned.
        warned: Vec<Side>,
    },
    /// The referee gave a warning: a due 61 warning, or a warning in the referee's words
    /// (口頭警告, 128(1)(a)).
    WarningIssued {
        /// The side warned (`None`: both).
        side: Option<Side>,
        /// The 61 warning given, when it is one.
        repetition: Option<WarningKind>,
        /// The referee's words (empty when the warning is a 61 warning said as written).
        text: String,
    },
    /// The referee is needed.
    RefereeNeeded {
        /// Why.
        call: RefereeCall,
        /// The side concerned, if one.
        side: Option<Side>,
    },
    /// The game was paused.
    Paused {
        /// When.
        at: Millis,
        /// The side to move (the 續着方 of an adjournment).
        side: Side,
        /// Why: an adjournment (103) or a server restart.
        reason: PauseReason,
    },
    /// The sealed move (續着記錄), for the referee only (103(1)(b)).
    Sealed {
        /// The 續着方.
        side: Side,
        /// The move.
        mv: Move,
    },
    /// The game resumed (104).
    Resumed {
        /// When.
        at: Millis,
    },
    /// The game is over.
    GameOver {
        /// The result.
        outcome: Outcome,
        /// Why.
        #[serde(flatten)]
        cause: EndCause,
        /// The articles.
        articles: Vec<Article>,
        /// When.
        at: Millis,
    },
    /// The referee recorded the oral verification of the result (6.8, 7.9).
    ResultVerified {
        /// What was said.
        note: String,
        /// When.
        at: Millis,
    },
}

impl Event {
    /// Who the event is for: a function of the event alone, so that it holds for a stored
    /// event too. The sealed move is for the referee only (103(1)(b)).
    pub fn audience(&self) -> Audience {
        match self {
            Event::TimeAlert { audience, .. } => *audience,
            Event::Sealed { .. } => Audience::Referee,
            _ => Audience::All,
        }
    }
}
