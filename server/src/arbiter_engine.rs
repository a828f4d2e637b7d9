//! The real engine: `baoqi_arbiter::Match` behind [`GameEngine`]. Commands and events
//! cross as the arbiter's own serde forms; the seat comes from the token, never from the
//! message. The server's own actions (timer ticks, the restart pause) are issued as the
//! referee, the only seat the arbiter lets pause and resume.

use baoqi_arbiter::{
    Command, Event, Match, MatchConfig, Millis as AMillis, Phase, Rejection, Seat, Side,
};
use serde_json::Value;

use crate::engine::{Actor, Audience, EngineFactory, GameEngine, GameRecord, Millis, Refusal};
use crate::model::Role;

/// Builds arbiter matches from the tables' `MatchConfig` JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArbiterFactory;

/// One arbiter match.
pub struct ArbiterEngine {
    game: Match,
}

fn seat_of(actor: Actor) -> Option<Seat> {
    match actor {
        Actor::Seat(Role::Red) => Some(Seat::Red),
        Actor::Seat(Role::Black) => Some(Seat::Black),
        Actor::Seat(Role::RedProxy) => Some(Seat::RedProxy),
        Actor::Seat(Role::BlackProxy) => Some(Seat::BlackProxy),
        Actor::Seat(Role::Referee) | Actor::Server => Some(Seat::Referee),
        Actor::Seat(Role::Spectator) => None,
    }
}

fn refusal(r: &Rejection) -> Refusal {
    let detail = serde_json::to_value(r).unwrap_or(Value::Null);
    let code = detail
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or("refused")
        .to_string();
    Refusal {
        code,
        message: r.to_string(),
        detail,
    }
}

fn to_json(events: Vec<Event>) -> Vec<Value> {
    events
        .into_iter()
        .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
        .collect()
}

impl GameEngine for ArbiterEngine {
    fn apply(&mut self, actor: Actor, command: &Value, now: Millis) -> Result<Vec<Value>, Refusal> {
        let seat = seat_of(actor)
            .ok_or_else(|| Refusal::new("forbidden", "spectators cannot send commands"))?;
        let command: Command = serde_json::from_value(command.clone()).map_err(|e| {
            Refusal::new("bad_command", format!("not a command of the arbiter: {e}"))
        })?;
        self.game
            .apply(seat, command, AMillis(now))
            .map(to_json)
            .map_err(|r| refusal(&r))
    }

    fn advance(&mut self, now: Millis) -> Vec<Value> {
        // A tick is never refused.
        self.game
            .apply(Seat::Referee, Command::Tick, AMillis(now))
            .map(to_json)
            .unwrap_or_default()
    }

    fn next_deadline(&self) -> Option<Millis> {
        self.game.next_deadline().map(|m| m.0)
    }

    fn snapshot(&self, _now: Millis) -> Value {
        serde_json::to_value(self.game.snapshot()).unwrap_or(Value::Null)
    }

    fn record(&self) -> GameRecord {
        let view = self.game.snapshot();
        GameRecord {
            start_fen: view.start_fen,
            moves: view.moves.iter().map(|m| m.mv.iccs.clone()).collect(),
            clock_after: view.moves.iter().map(|m| Some(m.clock_ms)).collect(),
            result: view
                .result
                .as_ref()
                .map_or_else(|| "*".to_string(), |r| pgn_result(&r.result)),
            reason: view.result.map(|r| format!("{} ({})", r.reason, r.article)),
            sheet: Some(self.game.scoresheet()),
        }
    }

    fn finished(&self) -> bool {
        self.game.phase() == Phase::Over
    }

    fn pause_command(&self) -> Option<Value> {
        (self.game.phase() == Phase::Playing)
            .then(|| serde_json::to_value(Command::Pause).unwrap_or(Value::Null))
    }

    fn resume_command(&self) -> Option<Value> {
        (self.game.phase() == Phase::Paused)
            .then(|| serde_json::to_value(Command::Resume).unwrap_or(Value::Null))
    }
}

/// The arbiter writes results as `1-0`, `0-1`, `1/2-1/2` (or Chinese); PGN wants the former.
fn pgn_result(result: &str) -> String {
    match result {
        "1-0" | "0-1" | "1/2-1/2" | "0-0" => result.to_string(),
        r if r.contains('和') => "1/2-1/2".into(),
        r if r.contains("紅勝") => "1-0".into(),
        r if r.contains("黑勝") => "0-1".into(),
        r => r.to_string(),
    }
}

impl EngineFactory for ArbiterFactory {
    fn create(&self, config: &Value, now: Millis) -> Result<Box<dyn GameEngine>, String> {
        let config: MatchConfig = serde_json::from_value(config.clone())
            .map_err(|e| format!("match configuration: {e}"))?;
        let game = Match::new(config, AMillis(now)).map_err(|e| e.to_string())?;
        Ok(Box::new(ArbiterEngine { game }))
    }

    fn audience(&self, event: &Value) -> Audience {
        // Events meant for part of the table carry their `audience` (Event::audience reads
        // the same field); reading only that field keeps the hot path cheap.
        let Some(field) = event.get("audience") else {
            return Audience::All;
        };
        match serde_json::from_value::<baoqi_arbiter::Audience>(field.clone()) {
            Ok(baoqi_arbiter::Audience::All) | Err(_) => Audience::All,
            Ok(baoqi_arbiter::Audience::Side(Side::Red)) => Audience::Red,
            Ok(baoqi_arbiter::Audience::Side(Side::Black)) => Audience::Black,
            Ok(baoqi_arbiter::Audience::Referee) => Audience::Referee,
        }
    }

    fn default_config(&self) -> Value {
        serde_json::to_value(MatchConfig::default()).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EventFile;

    #[test]
    fn the_demo_and_sample_configurations_make_matches() {
        let sample = EventFile::from_toml(include_str!("../../docs/event.toml")).unwrap();
        for t in crate::demo::demo_file().tables.iter().chain(&sample.tables) {
            let config = t.config.clone().unwrap();
            assert!(
                ArbiterFactory.create(&config, 0).is_ok(),
                "{}: {config}",
                t.name
            );
        }
    }

    #[test]
    fn audiences_follow_the_arbiter() {
        let alert = serde_json::to_value(Event::Sealed {
            side: Side::Red,
            mv: "h2e2".into(),
            audience: baoqi_arbiter::Audience::Referee,
        })
        .unwrap();
        assert_eq!(ArbiterFactory.audience(&alert), Audience::Referee);
        let started = serde_json::json!({"type": "turn", "side": "red", "ply": 1});
        assert_eq!(ArbiterFactory.audience(&started), Audience::All);
    }

    #[test]
    fn the_seat_comes_from_the_token_and_spectators_are_refused() {
        let mut e = ArbiterFactory
            .create(&ArbiterFactory.default_config(), 0)
            .unwrap();
        let start = serde_json::json!({"type": "start"});
        let r = e.apply(Actor::Seat(Role::Spectator), &start, 10);
        assert_eq!(r.unwrap_err().code, "forbidden");
        let r = e.apply(
            Actor::Seat(Role::Red),
            &serde_json::json!({"type": "fly"}),
            10,
        );
        assert_eq!(r.unwrap_err().code, "bad_command");
    }
}
