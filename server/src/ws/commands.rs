//! A connection's commands: the table a command names, checked against the seat, passed
//! to the table's task, and the recordings a table client uploads.

use baoqi_arbiter::Command;
use baoqi_protocol::{ErrorCode, RecorderState, ServerMsg, error};
use baoqi_store::game::Refusal;
use baoqi_store::model::{Role, TableId};
use futures_util::Sink;

use super::{Conn, Outgoing};
use crate::table::{Handled, SeatKey};

impl<O> Conn<O>
where
    O: Sink<Outgoing> + Unpin + Send,
{
    /// The table a message is about: the one named (if this seat follows it), else the
    /// seat's only table; otherwise the error to answer (carrying the message's `id`).
    pub(super) fn table_of(
        &self,
        id: Option<String>,
        table: Option<TableId>,
    ) -> Result<TableId, ServerMsg> {
        match (table, self.tables.as_slice()) {
            (Some(t), ts) if ts.contains(&t) => Ok(t),
            (Some(t), _) => Err(error(
                id,
                ErrorCode::Forbidden,
                format!("table {t} is not one of this seat's tables"),
            )),
            (None, [only]) => Ok(*only),
            (None, _) => Err(error(
                id,
                ErrorCode::UnknownTable,
                "name the table: this seat follows several",
            )),
        }
    }

    pub(super) async fn command(
        &mut self,
        id: Option<String>,
        table: Option<TableId>,
        command: Command,
    ) -> bool {
        let Some(seat) = self.seat.as_ref().map(SeatKey::of) else {
            return false;
        };
        let role = seat.role;
        if !role.may_act() {
            let e = error(id, ErrorCode::Forbidden, "spectators cannot send commands");
            return self.send(&e).await;
        }
        let table = match self.table_of(id.clone(), table) {
            Ok(t) => t,
            Err(e) => return self.send(&e).await,
        };
        let Some(handle) = self.hub.table(table) else {
            return self
                .send(&error(id, ErrorCode::UnknownTable, "no such table"))
                .await;
        };
        let asked = std::time::Instant::now();
        let handled = handle.command(seat, command).await;
        let elapsed = asked.elapsed();
        let took = elapsed.as_micros() as u64;
        self.hub.metrics().command_answer.record(took);
        let (outcome, reason) = outcome_of(handled.as_ref());
        crate::observe::command(elapsed, outcome, reason);
        let reply = match handled {
            Some(Handled::Accepted { seq }) => ServerMsg::Ack { id, table, seq },
            Some(Handled::Refused(Refusal::Rejected(rejection))) => ServerMsg::Rejected {
                id,
                table,
                rejection,
            },
            Some(Handled::Refused(r @ (Refusal::Spectator | Refusal::ServerOnly))) => {
                error(id, ErrorCode::Forbidden, r.to_string())
            }
            Some(Handled::RateLimited) => error(
                id,
                ErrorCode::RateLimited,
                "too many commands from this seat: nothing changed, try again shortly",
            ),
            Some(Handled::Storage(e)) => error(
                id,
                ErrorCode::Storage,
                format!("not stored, nothing changed: {e}"),
            ),
            None => error(id, ErrorCode::Unavailable, "the table is not running"),
        };
        self.send(&reply).await
    }

    /// A seat's report about its recorder: only players and proxies, for their own side.
    pub(super) async fn recording(
        &mut self,
        id: Option<String>,
        state: RecorderState,
        microphone: bool,
        reason: Option<String>,
    ) -> bool {
        let role = self.seat.as_ref().map_or(Role::Spectator, |s| s.role);
        let Some(side) = role.side() else {
            let e = error(
                id,
                ErrorCode::Forbidden,
                "only a player's or proxy's client reports a recorder",
            );
            return self.send(&e).await;
        };
        // Shown on the referee's monitor: no bidi control, zero-width or control character.
        if let Some(c) = reason
            .as_deref()
            .and_then(baoqi_arbiter::bounds::hidden_in_sentence)
        {
            let why = format!(
                "reason holds U+{:04X}, a character that hides or reorders the text around it",
                u32::from(c)
            );
            return self.send(&error(id, ErrorCode::BadCommand, why)).await;
        }
        let table = match self.table_of(id, None) {
            Ok(t) => t,
            Err(e) => return self.send(&e).await,
        };
        let reason = reason.map(|r| r.chars().take(500).collect());
        let now = self.hub.timeline().now();
        let board = self.hub.recordings().board();
        let (seats, changed) = board.report(table, side, state, microphone, reason, now);
        // A change reaches this connection through the feed; an unchanged status is
        // answered here, so that every report gets its `recording` answer.
        changed || self.send(&ServerMsg::Recording { table, seats }).await
    }
}

/// A command's outcome for the metrics, and the arbiter's reason when it rejected it (the
/// rejection's `reason` as the protocol writes it).
fn outcome_of(handled: Option<&Handled>) -> (&'static str, Option<String>) {
    match handled {
        Some(Handled::Accepted { .. }) => ("accepted", None),
        Some(Handled::Refused(Refusal::Rejected(r))) => {
            let reason = serde_json::to_value(r)
                .ok()
                .and_then(|v| v.get("reason").and_then(|x| x.as_str()).map(str::to_owned));
            ("rejected", reason)
        }
        Some(Handled::RateLimited) => ("rate_limited", None),
        _ => ("refused", None),
    }
}
