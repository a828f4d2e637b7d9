//! A tournament day as the organiser and his referees live it. Screens opened in the
//! morning follow the afternoon's rounds: a referee's monitor and a spectators' page opened
//! before a round is paired get its tables without reconnecting.

use crate::common;

use std::time::Duration;

use baoqi_store::config::TableSpec;
use baoqi_store::model::{Role, TableId};
use baoqi_tournament::RoundNumber;
use common::{Client, event_file, start};
use serde_json::Value;

/// An event whose rounds are not paired yet: a referee of every table and a spectator.
const MORNING: &str = r#"
name = "公開賽"
spectators = 1
"#;

fn table(round: RoundNumber, n: u32) -> TableSpec {
    TableSpec {
        round,
        name: format!("第{round}輪 第{n}台"),
        red: format!("紅{n}"),
        black: format!("黑{n}"),
        red_proxy: None,
        black_proxy: None,
        config: None,
    }
}

/// The next `tables` message, within `ms`.
async fn next_tables(c: &mut Client, ms: u64) -> Value {
    tokio::time::timeout(
        Duration::from_millis(ms),
        c.until(|v| v["type"] == "tables"),
    )
    .await
    .expect("a `tables` message in time")
}

#[tokio::test]
async fn screens_opened_before_a_round_follow_its_tables_without_reconnecting() {
    let s = start(None, Some(&event_file(MORNING))).await;
    let event = s.created.event;
    let token = |role: Role| {
        let seat = s
            .created
            .seats
            .iter()
            .find(|x| x.seat.role == role)
            .unwrap();
        seat.token.secret().to_string()
    };
    let mut monitor = Client::join(&s.url("monitor"), &token(Role::Referee), None).await;
    let mut watcher = Client::join(&s.url("watch"), &token(Role::Spectator), None).await;
    for c in [&monitor, &watcher] {
        let w = &c.seen[0];
        assert_eq!(
            w["tables"],
            serde_json::json!([]),
            "nothing paired yet: {w}"
        );
    }
    // Round 1 is paired by another process (`baoqi round pair` writes the store).
    let store = s.hub.store().clone();
    let (first, _) =
        baoqi_organiser::admin::add_table(&*store, event, &table(RoundNumber(1), 1)).unwrap();
    let (second, seats) =
        baoqi_organiser::admin::add_table(&*store, event, &table(RoundNumber(1), 2)).unwrap();
    let ids = serde_json::json!([first.id, second.id]);
    for c in [&mut monitor, &mut watcher] {
        let mut listed = next_tables(c, 2_500).await;
        if listed["tables"] != ids {
            // The scan may find the two tables in one look or in two.
            listed = next_tables(c, 2_500).await;
        }
        assert_eq!(listed["tables"], ids, "{listed}");
        assert_eq!(listed["event"], event.0);
        for id in [first.id, second.id] {
            c.until(|v| v["type"] == "state" && v["table"] == id.0)
                .await;
        }
    }
    // The new table's players join it; its moves reach the screens opened in the morning.
    let red = seats
        .iter()
        .find(|s| s.seat.role == Role::Red)
        .unwrap()
        .token
        .secret()
        .to_string();
    let mut player = Client::join(&s.url("seat"), &red, None).await;
    player.until(|v| v["type"] == "state").await;
    monitor
        .command_on("s", second.id, serde_json::json!({"type": "start"}))
        .await;
    assert_eq!(monitor.answer("s").await["type"], "ack");
    watcher
        .until(|v| v["type"] == "event" && v["table"] == second.id.0)
        .await;
    // A player's seat is one table: it is never sent the event's list.
    assert!(
        !player.seen.iter().any(|v| v["type"] == "tables"),
        "{:?}",
        player.seen
    );
    s.stop().await;
}

