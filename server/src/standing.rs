//! What the running tables tell the organiser's service: the outcomes of an event's
//! finished games as their tasks published them, and the answer to a seat's
//! `query_standing` from them and the organiser's records.

use std::sync::Arc;

use baoqi_organiser::place;
use baoqi_organiser::results::{Outcomes, outcome};
use baoqi_protocol::{ErrorCode, ServerMsg, error};
use baoqi_store::model::{EventId, SeatRow};

use crate::hub::Hub;

/// The outcomes of `event`'s finished games as their running tables published them (each
/// table's snapshot once its game is over, kept up to date through the verification, 7.9):
/// no table is asked for its whole record.
pub(crate) fn from_tables(hub: &Hub, event: EventId) -> Outcomes {
    hub.tables_of(event)
        .iter()
        .filter_map(|row| {
            let view = hub.table(row.id)?.over()?;
            Some((row.id, outcome(&view)))
        })
        .collect()
}

/// The `standing` message that answers `seat`'s `query_standing` (an `error` when the store
/// cannot be read).
pub(crate) async fn reply(hub: &Arc<Hub>, seat: &SeatRow, id: Option<String>) -> ServerMsg {
    let outcomes = from_tables(hub, seat.event);
    let store = hub.store().clone();
    let seat = seat.clone();
    let read = tokio::task::spawn_blocking(move || place::answer(&*store, &seat, &outcomes)).await;
    match read {
        Ok(Ok(standing)) => ServerMsg::Standing { id, standing },
        Ok(Err(e)) => error(
            id,
            ErrorCode::Storage,
            format!("the standings cannot be read: {e}"),
        ),
        Err(e) => error(id, ErrorCode::Unavailable, e.to_string()),
    }
}
