//! The game the crash benchmark plays: one deterministic list of the players' commands, its
//! first part played in-process to fill the log, the rest by bots over `WebSocket`s. Because
//! the stored player commands must be a prefix of this list, the bots of a round simply go
//! on from the number of commands the store holds.
//!
//! The moves never end the game: no check, no repeated position (so no repetition ruling or
//! warning), never a stalemate, and a capture before 自然限着 (66(2)) could end it.

use baoqi_arbiter::Command;
use baoqi_store::model::Role;
use baoqi_store::testing::walk::Walk;

use super::CrashError;

/// Commands of one filler ply besides its fillers: four words, the board move, the press.
const MOVE_COMMANDS: usize = 6;
/// Commands per ply of the fill, fillers included: a ply takes a few milliseconds
/// in-process, far less than the short clock of the benchmark.
const FILL_PLY: usize = 106;
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
    walk.plies(&mut steps, fill_plies, fillers)
        .map_err(CrashError::Script)?;
    let fill = steps.len();
    for ply in 0..plies {
        if ply % 4 == 0 {
            steps.push((walk.mover(), Command::QueryTime));
        }
        walk.step(&mut steps).map_err(CrashError::Script)?;
    }
    Ok(Script { steps, fill })
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
