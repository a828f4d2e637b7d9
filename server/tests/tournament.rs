//! A tournament end to end: an 8-player, 3-round inclusive Swiss (two VI players, 全失明 and
//! 部份失明, and a deaf 聾啞 player) from a CSV register → `round pair` → games played by
//! scripted seats over the WebSocket protocol, verified by the referee (7.9) → standings over
//! HTTP, equal to what the tournament core computes from the results the script played.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use baoqi_organiser::admin;
use baoqi_organiser::rounds::{self, Absent, PairError, Paired};
use baoqi_organiser::{register, results};
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::standings::standings;
use baoqi_tournament::{Game, GameResult, Round, RoundNumber};
use common::{Client, is_event, start};
use serde_json::{Value, json};
use tower::ServiceExt;

const EVENT: &str = r#"
name = "共融公開賽"
[tournament]
system = "swiss"
rounds = 3
scoring = "huang"
tiebreaks = ["head_to_head", "buchholz", "sonneborn_berger"]
[tournament.match]
kind = "part7"
time.default = { base_ms = 600_000, mode = "plain" }
time.blind = { base_ms = 900_000, mode = "plain" }
time.partially_sighted = { base_ms = 750_000, mode = "plain" }
"#;

const PLAYERS: &str = "姓名,所屬團體,種子,類別
李明,視障協會,1,全失明
張華,視障協會,2,部份失明
王芳,東區,3,健視
趙強,聾人會,4,聾啞
陳一,西區,,健視
林二,東區,,健視
黃三,西區,,健視
周四,南區,,健視
";

const DEAF: &str = "趙強";

/// What the script plays at each board: 1 and 3 black resigns, 2 red resigns, 4 the referee
/// rules 強制和棋 (70(3)); round 3 board 4 is an absence the organiser records (87).
fn scripted(round: RoundNumber, board: usize) -> GameResult {
    match (round, board) {
        (RoundNumber(3), 4) => GameResult::BlackAbsent,
        (_, 2) => GameResult::BlackWins,
        (_, 4) => GameResult::ForcedDraw,
        _ => GameResult::RedWins,
    }
}

