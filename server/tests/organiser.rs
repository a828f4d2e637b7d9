//! The organiser's changes once the register is imported: late entrants, corrected
//! lines, withdrawals (89(2)) and 108's corrections, each checked by the tournament core and
//! logged; and the register's JSON API, which only a referee of the whole event may use.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use baoqi_organiser::admin::{self, Created};
use baoqi_organiser::edits::{self, EditError, Patch};
use baoqi_organiser::overrides::{self, Correction, OverrideError};
use baoqi_organiser::rounds::{self, Absent, Paired};
use baoqi_organiser::{Logged, register, results};
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::changes::{Adjustment, Change, ChangeError, Missed, Remedy};
use baoqi_tournament::{GameResult, PlayerId, RoundNumber};
use serde_json::{Value, json};
use tower::ServiceExt;

const PLAYERS: &str = "姓名,所屬團體,種子,類別
李明,視障協會,1,全失明
張華,視障協會,2,部份失明
王芳,東區,3,健視
趙強,聾人會,4,聾啞
陳一,西區,,健視
";

/// An event of `system` with `minutes` a side and the five players above.
fn event(system: &str, minutes: u64) -> (SqliteStore, Created) {
    let (store, created, _) = event_at(system, minutes);
    (store, created)
}

/// [`event`], with its database file.
pub(crate) fn event_at(system: &str, minutes: u64) -> (SqliteStore, Created, std::path::PathBuf) {
    let toml = format!(
        "name = \"共融賽\"\nspectators = 1\n[tournament]\nsystem = \"{system}\"\nrounds = 3\n\
         [tournament.match]\ntime.default = {{ base_ms = {}, mode = \"plain\" }}\n",
        minutes * 60_000
    );
    let (store, path) = SqliteStore::open_temp().unwrap();
    let (file, settings) = EventFile::with_tournament(&toml).unwrap();
    let created = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    register::import(&store, created.event, PLAYERS).unwrap();
    (store, created, path)
}

pub(crate) fn pair(store: &dyn Store, event: EventId) -> Paired {
    let outcomes = results::from_store(store, event).unwrap();
    rounds::pair(store, event, &outcomes).unwrap()
}

/// Every game of the round lost by black's absence (87): the round is over and final.
pub(crate) fn finish(store: &dyn Store, event: EventId, paired: &Paired) {
    for t in &paired.created.tables {
        rounds::record_absence(store, event, t.id, Absent::Black).unwrap();
    }
}

fn named(name: &str) -> Patch {
    Patch {
        name: Some(name.into()),
        ..Patch::default()
    }
}

fn players_of(paired: &Paired) -> Vec<String> {
    let mut out: Vec<String> = paired
        .created
        .tables
        .iter()
        .flat_map(|t| [t.red.clone(), t.black.clone()])
        .chain(paired.byes.iter().map(|p| p.name.clone()))
        .collect();
    out.sort();
    out
}

fn changes(store: &dyn Store, event: EventId) -> Vec<Logged> {
    let records = store.tournaments().unwrap();
    records
        .changes(event)
        .unwrap()
        .into_iter()
        .map(|l| l.change)
        .collect()
}

#[test]
fn a89_2_withdrawn_before_the_start_leaves_the_round_robin_draw() {
    let (store, c) = event("round_robin", 20);
    let change = edits::withdraw(&store, c.event, PlayerId(5), Some("病假"))
        .unwrap()
        .change;
    assert_eq!(
        change,
        Change::Withdrawn {
            player: PlayerId(5),
            adjustment: Adjustment::Redraw
        }
    );
    let paired = pair(&store, c.event);
    assert_eq!(paired.created.tables.len(), 2, "four players, no bye");
    assert!(paired.byes.is_empty());
    assert!(!players_of(&paired).contains(&"陳一".to_string()));
    assert!(changes(&store, c.event).contains(&Logged::Withdrawal {
        change,
        reason: Some("病假".into())
    }));
}

