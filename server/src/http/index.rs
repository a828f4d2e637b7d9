//! The index page (`/`): the events on this server, each with its tables by round and the
//! links a visitor needs: the results table, and for a tournament its standings page and the
//! organiser's page. Only what the public may see: who plays at which table, never how.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::State;
use axum::response::Html;

use crate::hub::Hub;
use baoqi_store::model::{EventRow, TableRow};

/// `GET /`: the page, with the events' sections in place of its `<!--TABLES-->` mark.
pub async fn page(State(hub): State<Arc<Hub>>) -> Html<String> {
    let events = hub.events();
    let store = hub.store().clone();
    let ids: Vec<_> = events.iter().map(|e| e.id).collect();
    let tournaments = tokio::task::spawn_blocking(move || {
        ids.iter()
            .map(|&id| {
                store
                    .tournaments()
                    .and_then(|t| t.tournament(id).ok().flatten())
                    .is_some()
            })
            .collect::<Vec<bool>>()
    })
    .await
    .unwrap_or_default();
    let mut list = String::new();
    for (i, event) in events.iter().enumerate() {
        let tournament = tournaments.get(i).copied().unwrap_or(false);
        list.push_str(&section(event, &hub.tables_of(event.id), tournament));
    }
    let (_, bytes) = super::asset_bytes("index.html").unwrap_or_default();
    Html(String::from_utf8_lossy(&bytes).replace("<!--TABLES-->", &list))
}

/// One event's section: its links, then its tables under a heading per round. Every name is
/// isolated (`<bdi>`): a right-to-left name, or a bidi control kept from before such names
/// were refused, never reorders the rest of its line.
fn section(event: &EventRow, tables: &[TableRow], tournament: bool) -> String {
    let mut out = format!("<section><h2><bdi>{}</bdi></h2>\n<p>", escape(&event.name));
    let id = event.id;
    if tournament {
        let _ = write!(
            out,
            "<a href=\"/standings#event={id}\">名次與對賽表 Standings</a> · \
             <a href=\"/organiser#event={id}\">編排與成績（裁判長） Organiser</a> · "
        );
    }
    // The event's log is the referees' (it holds the sealed move): not linked here.
    let _ = writeln!(
        out,
        "<a href=\"/api/events/{id}/results.txt\">成績表 Results</a></p>"
    );
    let mut round = None;
    for t in tables {
        if round != Some(t.round) {
            if round.is_some() {
                out.push_str("</ul>\n");
            }
            round = Some(t.round);
            let _ = writeln!(out, "<h3>第{0}輪 Round {0}</h3>\n<ul>", t.round);
        }
        let _ = writeln!(
            out,
            "<li><bdi>{}</bdi>：<bdi>{}</bdi> 對 <bdi>{}</bdi> — <a href=\"/api/tables/{id}/scoresheet.txt\">記錄</a> \
             <a href=\"/api/tables/{id}/game.pgn\">PGN</a></li>",
            escape(label(t)),
            escape(&t.red),
            escape(&t.black),
            id = t.id
        );
    }
    if round.is_some() {
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// A table's label under its round's heading: its name without the round it repeats
/// (a paired table is named `第N輪 第M台`).
fn label(t: &TableRow) -> &str {
    let prefix = format!("第{}輪", t.round);
    match t.name.strip_prefix(&prefix).map(str::trim_start) {
        Some(rest) if !rest.is_empty() => rest,
        _ => &t.name,
    }
}

/// Text made safe inside HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
