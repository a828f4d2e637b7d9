//! The table as a seat client keeps it ([`TableState`]): built from the server's `state`
//! (the arbiter's [`View`]) and kept up to date by its `event`s, so that board queries, the
//! last move and the clocks are answered locally, without a round trip.

use baoqi_arbiter::{BoardId, ClockView, Event, Millis, MoveView, Phase, ResultView, View};
use baoqi_grammar::Word;
use baoqi_protocol::TableId;
use baoqi_rules::{Color, Position};

/// A move on the game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub side: Color,
    /// The move in every notation.
    pub mv: MoveView,
}

/// A repeat owed by a side (6.3(7), 7.4(2)(c), 7.4(2)(g)(ii)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatOwed {
    /// Who must repeat.
    pub side: Color,
    /// The words to repeat.
    pub words: [Word; 4],
    /// The side whose move the words name, and so how they are written (red or black
    /// numerals).
    pub mover: Color,
    /// Whether they are the opponent's move, mirrored (7.4(2)(g)(ii)); else the referee's
    /// announcement of the side's own move.
    pub mirror: bool,
}

/// What a seat client knows of its table.
#[derive(Clone, Debug)]
pub struct TableState {
    /// The table's number.
    pub table: TableId,
    /// The last event applied.
    pub seq: u64,
    /// The phase.
    pub phase: Phase,
    /// The game position.
    pub position: Position,
    /// The side to act.
    pub to_move: Color,
    /// The clock as last reported.
    pub clock: ClockView,
    /// The moves so far.
    pub moves: Vec<Played>,
    /// The side announcing and the words of its current attempt.
    pub attempt: (Color, Vec<Word>),
    /// The last complete announcement of each side (red, black).
    pub announced: [Option<[Word; 4]>; 2],
    /// A repeat owed.
    pub repeat_due: Option<RepeatOwed>,
    /// A draw offer: who offered, and whether it stands.
    pub offer: Option<(Color, bool)>,
    /// Each board's placement (FEN board part).
    pub boards: Vec<(BoardId, String)>,
    /// The result and why the game ended, when it did.
    pub result: Option<ResultView>,
    /// The server's timeline instant of the last message and the local instant it arrived.
    pub synced: (u64, u64),
}

fn index(c: Color) -> usize {
    usize::from(c == Color::Black)
}

impl TableState {
    /// The state of a `state` message that arrived at local instant `local_ms`.
    pub fn from_view(table: TableId, seq: u64, at: u64, view: &View, local_ms: u64) -> TableState {
        let position = Position::from_fen(&view.fen).unwrap_or_else(|_| Position::start());
        let mut announced = [None, None];
        if let Some(words) = view.announced {
            announced[index(view.to_move)] = Some(words);
        }
        TableState {
            table,
            seq,
            phase: view.phase,
            position,
            to_move: view.to_move,
            clock: view.clock,
            moves: view
                .moves
                .iter()
                .map(|m| Played {
                    side: m.side,
                    mv: m.mv.clone(),
                })
                .collect(),
            attempt: (view.to_move, view.attempt.clone()),
            announced,
            repeat_due: view.pending.repeat.as_ref().map(|r| RepeatOwed {
                side: view.to_move,
                words: r.words,
                mover: r.mover,
                mirror: r.mirror,
            }),
            offer: view.offer.map(|o| (o.side, o.stands)),
            boards: view
                .boards
                .iter()
                .map(|b| (b.board, b.placement.clone()))
                .collect(),
            result: view.result.clone(),
            synced: (at, local_ms),
        }
    }