#[test]
fn a89_2_a_swiss_withdrawal_keeps_his_results_and_pairs_him_no_more() {
    let (store, c) = event("swiss", 20);
    let first = pair(&store, c.event);
    finish(&store, c.event, &first);
    let change = edits::withdraw(&store, c.event, PlayerId(1), None)
        .unwrap()
        .change;
    assert_eq!(
        change,
        Change::Withdrawn {
            player: PlayerId(1),
            adjustment: Adjustment::NotPaired
        }
    );
    let e = edits::withdraw(&store, c.event, PlayerId(1), None).unwrap_err();
    assert!(matches!(e, EditError::AlreadyWithdrawn(PlayerId(1))), "{e}");
    assert_eq!(e.to_string(), "player #1 has already withdrawn (89(2))");
    let e = edits::withdraw(&store, c.event, PlayerId(9), None).unwrap_err();
    assert_eq!(e.to_string(), format!("event {} has no player #9", c.event));
    let second = pair(&store, c.event);
    assert!(!players_of(&second).contains(&"李明".to_string()));
    assert_eq!(players_of(&second).len(), 4);
    let rows = store.tournaments().unwrap().pairings(c.event).unwrap();
    assert!(
        rows.iter()
            .any(|r| r.round == RoundNumber(1)
                && (r.red == PlayerId(1) || r.black == Some(PlayerId(1)))),
        "his round-1 board stands"
    );
}

/// A Swiss player who withdraws once his round is paired will not play his board: it is
/// lost by his absence (缺席, 87; the opponent's 不戰而勝) in the same transaction, so the
/// round does not wait for a result nobody will give; the standings mark him withdrawn.
#[test]
fn a89_2_a_swiss_withdrawal_after_the_pairing_loses_his_board_by_absence() {
    let (store, c) = event("swiss", 20);
    let first = pair(&store, c.event);
    let rows = store.tournaments().unwrap().pairings(c.event).unwrap();
    let his = rows
        .iter()
        .find(|r| r.black.is_some() && r.red != PlayerId(1) && r.black != Some(PlayerId(1)))
        .copied()
        .unwrap();
    let (player, absent) = (his.red, GameResult::RedAbsent);
    let done = edits::withdraw(&store, c.event, player, Some("家中有事")).unwrap();
    assert_eq!(done.forfeited.len(), 1, "{done:?}");
    assert_eq!(
        (done.forfeited[0].board, done.forfeited[0].result),
        (his.board, Some(absent))
    );
    let rows = store.tournaments().unwrap().pairings(c.event).unwrap();
    let board = rows
        .iter()
        .find(|r| r.board == his.board && r.round == RoundNumber(1))
        .unwrap();
    assert_eq!(board.result, Some(absent));
    // The others' results given, round 2 pairs without him.
    for t in &first.created.tables {
        if Some(t.id) != his.table {
            rounds::record_absence(&store, c.event, t.id, Absent::Black).unwrap();
        }
    }
    let second = pair(&store, c.event);
    assert_eq!(players_of(&second).len(), 4, "paired no more");
    let outcomes = results::from_store(&store, c.event).unwrap();
    let st = baoqi_organiser::standings::compute(&store, c.event, &outcomes).unwrap();
    let line = st.lines.iter().find(|l| l.player.id == player).unwrap();
    assert!(line.withdrawn, "the standings mark him withdrawn");
}

