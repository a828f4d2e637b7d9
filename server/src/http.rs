//! The HTTP side: the WebSocket endpoints, the exports, the stats, and the static assets
//! (the index page lists the event's tables; the web clients go in `server/assets/`,
//! embedded at build time and served under `/assets/`).

use std::borrow::Cow;
use std::sync::Arc;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::export;
use crate::hub::Hub;
use crate::ws::Endpoint;
use baoqi_store::game::GameRecord;
use baoqi_store::model::{EventId, EventRow, TableId, TableRow};

pub use crate::socket::READ_BUFFER;
use crate::socket::upgrade;

pub mod access;
pub mod backup;
pub mod desk;
pub mod grid;
pub mod headers;
pub mod index;
pub mod live;
pub mod logs;
pub mod organiser;
mod records;
pub mod register_api;
pub mod standings;
pub mod version;

/// Every file of `server/assets/`: path under `/assets/`, content type, bytes.
pub const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../assets/index.html"),
    ),
    (
        "client.html",
        "text/html; charset=utf-8",
        include_bytes!("../assets/client.html"),
    ),
    // The web clients: plain HTML, CSS and JS modules, no build step.
    ("player.html", HTML, include_bytes!("../assets/player.html")),
    ("card.html", HTML, include_bytes!("../assets/card.html")),
    (
        "monitor.html",
        HTML,
        include_bytes!("../assets/monitor.html"),
    ),
    ("watch.html", HTML, include_bytes!("../assets/watch.html")),
    ("proxy.html", HTML, include_bytes!("../assets/proxy.html")),
    // The tournament's standings and pairings.
    (
        "standings.html",
        HTML,
        include_bytes!("../assets/standings.html"),
    ),
    // The organiser's register.
    (
        "organiser.html",
        HTML,
        include_bytes!("../assets/organiser.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/style.css"),
    ),
    (
        "app/common.js",
        JS,
        include_bytes!("../assets/app/common.js"),
    ),
    ("app/grid.js", JS, include_bytes!("../assets/app/grid.js")),
    (
        "app/spectator.js",
        JS,
        include_bytes!("../assets/app/spectator.js"),
    ),
    ("app/board.js", JS, include_bytes!("../assets/app/board.js")),
    ("app/nvui.js", JS, include_bytes!("../assets/app/nvui.js")),
    ("app/clock.js", JS, include_bytes!("../assets/app/clock.js")),
    ("app/voice.js", JS, include_bytes!("../assets/app/voice.js")),
    ("app/i18n.js", JS, include_bytes!("../assets/app/i18n.js")),
    ("app/hans.js", JS, include_bytes!("../assets/app/hans.js")),
    (
        "app/protocol.js",
        JS,
        include_bytes!("../assets/app/protocol.js"),
    ),
    ("app/text.js", JS, include_bytes!("../assets/app/text.js")),
    (
        "app/refusals.js",
        JS,
        include_bytes!("../assets/app/refusals.js"),
    ),
    (
        "app/phrases.js",
        JS,
        include_bytes!("../assets/app/phrases.js"),
    ),
    (
        "app/notation.js",
        JS,
        include_bytes!("../assets/app/notation.js"),
    ),
    (
        "app/narrate.js",
        JS,
        include_bytes!("../assets/app/narrate.js"),
    ),
    (
        "app/seat_commands.js",
        JS,
        include_bytes!("../assets/app/seat_commands.js"),
    ),
    (
        "app/player.js",
        JS,
        include_bytes!("../assets/app/player.js"),
    ),
    ("app/card.js", JS, include_bytes!("../assets/app/card.js")),
    (
        "app/console.js",
        JS,
        include_bytes!("../assets/app/console.js"),
    ),
    ("app/proxy.js", JS, include_bytes!("../assets/app/proxy.js")),
    (
        "app/monitor.js",
        JS,
        include_bytes!("../assets/app/monitor.js"),
    ),
    (
        "app/recording.js",
        JS,
        include_bytes!("../assets/app/recording.js"),
    ),
    (
        "app/standings.js",
        JS,
        include_bytes!("../assets/app/standings.js"),
    ),
    (
        "app/organiser.js",
        JS,
        include_bytes!("../assets/app/organiser.js"),
    ),
    (
        "app/corrections.js",
        JS,
        include_bytes!("../assets/app/corrections.js"),
    ),
    (
        "app/standings_views.js",
        JS,
        include_bytes!("../assets/app/standings_views.js"),
    ),
    (
        "app/summary.js",
        JS,
        include_bytes!("../assets/app/summary.js"),
    ),
    (
        "app/pairing.js",
        JS,
        include_bytes!("../assets/app/pairing.js"),
    ),
    (
        "app/arrival.js",
        JS,
        include_bytes!("../assets/app/arrival.js"),
    ),
    (
        "app/round_desk.js",
        JS,
        include_bytes!("../assets/app/round_desk.js"),
    ),
    (
        "app/rulings.js",
        JS,
        include_bytes!("../assets/app/rulings.js"),
    ),
    (
        "standings.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/standings.css"),
    ),
];

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// An error of an HTTP route, with its status.
#[derive(Debug)]
pub enum AppError {
    /// No such event, table or file.
    NotFound(String),
    /// Something failed inside.
    Internal(String),
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            AppError::NotFound(m) => (StatusCode::NOT_FOUND, m),
            AppError::Internal(m) => (StatusCode::INTERNAL_SERVER_ERROR, m),
        };
        (status, axum::Json(json!({ "error": message }))).into_response()
    }
}

