//! The event's version, which the organiser page polls to follow the day without a reload:
//! `GET /api/events/{id}/version` answers `{"version": "<tag>"}`, a tag that changes when
//! anything the page shows changes, and only then. The organiser's writes all append to the
//! change log (a round paired or un-paired, a result entered, a player added, corrected or
//! withdrawn, a 108 correction), whoever made them: the page, another browser, or the
//! command line writing the store from another process; the games' own results (a game
//! over, its result verified, 7.9) are in the running tables' published outcomes. The tag
//! is the log's length and a hash of those outcomes: one count read from the store and no
//! table asked for its record, so that a page may poll it every few seconds all day.
//! Behind the register's gate (`organiser::gate`): the token of a referee of the whole
//! event. The hall screen asks the same tag without a token
//! (`GET /api/events/{id}/standings.version`): it says no more than the public standings do,
//! and lets the screen show a round's pairings within seconds of their making.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use baoqi_organiser::results::Outcomes;
use serde_json::{Value, json};

use super::AppError;
use crate::hub::Hub;
use baoqi_store::model::EventId;

/// The version's route, behind the register's gate.
pub fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/events/{id}/version", get(version))
        .route_layer(axum::middleware::from_fn_with_state(
            hub,
            super::organiser::gate,
        ))
}

/// The same tag for the public standings' hall screen, without a token.
pub fn public_routes() -> Router<Arc<Hub>> {
    Router::new().route("/api/events/{id}/standings.version", get(version))
}

/// The tag of an event whose change log holds `changes` lines and whose finished games are
/// `outcomes`.
#[must_use]
pub fn tag(changes: u64, outcomes: &Outcomes) -> String {
    let mut games = String::new();
    for (table, o) in outcomes {
        let _ = write!(
            games,
            "{table}:{:?}:{}:{};",
            o.result, o.verified, o.started
        );
    }
    let mut h = std::hash::DefaultHasher::new();
    games.hash(&mut h);
    format!("{changes}-{:016x}", h.finish())
}

async fn version(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<axum::Json<Value>, AppError> {
    let outcomes = crate::standing::from_tables(&hub, id);
    let store = hub.store().clone();
    let changes = tokio::task::spawn_blocking(move || {
        store
            .tournaments()
            .map_or(Ok(0), |records| records.change_count(id))
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
    .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(axum::Json(json!({ "version": tag(changes, &outcomes) })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_organiser::results::TableOutcome;
    use baoqi_store::model::TableId;
    use baoqi_tournament::GameResult;

    #[test]
    fn the_tag_changes_with_the_log_and_with_each_game_over_or_verified() {
        let mut outcomes = Outcomes::new();
        let before = tag(3, &outcomes);
        assert_eq!(
            before,
            tag(3, &Outcomes::new()),
            "the same day, the same tag"
        );
        assert_ne!(before, tag(4, &outcomes), "a change logged");
        let over = TableOutcome {
            result: Some(GameResult::RedWins),
            verified: false,
            started: true,
        };
        outcomes.insert(TableId(7), over);
        let played = tag(3, &outcomes);
        assert_ne!(before, played, "a game over");
        outcomes.insert(
            TableId(7),
            TableOutcome {
                verified: true,
                ..over
            },
        );
        assert_ne!(played, tag(3, &outcomes), "its result verified");
    }
}
