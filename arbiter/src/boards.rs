//! The boards at the table (SPEC §8, 7.4(2)(g)): board steps (a whole move, or lift and
//! place), who may operate which board, the touch of 31(1) in games without announcements,
//! the completion of a check-(a) correction, and the divergences shown to the referee.

use baoqi_rules::{Move, Point};

use crate::board::{Board, Diff};
use crate::command::{Millis, Seat};
use crate::config::BoardId;
use crate::event::{Event, RefereeCall};
use crate::rejection::Rejection;
use crate::state::Match;
use crate::turn::BoardMove;

impl Match {
    /// A board step: `kind` 0 a whole move, 1 a lift, 2 a place.
    pub(crate) fn board_step(
        &mut self,
        seat: Seat,
        board: Option<BoardId>,
        text: &str,
        kind: u8,
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
        let id = board.or(own).or(single).ok_or(Rejection::NoSuchBoard {
            board: "none given".into(),
        })?;
        let mut b = self
            .core
            .boards
            .get(&id)
            .cloned()
            .ok_or(Rejection::NoSuchBoard {
                board: format!("{id:?}"),
            })?;
        if !seat.is_proxy() && seat != Seat::Referee && own != Some(id) {
            return Err(Rejection::NotAllowed {
                seat,
                what: "operate the other side's board (7.4(2)(g)(i))".into(),
            });
        }
        let bad = |why: String| Rejection::BadInput {
            text: text.to_string(),
            why,
        };
        let step_err = |why: String| Rejection::BoardStep { why };
        let mut lifted = None;
        let step = match kind {
            0 => {
                let mv: Move = text.parse().map_err(|e| bad(format!("{e}")))?;
                b.play(mv).map_err(step_err)?;
                mv.to_string()
            }
            1 => {
                let p: Point = text.parse().map_err(|e| bad(format!("{e}")))?;
                lifted = Some((p, b.lift(p).map_err(step_err)?));
                format!("lift {p}")
            }
            _ => {
                let p: Point = text.parse().map_err(|e| bad(format!("{e}")))?;
                b.place(p).map_err(step_err)?;
                format!("place {p}")
            }
        };
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
        let side = self.core.turn.side;
        if let Some((p, piece)) = lifted
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
                    side: side.into(),
                    point: p.to_string(),
                    piece: piece.chinese().to_string(),
                    can_move,
                },
            );
        }
        if lifted.is_some() && seat.side() == Some(side) {
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

    /// Opens or closes divergences (SPEC §8, 7.4(2)(g)(iv)).
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
                let points: Vec<String> =
                    b.differences(pos).iter().map(ToString::to_string).collect();
                self.emit(
                    out,
                    Event::BoardDiverges {
                        board: id,
                        expected: Board::of(pos).placement(),
                        found: b.placement(),
                        points: points.clone(),
                    },
                );
                self.emit(
                    out,
                    Event::RefereeNeeded {
                        call: RefereeCall::BoardDivergence,
                        text: format!("{}與棋局不同：{}", id.chinese(), points.join(" ")),
                    },
                );
            } else if ok && open {
                self.emit(out, Event::BoardAgrees { board: id });
            }
        }
    }
}
