//! `baoqi db copy`: a hall's events moved into another store (the federation's PostgreSQL
//! database), through the store trait only, so that it works between any two backends.
//!
//! The target may already hold other halls' events, so events and tables get the target's
//! next numbers; every reference to them (seats, logs, pairings) is renumbered with them.
//! Seats keep their token hashes: the tokens printed for the hall's players go on working
//! against the federation's servers. The games' recordings go with their tables, under the
//! same numbers. Snapshots are not copied (the target rebuilds each match from its whole
//! log, then takes its own).

use std::collections::HashMap;

use super::{LogEntry, Store, StoreError};
use crate::model::{EventId, TableId};
use crate::recordings::{RecordingsError, Upload};

/// Why a copy failed or was refused. Nothing is removed from the source in any case.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// A store failed (the copy stopped there: what was written before stays in the target).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A seat of the source is already in the target: the hall was copied before.
    #[error(
        "the seat of {name} (event {event}) is already in the target: this hall was copied \
         before; nothing was written"
    )]
    AlreadyCopied {
        /// The seat holder's name.
        name: String,
        /// The source event.
        event: EventId,
    },
    /// The target keeps no tournaments but the source has one.
    #[error("event {0} is a tournament and the target keeps no tournaments")]
    NoTournaments(EventId),
    /// The source has no such event.
    #[error("there is no event {0}")]
    NoEvent(EventId),
    /// A recording could not be read from the source or kept by the target.
    #[error("copying the recordings: {0}")]
    Recordings(#[from] RecordingsError),
}

/// What a copy wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Source event → target event.
    pub events: Vec<(EventId, EventId)>,
    /// Tables copied.
    pub tables: usize,
    /// Seats copied.
    pub seats: usize,
    /// Log entries copied.
    pub entries: usize,
    /// Game recordings copied.
    pub recordings: usize,
}

/// Log entries appended per transaction.
const CHUNK: usize = 2000;

/// Copies every event of `from` into `to`.
pub fn copy(from: &dyn Store, to: &dyn Store) -> Result<CopyReport, CopyError> {
    copy_these(from, to, &from.events()?, Recordings::Copied)
}

/// Copies event `event` of `from` into `to`: its tables, seats, logs and tournament, not its
/// games' recordings (a backup of one event, for a second laptop).
pub fn copy_event(
    from: &dyn Store,
    to: &dyn Store,
    event: EventId,
) -> Result<CopyReport, CopyError> {
    let events: Vec<_> = from
        .events()?
        .into_iter()
        .filter(|e| e.id == event)
        .collect();
    if events.is_empty() {
        return Err(CopyError::NoEvent(event));
    }
    copy_these(from, to, &events, Recordings::Left)
}

/// Whether a copy takes the games' recordings with their tables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Recordings {
    Copied,
    Left,
}

fn copy_these(
    from: &dyn Store,
    to: &dyn Store,
    events: &[crate::model::EventRow],
    recordings: Recordings,
) -> Result<CopyReport, CopyError> {
    refuse_copied(from, to, events)?;
    let mut report = CopyReport::default();
    let mut moved = HashMap::new();
    for ev in events {
        let id = to.create_event(&ev.name, &ev.settings)?;
        report.events.push((ev.id, id));
        let tables = copy_tables(from, to, ev.id, id, &mut report)?;
        copy_seats(from, to, ev.id, id, &tables, &mut report)?;
        copy_tournament(from, to, ev.id, id, &tables)?;
        moved.extend(tables);
    }
    if recordings == Recordings::Copied {
        report.recordings = copy_recordings(from, to, &moved)?;
    }
    to.append(&[], Some(from.timeline()?))?;
    for (at, wall) in from.wall_clock_marks()? {
        to.mark_wall_clock(at, wall)?;
    }
    Ok(report)
}

/// Copies every recording of the source's tables to their new numbers, in order, so that
/// each keeps its number; how many. A source that keeps none has none to copy.
fn copy_recordings(
    from: &dyn Store,
    to: &dyn Store,
    tables: &HashMap<TableId, TableId>,
) -> Result<usize, CopyError> {
    let Ok(source) = from.recordings() else {
        return Ok(0);
    };
    let rows = source.all()?;
    if rows.is_empty() {
        return Ok(0);
    }
    let target = to.recordings()?;
    for row in &rows {
        let Some(&table) = tables.get(&row.upload.table) else {
            continue;
        };
        let len = usize::try_from(row.upload.bytes).unwrap_or(usize::MAX);
        let bytes = source.read(row.upload.table, row.n, 0, len)?;
        let received = target.incoming().map_err(RecordingsError::Io)?;
        std::fs::write(&received, bytes).map_err(RecordingsError::Io)?;
        let upload = Upload {
            table,
            ..row.upload.clone()
        };
        target.commit(&received, &upload)?;
    }
    Ok(rows.len())
}

/// Refuses before writing anything when a seat of the source is in the target already.
fn refuse_copied(
    from: &dyn Store,
    to: &dyn Store,
    events: &[crate::model::EventRow],
) -> Result<(), CopyError> {
    for ev in events {
        for seat in from.seats(ev.id)? {
            if to.seat(&seat.token_hash)?.is_some() {
                return Err(CopyError::AlreadyCopied {
                    name: seat.name,
                    event: ev.id,
                });
            }
        }
    }
    Ok(())
}

fn copy_tables(
    from: &dyn Store,
    to: &dyn Store,
    source: EventId,
    target: EventId,
    report: &mut CopyReport,
) -> Result<HashMap<TableId, TableId>, CopyError> {
    let mut map = HashMap::new();
    for mut row in from.tables(Some(source))? {
        let old = row.id;
        row.event = target;
        let new = to.add_table(&row)?;
        map.insert(old, new);
        let log = from.log(old)?;
        for chunk in log.chunks(CHUNK) {
            let moved: Vec<LogEntry> = chunk
                .iter()
                .cloned()
                .map(|e| LogEntry { table: new, ..e })
                .collect();
            to.append(&moved, None)?;
        }
        report.tables += 1;
        report.entries += log.len();
    }
    Ok(map)
}

fn copy_seats(
    from: &dyn Store,
    to: &dyn Store,
    source: EventId,
    target: EventId,
    tables: &HashMap<TableId, TableId>,
    report: &mut CopyReport,
) -> Result<(), CopyError> {
    for mut seat in from.seats(source)? {
        seat.event = target;
        seat.tables = seat
            .tables
            .iter()
            .filter_map(|t| tables.get(t).copied())
            .collect();
        to.add_seat(&seat)?;
        report.seats += 1;
    }
    Ok(())
}

fn copy_tournament(
    from: &dyn Store,
    to: &dyn Store,
    source: EventId,
    target: EventId,
    tables: &HashMap<TableId, TableId>,
) -> Result<(), CopyError> {
    let Some(src) = from.tournaments() else {
        return Ok(());
    };
    let Some(settings) = src.tournament(source)? else {
        return Ok(());
    };
    let dst = to.tournaments().ok_or(CopyError::NoTournaments(source))?;
    dst.set_tournament(target, &settings)?;
    dst.put_players(target, &src.players(source)?)?;
    let pairings: Vec<_> = src
        .pairings(source)?
        .into_iter()
        .map(|mut p| {
            p.table = p.table.and_then(|t| tables.get(&t).copied());
            p
        })
        .collect();
    dst.add_pairings(target, &pairings)?;
    for line in src.changes(source)? {
        dst.log_change(target, &line)?;
    }
    Ok(())
}