    /// Where the game stands, for the player of side `me` who has just (re)joined.
    pub fn standing(&self, me: Color) -> baoqi_audio::Standing {
        use baoqi_audio::Stage;
        baoqi_audio::Standing {
            stage: match self.phase {
                Phase::NotStarted => Stage::NotStarted,
                Phase::Playing => Stage::Playing,
                Phase::Paused => Stage::Paused,
                Phase::Over => Stage::Over,
            },
            to_move: self.to_move,
            you: self.to_move == me,
            words: match self.announced[index(self.to_move)] {
                Some(words) => words.to_vec(),
                None if self.attempt.0 == self.to_move => self.attempt.1.clone(),
                None => Vec::new(),
            },
            complete: self.announced[index(self.to_move)].is_some(),
            offer_from: self.offer.map(|(by, _)| by).filter(|by| *by != me),
            ended: self
                .result
                .as_ref()
                .map(|r| Box::new(baoqi_audio::from_event::game_end(r.outcome, &r.cause, me))),
        }
    }

    /// The server's timeline instant at local instant `local_ms`.
    pub fn server_now(&self, local_ms: u64) -> u64 {
        self.synced.0 + local_ms.saturating_sub(self.synced.1)
    }

    /// `side`'s time left at local instant `local_ms`, counting down a running clock.
    pub fn remaining(&self, side: Color, local_ms: u64) -> u64 {
        self.clock
            .remaining(side, Millis(self.server_now(local_ms)))
    }

    /// The last move of `side`, if any.
    pub fn last_move_of(&self, side: Color) -> Option<&Played> {
        self.moves.iter().rev().find(|m| m.side == side)
    }

    /// A board's placement.
    pub fn board(&self, id: BoardId) -> Option<&str> {
        self.boards
            .iter()
            .find(|(b, _)| *b == id)
            .map(|(_, p)| p.as_str())
    }

    /// Applies one event (numbered `seq`, at server instant `at`, arrived at `local_ms`).
    pub fn apply(&mut self, seq: u64, at: u64, event: &Event, local_ms: u64) {
        self.seq = self.seq.max(seq);
        self.synced = (at, local_ms);
        match event {
            Event::Started { clock, .. } => {
                self.phase = Phase::Playing;
                self.clock = *clock;
            }
            Event::Turn { side, .. } => {
                self.to_move = *side;
                self.attempt = (*side, Vec::new());
            }
            Event::Clock { clock } => self.clock = *clock,
            Event::Word {
                side, word, slot, ..
            } => {
                if *slot == 0 || self.attempt.0 != *side {
                    self.attempt = (*side, Vec::new());
                }
                self.attempt.1.extend(*word);
            }
            Event::Impossible { side, .. } => self.attempt = (*side, Vec::new()),
            Event::Announced {
                side, announcement, ..
            } => {
                self.announced[index(*side)] = Some(announcement.words);
            }
            Event::RepeatDue {
                side,
                words,
                mover,
                mirror,
                ..
            } => {
                self.repeat_due = Some(RepeatOwed {
                    side: *side,
                    words: *words,
                    mover: *mover,
                    mirror: *mirror,
                });
            }
            Event::Repeated { done: true, .. } => self.repeat_due = None,
            Event::Moved { side, mv, fen, .. } => {
                if let Ok(p) = Position::from_fen(fen) {
                    self.position = p;
                }
                self.moves.push(Played {
                    side: *side,
                    mv: mv.clone(),
                });
                self.attempt = (side.other(), Vec::new());
            }
            Event::DrawOffered { side, .. } => self.offer = Some((*side, false)),
            Event::DrawOfferStands { side } => self.offer = Some((*side, true)),
            Event::DrawDeclined { .. } => self.offer = None,
            Event::Board {
                board, placement, ..
            } => match self.boards.iter_mut().find(|(b, _)| b == board) {
                Some(entry) => entry.1.clone_from(placement),
                None => self.boards.push((*board, placement.clone())),
            },
            Event::Paused { .. } => self.phase = Phase::Paused,
            Event::Resumed { .. } => self.phase = Phase::Playing,
            Event::GameOver {
                outcome,
                cause,
                articles,
                at,
            } => {
                self.phase = Phase::Over;
                self.offer = None;
                self.result = Some(ResultView {
                    outcome: *outcome,
                    cause: cause.clone(),
                    articles: articles.clone(),
                    at: *at,
                });
            }
            _ => {}
        }
    }
}
