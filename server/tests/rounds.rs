//! The rounds: a round and a tournament event are written whole or not at all;
//! the referees of a round (監局, 附表七 6.2(1)) get seats on its tables; a 4-player
//! knock-out (附表二 第一部份 1(1)) runs from the bracket through a drawn tie and its
//! tie-break games to the final, played over the WebSocket protocol and verified (7.9).

use crate::common;

use baoqi_organiser::admin;
use baoqi_organiser::rounds::{self, PairError, Paired};
use baoqi_organiser::{register, results};
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::{GameResult, RoundNumber};
use common::{Client, is_event, start};
use serde_json::{Value, json};

const PLAYERS: &str = "姓名,所屬團體,種子,類別
李明,視障協會,1,全失明
張華,視障協會,2,部份失明
王芳,東區,3,健視
趙強,西區,4,健視
";

pub(crate) fn event(system: &str, extra: &str) -> String {
    format!(
        r#"
name = "淘汰賽"
[tournament]
system = "{system}"
{extra}
[tournament.match]
kind = "part7"
time.default = {{ base_ms = 600_000, mode = "plain" }}
"#
    )
}

/// A tournament event of `text` with the four players registered.
pub(crate) fn tournament(store: &SqliteStore, text: &str) -> EventId {
    let (file, settings) = EventFile::with_tournament(text).unwrap();
    let created = admin::create_tournament(store, &file, settings.as_ref().unwrap()).unwrap();
    assert_eq!(
        register::import(store, created.event, PLAYERS)
            .unwrap()
            .len(),
        4
    );
    created.event
}

pub(crate) fn pair(store: &dyn Store, event: EventId) -> Result<Paired, PairError> {
    let outcomes = results::from_store(store, event).unwrap();
    rounds::pair(store, event, &outcomes)
}

/// Fails every insert of a seat of the event once it holds `after` seats, as a full disk
/// would halfway through a write.
fn fail_seats_after(db: &std::path::Path, after: usize) -> rusqlite::Connection {
    let sql = rusqlite::Connection::open(db).unwrap();
    sql.execute_batch(&format!(
        "CREATE TRIGGER full_disk BEFORE INSERT ON seats
         WHEN (SELECT count(*) FROM seats WHERE event = NEW.event) >= {after}
         BEGIN SELECT RAISE(ABORT, 'disk full'); END;"
    ))
    .unwrap();
    sql
}

#[test]
fn a_round_is_written_whole_or_not_at_all_and_can_be_paired_again() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let event = tournament(&store, &event("round_robin", ""));
    let before = store.seats(event).unwrap();
    // The second table's first seat fails: both tables are written by then.
    let sql = fail_seats_after(&db, before.len() + 2);
    let e = pair(&store, event).unwrap_err();
    assert!(matches!(e, PairError::Store(_)), "{e}");
    assert!(
        store.tables(Some(event)).unwrap().is_empty(),
        "no table of no round"
    );
    assert_eq!(store.seats(event).unwrap(), before, "no seat of the round");
    let records = store.tournaments().unwrap();
    assert!(records.pairings(event).unwrap().is_empty(), "no board");
    sql.execute_batch("DROP TRIGGER full_disk").unwrap();
    let paired = pair(&store, event).unwrap();
    assert_eq!(
        (paired.round, paired.created.tables.len()),
        (RoundNumber(1), 2)
    );
    assert_eq!(store.tables(Some(event)).unwrap().len(), 2);
    let boards = records.pairings(event).unwrap();
    assert_eq!(boards.len(), 2);
    assert!(
        boards
            .iter()
            .all(|b| b.round == RoundNumber(1) && b.table.is_some())
    );
    let _ = std::fs::remove_file(&db);
}

#[test]
fn a_tournament_event_is_created_whole_or_not_at_all() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    // The spectator's seat (after the referee's) fails.
    let sql = fail_seats_after(&db, 1);
    let (file, settings) = EventFile::with_tournament(&event("swiss", "rounds = 3")).unwrap();
    assert!(admin::create_tournament(&store, &file, settings.as_ref().unwrap()).is_err());
    assert!(
        store.events().unwrap().is_empty(),
        "no event without its settings"
    );
    sql.execute_batch("DROP TRIGGER full_disk").unwrap();
    let created = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    let records = store.tournaments().unwrap();
    assert_eq!(records.tournament(created.event).unwrap(), settings);
    let _ = std::fs::remove_file(&db);
}

