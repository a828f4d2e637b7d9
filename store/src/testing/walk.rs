//! A random walk through a game that never ends: the game the restart, crash and node
//! tests play, and the crash benchmark's script (`baoqi-bench`).
//!
//! The moves never end the game: no check, no repeated position (so no repetition ruling or
//! warning), never a stalemate, and a capture before 自然限着 (66(2)) could end it.

use std::collections::HashSet;

use baoqi_arbiter::Command;
use baoqi_grammar::{Style, render};
use baoqi_rules::{Color, Game, Move, NATURAL_LIMIT_PLIES, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::model::Role;

/// Plies without a capture after which a capture is chosen, well before 自然限着.
const CAPTURE_AFTER: u32 = NATURAL_LIMIT_PLIES - 20;

/// A game of `plies` moves that never ends (the walk below), each move preceded by
/// `fillers` commands of its mover (time queries and impossible words, alternately): the
/// game the restart and crash tests play, from the same walk as the benchmark's.
pub fn quiet_game(plies: usize, fillers: usize, seed: u64) -> Result<Vec<(Role, Command)>, String> {
    let mut steps = Vec::new();
    Walk::new(seed).plies(&mut steps, plies, fillers)?;
    Ok(steps)
}

/// A random walk through a game that never ends.
pub struct Walk {
    game: Game,
    seen: HashSet<u64>,
    rng: StdRng,
}

impl Walk {
    /// A walk from the start position, its choices drawn from `seed`.
    pub fn new(seed: u64) -> Walk {
        let start = Position::start();
        Walk {
            seen: HashSet::from([start.hash()]),
            game: Game::new(start),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The seat of the side to move.
    pub fn mover(&self) -> Role {
        match self.game.position().turn() {
            Color::Red => Role::Red,
            Color::Black => Role::Black,
        }
    }

    /// Appends `plies` moves, each after `fillers` commands of its mover.
    pub fn plies(
        &mut self,
        steps: &mut Vec<(Role, Command)>,
        plies: usize,
        fillers: usize,
    ) -> Result<(), String> {
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
    pub fn step(&mut self, steps: &mut Vec<(Role, Command)>) -> Result<(), String> {
        let who = self.mover();
        let pos = self.game.position().clone();
        let mv = self
            .choose(&pos)
            .ok_or_else(|| format!("no move to play at {}", pos.fen()))?;
        let text = render(&pos, mv, Style::Traditional)
            .map_err(|e| format!("{mv} at {}: {e}", pos.fen()))?;
        for ch in text.chars() {
            let text = ch.to_string();
            steps.push((who, Command::Word { text }));
        }
        steps.push((who, Command::BoardMove { board: None, mv }));
        steps.push((who, Command::PressClock));
        let review = self.game.play(mv).map_err(|e| e.to_string())?;
        if review.ending.is_some() || !review.warnings.is_empty() {
            return Err(format!(
                "move {mv} at {} ends the game or is warned: {review:?}",
                pos.fen()
            ));
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
