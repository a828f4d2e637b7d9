//! What the store holds after a kill: read straight from the database file while no server
//! runs, and compared with what was acknowledged and with the script.

use std::collections::HashMap;
use std::path::Path;

use baoqi_arbiter::{ClockView, Command, Event, Millis};
use baoqi_protocol::TableId;
use baoqi_rules::Color;

use super::CrashError;
use super::players::Acked;
use baoqi_store::game::Actor;
use baoqi_store::model::Role;
use baoqi_store::{SqliteStore, Store};

/// The entries stored since the previous kill.
#[derive(Debug, Default)]
pub(super) struct Tail {
    /// The index the next entry will have: where the next tail starts.
    pub(super) next_index: u64,
    /// The players' commands among them: the script's next steps.
    pub(super) player_commands: usize,
    /// The first player command that is not the script's next step.
    pub(super) mismatch: Option<String>,
    /// Every command entry by the sequence number of its last event (what an
    /// acknowledgement names).
    by_last_seq: HashMap<u64, (Actor, Command)>,
    /// The last clock reported in the tail, with its sequence number.
    pub(super) last_clock: Option<(u64, ClockView)>,
    /// The last instant of the game timeline the store recorded: a restart resumes the
    /// clocks from there.
    pub(super) mark: Millis,
}

/// Reads the table's log from entry `from` on; `stored` script steps were stored before.
pub(super) fn read_tail(
    db: &Path,
    table: TableId,
    from: u64,
    steps: &[(Role, Command)],
    stored: usize,
) -> Result<Tail, CrashError> {
    let store = SqliteStore::open(db, false)?;
    let entries = store.log_from(table, from)?;
    let mut tail = Tail {
        next_index: from,
        mark: store.timeline()?,
        ..Tail::default()
    };
    for entry in &entries {
        tail.next_index = entry.index + 1;
        for (seq, event) in entry.numbered() {
            if let Event::Started { clock, .. } | Event::Clock { clock } = event {
                tail.last_clock = Some((seq, *clock));
            }
        }
        let Some(command) = &entry.command else {
            continue;
        };
        let last = (entry.first_seq + entry.events.len() as u64).saturating_sub(1);
        tail.by_last_seq
            .insert(last, (entry.actor, command.clone()));
        if let Actor::Seat(role @ (Role::Red | Role::Black)) = entry.actor {
            let k = stored + tail.player_commands;
            let expected = steps.get(k).map(|(r, c)| (*r, c));
            if tail.mismatch.is_none() && expected != Some((role, command)) {
                tail.mismatch = Some(format!(
                    "entry {}: {role} {command:?} stored where the script has {expected:?}",
                    entry.index
                ));
            }
            tail.player_commands += 1;
        }
    }
    Ok(tail)
}

impl Tail {
    /// Whether an acknowledged command is stored: the entry whose events end at the
    /// acknowledged sequence number is that command from that seat.
    pub(super) fn holds(&self, acked: &Acked) -> bool {
        self.by_last_seq
            .get(&acked.seq)
            .is_some_and(|(actor, command)| {
                *actor == Actor::Seat(acked.role) && *command == acked.command
            })
    }
}

/// Both clocks (red, black) at `at`.
pub(super) fn clocks_at(clock: &ClockView, at: Millis) -> (u64, u64) {
    (
        clock.remaining(Color::Red, at),
        clock.remaining(Color::Black, at),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_arbiter::Side;

    #[test]
    fn the_running_clock_counts_down_from_its_report_and_the_other_stands() {
        let clock = ClockView {
            red_ms: 1_000,
            black_ms: 2_000,
            running: Some(Side::Black),
            since: Millis(500),
            delay_until: None,
        };
        assert_eq!(clocks_at(&clock, Millis(800)), (1_000, 1_700));
    }

    #[test]
    fn an_acknowledgement_is_matched_by_seat_command_and_last_event() {
        let mut tail = Tail::default();
        tail.by_last_seq
            .insert(7, (Actor::Seat(Role::Red), Command::PressClock));
        let acked = |role, seq| Acked {
            role,
            command: Command::PressClock,
            seq,
        };
        assert!(tail.holds(&acked(Role::Red, 7)));
        assert!(!tail.holds(&acked(Role::Black, 7)));
        assert!(!tail.holds(&acked(Role::Red, 8)));
    }
}
