//! The game the crash benchmark plays: one deterministic list of the players' commands, its
//! first part played in-process to fill the log, the rest by bots over `WebSocket`s. Because
//! the stored player commands must be a prefix of this list, the bots of a round simply go
//! on from the number of commands the store holds.
//!
//! The moves never end the game: no check, no repeated position (so no repetition ruling or
//! warning), never a stalemate, and a capture before 自然限着 (66(2)) could end it.

use std::collections::HashSet;

use baoqi_arbiter::Command;
use baoqi_grammar::{Style, render};
use baoqi_rules::{Color, Game, Move, NATURAL_LIMIT_PLIES, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::CrashError;
use crate::model::Role;

/// Commands of one filler ply besides its fillers: four words, the board move, the press.
const MOVE_COMMANDS: usize = 6;
/// Commands per ply of the fill, fillers included: a ply takes a few milliseconds
/// in-process, far less than the short clock of the benchmark.
const FILL_PLY: usize = 106;
/// Plies without a capture after which a capture is chosen, well before 自然限着.
const CAPTURE_AFTER: u32 = NATURAL_LIMIT_PLIES - 20;

/// The players' commands, in order.
#[derive(Debug, Clone)]
pub(super) struct Script {
    /// Who sends each command, and the command.
    pub(super) steps: Vec<(Role, Command)>,
    /// How many of them fill the log before the rounds (played in-process).
    pub(super) fill: usize,
}

/// A script whose fill has at least `entries` commands (time queries and impossible words
/// between the moves, as in `server/tests/restart.rs`) followed by `plies` moves for the
/// bots, each of four words, the board move and the press, with a time query every fourth.
pub(super) fn script(entries: usize, plies: usize, seed: u64) -> Result<Script, CrashError> {
    let fill_plies = entries.div_ceil(FILL_PLY).max(2);
    let fillers = entries
        .div_ceil(fill_plies)
        .saturating_sub(MOVE_COMMANDS)
        .max(1);
    let mut walk = Walk::new(seed);
    let mut steps = Vec::new();
    walk.plies(&mut steps, fill_plies, fillers)?;
    let fill = steps.len();
    for ply in 0..plies {
        if ply % 4 == 0 {
            steps.push((walk.mover(), Command::QueryTime));
        }
        walk.step(&mut steps)?;
    }
    Ok(Script { steps, fill })
}

/// A game of `plies` moves that never ends (the walk below), each move preceded by
/// `fillers` commands of its mover (time queries and impossible words, alternately): the
/// game the restart and crash tests play, from the same walk as the benchmark's.
pub fn quiet_game(
    plies: usize,
    fillers: usize,
    seed: u64,
) -> Result<Vec<(Role, Command)>, CrashError> {
    let mut steps = Vec::new();
    Walk::new(seed).plies(&mut steps, plies, fillers)?;
    Ok(steps)
}

/// A random walk through a game that never ends.
struct Walk {
    game: Game,
    seen: HashSet<u64>,
    rng: StdRng,
}

impl Walk {
    fn new(seed: u64) -> Walk {
        let start = Position::start();
        Walk {
            seen: HashSet::from([start.hash()]),
            game: Game::new(start),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The seat of the side to move.
    fn mover(&self) -> Role {
        match self.game.position().turn() {
            Color::Red => Role::Red,
            Color::Black => Role::Black,
        }
    }

    /// Appends `plies` moves, each after `fillers` commands of its mover.
    fn plies(
        &mut self,
        steps: &mut Vec<(Role, Command)>,
        plies: usize,
        fillers: usize,
    ) -> Result<(), CrashError> {
        for _ in 0..plies {
            let who = self.mover();
            for k in 0..fillers {
                let filler = if k % 2 == 0 {
                    Command::QueryTime
                } else {
                    Command::Word { text: "z".into() }
                };
                steps.push((who, filler));
            }
            self.step(steps)?;
        }
        Ok(())
    }

    /// Chooses a move, appends its commands and plays it.
    fn step(&mut self, steps: &mut Vec<(Role, Command)>) -> Result<(), CrashError> {
        let who = self.mover();
        let pos = self.game.position().clone();
        let mv = self
            .choose(&pos)
            .ok_or_else(|| CrashError::Script(format!("no move to play at {}", pos.fen())))?;
        let text = render(&pos, mv, Style::Traditional)
            .map_err(|e| CrashError::Script(format!("{mv} at {}: {e}", pos.fen())))?;
        for ch in text.chars() {
            let text = ch.to_string();
            steps.push((who, Command::Word { text }));
        }
        steps.push((who, Command::BoardMove { board: None, mv }));
        steps.push((who, Command::PressClock));
        let review = self
            .game
            .play(mv)
            .map_err(|e| CrashError::Script(e.to_string()))?;
        if review.ending.is_some() || !review.warnings.is_empty() {
            return Err(CrashError::Script(format!(
                "move {mv} at {} ends the game or is warned: {review:?}",
                pos.fen()
            )));
        }
        self.seen.insert(self.game.position().hash());
        Ok(())
    }

    /// A move that gives no check, leaves the opponent a move and reaches a new position:
    /// a quiet one, or a capture when 自然限着 comes near.
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let (mut quiet, mut captures) = (Vec::new(), Vec::new());
        for &mv in pos.legal_moves().iter() {
            let next = pos.after(mv);
            if next.is_check() || next.legal_moves().is_empty() || self.seen.contains(&next.hash())
            {
                continue;
            }
            if pos.piece_at(mv.to).is_some() {
                captures.push(mv);
            } else {
                quiet.push(mv);
            }
        }
        let capture_now = self.game.natural_limit().plies() >= CAPTURE_AFTER;
        let pool = if (capture_now && !captures.is_empty()) || quiet.is_empty() {
            captures
        } else {
            quiet
        };
        (!pool.is_empty()).then(|| pool[self.rng.random_range(0..pool.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a66_2_a_long_script_never_reaches_the_natural_limit_nor_ends() {
        let s = script(10_000, 600, 7).unwrap();
        assert!(s.fill >= 10_000, "{}", s.fill);
        let presses = s
            .steps
            .iter()
            .filter(|(_, c)| *c == Command::PressClock)
            .count();
        assert!(presses > 600, "{presses}");
    }

    #[test]
    fn the_sides_alternate_and_each_move_ends_with_its_press() {
        let s = script(50, 8, 1).unwrap();
        let mut mover = Role::Red;
        for (who, cmd) in &s.steps {
            assert_eq!(*who, mover, "{cmd:?}");
            if *cmd == Command::PressClock {
                mover = if mover == Role::Red {
                    Role::Black
                } else {
                    Role::Red
                };
            }
        }
    }
}