/// The server's routes over a hub.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(index::page))
        .route("/seat", get(|| async { page("player.html") }))
        .route("/card", get(|| async { page("card.html") }))
        .route("/monitor", get(|| async { page("monitor.html") }))
        .route("/watch", get(|| async { page("watch.html") }))
        .route("/proxy", get(|| async { page("proxy.html") }))
        .route("/client", get(|| async { page("client.html") }))
        .route("/assets/{*path}", get(asset))
        .route("/ws/seat", get(ws_seat))
        .route("/ws/monitor", get(ws_monitor))
        .route("/ws/watch", get(ws_watch))
        .route("/api/events", get(api_events))
        .route("/api/stats", get(api_stats))
        .route("/api/tables/{id}", get(api_table))
        .route("/api/tables/{id}/scoresheet.txt", get(api_scoresheet))
        .route("/api/tables/{id}/game.pgn", get(api_pgn))
        .route("/api/events/{id}/results.txt", get(api_results_text))
        .route("/api/events/{id}/results.json", get(api_results_json))
        .merge(logs::routes())
        .merge(live::routes())
        .merge(records::routes())
        .merge(standings::routes())
        .merge(organiser::routes(hub.clone()))
        .merge(grid::routes(hub.clone()))
        .merge(desk::routes(hub.clone()))
        .merge(backup::routes(hub.clone()))
        .merge(version::routes(hub.clone()))
        .merge(version::public_routes())
        .merge(crate::recording::endpoints::routes())
        .merge(crate::observe::routes())
        .with_state(hub)
        .layer(axum::middleware::map_response(headers::secure))
}

/// The place of the connection a request came on, when the accept loop gave one (a
/// router called directly in tests has none).
type Placed = Option<axum::Extension<Arc<crate::occupancy::Place>>>;

async fn ws_seat(State(hub): State<Arc<Hub>>, place: Placed, up: WebSocketUpgrade) -> Response {
    upgrade(hub, Endpoint::Seat, place.map(|p| p.0), up)
}

async fn ws_monitor(State(hub): State<Arc<Hub>>, place: Placed, up: WebSocketUpgrade) -> Response {
    upgrade(hub, Endpoint::Monitor, place.map(|p| p.0), up)
}

async fn ws_watch(State(hub): State<Arc<Hub>>, place: Placed, up: WebSocketUpgrade) -> Response {
    upgrade(hub, Endpoint::Watch, place.map(|p| p.0), up)
}

