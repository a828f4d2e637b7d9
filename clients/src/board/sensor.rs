//! Turns what a tactile sensor board senses into moves (附表七 7.4(2)(g), 第33條 走子動作).
//!
//! The sensor knows only occupancy, so it compares the sensed occupancy with the position
//! the board should show. A move is recognised when exactly one point was emptied and either
//! one point was filled (a plain move) or a point was lifted and then covered again (a
//! capture, whichever of the two pieces was lifted first). A move is reported only after the
//! board has been still for the settle time, so a piece slid across points (33(3)) is
//! reported once, at its final point. A piece put back on its own point is no move. The board
//! follows its own position, so a VI board that carries both colours (mirroring, 7.4(2)(g))
//! is sensed the same way for either side. Pure: time is passed in as milliseconds.
//!
//! The server plays every reported move on its copy of the board, legal or not, so the
//! sensor compares what it senses with the board *as reported* (`shown`), not with the game.
//! The reverse of the last reported move, before the game has taken it, is a take-back: a
//! wrong move undone after check (a) (6.4(a): 改正棋盤) or an illegal one restored after
//! check (c) (6.4(c)): reported so that the server's board follows, and never called
//! illegal (the undo was once called illegal and the board got stuck).

use baoqi_rules::{Move, Point, Position};

use super::protocol::SensorEvent;

/// The same pieces on the same points, the same side to move (the move counters aside).
fn same_board(a: &Position, b: &Position) -> bool {
    let (a, b) = (a.fen(), b.fen());
    a.split(' ').take(2).eq(b.split(' ').take(2))
}

/// How long the board must be still before a recognised move is reported.
pub const DEFAULT_SETTLE_MS: u64 = 400;

/// What the sensed events mean, for the client to report to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardOutput {
    /// The first piece lifted (or selected) in this turn: touched (摸子, 第31條).
    Touched(Point),
    /// A move was made on the board; `legal` says whether it is a legal move there.
    Moved {
        /// The move as sensed.
        mv: Move,
        /// Whether it is legal in the board's position.
        legal: bool,
    },
    /// A lifted piece went back to its own point: no move.
    PutBack(Point),
    /// After an illegal move the board shows its position again.
    Restored,
    /// The clock button was pressed.
    Clock,
    /// The announce button was pressed.
    Announce,
    /// The sensed occupancy disagrees with the board's position in a way no move explains.
    Disturbed {
        /// Points that should hold a piece but are empty.
        missing: Vec<Point>,
        /// Points that hold a piece but should be empty.
        extra: Vec<Point>,
    },
}

/// Press-to-select boards name a move by two presses; occupancy boards sense lifts and places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseMode {
    /// Reed switches or Hall sensors under each point.
    Occupancy,
    /// One button per point: origin, then destination (like the Novag 866).
    PressToSelect,
}

/// Follows one physical board.
#[derive(Clone, Debug)]
pub struct BoardSensor {
    position: Position,
    sensed: u128,
    mode: SenseMode,
    settle_ms: u64,
    /// Points lifted since the position was last settled, in order.
    lifted: Vec<Point>,
    /// A recognised move waiting for the board to be still, and since when.
    candidate: Option<(Move, u64)>,
    /// An illegal move reported and not yet taken back.
    illegal: Option<Move>,
    selected: Option<Point>,
    /// The occupancy of the board as last reported to the server.
    shown: u128,
    /// The last reported move and the position before it, while it may still be taken back
    /// (until the game takes a move, [`BoardSensor::forget_last`]).
    last: Option<(Move, Position)>,
}

fn occupancy(pos: &Position) -> u128 {
    pos.points_of(baoqi_rules::Color::Red)
        .chain(pos.points_of(baoqi_rules::Color::Black))
        .fold(0, |acc, p| acc | 1 << p.index())
}

fn points(bits: u128) -> Vec<Point> {
    (0..Point::COUNT)
        .filter(|i| bits >> i & 1 == 1)
        .filter_map(Point::from_index)
        .collect()
}

impl BoardSensor {
    /// A sensor for a board that shows `position` and is sensed as fully set up.
    pub fn new(position: Position, mode: SenseMode) -> BoardSensor {
        let sensed = occupancy(&position);
        BoardSensor {
            position,
            sensed,
            shown: sensed,
            last: None,
            mode,
            settle_ms: DEFAULT_SETTLE_MS,
            lifted: Vec::new(),
            candidate: None,
            illegal: None,
            selected: None,
        }
    }

    /// Changes the settle time (milliseconds of stillness before a move is reported).
    #[must_use]
    pub fn with_settle_ms(mut self, ms: u64) -> BoardSensor {
        self.settle_ms = ms;
        self
    }

    /// The position the board should show.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position the board should show (after a correction ordered by the referee,
    /// or at resync). Pending lifts are forgotten, unless it is the position the board shows
    /// already (a state sent again): then what it was in the middle of (a lifted piece, a
    /// move settling, the last move that may be taken back) stands.
    pub fn set_position(&mut self, position: Position) {
        if same_board(&position, &self.position) && occupancy(&position) == self.shown {
            return;
        }
        self.shown = occupancy(&position);
        self.last = None;
        self.position = position;
        self.lifted.clear();
        self.candidate = None;
        self.illegal = None;
        self.selected = None;
    }

    /// The game took a move: the last reported move can no longer be taken back.
    pub fn forget_last(&mut self) {
        self.last = None;
    }

