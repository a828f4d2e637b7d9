//! A match written out whole and read back: `serde` for [`Match`]. A server stores one every
//! so many log entries and rebuilds a match from the last one and the entries after it,
//! instead of replaying the whole log.
//!
//! Exact by construction. The table state (`Core`: phase, clocks, turn and announcer, boards,
//! offers, cards, tallies, logs, repeats owed, warnings due, result) is written field by
//! field, every struct refusing unknown fields. The game record ([`Game`]) is written as its
//! moves and made again by playing them from the start position: it is a function of them,
//! and of a 官和 (67), the only ending not played on the board, which is written as a flag.
//! The review of the last move, when the match keeps one, is the one that playing them again
//! gives. The JSON carries [`CHECKPOINT_FORMAT`]; another format is refused, never guessed at.

use baoqi_rules::{Game, Move, Position, Review, RulingReason};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::command::Millis;
use crate::config::MatchConfig;
use crate::state::{Core, Match};

/// The format of a written match. Raised whenever the state changes shape or meaning, so
/// that a checkpoint written by another version is refused (the caller then replays the
/// whole log) rather than misread.
pub const CHECKPOINT_FORMAT: u32 = 1;

/// A match as written.
#[derive(Serialize)]
struct SavedRef<'a> {
    format: u32,
    config: &'a MatchConfig,
    created: Millis,
    start: &'a Position,
    moves: &'a [Move],
    official_draw: bool,
    last_review: bool,
    core: &'a Core,
}

/// A match as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    format: u32,
    config: MatchConfig,
    created: Millis,
    start: Position,
    moves: Vec<Move>,
    official_draw: bool,
    last_review: bool,
    core: Core,
}

impl Serialize for Match {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let official_draw = self
            .game
            .ending()
            .is_some_and(|r| r.reason == RulingReason::OfficialDraw);
        SavedRef {
            format: CHECKPOINT_FORMAT,
            config: &self.config,
            created: self.created,
            start: &self.start,
            moves: self.game.moves(),
            official_draw,
            last_review: self.last_review.is_some(),
            core: &self.core,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Match {
    /// Reads what [`Match`]'s `Serialize` wrote. The moves are played again (each checked
    /// legal); a hand-made JSON may still describe a table state no sequence of commands
    /// reaches, so read only what this crate wrote.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Match, D::Error> {
        let saved = Saved::deserialize(d)?;
        if saved.format != CHECKPOINT_FORMAT {
            return Err(D::Error::custom(format!(
                "a match of checkpoint format {}; this arbiter reads {CHECKPOINT_FORMAT}",
                saved.format
            )));
        }
        let (game, review) =
            replay(&saved.start, &saved.moves, saved.official_draw).map_err(D::Error::custom)?;
        if saved.last_review && review.is_none() {
            return Err(D::Error::custom("a review of the last move, but no move"));
        }
        Ok(Match {
            alerts: crate::state::alert_lists(&saved.config),
            config: std::sync::Arc::new(saved.config),
            created: saved.created,
            start: saved.start,
            game,
            core: saved.core,
            last_review: review.filter(|_| saved.last_review),
        })
    }
}

/// The game of `moves` from `start`, and the review of its last move.
fn replay(
    start: &Position,
    moves: &[Move],
    official_draw: bool,
) -> Result<(Game, Option<Review>), String> {
    let mut game = Game::new(start.clone());
    let mut review = None;
    for (i, &mv) in moves.iter().enumerate() {
        let played = game.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
        review = Some(played);
    }
    if official_draw {
        game.official_draw().map_err(|e| e.to_string())?;
    }
    Ok((game, review))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, Seat};

    /// Everything of two matches, the game's inner record included.
    fn same(a: &Match, b: &Match) -> bool {
        a == b
            && a.game.position() == b.game.position()
            && a.game.natural_limit() == b.game.natural_limit()
            && a.game.caution_ply() == b.game.caution_ply()
            && a.last_review == b.last_review
            && format!("{:?}", a.core) == format!("{:?}", b.core)
    }

    fn round_trip(m: &Match) -> Match {
        let json = serde_json::to_string(m).unwrap();
        let back: Match = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json, "a fixpoint");
        back
    }

    #[test]
    fn a_match_reads_back_from_its_json_as_the_same_match() {
        let mut m = Match::new(MatchConfig::default(), Millis(0)).unwrap();
        assert!(same(&round_trip(&m), &m), "new");
        let mut at = 0;
        let mut apply = |m: &mut Match, seat, command| {
            at += 500;
            let _ = m.apply(seat, command, Millis(at));
            assert!(same(&round_trip(m), m), "after {at}");
        };
        apply(&mut m, Seat::Referee, Command::Start);
        for text in ["炮", "二", "平", "五"] {
            apply(&mut m, Seat::Red, Command::Word { text: text.into() });
        }
        let mv: Move = "h2e2".parse().unwrap();
        apply(&mut m, Seat::Red, Command::BoardMove { board: None, mv });
        apply(&mut m, Seat::Red, Command::PressClock);
        apply(&mut m, Seat::Black, Command::Word { text: "z".into() });
        assert!(m.last_review.is_some() && !m.game.moves().is_empty());
    }

    #[test]
    fn another_format_or_an_illegal_move_is_refused() {
        let m = Match::new(MatchConfig::default(), Millis(0)).unwrap();
        let mut v = serde_json::to_value(&m).unwrap();
        v["format"] = (CHECKPOINT_FORMAT + 1).into();
        let e = serde_json::from_value::<Match>(v.clone()).unwrap_err();
        assert!(e.to_string().contains("checkpoint format"), "{e}");
        v["format"] = CHECKPOINT_FORMAT.into();
        v["moves"] = serde_json::json!(["a0a5"]);
        let e = serde_json::from_value::<Match>(v.clone()).unwrap_err();
        assert!(e.to_string().contains("move 1"), "{e}");
        v["moves"] = serde_json::json!([]);
        v["surplus"] = true.into();
        assert!(serde_json::from_value::<Match>(v).is_err(), "unknown field");
    }
}
