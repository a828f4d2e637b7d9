//! Rebuilding a match from its stored log: the `Create` entry makes the engine, every
//! `Command` and `Advance` entry is applied again at its stored instant. The engine is
//! deterministic, so the events come out as they were stored; a difference (an engine of
//! another version) is logged and the stored events stay the record.

use crate::engine::{EngineFactory, Millis};
use crate::model::TableRow;
use crate::store::{EntryKind, LogEntry};
use crate::table::{HISTORY, Resumed};

/// Replays `log` (empty: a new match created at `now`). Returns the rebuilt match and
/// whether it had been played (anything beyond its creation).
pub fn replay(
    factory: &dyn EngineFactory,
    table: &TableRow,
    log: &[LogEntry],
    now: Millis,
) -> Result<(Resumed, Vec<LogEntry>), String> {
    let Some(first) = log.first() else {
        let engine = factory.create(&table.config, now)?;
        let create = LogEntry {
            table: table.id,
            index: 0,
            at: now,
            kind: EntryKind::Create,
            actor: crate::engine::Actor::Server,
            command: serde_json::Value::Null,
            first_seq: 1,
            events: Vec::new(),
        };
        let resumed = Resumed {
            engine,
            next_index: 1,
            seq: 0,
            recent: Vec::new(),
        };
        return Ok((resumed, vec![create]));
    };
    if first.kind != EntryKind::Create {
        return Err(format!(
            "table {}: the log does not start with its creation",
            table.id
        ));
    }
    let mut engine = factory.create(&table.config, first.at)?;
    let mut seq = first.events.len() as u64;
    let mut recent = Vec::new();
    for (i, entry) in log.iter().enumerate() {
        if entry.index != i as u64 {
            return Err(format!("table {}: log entry {i} is missing", table.id));
        }
        let events = match entry.kind {
            EntryKind::Create => entry.events.clone(),
            EntryKind::Command => engine
                .apply(entry.actor, &entry.command, entry.at)
                .map_err(|r| {
                    format!(
                        "table {}: stored command {} is now refused: {}",
                        table.id, entry.index, r.message
                    )
                })?,
            EntryKind::Advance => engine.advance(entry.at),
        };
        if events != entry.events {
            tracing::warn!(
                table = table.id,
                index = entry.index,
                "replayed events differ from the stored ones; the stored ones are kept"
            );
        }
        for (k, event) in entry.events.iter().enumerate() {
            recent.push((entry.first_seq + k as u64, entry.at, event.clone()));
        }
        if !entry.events.is_empty() {
            seq = entry.first_seq + entry.events.len() as u64 - 1;
        }
    }
    if recent.len() > HISTORY {
        recent.drain(..recent.len() - HISTORY);
    }
    let resumed = Resumed {
        engine,
        next_index: log.len() as u64,
        seq,
        recent,
    };
    Ok((resumed, Vec::new()))
}
