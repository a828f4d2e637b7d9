//! The seam between the server and the game: [`GameEngine`] is what one match task owns and
//! drives. The server only transports, authenticates, persists and broadcasts; every rule of
//! the game lives behind this trait (the real implementation adapts `baoqi_arbiter::Match`,
//! see [`crate::arbiter_engine`]).
//!
//! Commands and events cross the seam as JSON values so that the server never interprets them:
//! the wire format of a command *is* the arbiter's serde form, the store keeps it verbatim, and
//! replaying the stored commands at their stored instants rebuilds the match exactly.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::Role;

/// Milliseconds on the server's game timeline (monotonic, continuous across restarts, the
/// time the server was down excluded; see [`crate::timeline`]).
pub type Millis = u64;

/// Who issues a command to the engine: a seat (never a spectator) or the server itself
/// (timers, the restart policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A seat acting through its token.
    Seat(Role),
    /// The server: timer ticks and the pause/resume of the restart policy.
    Server,
}

/// Who may see an event. The referee sees every event; spectators only [`Audience::All`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone at the table and the spectators.
    All,
    /// Red's player and proxy, and the referee.
    Red,
    /// Black's player and proxy, and the referee.
    Black,
    /// The referee only.
    Referee,
}

impl Audience {
    /// Whether a seat of `role` receives an event meant for this audience.
    pub fn includes(self, role: Role) -> bool {
        match self {
            Audience::All => true,
            Audience::Red => matches!(role, Role::Red | Role::RedProxy | Role::Referee),
            Audience::Black => matches!(role, Role::Black | Role::BlackProxy | Role::Referee),
            Audience::Referee => role == Role::Referee,
        }
    }
}

/// Why the engine refused a command. Nothing changed in the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// A stable machine-readable code (e.g. `not_your_turn`, `bad_command`).
    pub code: String,
    /// A sentence a referee can read.
    pub message: String,
    /// The engine's own rejection value, when it has one.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub detail: Value,
}

impl Refusal {
    /// A refusal with a code and message and no detail.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Refusal {
            code: code.to_string(),
            message: message.into(),
            detail: Value::Null,
        }
    }
}

/// What the scoresheet and PGN exports need from a finished or running game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The start position (FEN).
    pub start_fen: String,
    /// The moves played, in ICCS (`h2e2`).
    pub moves: Vec<String>,
    /// The clock reading (ms left for the mover) after each move, when known.
    pub clock_after: Vec<Option<u64>>,
    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` while running.
    pub result: String,
    /// Why the game ended (article and words), when it has.
    pub reason: Option<String>,
    /// The engine's own scoresheet (裁判人員記譜) with the 附表四 header fields and the clock
    /// time after each move, when the engine keeps one; preferred by the exports.
    pub sheet: Option<String>,
}

/// One match, owned by one task. Implementations must be deterministic: the same commands
/// at the same instants give the same events.
pub trait GameEngine: Send + 'static {
    /// Applies a command issued by `actor` at `now`: the events it causes, or a refusal that
    /// changed nothing.
    fn apply(&mut self, actor: Actor, command: &Value, now: Millis) -> Result<Vec<Value>, Refusal>;

    /// Lets time pass until `now`: the events due by then (clock alerts, timeouts).
    fn advance(&mut self, now: Millis) -> Vec<Value>;

    /// The next instant at which [`GameEngine::advance`] has something to do.
    fn next_deadline(&self) -> Option<Millis>;

    /// The whole visible state, for a joining or resyncing client. It must follow from the
    /// events applied alone (the clocks are given with the instant they were read): the
    /// table's task reuses it until the next event.
    fn snapshot(&self, now: Millis) -> Value;

    /// Moves, clocks and result for the exports.
    fn record(&self) -> GameRecord;

    /// Whether the game is over (a recorder that stopped without uploading is then
    /// reported missing). Engines with a cheaper test than the record override it.
    fn finished(&self) -> bool {
        self.record().result != "*"
    }

    /// The command (issued by [`Actor::Server`]) that stops the clocks after a restart, if the
    /// game has running clocks; `None` when there is nothing to pause.
    fn pause_command(&self) -> Option<Value>;

    /// The command (issued by [`Actor::Server`]) that restarts clocks paused by
    /// [`GameEngine::pause_command`].
    fn resume_command(&self) -> Option<Value>;
}

/// Builds engines from a table's match configuration (the JSON stored with the table).
pub trait EngineFactory: Send + Sync + 'static {
    /// A new match at `now`, or why the configuration is unusable.
    fn create(&self, config: &Value, now: Millis) -> Result<Box<dyn GameEngine>, String>;

    /// Who may see `event` (a pure function of the event, also used on stored events).
    fn audience(&self, event: &Value) -> Audience;

    /// The default match configuration of a table whose config file says nothing.
    fn default_config(&self) -> Value;
}