/// The public results file counts as the standings do. Round 1 of a 5-player Swiss
/// of 20′ a side: board 1's colours were reversed and it is replayed at a new table (108(1),
/// within 5′ of a game of 15′ or more); board 2's black was absent (87); one player has the
/// bye. The file lists the boards: the replayed one at its new table, the absence as
/// `+/-`, the bye; the table set aside is not listed.
#[tokio::test]
async fn the_results_file_is_the_boards_as_the_standings_count_them() {
    use baoqi_organiser::overrides::{self, Correction};
    use baoqi_organiser::rounds::{self, Absent};
    let (store, c, db) = crate::organiser::event_at("swiss", 20);
    let paired = crate::organiser::pair(&store, c.event);
    let (first, second) = (&paired.created.tables[0], &paired.created.tables[1]);
    rounds::record_absence(&store, c.event, second.id, Absent::Black).unwrap();
    let done = overrides::correct(
        &store,
        c.event,
        RoundNumber(1),
        first.id,
        Correction::SwapColours,
    )
    .unwrap();
    let new = done.boards[0].table.unwrap();
    drop(store);
    let s = start(Some(db), None).await;
    let (status, _, text) = s
        .get(&format!("/api/events/{}/results.txt", c.event), None)
        .await;
    assert!(status.is_success(), "{status}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.contains("第1輪")).count(),
        1,
        "{text}"
    );
    let board = |n: u32| {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("第{n}台")))
            .unwrap_or_else(|| panic!("board {n}: {text}"))
    };
    assert!(
        board(1).contains(&format!("桌{new}")) && board(1).ends_with('*'),
        "{text}"
    );
    assert!(board(2).ends_with("+/-"), "87, an absence: {text}");
    assert!(
        board(3).contains("輪空") && board(3).ends_with("bye"),
        "{text}"
    );
    assert!(
        !text.contains(&format!("桌{}）", first.id)),
        "set aside (108): {text}"
    );
    // The index page: the event's links (results, standings, the organiser's page) and its
    // tables under their round, each labelled once by its round.
    let (_, _, index) = s.get("/", None).await;
    for link in [
        format!("/api/events/{}/results.txt", c.event),
        format!("/standings#event={}", c.event),
        format!("/organiser#event={}", c.event),
    ] {
        assert!(index.contains(&link), "{link}: {index}");
    }
    assert!(index.contains("<h3>第1輪 Round 1</h3>"), "{index}");
    assert!(
        !index.contains("第1輪 第1輪") && !index.contains("第1輪 第1台"),
        "{index}"
    );
    s.stop().await;
}

/// 第108條: a table replaced by a replay is closed (作廢) while the server runs. Its
/// clocks, running, stop where they stood (nothing more is written to its log, so no flag
/// fall and no call for the referee); the referee's monitor, open all along, is told it is
/// set aside and gets the new table; it is not started again after a restart.
#[tokio::test]
async fn a108_a_table_replaced_by_a_replay_is_closed_with_its_clocks_stopped() {
    use baoqi_organiser::overrides::{self, Correction};
    let (store, c, db) = crate::organiser::event_at("swiss", 20);
    let paired = crate::organiser::pair(&store, c.event);
    let old = paired.created.tables[0].id;
    drop(store);
    let s = start(Some(db), None).await;
    s.hub.watch_store();
    let referee = crate::organiser::token(&c, Role::Referee);
    let mut monitor = Client::join(&s.url("monitor"), &referee, None).await;
    monitor
        .command_on("go", old, serde_json::json!({"type": "start"}))
        .await;
    assert_eq!(monitor.answer("go").await["type"], "ack");
    // The organiser replays the board (108(1)) from the command line: another process.
    let store = s.hub.store().clone();
    let done = overrides::correct(
        &*store,
        c.event,
        RoundNumber(1),
        old,
        Correction::SwapColours,
    )
    .unwrap();
    let new = done.boards[0].table.unwrap();
    // Told of the table set aside and of the new one, in one message or two.
    let told = tokio::time::timeout(
        Duration::from_millis(2_500),
        monitor.until(|v| {
            v["type"] == "tables"
                && v["set_aside"] == serde_json::json!([old])
                && v["tables"]
                    .as_array()
                    .is_some_and(|t| t.contains(&serde_json::json!(new)))
        }),
    )
    .await
    .expect("the monitor is told within 2 s");
    let listed: Vec<TableId> = serde_json::from_value(told["tables"].clone()).unwrap();
    assert!(listed.contains(&new) && !listed.contains(&old), "{told}");
    assert!(s.hub.table(old).is_none(), "its task has ended");
    let logged = store.log(old).unwrap().len();
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(
        store.log(old).unwrap().len(),
        logged,
        "nothing more is written"
    );
    let db = s.stop().await;
    let again = start(Some(db), None).await;
    assert!(again.hub.table(old).is_none(), "never started again");
    assert!(again.hub.table(new).is_some());
    again.stop().await;
}

