//! [`Event`]: what happened, the single source of truth. Clients render and speak events
//! without re-deriving rules; [`crate::Match::from_events`] rebuilds the match from them.

use serde::{Deserialize, Serialize};

use crate::command::{Card, Millis, Seat, Side, ViolationKind};
use crate::config::BoardId;
pub use crate::vocab::{
    Audience, CheckOutcome, ClockView, MoveView, Outcome, RefereeCall, ReportReason, SideTime,
    Speaker, Spoken,
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
    /// One announced word, with the prefix state after it (SPEC §5).
    Word {
        /// Whose announcement.
        side: Side,
        /// Who spoke.
        by: Speaker,
        /// When.
        at: Millis,
        /// The text given.
        text: String,
        /// The word as the side writes it, shown and spoken in Cantonese (`None` when the
        /// text is no word of the notation).
        word: Option<Spoken>,
        /// The same word spoken in Mandarin.
        #[serde(default)]
        cmn: Option<Spoken>,
        /// The attempt (0, 1, …; a new one after an impossible prefix).
        attempt: usize,
        /// Its place 0..4 in the attempt.
        slot: usize,
        /// Whether the words so far can still be a move.
        possible: bool,
        /// Why not (empty when possible).
        why: String,
        /// How many four-word designations remain.
        completions: usize,
        /// The words that may come next.
        next: Vec<String>,
    },
    /// The first two words touched a piece (頭兩字摸子走子), or a board lift did (31).
    Touched {
        /// Whose piece.
        side: Side,
        /// Where (ICCS).
        point: String,
        /// The piece, e.g. `炮`.
        piece: String,
        /// Whether it has a legal move (if not, the touch binds nothing, 31(1), 45).
        can_move: bool,
    },
    /// The words so far cannot be any move: the player may correct (6.3(6)(b), 7.4(2)(f)(ii)).
    Impossible {
        /// Whose announcement.
        side: Side,
        /// The words of the failed attempt.
        words: String,
        /// Why.
        why: String,
    },
    /// Four words complete and binding (後兩字落子無悔).
    Announced {
        /// Whose move.
        side: Side,
        /// Who spoke.
        by: Speaker,
        /// The four words.
        words: String,
        /// The move, when legal (ICCS).
        mv: Option<String>,
        /// Why it is illegal, when it is.
        illegal: Option<String>,
        /// The point of the announced piece (ICCS).
        point: Option<String>,
    },
    /// A repeat word (mirroring or after the referee).
    Repeated {
        /// Who repeats.
        side: Side,
        /// When.
        at: Millis,
        /// The text.
        text: String,
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
        words: String,
        /// The article.
        article: String,
        /// Whether the words are the opponent's move, repeated to mirror it on the side's own
        /// board (7.4(2)(g)(ii)); else they are the referee's announcement of the side's own
        /// move (6.3(7), 7.4(2)(c)). Absent in logs written before the field (read as `false`;
        /// the arbiter's own fold tells the two apart from the turn).
        #[serde(default)]
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
        /// The step in words (`h2e2`, `lift h2`, `place e2`, `corrected`).
        step: String,
        /// The placement (FEN board part).
        placement: String,
        /// Pieces in hand (lifted, not placed), FEN letters with their points.
        hand: Vec<String>,
    },
    /// A board differs from the game (SPEC §8); open until [`Event::BoardAgrees`].
    BoardDiverges {
        /// Which board.
        board: BoardId,
        /// The game's placement.
        expected: String,
        /// The board's.
        found: String,
        /// Points that differ, ICCS.
        points: Vec<String>,
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
        /// The announced words, if any.
        announced: Option<String>,
        /// The board move, ICCS, if any.
        board_move: Option<String>,
        /// What follows, in words.
        consequence: String,
        /// The article.
        article: String,
    },
    /// A violation recorded, with the tally (126–127).
    Violation {
        /// The side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
        /// Whether it counted (several technical fouls in one turn count once, 126(2)-(3)).
        counted: bool,
        /// The tally after it.
        count: u32,
        /// The limit (0: none).
        limit: u32,
        /// Why.
        reason: String,
        /// The article.
        article: String,
    },
    /// A violation taken off the tally: absorbed by a technical foul of the same turn
    /// (126(3)) or rescinded by the referee.
    ViolationRemoved {
        /// The side.
        side: Side,
        /// Which record.
        kind: ViolationKind,
        /// The tally after it.
        count: u32,
        /// Why.
        reason: String,
    },
    /// A move is on the game record.
    Moved {
        /// Who moved.
        side: Side,
        /// The ply (1 for the first move).
        ply: usize,
        /// When.
        at: Millis,
        /// The move in every notation.
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
        /// The move to take back, ICCS.
        mv: Option<String>,
    },
    /// The board must be corrected to the announcement on the mover's time (check (a)).
    CorrectionRequired {
        /// The mover.
        side: Side,
        /// The announced move, ICCS.
        mv: String,
    },
    /// The mover must announce the move again (check (b)).
    ReannounceRequired {
        /// The mover.
        side: Side,
        /// The move that stands, in every notation.
        mv: String,
    },
    /// A time alert (6.6, 7.7): the triggering side's time first.
    TimeAlert {
        /// The side whose clock crossed the threshold.
        side: Side,
        /// The threshold, ms.
        threshold_ms: u64,
        /// `half` for half time, else empty.
        label: String,
        /// The true instant of the crossing.
        at: Millis,
        /// The triggering side's time, then the other's.
        times: [SideTime; 2],
        /// The words to say, e.g. `紅方尚餘15分鐘，黑方尚餘20分3秒`.
        text: String,
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
        /// The words to say.
        text: String,
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
        /// How: `declined`, `card returned`, `touched a piece` (69(2)(d)).
        how: String,
    },
    /// A card handed, returned or exchanged (7.1(2)); shown to the deaf player, spoken to a VI one.
    CardMoved {
        /// Whose card.
        owner: Side,
        /// Which card.
        card: Card,
        /// Now in the hand of.
        holder: Side,
        /// `handed`, `returned` or `exchanged`.
        how: String,
    },
    /// A repetition warning of 第61條 (or 62) with its exact words.
    RepetitionWarning {
        /// The ply of the 警誡盤面.
        ply: usize,
        /// `61(1)`, `61(2)`, `61(3)` or `62`.
        article: String,
        /// The words, e.g. `紅方長將，紅方不變作負`.
        text: String,
        /// The sides warned.
        warned: Vec<Side>,
    },
    /// The referee gave a warning.
    WarningIssued {
        /// The side warned (`None`: both).
        side: Option<Side>,
        /// The words.
        text: String,
    },
    /// The referee is needed.
    RefereeNeeded {
        /// Why.
        call: RefereeCall,
        /// In words.
        text: String,
    },
    /// The game was paused (103).
    Paused {
        /// When.
        at: Millis,
        /// The 續着方.
        side: Side,
    },
    /// The sealed move (續着記錄), referee only (103(1)(b)).
    Sealed {
        /// The 續着方.
        side: Side,
        /// The move, ICCS.
        mv: String,
        /// Audience: always the referee.
        audience: Audience,
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
        /// `1-0`, `0-1`, `1/2-1/2`, `0-0`.
        result: String,
        /// Why, in words.
        reason: String,
        /// The article.
        article: String,
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
    /// Who the event is for.
    pub fn audience(&self) -> Audience {
        match self {
            Event::TimeAlert { audience, .. } | Event::Sealed { audience, .. } => *audience,
            _ => Audience::All,
        }
    }
}