#[test]
fn s7p6_2_1_the_referees_of_a_round_get_seats_on_its_tables() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let extra = r#"
[[tournament.referees]]
name = "陳監局"
rounds = [1]
boards = [2]
[[tournament.referees]]
name = "黃監局"
rounds = [2]
"#;
    let event = tournament(&store, &event("round_robin", extra));
    let options = rounds::PairOptions {
        referees: vec!["林裁判".into()],
    };
    let outcomes = results::from_store(&store, event).unwrap();
    let paired = rounds::pair_with(&store, event, &outcomes, &options).unwrap();
    let tables: Vec<TableId> = paired.created.tables.iter().map(|t| t.id).collect();
    let referees: Vec<(&str, &[TableId])> = paired
        .created
        .seats
        .iter()
        .filter(|s| s.seat.role == Role::Referee)
        .map(|s| (s.seat.name.as_str(), s.seat.tables.as_slice()))
        .collect();
    assert_eq!(
        referees,
        vec![("陳監局", &tables[1..]), ("林裁判", &tables[..])],
        "黃監局 has no table in round 1"
    );
    // Stored, and printed with the pairings: the monitor link of each.
    let stored = store.seats(event).unwrap();
    assert!(
        stored
            .iter()
            .any(|s| s.name == "陳監局" && s.tables == tables[1..])
    );
    let text = rounds::describe(&paired, "http://h");
    assert!(
        text.contains("referee monitor (陳監局): http://h/monitor#token="),
        "{text}"
    );
    assert!(
        text.contains("referee monitor (林裁判): http://h/monitor#token="),
        "{text}"
    );
    let _ = std::fs::remove_file(&db);
}

const KNOCKOUT: &str = r#"
[tournament.knockout]
games = 1
tiebreak_pairs = 1
decider = "sudden_death"
[[tournament.referees]]
name = "監局裁判"
"#;

pub(crate) async fn rule(referee: &mut Client, table: TableId, id: &str, command: Value) {
    let msg = json!({"v": 2, "type": "command", "id": id, "table": table, "command": command});
    referee.send(msg).await;
    let a = referee.answer(id).await;
    assert_eq!(a["type"], "ack", "{id}: {a}");
}

pub(crate) fn token(paired: &Paired, role: Role, table: TableId) -> String {
    paired
        .created
        .seats
        .iter()
        .find(|x| x.seat.role == role && x.seat.tables.contains(&table))
        .map(|x| x.token.secret().to_string())
        .expect("a seat")
}

/// Plays the game at `table` to `result` (a win by resignation, a draw ruled under 70(3))
/// and, when `verify`, has the round's referee (his seat's token `referee`: the one his
/// first round gave him, 附表七 6.2(1)) verify it (7.9), over the WebSocket protocol.
pub(crate) async fn play(
    s: &common::Server,
    (paired, referee): (&Paired, &str),
    table: TableId,
    result: GameResult,
    verify: bool,
) {
    let mut referee = Client::join(&s.url("monitor"), referee, None).await;
    let mut red = Client::join(&s.url("seat"), &token(paired, Role::Red, table), None).await;
    let mut black = Client::join(&s.url("seat"), &token(paired, Role::Black, table), None).await;
    let id = |what: &str| format!("{table}.{what}");
    rule(&mut referee, table, &id("start"), json!({"type": "start"})).await;
    let resign = json!({"type": "resign"});
    match result {
        GameResult::RedWins => black.command(&id("resign"), resign).await,
        GameResult::BlackWins => red.command(&id("resign"), resign).await,
        _ => {
            let cmd = json!({"type": "adjudicate", "ruling": "result", "winner": null,
                "reason": "停電", "article": "70(3)"});
            rule(&mut referee, table, &id("adj"), cmd).await;
        }
    }
    red.until(|v| is_event(v, "game_over")).await;
    if verify {
        let cmd = json!({"type": "verify_result", "note": "雙方口頭確認"});
        rule(&mut referee, table, &id("verify"), cmd).await;
    }
    for c in [referee, red, black] {
        c.close().await;
    }
}