/// The result grid over HTTP, as the organiser page does it (第87條, 附表七 7.9): the grid of a
/// round; a result entered; another over it refused with 409 naming what it replaces,
/// then made with `overwrite` and a reason (422 without one); the change log signed with
/// the referee's seat name; the monitor, open all along, is told the organiser's result of
/// the table within 2 s, and again when it is cleared.
#[tokio::test]
async fn a87_the_result_grid_over_http_and_the_monitor_shows_the_organisers_result() {
    let (store, c, db) = crate::organiser::event_at("swiss", 20);
    let paired = crate::organiser::pair(&store, c.event);
    let table = paired.created.tables[0].id;
    drop(store);
    let s = start(Some(db), None).await;
    s.hub.watch_store();
    let referee = crate::organiser::token(&c, Role::Referee);
    let mut monitor = Client::join(&s.url("monitor"), &referee, None).await;
    let e = c.event;
    let call = |method: &'static str, path: String, body: Option<Value>| {
        let hub = s.hub.clone();
        let referee = referee.clone();
        async move { crate::organiser::call(&hub, method, &path, Some(&referee), body).await }
    };
    let (status, grid) = call("GET", format!("/api/events/{e}/grid?round=1"), None).await;
    assert_eq!(status, 200, "{grid}");
    assert_eq!(
        grid.as_array().unwrap().len(),
        3,
        "two games and a bye: {grid}"
    );
    assert_eq!(grid[0]["table"], table.0);
    assert_eq!(grid[0]["result"], Value::Null);
    let board = format!("/api/events/{e}/grid/1/1");
    let absent = serde_json::json!({"result": "black_absent"});
    let (status, cell) = call("POST", board.clone(), Some(absent)).await;
    assert_eq!(
        (status.as_u16(), &cell["result"]),
        (200, &serde_json::json!("black_absent")),
        "{cell}"
    );
    let told = tokio::time::timeout(
        Duration::from_millis(2_500),
        monitor.until(|v| v["type"] == "recorded"),
    )
    .await
    .expect("the monitor is told within 2 s");
    assert_eq!(
        told["results"],
        serde_json::json!([{"table": table, "result": "black_absent"}])
    );
    let draw = serde_json::json!({"result": "draw"});
    let (status, refused) = call("POST", board.clone(), Some(draw)).await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(
        (&refused["code"], &refused["current"], &refused["from"]),
        (
            &serde_json::json!("would_replace"),
            &serde_json::json!("black_absent"),
            &serde_json::json!("recorded")
        )
    );
    let (status, _) = call(
        "POST",
        board.clone(),
        Some(serde_json::json!({"result": "draw", "overwrite": true})),
    )
    .await;
    assert_eq!(status, 422, "a replacement says why");
    let fixed = serde_json::json!({"result": "draw", "overwrite": true, "reason": "記錄卡寫和局"});
    let (status, cell) = call("POST", board.clone(), Some(fixed)).await;
    assert_eq!(
        (status.as_u16(), &cell["result"]),
        (200, &serde_json::json!("draw"))
    );
    let (_, listed) = call("GET", format!("/api/events/{e}/players"), None).await;
    let log = listed.to_string();
    assert!(
        log.contains("(was +/-), by ") && log.contains("reason: 記錄卡寫和局"),
        "{log}"
    );
    let (status, _) = call(
        "POST",
        board.clone(),
        Some(serde_json::json!({"result": null})),
    )
    .await;
    assert_eq!(status, 200);
    let cleared = tokio::time::timeout(
        Duration::from_millis(2_500),
        monitor.until(|v| v["type"] == "recorded" && v["results"] == serde_json::json!([])),
    )
    .await;
    assert!(cleared.is_ok(), "the monitor is told of the clearing");
    let (status, bye) = call(
        "POST",
        format!("/api/events/{e}/grid/1/3"),
        Some(serde_json::json!({"result": "red_wins"})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), &bye["code"]),
        (409, &serde_json::json!("bye"))
    );
    s.stop().await;
}

