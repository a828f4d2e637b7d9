//! What a record of the live feed needs besides the game and the hub's rows — the referees'
//! names and the wall clock of the start, both in the store — kept between records, so that
//! a broadcast polling every table does not make the store read the event's seats and a
//! table's whole log for each move (that cost the players 2 ms of p99). A table's start
//! never changes once known; an event's seats are read again after [`SEATS_FOR`], so a
//! referee assigned later is named within that time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baoqi_store::model::{EventId, SeatRow, TableId};
use baoqi_store::wallclock::UnixMillis;

use super::{AppError, event_of};
use crate::export::{self, Known};
use crate::hub::Hub;

/// How long an event's seats are used before they are read again.
pub(super) const SEATS_FOR: Duration = Duration::from_secs(10);

/// An event's seats and when they were read.
type KeptSeats = (Instant, Arc<Vec<SeatRow>>);

/// The feed's memory of the store.
#[derive(Default)]
pub(super) struct Headers {
    seats: Mutex<HashMap<EventId, KeptSeats>>,
    started: Mutex<HashMap<TableId, UnixMillis>>,
}

impl Headers {
    /// Table `id` as the exports know it: its rows from the hub, its referees and start from
    /// what is kept, the store read only for what is not (or no longer) kept.
    pub(super) async fn known(&self, hub: &Hub, id: TableId) -> Result<Known, AppError> {
        let table = hub
            .table_row(id)
            .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?;
        let event = event_of(hub, table.event)?;
        let seats = self.seats_of(hub, event.id).await?;
        let kept = self.started.lock().ok().and_then(|m| m.get(&id).copied());
        let started = match kept {
            Some(at) => Some(at),
            None => self.read_start(hub, id).await?,
        };
        Ok(Known {
            referees: export::referees_of(&seats, &table),
            event,
            table,
            started,
            // The live feed follows the game as played.
            recorded: None,
        })
    }

    /// The event's seats, read again when older than [`SEATS_FOR`].
    async fn seats_of(&self, hub: &Hub, event: EventId) -> Result<Arc<Vec<SeatRow>>, AppError> {
        let kept = self.seats.lock().ok().and_then(|m| {
            m.get(&event)
                .filter(|(at, _)| at.elapsed() < SEATS_FOR)
                .map(|(_, seats)| seats.clone())
        });
        if let Some(seats) = kept {
            return Ok(seats);
        }
        let store = hub.store().clone();
        let seats = tokio::task::spawn_blocking(move || store.seats(event))
            .await
            .map_err(|e| AppError::Internal(e.to_string()))?
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let seats = Arc::new(seats);
        if let Ok(mut kept) = self.seats.lock() {
            kept.insert(event, (Instant::now(), seats.clone()));
        }
        Ok(seats)
    }

    /// The table's start from its log, kept once found.
    async fn read_start(&self, hub: &Hub, id: TableId) -> Result<Option<UnixMillis>, AppError> {
        let store = hub.store().clone();
        let at = tokio::task::spawn_blocking(move || export::started_of(&*store, id))
            .await
            .map_err(|e| AppError::Internal(e.to_string()))?
            .map_err(|e| AppError::Internal(e.to_string()))?;
        if let (Some(at), Ok(mut kept)) = (at, self.started.lock()) {
            kept.insert(id, at);
        }
        Ok(at)
    }
}