async fn act(c: &mut Client, id: &str, command: Value) {
    c.command(id, command).await;
    let a = c.answer(id).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

async fn rule(referee: &mut Client, table: TableId, id: &str, command: Value) {
    let msg = json!({"v": 2, "type": "command", "id": id, "table": table, "command": command});
    referee.send(msg).await;
    let a = referee.answer(id).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

/// Plays board `board` of a paired round over the WebSocket protocol and verifies it (7.9).
async fn play(s: &common::Server, referee: &mut Client, paired: &Paired, board: usize) {
    let row = &paired.created.tables[board - 1];
    let token = |role: Role| {
        paired
            .created
            .seats
            .iter()
            .find(|x| x.seat.role == role && x.seat.tables == [row.id])
            .map(|x| x.token.secret().to_string())
            .expect("a seat")
    };
    let mut red = Client::join(&s.url("seat"), &token(Role::Red), None).await;
    let mut black = Client::join(&s.url("seat"), &token(Role::Black), None).await;
    let id = |what: &str| format!("{}.{}", row.id, what);
    rule(referee, row.id, &id("start"), json!({"type": "start"})).await;
    let resign = |name: &str| {
        if name == DEAF {
            json!({"type": "hand_card", "card": "resign"})
        } else {
            json!({"type": "resign"})
        }
    };
    match scripted(paired.round, board) {
        GameResult::RedWins => act(&mut black, &id("resign"), resign(&row.black)).await,
        GameResult::BlackWins => act(&mut red, &id("resign"), resign(&row.red)).await,
        _ => {
            let cmd = json!({"type": "adjudicate", "ruling": "result", "winner": null,
                "reason": "停電", "article": "70(3)"});
            rule(referee, row.id, &id("adj"), cmd).await;
        }
    }
    red.until(|v| is_event(v, "game_over")).await;
    let verify = json!({"type": "verify_result", "note": "雙方口頭確認"});
    rule(referee, row.id, &id("verify"), verify).await;
    red.close().await;
    black.close().await;
}

async fn get(hub: &Arc<baoqi_server::Hub>, path: &str) -> String {
    let router = baoqi_server::http::router(hub.clone());
    let request = Request::get(path).body(Body::empty()).unwrap();
    let resp = router.oneshot(request).await.unwrap();
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn pair(store: &dyn Store, event: EventId) -> Result<Paired, PairError> {
    let outcomes = results::from_store(store, event).unwrap();
    rounds::pair(store, event, &outcomes)
}

#[tokio::test]
async fn fu2_an_inclusive_swiss_from_register_to_standings() {
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
    assert_eq!(register::import(&store, event, PLAYERS).unwrap().len(), 8);
    drop(store);
    let s = start(Some(db), None).await;
    let store = s.hub.store().clone();
    let mut played: Vec<Round> = Vec::new();
    for round in (1..=3).map(RoundNumber) {
        let paired = pair(&*store, event).unwrap();
        assert_eq!((paired.round, paired.created.tables.len()), (round, 4));
        // 7.2: each table's clocks come from the register, none repeated by hand.
        for t in &paired.created.tables {
            for side in [&t.config.red, &t.config.black] {
                let base = t.config.time.for_side(side).base_ms;
                let want = match side.name.as_str() {
                    "李明" => 900_000,
                    "張華" => 750_000,
                    _ => 600_000,
                };
                assert_eq!(base, want, "{}", side.name);
            }
        }
        s.hub.start_tables(false).await.unwrap();
        let mut referee = Client::join(&s.url("monitor"), &referee_token, None).await;
        let mut games = Vec::new();
        for (i, row) in paired.created.tables.iter().enumerate() {
            let board = i + 1;
            let result = scripted(round, board);
            if result == GameResult::BlackAbsent {
                rounds::record_absence(&*store, event, row.id, Absent::Black).unwrap();
            } else {
                play(&s, &mut referee, &paired, board).await;
            }
            let g = store.tournaments().unwrap().pairings(event).unwrap();
            let p = g.iter().find(|p| p.table == Some(row.id)).unwrap();
            games.push(Game {
                red: p.red,
                black: p.black.unwrap(),
                result: Some(result),
            });
            if board == 1 && round < RoundNumber(3) {
                // The round is not over: the next one cannot be paired yet.
                let e = pair(&*store, event).unwrap_err();
                assert!(matches!(e, PairError::Unfinished { .. }), "{e}");
            }
        }
        referee.close().await;
        played.push(Round {
            games,
            byes: Vec::new(),
            half_byes: Vec::new(),
        });
    }
    let e = pair(&*store, event).unwrap_err();
    assert!(matches!(e, PairError::Complete(3)), "{e}");

    let json: Value =
        serde_json::from_str(&get(&s.hub, &format!("/api/events/{event}/standings.json")).await)
            .unwrap();
    let records = store.tournaments().unwrap();
    let register: Vec<_> = records
        .players(event)
        .unwrap()
        .into_iter()
        .map(|r| r.player)
        .collect();
    let t = records.tournament(event).unwrap().unwrap();
    let expected = standings(&register, &played, t.scoring(), &t.tiebreaks);
    let got: Vec<(u64, u64, u64)> = json["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let n = |v: &Value| v.as_u64().unwrap();
            (n(&l["place"]), n(&l["player"]["id"]), n(&l["halves"]))
        })
        .collect();
    let want: Vec<(u64, u64, u64)> = expected
        .iter()
        .map(|x| (x.place.into(), x.player.0.into(), x.score.0.into()))
        .collect();
    assert_eq!(got, want, "{json}");
    assert_eq!(json["rounds_complete"], 3);
    // 黃氏計分法: the absent player scores 缺席 0 in round 3, his opponent 不戰而勝 12.
    let round3 = &json["rounds"][2]["boards"][3];
    assert_eq!(round3["result"], "black_absent", "{round3}");
    // Each game's result as the arbiter reported it, mapped with the colours played.
    let scores: BTreeMap<u64, u64> = got.iter().map(|&(_, id, h)| (id, h)).collect();
    assert_eq!(scores.values().sum::<u64>() % 2, 0);
    let csv = get(&s.hub, &format!("/api/events/{event}/standings.csv")).await;
    assert_eq!(csv.lines().count(), 9, "{csv}");
    s.stop().await;
}
