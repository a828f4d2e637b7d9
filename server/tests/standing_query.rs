//! A player asks his place from his seat (`query_standing`) and the server answers from the
//! event's standings: nothing before the first round is final, then his place and
//! 黃氏計分法 points after it, still after round 1 while round 2 is played; an event that
//! is not a tournament says it has no standings.

use crate::common;

use baoqi_organiser::admin;
use baoqi_organiser::rounds::{self, Absent, Paired};
use baoqi_organiser::{register, results};
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::RoundNumber;
use common::{Client, ONE_TABLE, event_file, is_event, start};
use serde_json::{Value, json};

const EVENT: &str = r#"
name = "名次測試賽"
[tournament]
system = "swiss"
rounds = 2
scoring = "huang"
[tournament.match]
kind = "part6"
time.default = { base_ms = 600_000, mode = "plain" }
"#;

const PLAYERS: &str = "姓名,所屬團體,種子,類別
李明,視障協會,1,全失明
張華,視障協會,2,部份失明
王芳,東區,3,全失明
趙強,西區,4,全失明
";

fn token(paired: &Paired, table: TableId, role: Role) -> String {
    paired
        .created
        .seats
        .iter()
        .find(|x| x.seat.role == role && x.seat.tables == [table])
        .map(|x| x.token.secret().to_string())
        .expect("a seat")
}

async fn ask(c: &mut Client, id: &str) -> Value {
    c.send(json!({"v": 2, "type": "query_standing", "id": id}))
        .await;
    let a = c.answer(id).await;
    assert_eq!(a["type"], "standing", "{a}");
    a["standing"].clone()
}

async fn rule(referee: &mut Client, table: TableId, id: &str, command: Value) {
    let msg = json!({"v": 2, "type": "command", "id": id, "table": table, "command": command});
    referee.send(msg).await;
    let a = referee.answer(id).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

/// Black resigns at `table`; the referee verifies the result (7.9) when `verify`.
async fn black_resigns(
    s: &common::Server,
    referee: &mut Client,
    paired: &Paired,
    table: TableId,
    verify: bool,
) {
    let mut black = Client::join(&s.url("seat"), &token(paired, table, Role::Black), None).await;
    rule(
        referee,
        table,
        &format!("{table}.start"),
        json!({"type": "start"}),
    )
    .await;
    black.command("r", json!({"type": "resign"})).await;
    assert_eq!(black.answer("r").await["type"], "ack");
    black.until(|v| is_event(v, "game_over")).await;
    if verify {
        let v = json!({"type": "verify_result", "note": "雙方口頭確認"});
        rule(referee, table, &format!("{table}.verify"), v).await;
    }
    black.close().await;
}

fn pair(store: &dyn Store, event: EventId) -> Paired {
    let outcomes = results::from_store(store, event).unwrap();
    rounds::pair(store, event, &outcomes).unwrap()
}

#[tokio::test]
async fn fu2_3_a_seat_hears_its_place_after_a_finished_round() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let (file, settings) = EventFile::with_tournament(EVENT).unwrap();
    let created = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    let event = created.event;
    let referee_token = created
        .seats
        .iter()
        .find(|x| x.seat.role == Role::Referee)
        .map(|x| x.token.secret().to_string())
        .unwrap();
    register::import(&store, event, PLAYERS).unwrap();
    drop(store);
    let s = start(Some(db), None).await;
    let store = s.hub.store().clone();

    let one = pair(&*store, event);
    s.hub.start_tables(false).await.unwrap();
    let [t1, t2] = [one.created.tables[0].id, one.created.tables[1].id];
    let mut referee = Client::join(&s.url("monitor"), &referee_token, None).await;
    let mut red1 = Client::join(&s.url("seat"), &token(&one, t1, Role::Red), None).await;
    assert_eq!(
        ask(&mut red1, "q0").await,
        json!({"answer": "no_round_finished", "rounds_total": 2})
    );
    // Board 1: black resigns, verified; board 2: black absent (87), recorded.
    black_resigns(&s, &mut referee, &one, t1, true).await;
    rounds::record_absence(&*store, event, t2, Absent::Black).unwrap();

    // 黃氏計分法 after round 1: 勝 13 first, 不戰而勝 12 second, 負 2 third, 缺席 0 last.
    let placed = |place: u32, halves: u32| {
        json!({"answer": "placed", "after_round": 1, "rounds_total": 2, "place": place,
               "shared": false, "halves": halves, "players": 4})
    };
    assert_eq!(ask(&mut red1, "q1").await, placed(1, 26));
    let mut black2 = Client::join(&s.url("seat"), &token(&one, t2, Role::Black), None).await;
    assert_eq!(ask(&mut black2, "q2").await, placed(4, 0));

    // Round 2 is paired and one of its games is over, not yet verified: still after round 1.
    let two = pair(&*store, event);
    s.hub.start_tables(false).await.unwrap();
    let u1 = two.created.tables[0].id;
    // A referee's connection follows the tables there were when it joined.
    referee.close().await;
    let mut referee = Client::join(&s.url("monitor"), &referee_token, None).await;
    black_resigns(&s, &mut referee, &two, u1, false).await;
    let mut red = Client::join(&s.url("seat"), &token(&two, u1, Role::Red), None).await;
    let now = ask(&mut red, "q3").await;
    assert_eq!(now["after_round"], 1, "{now}");
    // His round-1 score only: 勝 13 at table t1, 不戰而勝 12 at t2, without round 2's 勝.
    let rows = store.tournaments().unwrap().pairings(event).unwrap();
    let me = rows.iter().find(|r| r.table == Some(u1)).unwrap().red;
    let first = rows
        .iter()
        .find(|r| r.round == RoundNumber(1) && r.red == me);
    let want = match first.and_then(|r| r.table) {
        Some(t) if t == t1 => 26,
        Some(_) => 24,
        None => 4, // he lost round 1 (負 2)
    };
    assert_eq!(now["halves"], want, "{now}");
    red.close().await;
    red1.close().await;
    black2.close().await;
    referee.close().await;
    s.stop().await;
}

#[tokio::test]
async fn fu2_3_an_event_without_a_tournament_has_no_standings() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let mut red = Client::join(&s.url("seat"), &s.token(Role::Red, 0), None).await;
    assert_eq!(ask(&mut red, "q").await, json!({"answer": "no_standings"}));
    red.close().await;
    s.stop().await;
}

#[tokio::test]
async fn a_query_before_hello_is_refused() {
    let s = start(None, Some(&event_file(ONE_TABLE))).await;
    let mut c = Client::connect(&s.url("seat")).await;
    c.send(json!({"v": 2, "type": "query_standing", "id": "early"}))
        .await;
    let a = c.next().await;
    assert_eq!(
        (a["type"].as_str(), a["code"].as_str()),
        (Some("error"), Some("not_authenticated")),
        "{a}"
    );
    s.stop().await;
}
