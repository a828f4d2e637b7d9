//! The state of a match: the game record, the turn in progress and the table around it.
//! Only `fold.rs` changes it, one event at a time.

use std::collections::{BTreeMap, BTreeSet};

use baoqi_grammar::{Announcer, Mode, Word};
use baoqi_rules::{Color, Game, Move, Piece, Point, Position, Review, WarningKind};
use serde::{Deserialize, Serialize};

use crate::article::Article;
use crate::command::{Card, Millis, Side, ViolationKind};
use crate::config::{BoardId, MatchConfig};
use crate::event::{CheckOutcome, ClockView, Speaker};
use crate::physical_board::Board;
use crate::reasons::{Announcement, CheckFinding, PauseReason};
use crate::view::{OfferView, Phase, ResultView, SheetMove, Tallies, TallyView};

/// A complete announcement (後兩字落子無悔) and who spoke it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bound {
    pub(crate) announcement: Announcement,
    pub(crate) by: Speaker,
}

/// A repeat owed by a side: of the opponent's move (mirroring) or of the referee's words.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RepeatDue {
    pub(crate) side: Color,
    pub(crate) words: [Word; 4],
    /// Whose move the words are.
    pub(crate) mover: Side,
    /// The position the words refer to and the move they name, if legal.
    pub(crate) pos: Position,
    pub(crate) mv: Option<Move>,
    pub(crate) got: Vec<Word>,
    /// A mirroring repeat (7.4(2)(g)(ii)), which a card UI may confirm.
    pub(crate) mirror: bool,
}

/// The turn in progress: the side that acts and what it has done so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Turn {
    pub(crate) side: Color,
    pub(crate) ply: usize,
    pub(crate) announcer: Announcer,
    pub(crate) attempt: Vec<Word>,
    pub(crate) touched: Option<(Point, bool)>,
    pub(crate) bound: Option<Bound>,
    pub(crate) correction: Option<Move>,
    /// Check (b): the move that stands and its words, to be announced again.
    pub(crate) reannounce: Option<(Move, [Word; 4])>,
    pub(crate) restore: Option<Move>,
    pub(crate) signalled: bool,
    pub(crate) offered: bool,
    pub(crate) technical: bool,
    pub(crate) clock_violations: u32,
    pub(crate) move_start_ms: u64,
}

impl Turn {
    pub(crate) fn new(side: Color, ply: usize, pos: &Position, move_start_ms: u64) -> Turn {
        Turn {
            side,
            ply,
            announcer: Announcer::new(pos, Mode::Strict),
            attempt: Vec::new(),
            touched: None,
            bound: None,
            correction: None,
            reannounce: None,
            restore: None,
            signalled: false,
            offered: false,
            technical: false,
            clock_violations: 0,
            move_start_ms,
        }
    }
}

/// The last 走子檢查, kept for the referee's open calls ([`crate::OpenCall`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckNote {
    pub(crate) outcome: CheckOutcome,
    pub(crate) finding: CheckFinding,
}

impl CheckNote {
    /// The words announced, when an announcement was checked.
    pub(crate) fn words(&self) -> Option<[Word; 4]> {
        self.finding.announced.as_ref().map(|a| a.words)
    }
}

/// A 61 (or 62) warning the rules crate produced and the referee has not yet given (121(2)).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DueWarning {
    pub(crate) ply: usize,
    pub(crate) warning: WarningKind,
    pub(crate) article: Article,
    pub(crate) warned: Vec<Side>,
}

impl Tallies {
    /// `side`'s record of `kind`.
    pub(crate) fn get(&self, side: Color, kind: ViolationKind) -> u32 {
        let t = self.of(side);
        match kind {
            ViolationKind::Technical => t.technical,
            ViolationKind::Recording => t.recording,
            ViolationKind::Clock => t.clock,
        }
    }

    /// Sets `side`'s record of `kind`.
    pub(crate) fn set(&mut self, side: Color, kind: ViolationKind, count: u32) {
        let t = match side {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        };
        *match kind {
            ViolationKind::Technical => &mut t.technical,
            ViolationKind::Recording => &mut t.recording,
            ViolationKind::Clock => &mut t.clock,
        } = count;
    }

    /// `side`'s tallies.
    pub(crate) fn of(&self, side: Color) -> TallyView {
        match side {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }
}

/// Who holds each card (7.1(2)): at the start, each side its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Hands {
    /// By owner (red, black), then card (draw, resign).
    holders: [[Color; 2]; 2],
}

impl Default for Hands {
    fn default() -> Hands {
        Hands {
            holders: [[Color::Red; 2], [Color::Black; 2]],
        }
    }
}

impl Hands {
    const fn slot(card: Card) -> usize {
        match card {
            Card::Draw => 0,
            Card::Resign => 1,
        }
    }