/// The players of each table of a pairing, by name, in board order.
pub(crate) fn games(paired: &Paired) -> Vec<(String, String, String)> {
    paired
        .created
        .tables
        .iter()
        .map(|t| (t.name.clone(), t.red.clone(), t.black.clone()))
        .collect()
}

pub(crate) fn owned(rows: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|&(a, b, c)| (a.into(), b.into(), c.into()))
        .collect()
}

#[tokio::test]
async fn fu2_1_1_a_knockout_of_four_with_a_drawn_tie_decided_by_tie_break_games() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let event = tournament(&store, &event("knockout", KNOCKOUT));
    drop(store);
    let s = start(Some(db), None).await;
    let store = s.hub.store().clone();

    // Round 1, the seeded bracket: 1 v 4, 2 v 3, the higher seed red.
    let r1 = pair(&*store, event).unwrap();
    assert_eq!(r1.round, RoundNumber(1));
    assert_eq!(
        games(&r1),
        owned(&[
            ("第1輪 第1台", "李明", "趙強"),
            ("第1輪 第2台", "張華", "王芳")
        ])
    );
    s.hub.start_tables(false).await.unwrap();
    let (t1, t2) = (r1.created.tables[0].id, r1.created.tables[1].id);
    let chief = token(&r1, Role::Referee, t1);
    play(&s, (&r1, &chief), t1, GameResult::RedWins, true).await;
    play(&s, (&r1, &chief), t2, GameResult::ForcedDraw, false).await;
    // Drawn but not yet verified (7.9): the tie is undecided.
    let e = pair(&*store, event).unwrap_err();
    assert!(
        matches!(&e, PairError::TieUndecided { round: RoundNumber(1), tables, .. } if *tables == [t2]),
        "{e}"
    );
    assert!(e.to_string().contains("張華 v 王芳"), "{e}");
    let mut referee = Client::join(&s.url("monitor"), &token(&r1, Role::Referee, t2), None).await;
    let cmd = json!({"type": "verify_result", "note": "和"});
    rule(&mut referee, t2, "t2.verify", cmd).await;
    referee.close().await;

    // The level tie gets its pair of tie-break games as more tables of round 1, colours
    // alternating on from the main game; the round's referee's seat comes to cover them.
    let breaks = pair(&*store, event).unwrap();
    assert_eq!(breaks.round, RoundNumber(1));
    assert_eq!(
        games(&breaks),
        owned(&[
            ("第1輪 第3台 加賽", "王芳", "張華"),
            ("第1輪 第4台 加賽", "張華", "王芳")
        ])
    );
    s.hub.start_tables(false).await.unwrap();
    let (t3, t4) = (breaks.created.tables[0].id, breaks.created.tables[1].id);
    play(&s, (&breaks, &chief), t3, GameResult::BlackWins, true).await;
    // One tie-break game to go: the next round waits.
    let e = pair(&*store, event).unwrap_err();
    assert!(
        matches!(&e, PairError::TieUndecided { round: RoundNumber(1), tables, .. } if *tables == [t4]),
        "{e}"
    );
    play(&s, (&breaks, &chief), t4, GameResult::ForcedDraw, true).await;

    // 張華 won the tie-break games 1½–½: the final, 李明 v 張華.
    let r2 = pair(&*store, event).unwrap();
    assert_eq!(r2.round, RoundNumber(2));
    assert_eq!(games(&r2), owned(&[("第2輪 第1台", "李明", "張華")]));
    s.hub.start_tables(false).await.unwrap();
    play(
        &s,
        (&r2, &chief),
        r2.created.tables[0].id,
        GameResult::BlackWins,
        true,
    )
    .await;
    let e = pair(&*store, event).unwrap_err();
    assert!(matches!(e, PairError::Complete(2)), "{e}");
    let boards = store.tournaments().unwrap().pairings(event).unwrap();
    assert_eq!(
        boards
            .iter()
            .map(|b| (b.round, b.board))
            .collect::<Vec<_>>(),
        vec![
            (RoundNumber(1), 1),
            (RoundNumber(1), 2),
            (RoundNumber(1), 3),
            (RoundNumber(1), 4),
            (RoundNumber(2), 1)
        ]
    );
    s.stop().await;
}
