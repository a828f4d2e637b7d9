//! The attached tactile board, seen from the session: which board it is, what position it
//! should show after a state or another seat's report (7.4(2)(g): a mirrored board may be a
//! move behind), and what its sensed moves, clock button and announce button send.

use baoqi_arbiter::{BoardId, Command, Seat};
use baoqi_audio::from_event::Heard;
use baoqi_audio::{Earcon, Notice};
use baoqi_rules::{Color, Position};

use super::machine::{Output, Session};
use crate::board::{BoardOutput, BoardSensor};

impl Session {
    /// This client's seat.
    pub(super) fn seat(&self, me: Color) -> Seat {
        match (me, self.proxy) {
            (Color::Red, true) => Seat::RedProxy,
            (Color::Black, true) => Seat::BlackProxy,
            (c, false) => Seat::player(c),
        }
    }

    /// The board the attached sensor board is: the VI board when there is one.
    pub(super) fn sensor_board(&self) -> Option<BoardId> {
        self.opts.board?;
        let t = self.table.as_ref()?;
        if t.boards.iter().any(|(b, _)| *b == BoardId::Vi) || t.boards.is_empty() {
            Some(BoardId::Vi)
        } else {
            t.boards.first().map(|(b, _)| *b)
        }
    }

    /// The position the attached board should show: its placement, with the side to move
    /// of the game when it shows the game, else of the side whose move it still lacks.
    fn board_position(&self, placement: &str) -> Option<Position> {
        let t = self.table.as_ref()?;
        let game = t.position.fen();
        let same = game.split(' ').next() == Some(placement);
        let turn = if same { t.to_move } else { t.to_move.other() };
        let side = if turn == Color::Red { 'w' } else { 'b' };
        Position::from_fen(&format!("{placement} {side} - - 0 1")).ok()
    }

    pub(super) fn sync_sensor(&mut self) {
        let Some(mode) = self.opts.board else { return };
        let Some(t) = self.table.as_ref() else { return };
        let placement = self
            .sensor_board()
            .and_then(|id| t.board(id))
            .map(str::to_owned);
        let pos = placement
            .and_then(|p| self.board_position(&p))
            .unwrap_or_else(|| t.position.clone());
        match self.sensor.as_mut() {
            Some(s) => s.set_position(pos),
            None => {
                self.sensor = Some(BoardSensor::new(pos, mode).with_settle_ms(self.opts.settle_ms));
            }
        }
    }

    /// A board report (ours or another seat's): follow it unless the sensor already shows it.
    pub(super) fn board_changed(&mut self, placement: &str) {
        let Some(s) = &self.sensor else { return };
        let shown = s.position().fen();
        if shown.split(' ').next() == Some(placement) {
            return;
        }
        if let Some(pos) = self.board_position(placement)
            && let Some(s) = self.sensor.as_mut()
        {
            s.set_position(pos);
        }
    }

    pub(super) fn board_outputs(&mut self, sensed: Vec<BoardOutput>, out: &mut Output) {
        for o in sensed {
            match o {
                BoardOutput::Moved { mv, legal } => {
                    self.send(Command::BoardMove { board: None, mv }, out);
                    if !legal {
                        out.notice(Some(Earcon::Error), Notice::BoardIllegal);
                    }
                }
                BoardOutput::Restored => out.notice(None, Notice::BoardRestored),
                BoardOutput::Clock => {
                    if self.send(Command::PressClock, out) {
                        out.heard.push(Heard {
                            earcon: Some(Earcon::ClockPress),
                            say: Vec::new(),
                        });
                    }
                }
                BoardOutput::Announce => {
                    self.send(Command::Signal, out);
                }
                BoardOutput::Touched(_)
                | BoardOutput::PutBack(_)
                | BoardOutput::Disturbed { .. } => {}
            }
        }
    }
}