#[test]
fn a89_2_a_round_robin_after_the_start_takes_a_withdrawal_but_no_entrant_and_keeps_its_draw() {
    let (store, c) = event("round_robin", 20);
    pair(&store, c.event);
    // Nothing played yet: fewer than half of his games, so they are annulled.
    let change = edits::withdraw(&store, c.event, PlayerId(2), None)
        .unwrap()
        .change;
    assert_eq!(
        change,
        Change::Withdrawn {
            player: PlayerId(2),
            adjustment: Adjustment::Annulled
        }
    );
    let e = edits::add(&store, c.event, &named("遲到者")).unwrap_err();
    assert!(
        matches!(e, EditError::Change(ChangeError::RoundRobinStarted)),
        "{e}"
    );
    let seed = Patch {
        seed: Some(Some(9)),
        ..Patch::default()
    };
    let e = edits::edit(&store, c.event, PlayerId(5), &seed).unwrap_err();
    assert!(matches!(e, EditError::DrawFixed), "{e}");
}

#[test]
fn a_late_entrant_joins_a_swiss_at_the_next_round() {
    let (store, c) = event("swiss", 20);
    let first = pair(&store, c.event);
    finish(&store, c.event, &first);
    let patch = Patch {
        club: Some(Some("南區".into())),
        categories: Some(vec![baoqi_arbiter::Category::Deaf]),
        ..named("周四")
    };
    let added = edits::add(&store, c.event, &patch).unwrap();
    assert_eq!(added.player.id, PlayerId(6));
    assert_eq!(added.player.club.as_deref(), Some("南區"));
    assert!(
        changes(&store, c.event).contains(&Logged::Change(Change::LateEntrant {
            player: PlayerId(6),
            from_round: RoundNumber(2),
            missed: Missed::Nothing,
        }))
    );
    let second = pair(&store, c.event);
    assert!(players_of(&second).contains(&"周四".to_string()));
    assert_eq!(second.created.tables.len(), 3, "six players, three games");
    let e = edits::add(&store, c.event, &Patch::default()).unwrap_err();
    assert!(matches!(e, EditError::EmptyName), "{e}");
}

#[test]
fn an_edit_corrects_a_line_and_is_logged() {
    let (store, c) = event("swiss", 20);
    let patch = Patch {
        name: Some("王芳芳".into()),
        proxy: Some(Some("劉助手".into())),
        ..Patch::default()
    };
    let edited = edits::edit(&store, c.event, PlayerId(3), &patch).unwrap();
    assert_eq!(edited.player.name, "王芳芳");
    assert_eq!(edited.player.seed, Some(3), "fields not given stay");
    let log = changes(&store, c.event);
    assert!(
        matches!(log.last(), Some(Logged::Edited { before, after }) if before.name == "王芳" && after.proxy.as_deref() == Some("劉助手"))
    );
    let taken = Patch {
        seed: Some(Some(1)),
        ..Patch::default()
    };
    let e = edits::edit(&store, c.event, PlayerId(3), &taken).unwrap_err();
    assert_eq!(e.to_string(), "seed 1 is already player #1's");
    let e = edits::edit(&store, c.event, PlayerId(3), &Patch::default()).unwrap_err();
    assert!(matches!(e, EditError::Nothing), "{e}");
}

#[test]
fn a108_1_colours_reversed_before_5_minutes_are_replayed_at_a_new_table() {
    let (store, c) = event("swiss", 20);
    let paired = pair(&store, c.event);
    let table = paired.created.tables[0].clone();
    let before = store.seats(c.event).unwrap();
    let done = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        table.id,
        Correction::SwapColours,
    )
    .unwrap();
    assert_eq!(done.remedy, Remedy::Replay);
    let created = done.created.expect("a new table");
    let new = &created.tables[0];
    assert_ne!(new.id, table.id);
    assert_eq!((&new.red, &new.black), (&table.red, &table.black));
    assert_eq!(done.boards[0].table, Some(new.id));
    let seats = store.seats(c.event).unwrap();
    for s in before.iter().filter(|s| s.tables == [table.id]) {
        let now = seats.iter().find(|x| x.token_hash == s.token_hash).unwrap();
        assert!(now.revoked, "the old table's {} seat is revoked", s.role);
    }
    assert!(changes(&store, c.event).iter().any(|l| matches!(l,
        Logged::Retabled { round: RoundNumber(1), board: 1, from, to } if *from == Some(table.id) && *to == new.id)));
}

