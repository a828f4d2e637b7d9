//! 第108條 from the organiser page: the register's view lists the current round's
//! boards, and `POST /api/events/{id}/tables/{table}/override` corrects one (colours reversed,
//! 108(1); a wrong pairing, 108(2)) with the same referee token as the register, each refusal
//! a code the page reads out.

use axum::http::StatusCode;
use baoqi_organiser::rounds::{self, Absent};
use baoqi_store::model::{EventId, Role, TableId};
use serde_json::{Value, json};

use crate::organiser::{call, event_at, pair, token};

/// A server over a 5-player Swiss of `minutes` a side, round 1 paired; the referee's and a
/// spectator's tokens.
async fn paired(minutes: u64) -> (crate::common::Server, EventId, String, String) {
    let (store, c, db) = event_at("swiss", minutes);
    pair(&store, c.event);
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    (
        server,
        c.event,
        token(&c, Role::Referee),
        token(&c, Role::Spectator),
    )
}

async fn boards(s: &crate::common::Server, event: EventId, referee: &str) -> Vec<Value> {
    let path = format!("/api/events/{event}/players");
    let (status, body) = call(&s.hub, "GET", &path, Some(referee), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["boards"].as_array().unwrap().clone()
}

fn table(board: &Value) -> TableId {
    TableId(board["table"].as_i64().unwrap())
}

/// `POST …/tables/{table}/override` with `body`; the status and the code of a refusal.
async fn correct(
    s: &crate::common::Server,
    event: EventId,
    table: TableId,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let path = format!("/api/events/{event}/tables/{table}/override");
    call(&s.hub, "POST", &path, token, Some(body)).await
}

fn colours(round: u32) -> Value {
    json!({"round": round, "correction": "colours_reversed"})
}

fn exchange(round: u32, with: TableId, side: &str) -> Value {
    json!({"round": round, "correction": {"exchange": {"with": with, "side": side}}})
}

#[tokio::test]
async fn a108_the_page_corrects_a_board_of_the_current_round_over_http() {
    let (s, e, referee, spectator) = paired(20).await;
    let list = boards(&s, e, &referee).await;
    assert_eq!(list.len(), 2, "two games, the bye is no board: {list:?}");
    assert!(list.iter().all(|b| b["round"] == 1));
    let (t1, t2) = (table(&list[0]), table(&list[1]));

    let (status, _) = correct(&s, e, t1, None, colours(1)).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "no correction without a token"
    );
    let (status, _) = correct(&s, e, t1, Some(&spectator), colours(1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // 108(1) within 5′ of a 20′ game: replayed at a new table, its seats' links shown once.
    let (status, done) = correct(&s, e, t1, Some(&referee), colours(1)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["remedy"], "replay");
    let new = table(&done["boards"][0]);
    assert_ne!(new, t1);
    let seats = done["seats"].as_array().unwrap();
    assert!(seats.len() >= 2, "{done}");
    assert!(
        seats.iter().all(|x| x["table"] == new.0
            && ["/seat#token=", "/card#token=", "/proxy#token="]
                .iter()
                .any(|p| x["link"].as_str().unwrap().starts_with(p))),
        "{done}"
    );

    let code = |v: &Value| v["code"].as_str().map(String::from);
    let (status, body) = correct(&s, e, t1, Some(&referee), colours(1)).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::NOT_FOUND, Some("no_board".into())),
        "the old table is set aside"
    );
    let (status, body) = correct(&s, e, t2, Some(&referee), exchange(1, t2, "red")).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("same_table".into()))
    );
    let (status, body) = correct(&s, e, t2, Some(&referee), colours(2)).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::CONFLICT, Some("wrong_round".into()))
    );

    // 108(2): the black players of both boards exchanged, both replayed.
    let (status, done) = correct(&s, e, new, Some(&referee), exchange(1, t2, "black")).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["boards"].as_array().unwrap().len(), 2);
    let after = boards(&s, e, &referee).await;
    assert_eq!(after[0]["black"], list[1]["black"]);
    assert_eq!(after[1]["black"], list[0]["black"]);

    let path = format!("/api/events/{e}/players");
    let (_, view) = call(&s.hub, "GET", &path, Some(&referee), None).await;
    let texts: Vec<&str> = view["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("108(1) round 1 board 1: colours reversed")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("108(2) round 1: pairing corrected")),
        "{texts:?}"
    );

    // The round is over once the next is paired: its boards are no longer corrected.
    let store = s.hub.store().clone();
    for b in &after {
        rounds::record_absence(&*store, e, table(b), Absent::Black).unwrap();
    }
    pair(&*store, e);
    let (status, body) = correct(&s, e, table(&after[0]), Some(&referee), colours(1)).await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::CONFLICT, Some("round_over".into())),
        "{body}"
    );
    assert_eq!(boards(&s, e, &referee).await[0]["round"], 2);
}

#[tokio::test]
async fn a108_past_the_window_a_swap_is_recorded_and_an_exchange_refused_over_http() {
    let (s, e, referee, _) = paired(10).await;
    let list = boards(&s, e, &referee).await;
    let (t1, t2) = (table(&list[0]), table(&list[1]));
    let (status, body) = correct(&s, e, t1, Some(&referee), exchange(1, t2, "red")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("outside_window")),
        "{body}"
    );
    assert!(
        body["error"].as_str().unwrap().contains("the game stands"),
        "{body}"
    );
    let (status, done) = correct(&s, e, t1, Some(&referee), colours(1)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["remedy"], "record");
    assert_eq!(done["seats"], json!([]), "no new table");
    assert_eq!(done["boards"][0]["table"], t1.0);
    assert_eq!(done["boards"][0]["red"], list[0]["black"]);
}
