//! What a restart does to the matches rebuilt from the store: each match that was being
//! played is paused (`Pause { reason: server_restart }`, both clocks stopped, no seal owed)
//! at the last instant the store recorded, before any of them runs again.
//!
//! Why that instant: the store records the game timeline at least every
//! [`baoqi_store::TIMELINE_MARK`] while the server runs, so the last recorded instant is
//! the last one at which the clocks are known to have run. Stamping the pause there makes it
//! a function of the stored record alone: neither the time the server was down nor the time
//! it took to rebuild the matches (reading and replaying their logs) is charged to anyone,
//! and a restart that is itself interrupted changes nothing (the timeline is held, and
//! records no later instant, until the pauses are stored: [`baoqi_store::timeline::Timeline`]).
//! See `docs/decisions.md` (a restart is not an adjournment of 第103條).

use baoqi_store::game::Actor;
use baoqi_store::model::TableId;
use baoqi_store::replay::Resumed;
use baoqi_store::timeline::Millis;
use baoqi_store::{EntryKind, LogEntry};

/// Pauses a rebuilt match for a restart at `last_stored`, the last instant the store
/// recorded. Returns the log entry to store, or `None` when there is nothing to pause (a
/// match not started, already paused or over, or whose clock ran out before the crash: the
/// catch-up of the pause would end it, so it is left to end by itself at its true instant).
pub fn pause(resumed: &mut Resumed, table: TableId, last_stored: Millis) -> Option<LogEntry> {
    let command = resumed.game.restart_pause()?;
    let events = match resumed.game.apply(Actor::Server, &command, last_stored) {
        Ok(events) => events,
        Err(why) => {
            tracing::info!(%table, "not paused after the restart: {why}");
            return None;
        }
    };
    let entry = LogEntry {
        table,
        index: resumed.next_index,
        at: last_stored,
        kind: EntryKind::Command,
        actor: Actor::Server,
        command: Some(command),
        first_seq: resumed.seq + 1,
        events,
    };
    resumed.next_index += 1;
    for (seq, event) in entry.numbered() {
        resumed.recent.push((seq, entry.at, event.clone()));
        resumed.seq = seq;
    }
    Some(entry)
}

#[cfg(test)]
mod tests {
    use baoqi_arbiter::{Command, MatchConfig, PauseReason, Phase};

    use super::*;
    use baoqi_store::game::Game;
    use baoqi_store::model::Role;

    fn started() -> Resumed {
        let mut game = Game::create(MatchConfig::default(), Millis(0)).unwrap();
        let events = game
            .apply(Actor::Seat(Role::Referee), &Command::Start, Millis(10))
            .unwrap();
        Resumed {
            game,
            next_index: 2,
            seq: events.len() as u64,
            recent: Vec::new(),
        }
    }

    #[test]
    fn s11_a_match_in_play_is_paused_at_the_last_stored_instant_with_no_seal_owed() {
        let mut resumed = started();
        let entry = pause(&mut resumed, TableId(7), Millis(60_000)).unwrap();
        assert_eq!(
            (entry.index, entry.at, entry.table),
            (2, Millis(60_000), TableId(7))
        );
        assert_eq!(resumed.next_index, 3);
        assert_eq!(resumed.seq, entry.first_seq + entry.events.len() as u64 - 1);
        let view = resumed.game.snapshot();
        assert_eq!(view.phase, Phase::Paused);
        assert_eq!(view.paused, Some(PauseReason::ServerRestart));
        assert_eq!(view.clock.red_ms, 30 * 60_000 - (60_000 - 10));
        assert!(
            pause(&mut resumed, TableId(7), Millis(70_000)).is_none(),
            "paused once"
        );
    }

    #[test]
    fn s11_a_clock_that_ran_out_before_the_crash_is_not_paused_but_falls_at_its_instant() {
        let mut resumed = started();
        assert!(pause(&mut resumed, TableId(7), Millis(31 * 60_000)).is_none());
        assert_eq!(resumed.next_index, 2, "nothing to store");
        assert_eq!(resumed.game.snapshot().phase, Phase::Playing, "unchanged");
        let due = resumed.game.next_deadline();
        assert!(
            due.is_some_and(|d| d <= Millis(30 * 60_000 + 10)),
            "the flag fall is due"
        );
    }
}