    /// Who holds `owner`'s `card`.
    pub(crate) fn holder(self, owner: Color, card: Card) -> Color {
        self.holders[owner.index()][Self::slot(card)]
    }

    /// Whether `side` holds its own `card`.
    pub(crate) fn has_own(self, side: Color, card: Card) -> bool {
        self.holder(side, card) == side
    }

    /// Puts `owner`'s `card` in `holder`'s hand.
    pub(crate) fn give(&mut self, owner: Color, card: Card, holder: Color) {
        self.holders[owner.index()][Self::slot(card)] = holder;
    }
}

/// Everything but the game record; compared by value through its `Debug` text (the
/// announcer has no `PartialEq`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Core {
    pub(crate) phase: Phase,
    /// Why the game is paused, while it is.
    pub(crate) paused: Option<PauseReason>,
    pub(crate) clock: ClockView,
    pub(crate) turn: Turn,
    pub(crate) boards: BTreeMap<BoardId, Board>,
    pub(crate) diverging: BTreeSet<BoardId>,
    /// The last move reported on each board and the piece it took, while it may still be
    /// taken back (until the game takes a move): its reverse puts that piece back (6.4(a)
    /// undo, 6.4(c) restore of a capture).
    pub(crate) takeable: BTreeMap<BoardId, (Move, Option<Piece>)>,
    pub(crate) tallies: Tallies,
    pub(crate) offer: Option<OfferView>,
    /// 69(2)(c)(ii): the opponent's material when this side's offer was declined.
    pub(crate) offer_guard: [Option<String>; 2],
    pub(crate) cards: Hands,
    pub(crate) alerted: [BTreeSet<u64>; 2],
    pub(crate) log: Vec<crate::view::LoggedWord>,
    pub(crate) sheet: Vec<SheetMove>,
    pub(crate) prev: Option<Position>,
    pub(crate) repeats: Vec<RepeatDue>,
    pub(crate) sealed: Option<Move>,
    pub(crate) notes: Vec<String>,
    /// Warnings due: produced, not yet given by the referee.
    pub(crate) due: Vec<DueWarning>,
    /// The last 走子檢查.
    pub(crate) last_check: Option<CheckNote>,
    pub(crate) result: Option<ResultView>,
    pub(crate) verified: Option<String>,
    /// When the clocks were started (95(3)); a match written before this was kept reads
    /// back without it.
    #[serde(default)]
    pub(crate) started_at: Option<Millis>,
}

/// A match: configuration, game record and table state. See the crate documentation.
#[derive(Clone, Debug)]
pub struct Match {
    /// Shared, not copied: [`Match::apply`] copies the match to undo a refused command, and the
    /// configuration never changes (it was 5.7% of a loaded server's time).
    pub(crate) config: std::sync::Arc<MatchConfig>,
    /// Each side's alert thresholds (6.6, 7.7), largest first, computed once from the
    /// configuration: the next deadline is asked after every command (building and sorting
    /// the list each time was the loaded server's first cost).
    pub(crate) alerts: std::sync::Arc<[Vec<(u64, crate::reasons::Threshold)>; 2]>,
    pub(crate) created: Millis,
    pub(crate) start: Position,
    pub(crate) game: Game,
    pub(crate) core: Core,
    /// The review of the last move folded (derived from the game).
    pub(crate) last_review: Option<Review>,
}

impl PartialEq for Match {
    fn eq(&self, other: &Match) -> bool {
        self.config == other.config
            && self.created == other.created
            && self.start == other.start
            && self.game.moves() == other.game.moves()
            && self.game.warnings() == other.game.warnings()
            && self.game.ending() == other.game.ending()
            && format!("{:?}", self.core) == format!("{:?}", other.core)
    }
}

/// A side's material as text, for 69(2)(c)(ii).
pub(crate) fn material(pos: &Position, side: Color) -> String {
    let mut v: Vec<char> = pos
        .points_of(side)
        .filter_map(|p| pos.piece_at(p).map(baoqi_rules::Piece::fen_char))
        .collect();
    v.sort_unstable();
    v.into_iter().collect()
}

/// Each side's alert thresholds of `config`, red's first ([`Match::alerts`]).
pub(crate) fn alert_lists(
    config: &MatchConfig,
) -> std::sync::Arc<[Vec<(u64, crate::reasons::Threshold)>; 2]> {
    std::sync::Arc::new(Color::ALL.map(|side| config.alert_thresholds(side)))
}

impl Match {
    /// A restore (check (c)) is done once the mover's board no longer shows the move.
    pub(crate) fn clear_restore(&mut self) {
        let Some(m) = self.core.turn.restore else {
            return;
        };
        let Some(id) = self.config.side(self.core.turn.side).board_use().board() else {
            return;
        };
        if let Some(b) = self.core.boards.get(&id)
            && b.diff(self.game.position()) != crate::physical_board::Diff::Move(m)
        {
            self.core.turn.restore = None;
        }
    }
}
