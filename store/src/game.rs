//! The match a table's task owns: `baoqi_arbiter::Match`, typed end to end. The server
//! only transports, authenticates, persists and broadcasts; every rule of the game lives in
//! the arbiter. The seat comes from the token, never from the message; the server's own
//! actions (timer ticks, the pause after a restart) are issued as the referee, the only
//! seat the arbiter lets pause and resume.

use baoqi_arbiter::{
    Command, ConfigError, EndCause, Event, Match, MatchConfig, Outcome, PauseReason, Phase,
    Rejection, Seat, View,
};
use baoqi_rules::Move;
use serde::{Deserialize, Serialize};

use crate::model::Role;
use crate::timeline::Millis;

/// Who issues a command: a seat (never a spectator) or the server itself (timers, the
/// restart policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A seat acting through its token.
    Seat(Role),
    /// The server: timer ticks and the pause/resume of the restart policy.
    Server,
}

impl Actor {
    /// The arbiter's seat of the actor: the server acts as the referee.
    fn seat(self) -> Result<Seat, Refusal> {
        match self {
            Actor::Server => Ok(Seat::Referee),
            Actor::Seat(role) => role.seat().ok_or(Refusal::Spectator),
        }
    }
}

/// Why a command changed nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Spectators send no commands.
    #[error("spectators cannot send commands")]
    Spectator,
    /// Only the server gives this command (the pause after a restart).
    #[error("only the server gives this command")]
    ServerOnly,
    /// The arbiter refused it.
    #[error(transparent)]
    Rejected(#[from] Rejection),
}

/// What the scoresheet and PGN exports need from a finished or running game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The start position (FEN).
    pub start_fen: String,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The mover's clock (ms left) after each move.
    pub clock_after: Vec<u64>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
    /// Why it ended, once it has.
    pub cause: Option<EndCause>,
    /// The arbiter's scoresheet (裁判人員記譜) with the 附表四 header and clock times.
    pub sheet: String,
    /// The arbiter's PGN.
    pub pgn: String,
}

impl GameRecord {
    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, `0-0`, or `*` while running.
    pub fn result(&self) -> &'static str {
        self.outcome.map_or("*", Outcome::score)
    }
}

/// One match. JSON: the arbiter's whole state ([`crate::snapshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Game {
    m: Match,
}

impl Game {
    /// A new match at `now`.
    pub fn create(config: MatchConfig, now: Millis) -> Result<Game, ConfigError> {
        Ok(Game {
            m: Match::new(config, now)?,
        })
    }

    /// Applies a command from `actor` at `now`: its events, or why nothing changed.
    pub fn apply(
        &mut self,
        actor: Actor,
        command: &Command,
        now: Millis,
    ) -> Result<Vec<Event>, Refusal> {
        let seat = seat_for(actor, command)?;
        Ok(self.m.apply(seat, command.clone(), now)?)
    }

    /// [`Game::apply`] for a stored command, replayed in place ([`Match::reapply`]): on a
    /// refusal the game may be half-changed and must be dropped.
    pub fn reapply(
        &mut self,
        actor: Actor,
        command: &Command,
        now: Millis,
    ) -> Result<Vec<Event>, Refusal> {
        let seat = seat_for(actor, command)?;
        Ok(self.m.reapply(seat, command.clone(), now)?)
    }

    /// [`Game::advance`] for a stored step, in place (a tick is never refused).
    pub fn readvance(&mut self, now: Millis) -> Vec<Event> {
        self.m
            .reapply(Seat::Referee, Command::Tick, now)
            .unwrap_or_default()
    }

    /// Lets time pass until `now`: the events due by then (alerts, flag fall).
    pub fn advance(&mut self, now: Millis) -> Vec<Event> {
        // A tick is never refused.
        self.m
            .apply(Seat::Referee, Command::Tick, now)
            .unwrap_or_default()
    }

    /// The next instant at which [`Game::advance`] has something to do.
    pub fn next_deadline(&self) -> Option<Millis> {
        self.m.next_deadline()
    }

    /// The whole visible state.
    pub fn snapshot(&self) -> View {
        self.m.snapshot()
    }

    /// Moves, clocks and result for the exports.
    pub fn record(&self) -> GameRecord {
        let view = self.m.snapshot();
        GameRecord {
            start_fen: view.start_fen,
            moves: view.moves.iter().map(|m| m.mv.iccs).collect(),
            clock_after: view.moves.iter().map(|m| m.clock_ms).collect(),
            outcome: view.result.as_ref().map(|r| r.outcome),
            cause: view.result.map(|r| r.cause),
            sheet: self.m.scoresheet(),
            pgn: self.m.pgn(),
        }
    }

    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.m.phase() == Phase::Over
    }

    /// The pause that stops both clocks after a restart (no seal owed), when they run.
    pub fn restart_pause(&self) -> Option<Command> {
        (self.m.phase() == Phase::Playing).then_some(Command::Pause {
            reason: PauseReason::ServerRestart,
        })
    }

    /// Whether the clocks stand paused by a restart or a takeover ([`Game::restart_pause`]),
    /// waiting to be resumed (an adjournment, 第103條, is not such a pause).
    pub fn paused_by_restart(&self) -> bool {
        self.m.phase() == Phase::Paused
            && self.snapshot().paused == Some(baoqi_arbiter::PauseReason::ServerRestart)
    }

    /// The command that restarts clocks paused by [`Game::restart_pause`].
    pub fn resume_command(&self) -> Option<Command> {
        (self.m.phase() == Phase::Paused).then_some(Command::Resume)
    }
}

/// The seat `actor` gives `command` as, or why it may not: a server-only command (a restart
/// pause) from anyone but the server is refused.
fn seat_for(actor: Actor, command: &Command) -> Result<Seat, Refusal> {
    if actor != Actor::Server && baoqi_protocol::server_only(command) {
        return Err(Refusal::ServerOnly);
    }
    actor.seat()
}