    /// When [`BoardSensor::poll`] should next be called, if a move is waiting to settle.
    pub fn next_deadline(&self) -> Option<u64> {
        self.candidate.map(|(_, since)| since + self.settle_ms)
    }

    /// Reports a waiting move once the board has been still long enough.
    pub fn poll(&mut self, now_ms: u64) -> Vec<BoardOutput> {
        match self.candidate {
            Some((mv, since)) if now_ms >= since + self.settle_ms => self.commit(mv),
            _ => Vec::new(),
        }
    }

    /// Feeds one sensed event at `now_ms`.
    pub fn feed(&mut self, event: SensorEvent, now_ms: u64) -> Vec<BoardOutput> {
        match event {
            SensorEvent::Lift(p) => self.lift(p),
            SensorEvent::Place(p) => self.place(p, now_ms),
            SensorEvent::Select(p) => self.select(p),
            SensorEvent::Occupancy(bits) => {
                self.sensed = bits;
                self.candidate = None;
                self.recognise(None, now_ms)
            }
            SensorEvent::Clock => {
                // The clock press ends the move at once (走子 must be complete before it).
                let mut out = match self.candidate {
                    Some((mv, _)) => self.commit(mv),
                    None => Vec::new(),
                };
                out.push(BoardOutput::Clock);
                out
            }
            SensorEvent::Announce => vec![BoardOutput::Announce],
        }
    }

    fn lift(&mut self, p: Point) -> Vec<BoardOutput> {
        // Lifting the piece just placed continues a slide; lifting any other piece means
        // the waiting move is finished and a new one starts.
        let mut out = match self.candidate.take() {
            Some((mv, _)) if mv.to != p => self.commit(mv),
            _ => Vec::new(),
        };
        self.sensed &= !(1 << p.index());
        let first = self.lifted.is_empty() && self.illegal.is_none();
        self.lifted.push(p);
        if first && self.mode == SenseMode::Occupancy {
            out.push(BoardOutput::Touched(p));
        }
        out
    }

    fn place(&mut self, p: Point, now_ms: u64) -> Vec<BoardOutput> {
        self.sensed |= 1 << p.index();
        self.recognise(Some(p), now_ms)
    }

    /// Compares the sensed occupancy with the position after a place or a full scan.
    fn recognise(&mut self, placed: Option<Point>, now_ms: u64) -> Vec<BoardOutput> {
        let expected = self.shown;
        let emptied = expected & !self.sensed;
        let filled = self.sensed & !expected;
        if emptied == 0 && filled == 0 {
            self.candidate = None;
            let back = self.lifted.first().copied();
            self.lifted.clear();
            return back.map(BoardOutput::PutBack).into_iter().collect();
        }
        if let Some((last, before)) = &self.last
            && self.sensed == occupancy(before)
        {
            // The last move taken back (a captured piece put back too).
            self.candidate = Some((Move::new(last.to, last.from), now_ms));
            return Vec::new();
        }
        if emptied.count_ones() != 1 || filled.count_ones() > 1 {
            return Vec::new();
        }
        let from = points(emptied)[0];
        let to = if filled != 0 {
            Some(points(filled)[0])
        } else {
            // A capture: the destination was lifted (the captured piece) and covered again.
            placed.filter(|&q| q != from && self.lifted.contains(&q))
        };
        if let Some(to) = to {
            self.candidate = Some((Move::new(from, to), now_ms));
        }
        Vec::new()
    }

    fn commit(&mut self, mv: Move) -> Vec<BoardOutput> {
        self.candidate = None;
        self.lifted.clear();
        if let Some((last, before)) = self.last.take_if(|(l, _)| mv == Move::new(l.to, l.from)) {
            // A take-back (6.4(a) undo, 6.4(c) restore): the server's board must follow.
            let _ = last;
            self.shown = occupancy(&before);
            self.position = before;
            self.illegal = None;
            return vec![
                BoardOutput::Moved { mv, legal: true },
                BoardOutput::Restored,
            ];
        }
        self.shown = self.shown & !(1 << mv.from.index()) | 1 << mv.to.index();
        let legal = self.position.is_legal(mv);
        self.last = Some((mv, self.position.clone()));
        if legal {
            self.position.make(mv);
            self.illegal = None;
        } else {
            self.illegal = Some(mv);
        }
        vec![BoardOutput::Moved { mv, legal }]
    }

    fn select(&mut self, p: Point) -> Vec<BoardOutput> {
        match self.selected.take() {
            None => {
                self.selected = Some(p);
                vec![BoardOutput::Touched(p)]
            }
            Some(from) if from == p => vec![BoardOutput::PutBack(p)],
            Some(from) => {
                let mv = Move::new(from, p);
                let mut out = self.commit(mv);
                if self.illegal.take().is_some() {
                    // A press-to-select board has nothing to restore: the move never happened.
                    if let Some((_, before)) = self.last.take() {
                        self.shown = occupancy(&before);
                    }
                    out.push(BoardOutput::Restored);
                }
                out
            }
        }
    }

    /// The difference between what is sensed and the board's position, for the referee.
    pub fn disturbance(&self) -> Option<BoardOutput> {
        let expected = self.shown;
        if expected == self.sensed || self.candidate.is_some() {
            return None;
        }
        Some(BoardOutput::Disturbed {
            missing: points(expected & !self.sensed),
            extra: points(self.sensed & !expected),
        })
    }
}
