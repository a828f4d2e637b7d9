//! The state of a match: the game record, the turn in progress and the table around it.
//! Only `fold.rs` changes it, one event at a time.

use std::collections::{BTreeMap, BTreeSet};

use baoqi_grammar::{Announcer, Mode, Word};
use baoqi_rules::{Color, Game, Move, Point, Position, Review};

use crate::board::Board;
use crate::command::{Card, Millis, ViolationKind};
use crate::config::{BoardId, MatchConfig};
use crate::event::{ClockView, Speaker};
use crate::view::{Phase, ResultView, SheetMove};

/// A complete announcement (後兩字落子無悔).
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    pub(crate) words: String,
    pub(crate) by: Speaker,
    pub(crate) mv: Option<Move>,
    pub(crate) point: Option<Point>,
}

/// A repeat owed by a side: of the opponent's move (mirroring) or of the referee's words.
#[derive(Clone, Debug)]
pub(crate) struct RepeatDue {
    pub(crate) side: Color,
    pub(crate) text: String,
    /// The position the words refer to and the move they name, if legal.
    pub(crate) pos: Position,
    pub(crate) words: Vec<Word>,
    pub(crate) mv: Option<Move>,
    pub(crate) got: Vec<Word>,
    /// A mirroring repeat (7.4(2)(g)(ii)), which a card UI may confirm.
    pub(crate) mirror: bool,
}

/// The turn in progress: the side that acts and what it has done so far.
#[derive(Clone, Debug)]
pub(crate) struct Turn {
    pub(crate) side: Color,
    pub(crate) ply: usize,
    pub(crate) announcer: Announcer,
    pub(crate) attempt: Vec<String>,
    pub(crate) touched: Option<(Point, bool)>,
    pub(crate) bound: Option<Bound>,
    pub(crate) correction: Option<Move>,
    pub(crate) reannounce: Option<Move>,
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
#[derive(Clone, Debug)]
pub(crate) struct CheckNote {
    pub(crate) outcome: crate::event::CheckOutcome,
    pub(crate) announced: Option<String>,
    pub(crate) board_move: Option<String>,
}

/// A 61 (or 62) warning the rules crate produced and the referee has not yet given (121(2)).
#[derive(Clone, Debug)]
pub(crate) struct DueWarning {
    pub(crate) ply: usize,
    pub(crate) article: String,
    pub(crate) text: String,
    pub(crate) warned: Vec<crate::command::Side>,
}

/// Everything but the game record; compared by value through its `Debug` text (the
/// announcer has no `PartialEq`).
#[derive(Clone, Debug)]
pub(crate) struct Core {
    pub(crate) phase: Phase,
    pub(crate) clock: ClockView,
    pub(crate) turn: Turn,
    pub(crate) boards: BTreeMap<BoardId, Board>,
    pub(crate) diverging: BTreeSet<BoardId>,
    /// Tallies by side index, then technical, recording, clock.
    pub(crate) tallies: [[u32; 3]; 2],
    pub(crate) offer: Option<(Color, bool, bool)>,
    /// 69(2)(c)(ii): the opponent's material when this side's offer was declined.
    pub(crate) offer_guard: [Option<String>; 2],
    /// Holder of each card by owner index, draw then resign.
    pub(crate) cards: [[Color; 2]; 2],
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
}

/// A match: configuration, game record and table state. See the crate documentation.
#[derive(Clone, Debug)]
pub struct Match {
    pub(crate) config: MatchConfig,
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

pub(crate) fn kind_index(kind: ViolationKind) -> usize {
    match kind {
        ViolationKind::Technical => 0,
        ViolationKind::Recording => 1,
        ViolationKind::Clock => 2,
    }
}

pub(crate) fn card_index(card: Card) -> usize {
    match card {
        Card::Draw => 0,
        Card::Resign => 1,
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
            && b.diff(self.game.position()) != crate::board::Diff::Move(m)
        {
            self.core.turn.restore = None;
        }
    }
}