#[test]
fn a108_1_a_replay_failing_at_its_log_line_leaves_nothing() {
    let (store, c, db) = event_at("swiss", 20);
    let paired = pair(&store, c.event);
    let table = paired.created.tables[0].id;
    let records = store.tournaments().unwrap();
    let before = (
        store.tables(Some(c.event)).unwrap(),
        store.seats(c.event).unwrap(),
        records.pairings(c.event).unwrap(),
        records.changes(c.event).unwrap(),
    );
    // The change log's line, written after the new table, its seats, the revocations and
    // the board moved, fails as a full disk would.
    let sql = rusqlite::Connection::open(&db).unwrap();
    sql.execute_batch(
        "CREATE TRIGGER full_disk BEFORE INSERT ON changes
         BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    )
    .unwrap();
    let e = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        table,
        Correction::SwapColours,
    )
    .unwrap_err();
    assert!(matches!(e, OverrideError::Store(_)), "{e}");
    let after = (
        store.tables(Some(c.event)).unwrap(),
        store.seats(c.event).unwrap(),
        records.pairings(c.event).unwrap(),
        records.changes(c.event).unwrap(),
    );
    assert_eq!(after.0, before.0, "no new table");
    assert_eq!(after.1, before.1, "no new seat, no seat revoked");
    assert_eq!(after.2, before.2, "the board stays at its table");
    assert_eq!(after.3, before.3, "no log line");
    sql.execute_batch("DROP TRIGGER full_disk").unwrap();
    let done = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        table,
        Correction::SwapColours,
    )
    .unwrap();
    assert_eq!(done.remedy, Remedy::Replay, "and it can be done again");
    let _ = std::fs::remove_file(&db);
}

#[test]
fn a108_1_colours_reversed_in_a_short_game_are_recorded_as_played() {
    let (store, c) = event("swiss", 10);
    let paired = pair(&store, c.event);
    let table = paired.created.tables[1].id;
    rounds::record_absence(&store, c.event, table, Absent::Black).unwrap();
    let rows = store.tournaments().unwrap().pairings(c.event).unwrap();
    let old = rows
        .iter()
        .find(|r| r.table == Some(table))
        .copied()
        .unwrap();
    let done = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        table,
        Correction::SwapColours,
    )
    .unwrap();
    assert_eq!(done.remedy, Remedy::Record);
    assert!(done.created.is_none());
    let b = done.boards[0];
    assert_eq!((b.red, b.black), (old.black.unwrap(), Some(old.red)));
    assert_eq!(b.result, Some(GameResult::BlackAbsent), "the result stands");
    assert_eq!(b.table, Some(table));
}

#[test]
fn a108_2_a_wrong_pairing_is_replayed_within_the_window_only() {
    let (store, c) = event("swiss", 20);
    let paired = pair(&store, c.event);
    let (t1, t2) = (
        paired.created.tables[0].clone(),
        paired.created.tables[1].clone(),
    );
    let exchange = Correction::Exchange {
        with: t2.id,
        side: baoqi_rules::Color::Black,
    };
    let done = overrides::correct(&store, c.event, RoundNumber(1), t1.id, exchange).unwrap();
    assert_eq!(done.remedy, Remedy::Replay);
    let new = &done.created.as_ref().unwrap().tables;
    assert_eq!((&new[0].red, &new[0].black), (&t1.red, &t2.black));
    assert_eq!((&new[1].red, &new[1].black), (&t2.red, &t1.black));
    let e = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        t1.id,
        Correction::SwapColours,
    )
    .unwrap_err();
    assert!(
        matches!(e, OverrideError::NoBoard { .. }),
        "the old table is set aside: {e}"
    );
    let e = overrides::correct(
        &store,
        c.event,
        RoundNumber(2),
        new[0].id,
        Correction::SwapColours,
    )
    .unwrap_err();
    assert!(matches!(e, OverrideError::WrongRound { .. }), "{e}");

    let (store, c) = event("swiss", 10);
    let paired = pair(&store, c.event);
    let (t1, t2) = (paired.created.tables[0].id, paired.created.tables[1].id);
    let exchange = Correction::Exchange {
        with: t2,
        side: baoqi_rules::Color::Red,
    };
    let e = overrides::correct(&store, c.event, RoundNumber(1), t1, exchange).unwrap_err();
    assert!(matches!(e, OverrideError::OutsideWindow { .. }), "{e}");
    assert!(e.to_string().contains("the game stands"), "{e}");
}