/// The content type and bytes of a file of [`ASSETS`]. With `BAOQI_ASSETS_DIR` set (a copy
/// of `server/assets/`), the file is read from there on every request, so the web clients
/// can be worked on without rebuilding; only the files listed in [`ASSETS`] are served, and
/// a file missing there falls back to the embedded one.
fn asset_bytes(name: &str) -> Option<(&'static str, Cow<'static, [u8]>)> {
    let (_, mime, bytes) = ASSETS.iter().find(|(p, _, _)| *p == name)?;
    let from_dir = std::env::var_os(ASSETS_DIR_ENV)
        .and_then(|dir| std::fs::read(std::path::Path::new(&dir).join(name)).ok());
    Some((mime, from_dir.map_or(Cow::Borrowed(*bytes), Cow::Owned)))
}

/// The variable that names a folder to serve the web clients' files from (development).
pub const ASSETS_DIR_ENV: &str = "BAOQI_ASSETS_DIR";

async fn asset(Path(path): Path<String>) -> Result<Response, AppError> {
    let (mime, bytes) =
        asset_bytes(&path).ok_or_else(|| AppError::NotFound(format!("no asset {path}")))?;
    Ok(([(header::CONTENT_TYPE, mime)], bytes).into_response())
}

/// A table as the public sees it: who plays, not how. The players' categories, blindfolds,
/// proxies and boards are in the match configuration, which only the seats of the table
/// read ([`api_table`] with their token).
fn public_table(row: &TableRow) -> Value {
    json!({
        "id": row.id,
        "event": row.event,
        "round": row.round,
        "name": row.name,
        "red": row.red,
        "black": row.black,
    })
}

async fn api_events(State(hub): State<Arc<Hub>>) -> axum::Json<Value> {
    let events: Vec<Value> = hub
        .events()
        .into_iter()
        .map(|e| {
            let tables: Vec<Value> = hub.tables_of(e.id).iter().map(public_table).collect();
            json!({"id": e.id, "name": e.name, "tables": tables})
        })
        .collect();
    axum::Json(json!({ "events": events }))
}

async fn api_stats(State(hub): State<Arc<Hub>>) -> axum::Json<Value> {
    let (stalls, stalled) = hub.timeline().stalls();
    axum::Json(json!({
        "stats": hub.metrics().stats(),
        "tables": hub.table_count(),
        "timeline": hub.timeline().now(),
        "stalls": { "count": stalls, "left_out_ms": stalled.as_millis() as u64 },
    }))
}

fn event_of(hub: &Hub, id: EventId) -> Result<EventRow, AppError> {
    hub.event(id)
        .ok_or_else(|| AppError::NotFound(format!("no event {id}")))
}

async fn record_of(
    hub: &Hub,
    id: TableId,
) -> Result<(EventRow, TableRow, GameRecord, Arc<baoqi_arbiter::View>), AppError> {
    let row = hub
        .table_row(id)
        .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?;
    let handle = hub
        .table(id)
        .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?;
    let (record, snapshot) = handle
        .record()
        .await
        .ok_or_else(|| AppError::Internal("the table is not running".into()))?;
    Ok((event_of(hub, row.event)?, row, record, snapshot))
}

/// A table's current snapshot alone (no record, no row: cheap, for what is polled).
async fn snapshot_of(hub: &Hub, id: TableId) -> Result<Arc<baoqi_arbiter::View>, AppError> {
    hub.table(id)
        .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?
        .snapshot()
        .await
        .ok_or_else(|| AppError::Internal("the table is not running".into()))
}

/// A table's row, record and snapshot; the match configuration (the players' categories,
/// aids and boards) only for a seat of the table (`Authorization: Bearer <token>`: its
/// players, proxies and referees), whose pages need it.
async fn api_table(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<TableId>,
    headers: axum::http::HeaderMap,
) -> Result<axum::Json<Value>, AppError> {
    let (_, row, record, snapshot) = record_of(&hub, id).await?;
    let mut table = public_table(&row);
    if access::seat_of_table(&hub, &headers, &row).await {
        table["config"] = json!(row.config);
    }
    Ok(axum::Json(
        json!({"table": table, "record": record, "snapshot": *snapshot}),
    ))
}

/// The table's event and row with what the store knows of them ([`export::Known`]), and
/// its current snapshot.
async fn known_of(
    hub: &Hub,
    id: TableId,
) -> Result<(export::Known, Arc<baoqi_arbiter::View>), AppError> {
    let (event, row, _, snapshot) = record_of(hub, id).await?;
    Ok((gather(hub, event, row).await?, snapshot))
}