/// 附表七 6.2(1) and 第108條: a referee of some boards (`[[tournament.referees]]`)
/// follows his board to its replay's table: his seat covers the new table, and his monitor,
/// open all along, gets it without reconnecting; the other board referee does not.
#[tokio::test]
async fn s7p6_2_1_a_board_referee_gets_the_replay_table_of_his_board() {
    use baoqi_organiser::overrides::{self, Correction};
    let root = env!("CARGO_MANIFEST_DIR");
    let toml = std::fs::read_to_string(format!("{root}/../docs/tournament.toml")).unwrap();
    let csv = std::fs::read_to_string(format!("{root}/../tests/web/fixtures/players.csv")).unwrap();
    let (store, db) = baoqi_store::SqliteStore::open_temp().unwrap();
    let (file, settings) = baoqi_store::config::EventFile::with_tournament(&toml).unwrap();
    let created =
        baoqi_organiser::admin::create_tournament(&store, &file, settings.as_ref().unwrap())
            .unwrap();
    baoqi_organiser::register::import(&store, created.event, &csv).unwrap();
    let paired = crate::organiser::pair(&store, created.event);
    let board1 = paired.created.tables[0].id;
    let seat_of = |name: &str| {
        paired
            .created
            .seats
            .iter()
            .find(|s| s.seat.role == Role::Referee && s.seat.name == name)
            .unwrap_or_else(|| panic!("no seat of {name}"))
            .clone()
    };
    let (chen, huang) = (seat_of("陳監局"), seat_of("黃監局"));
    assert!(chen.seat.tables.contains(&board1) && !huang.seat.tables.contains(&board1));
    drop(store);
    let s = start(Some(db), None).await;
    s.hub.watch_store();
    let mut monitor = Client::join(&s.url("monitor"), chen.token.secret(), None).await;
    let store = s.hub.store().clone();
    let done = overrides::correct(
        &*store,
        created.event,
        RoundNumber(1),
        board1,
        Correction::SwapColours,
    )
    .unwrap();
    let new = done.boards[0].table.unwrap();
    tokio::time::timeout(
        Duration::from_millis(2_500),
        monitor.until(|v| {
            v["type"] == "tables"
                && v["tables"]
                    .as_array()
                    .is_some_and(|t| t.contains(&serde_json::json!(new)))
        }),
    )
    .await
    .expect("the board's referee gets its new table within 2 s");
    monitor
        .until(|v| v["type"] == "state" && v["table"] == new.0)
        .await;
    let seat = |hash: &str| store.seat(hash).unwrap().unwrap();
    assert!(seat(&chen.token.hash()).tables.contains(&new));
    assert!(!seat(&huang.token.hash()).tables.contains(&new));
    s.stop().await;
}

/// The desk over HTTP (the organiser page's 配對下一輪 and 撤回最後一輪): a round paired and
/// taken back as `round pair` and `round unpair` do; the next refused, with the tables it
/// names, while the last round's games have no result; nothing done with a player's token.
#[tokio::test]
async fn the_desk_pairs_and_takes_back_a_round_over_http_for_the_event_s_referee_only() {
    let (store, c, db) = crate::organiser::event_at("swiss", 20);
    drop(store);
    let s = start(Some(db), None).await;
    s.hub.watch_store();
    let referee = crate::organiser::token(&c, Role::Referee);
    let e = c.event;
    let post = |path: String, token: String| {
        let hub = s.hub.clone();
        async move { crate::organiser::call(&hub, "POST", &path, Some(&token), None).await }
    };
    let (status, paired) = post(format!("/api/events/{e}/rounds"), referee.clone()).await;
    assert_eq!(status, 200, "{paired}");
    assert_eq!(paired["round"], 1);
    let seats = paired["seats"].as_array().expect("the new seats");
    let player = seats
        .iter()
        .find(|s| s["role"] == "red")
        .and_then(|s| s["link"].as_str())
        .and_then(|l| l.split("token=").nth(1))
        .expect("a red player's link")
        .to_owned();
    let (status, _) = post(format!("/api/events/{e}/rounds/unpair"), player).await;
    assert!(
        [401, 403].contains(&status.as_u16()),
        "a player's token: {status}"
    );
    let (status, refused) = post(format!("/api/events/{e}/rounds"), referee.clone()).await;
    assert_eq!(
        (status.as_u16(), &refused["code"]),
        (409, &serde_json::json!("unfinished")),
        "{refused}"
    );
    assert_eq!(
        refused["tables"].as_array().map(Vec::len),
        Some(2),
        "{refused}"
    );
    let (status, undone) = post(format!("/api/events/{e}/rounds/unpair"), referee.clone()).await;
    assert_eq!(
        (status.as_u16(), &undone["round"]),
        (200, &serde_json::json!(1)),
        "{undone}"
    );
    let (status, nothing) = post(format!("/api/events/{e}/rounds/unpair"), referee).await;
    assert_eq!(
        (status.as_u16(), &nothing["code"]),
        (409, &serde_json::json!("nothing")),
        "{nothing}"
    );
    s.stop().await;
}