#[test]
fn a108_only_the_current_round_is_corrected() {
    let (store, c) = event("swiss", 20);
    let first = pair(&store, c.event);
    finish(&store, c.event, &first);
    pair(&store, c.event);
    let table = first.created.tables[0].id;
    let e = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        table,
        Correction::SwapColours,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            OverrideError::NotCurrent {
                round: RoundNumber(1),
                current: RoundNumber(2)
            }
        ),
        "{e}"
    );
}

// ---- over HTTP ----

pub(crate) async fn call(
    hub: &Arc<baoqi_server::Hub>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let resp = baoqi_server::http::router(hub.clone())
        .oneshot(req.body(body).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

pub(crate) fn token(c: &Created, role: Role) -> String {
    c.seats
        .iter()
        .find(|s| s.seat.role == role)
        .map(|s| s.token.secret().to_string())
        .unwrap()
}

#[tokio::test]
async fn the_register_api_is_for_a_referee_of_the_whole_event() {
    let (store, c, db) = event_at("swiss", 20);
    let e = c.event;
    drop(store);
    let server = crate::common::start(Some(db), None).await;
    let hub = server.hub.clone();
    let referee = token(&c, Role::Referee);
    let spectator = token(&c, Role::Spectator);
    let players = format!("/api/events/{e}/players");

    let (status, body) = call(&hub, "GET", &players, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let add = json!({"name": "周四", "categories": ["blind"], "blindfold": true});
    let (status, _) = call(&hub, "POST", &players, None, Some(add.clone())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "no write without a token");
    let (status, _) = call(&hub, "POST", &players, Some(&spectator), Some(add.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let (status, body) = call(&hub, "POST", &players, Some(&referee), Some(add)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["player"]["id"], 6);
    let path = format!("{players}/6");
    let (status, body) = call(
        &hub,
        "PATCH",
        &path,
        Some(&referee),
        Some(json!({"club": "南區"})),
    )
    .await;
    assert_eq!(
        (status, &body["player"]["club"]),
        (StatusCode::OK, &json!("南區"))
    );
    let withdraw = format!("{players}/2/withdraw");
    let reason = json!({"reason": "身體不適"});
    let (status, body) = call(
        &hub,
        "POST",
        &withdraw,
        Some(&referee),
        Some(reason.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = call(&hub, "POST", &withdraw, Some(&referee), Some(reason)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_withdrawn"))
    );
    let (status, body) = call(
        &hub,
        "PATCH",
        &format!("{players}/99"),
        Some(&referee),
        Some(json!({"name": "x"})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_player"))
    );
    let (status, body) = call(
        &hub,
        "POST",
        &players,
        Some(&referee),
        Some(json!({"name": " "})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("empty_name"))
    );

    let (status, body) = call(&hub, "GET", &players, Some(&referee), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list = body["players"].as_array().unwrap();
    assert_eq!(list.len(), 6);
    assert_eq!(list[1]["active"], false);
    assert_eq!(
        list[5]["settings"]["board"], "vi",
        "a blindfolded player gets the VI board"
    );
    let texts: Vec<&str> = body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("late entrant #6 周四")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("89(2) #2 張華 withdrew") && t.contains("身體不適")),
        "{texts:?}"
    );
}
