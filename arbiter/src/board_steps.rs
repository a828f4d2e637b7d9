//! The boards at the table (附表七 7.4(2)(g)): board steps (a whole move, or lift and
//! place), who may operate which board, the touch of 31(1) in games without announcements,
//! the completion of a check-(a) correction, and the divergences shown to the referee.

use baoqi_rules::{Color, Point};

use crate::command::{Millis, Seat};
use crate::config::BoardId;
use crate::event::{Event, RefereeCall};
use crate::physical_board::{Board, Diff};
use crate::reasons::BoardStep;
use crate::rejection::{Act, Rejection};
use crate::state::Match;
use crate::turn::BoardMove;

impl Match {
    /// A board step: a whole move, a lift or a place.
    pub(crate) fn board_step(
        &mut self,
        seat: Seat,
        board: Option<BoardId>,
        step: BoardStep,
        now: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.playing(false)?;
        let own = seat
            .side()
            .and_then(|s| self.config.side(s).board_use().board());
        let single = (self.core.boards.len() == 1)
            .then(|| self.core.boards.keys().next().copied())
            .flatten();
        let id = board
            .or(own)
            .or(single)
            .ok_or(Rejection::NoSuchBoard { board: None })?;
        let mut b = self
            .core
            .boards
            .get(&id)
            .cloned()
            .ok_or(Rejection::NoSuchBoard { board: Some(id) })?;
        if !seat.is_proxy() && seat != Seat::Referee && own != Some(id) {
            return Err(Rejection::NotAllowed {
                seat,
                act: Act::OperateOtherBoard,
            });
        }
        let side = self.core.turn.side;
        let mends = self.mends(&b, step);
        let touches = !mends && seat.side() == Some(side) && Self::touches(&b, step, side);
        let refused = |why| Rejection::BoardStep { why };
        let mut lifted = None;
        match step {
            BoardStep::Move { mv } => match self.core.takeable.get(&id) {
                // The reverse of the last move reported: a take-back, the captured piece
                // (if any) put back too.
                Some(&(last, taken)) if mv == baoqi_rules::Move::new(last.to, last.from) => {
                    b.take_back(last, taken).map_err(refused)?;
                }
                _ => b.play(mv).map_err(refused)?,
            },
            BoardStep::Lift { point } => lifted = Some((point, b.lift(point).map_err(refused)?)),
            BoardStep::Place { point } => b.place(point).map_err(refused)?,
            BoardStep::Corrected => {
                return Err(Rejection::NotAllowed {
                    seat,
                    act: Act::Referee,
                });
            }
        }
        self.emit(
            out,
            Event::Board {
                board: id,
                by: seat,
                step,
                placement: b.placement(),
                hand: b.hand(),
            },
        );
        if let Some((p, piece)) = lifted
            && !mends
            && seat.side() == Some(side)
            && piece.color == side
            && own == Some(id)
            && self.game.position().turn() == side
            && self.core.turn.touched.is_none()
            && !self.config.announcing()
        {
            // 31(1): the first own piece touched is the selected piece, if it can move.
            let can_move = !self.game.position().legal_moves_from(p).is_empty();
            self.emit(
                out,
                Event::Touched {
                    side,
                    point: p,
                    kind: piece.kind,
                    can_move,
                },
            );
        }
        if touches {
            self.touch_declines(side, out);
        }
        self.refresh_boards(out);
        if let Some(a) = self.core.turn.correction
            && self.board_move() == BoardMove::Move(a)
        {
            self.corrected(a, now, out);
        }
        Ok(())
    }

    /// Whether `step` on `b` takes a piece (a lift, or the from-point of a whole move) from a
    /// point where the board does not show the game: the opponent's piece that moved, one's own
    /// piece it took, a piece put down wrongly. That is mirroring the opponent's move, owed
    /// before one's own (7.4(2)(g)(ii)), or putting the board right (7.4(2)(g)(iv)): it selects
    /// no piece (31) and declines no offer (69(2)(d)), in either report format.
    fn mends(&self, b: &Board, step: BoardStep) -> bool {
        Self::taken_from(step)
            .is_some_and(|point| b.piece_at(point) != self.game.position().piece_at(point))
    }

    /// The point `step` takes a piece from: the lifted point, or a whole move's from-point.
    fn taken_from(step: BoardStep) -> Option<Point> {
        match step {
            BoardStep::Lift { point } => Some(point),
            BoardStep::Move { mv } => Some(mv.from),
            BoardStep::Place { .. } | BoardStep::Corrected => None,
        }
    }

    /// 69(2)(d): whether `step` on `b`, by `side` (the side to act) and not mending, touches a
    /// piece: any lift, or one whole move of his own piece (the move that a lift and a place
    /// would report; where no words come first — deaf players, games without announcements —
    /// it is the first touch, and must decline as the lift does).
    fn touches(b: &Board, step: BoardStep, side: Color) -> bool {
        match step {
            BoardStep::Lift { .. } => true,
            BoardStep::Move { mv } => b.piece_at(mv.from).is_some_and(|p| p.color == side),
            BoardStep::Place { .. } | BoardStep::Corrected => false,
        }
    }

    /// Whether two boards are mirrored (7.4(2)(g)).
    pub(crate) fn mirrored(&self) -> bool {
        self.core.boards.len() == 2
    }

    /// Whether a board is as it may be: the game, a move in progress, or (mirrored) the
    /// position before the last move, not yet mirrored.
    pub(crate) fn board_ok(&self, b: &Board) -> bool {
        match b.diff(self.game.position()) {
            Diff::Same | Diff::InHand | Diff::Move(_) => true,
            Diff::Other => {
                self.mirrored() && self.core.prev.as_ref().is_some_and(|p| *b == Board::of(p))
            }
        }
    }

    /// Opens or closes divergences (7.4(2)(g)(iv)).
    pub(crate) fn refresh_boards(&mut self, out: &mut Vec<Event>) {
        if self.core.phase == crate::view::Phase::Over {
            return;
        }
        let boards: Vec<(BoardId, Board)> = self
            .core
            .boards
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        for (id, b) in boards {
            let ok = self.board_ok(&b);
            let open = self.core.diverging.contains(&id);
            if !ok && !open {
                let pos = self.game.position();
                self.emit(
                    out,
                    Event::BoardDiverges {
                        board: id,
                        expected: Board::of(pos).placement(),
                        found: b.placement(),
                        points: b.differences(pos),
                    },
                );
                self.emit(
                    out,
                    Event::RefereeNeeded {
                        call: RefereeCall::BoardDivergence,
                        side: None,
                    },
                );
            } else if ok && open {
                self.emit(out, Event::BoardAgrees { board: id });
            }
        }
    }
}