/// What the store knows of a table's event and players ([`export::Known`]).
async fn gather(hub: &Hub, event: EventRow, row: TableRow) -> Result<export::Known, AppError> {
    let store = hub.store().clone();
    tokio::task::spawn_blocking(move || export::Known::gather(&*store, event, row))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
        .map_err(|e| AppError::Internal(e.to_string()))
}

/// A text to download under `name`: `attachment` makes the browser save it, else it shows
/// it and saves it under that name when asked.
fn download(
    body: impl Into<axum::body::Body>,
    mime: &'static str,
    name: &export::FileName,
    attachment: bool,
) -> Response {
    let disposition = header::HeaderValue::from_str(&name.disposition(attachment))
        .unwrap_or_else(|_| header::HeaderValue::from_static("attachment"));
    (
        [
            (header::CONTENT_TYPE, header::HeaderValue::from_static(mime)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body.into(),
    )
        .into_response()
}

async fn api_scoresheet(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<TableId>,
) -> Result<Response, AppError> {
    let (known, view) = known_of(&hub, id).await?;
    let body = export::scoresheet(&known, &view).map_err(|e| AppError::Internal(e.to_string()))?;
    let name = export::FileName::of_table(&known.header(), known.event.id, "txt");
    Ok(download(body, "text/plain; charset=utf-8", &name, false))
}

async fn api_pgn(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<TableId>,
) -> Result<Response, AppError> {
    let (known, view) = known_of(&hub, id).await?;
    let body = export::pgn(&known, &view).map_err(|e| AppError::Internal(e.to_string()))?;
    let name = export::FileName::of_table(&known.header(), known.event.id, "pgn");
    Ok(download(
        body,
        "application/x-chess-pgn; charset=utf-8",
        &name,
        true,
    ))
}

/// An event's results: a tournament's by its boards (the organiser's results, byes, no
/// table set aside), another's by its tables.
async fn results(
    hub: &Arc<Hub>,
    id: EventId,
) -> Result<(EventRow, Vec<export::ResultLine>), AppError> {
    let event = event_of(hub, id)?;
    let mut rows = Vec::new();
    for t in hub.tables_of(id) {
        let (_, row, record, _) = record_of(hub, t.id).await?;
        rows.push((row, record));
    }
    let outcomes = crate::standing::from_tables(hub, id);
    let store = hub.store().clone();
    let standings = tokio::task::spawn_blocking(move || {
        baoqi_organiser::standings::compute(&*store, id, &outcomes)
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?;
    let lines = match standings {
        Ok(s) => export::results::by_board(&s, &rows),
        Err(
            baoqi_organiser::EventError::NotATournament(_)
            | baoqi_organiser::EventError::Unsupported,
        ) => export::results::by_table(&rows),
        Err(e) => return Err(AppError::Internal(e.to_string())),
    };
    Ok((event, lines))
}

async fn api_results_text(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<Response, AppError> {
    let (event, lines) = results(&hub, id).await?;
    let name = export::FileName::of_event(&event.name, event.id, "results", "txt");
    Ok(download(
        export::results::text(&event, &lines),
        "text/plain; charset=utf-8",
        &name,
        false,
    ))
}

async fn api_results_json(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<EventId>,
) -> Result<axum::Json<Value>, AppError> {
    let (event, lines) = results(&hub, id).await?;
    Ok(axum::Json(json!({"event": event, "results": lines})))
}

/// A page of the web clients (see [`asset_bytes`]).
fn page(name: &'static str) -> Html<Cow<'static, [u8]>> {
    Html(asset_bytes(name).map(|(_, b)| b).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    /// Every script of the web clients is embedded: a page that imports a file left out
    /// fails to load in a browser (a new module once went unserved, 404).
    #[test]
    fn every_script_of_the_web_clients_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/app");
        let files = std::fs::read_dir(&dir).expect("the web clients' folder");
        let mut count = 0;
        for f in files {
            let path = f.expect("a file").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.extension().is_some_and(|e| e == "js") {
                let path = format!("app/{name}");
                assert!(super::asset_bytes(&path).is_some(), "{path} is not served");
                count += 1;
            }
        }
        assert!(count > 20, "{count} scripts");
    }
}
