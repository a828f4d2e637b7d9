//! A whole tournament day end to end, on `SQLite` and on `PostgreSQL`. A 40-player, 7-round
//! Swiss under 黃氏計分法 (a register saved with a BOM, a late entrant, a withdrawal after
//! a round is paired (89(2)), a 108 replay, results entered and one corrected rounds later
//! (87, 7.9)), with a referee's monitor and a spectators' page connected from before
//! round 1 to after the last, each seeing every table of every round without reconnecting,
//! and told of the table set aside.

use crate::common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use baoqi_organiser::edits::{self, Patch};
use baoqi_organiser::grid::{self, Entry, Signed};
use baoqi_organiser::overrides::{self, Correction};
use baoqi_organiser::{admin, register, results, rounds, standings};
use baoqi_server::limits::Limits;
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::{GameResult, RoundNumber, SameName};
use common::{Client, PgSchema, start_on};

const EVENT: &str = r#"
name = "全日賽"
spectators = 1
[tournament]
system = "swiss"
rounds = 7
scoring = "huang"
tiebreaks = ["buchholz"]
[tournament.match]
kind = "part7"
time.default = { base_ms = 1_200_000, mode = "plain" }
"#;

/// 40 players as a spreadsheet saves them: a byte order mark, CRLF line ends, categories.
fn register_csv() -> String {
    let kinds = ["全失明", "部份失明", "聾啞", "健視"];
    let mut csv = String::from("\u{feff}姓名,所屬團體,種子,類別\r\n");
    for i in 1..=40 {
        let _ = write!(csv, "棋手{i:02},會{},{i},{}\r\n", i % 6, kinds[i % 4]);
    }
    csv
}

/// The `tables` messages `c` gets until every one of `ids` is listed, within 3 s; the
/// tables set aside it was told of on the way.
async fn sees(c: &mut Client, ids: &[TableId], aside: &mut BTreeSet<TableId>) {
    let want: BTreeSet<TableId> = ids.iter().copied().collect();
    let until = tokio::time::Instant::now() + Duration::from_secs(3);
    loop {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        let msg = tokio::time::timeout(left, c.until(|v| v["type"] == "tables"))
            .await
            .unwrap_or_else(|_| panic!("tables {want:?} not listed within 3 s"));
        let listed: BTreeSet<TableId> = serde_json::from_value(msg["tables"].clone()).unwrap();
        let set: Vec<TableId> =
            serde_json::from_value(msg["set_aside"].clone()).unwrap_or_default();
        aside.extend(set);
        if want.is_subset(&listed) {
            return;
        }
    }
}

/// The result the organiser's clerk enters at the `k`-th board of a round.
fn result_of(k: usize) -> GameResult {
    [
        GameResult::RedWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::RedWins,
    ][k % 4]
}

/// The clerk's signature on the results he enters.
fn clerk() -> Signed {
    Signed {
        by: "王裁判長".into(),
        reason: None,
        overwrite: false,
    }
}

/// Round `round`'s results, entered by the clerk at every board without one; in round 5,
/// round 3's board 2, wrongly entered, is put right with a reason.
fn enter_results(store: &dyn Store, event: EventId, round: RoundNumber) {
    let outcomes = results::from_store(store, event).unwrap();
    let cells = grid::grid(store, event, Some(round), &outcomes).unwrap();
    for (k, cell) in cells.iter().enumerate() {
        if cell.black.is_some() && cell.result.is_none() {
            let entry = Entry::Result(result_of(k));
            grid::enter(
                store,
                event,
                (round, cell.board),
                entry,
                &clerk(),
                &outcomes,
            )
            .unwrap();
        }
    }
    if round == RoundNumber(5) {
        let fix = Signed {
            reason: Some("記錄卡寫和局".into()),
            overwrite: true,
            ..clerk()
        };
        let draw = Entry::Result(GameResult::Draw);
        let cell = grid::enter(store, event, (RoundNumber(3), 2), draw, &fix, &outcomes).unwrap();
        assert_eq!(cell.result, Some(GameResult::Draw));
    }
}

/// What happens to round `round` once paired: in round 3 a player withdraws (89(2)), his
/// board lost by his absence; in round 4 board 1's colours were reversed within 5′ of a 20′
/// game and it is replayed (108). Returns the player withdrawn, and the tables set aside
/// and added.
fn after_pairing(
    store: &dyn Store,
    event: EventId,
    round: RoundNumber,
    ids: &[TableId],
) -> (
    Option<baoqi_tournament::PlayerId>,
    Option<(TableId, TableId)>,
) {
    match round {
        RoundNumber(3) => {
            let rows = store.tournaments().unwrap().pairings(event).unwrap();
            let board = rows.iter().find(|r| r.table == Some(ids[5])).unwrap();
            let player = board.black.unwrap();
            let done = edits::withdraw(store, event, player, Some("身體不適")).unwrap();
            assert_eq!(done.forfeited.len(), 1);
            (Some(player), None)
        }
        RoundNumber(4) => {
            let done = overrides::correct(
                store,
                event,
                RoundNumber(4),
                ids[0],
                Correction::SwapColours,
            )
            .unwrap();
            (None, Some((ids[0], done.boards[0].table.unwrap())))
        }
        _ => (None, None),
    }
}

/// The event, its register imported; the referee's and the spectator's tokens.
fn morning(store: &dyn Store) -> (EventId, String, String) {
    let (file, settings) = EventFile::with_tournament(EVENT).unwrap();
    let created = admin::create_tournament(store, &file, settings.as_ref().unwrap()).unwrap();
    let csv = register_csv();
    register::import_file(store, created.event, csv.as_bytes(), SameName::default()).unwrap();
    let token = |role: Role| {
        let s = created.seats.iter().find(|s| s.seat.role == role).unwrap();
        s.token.secret().to_string()
    };
    (created.event, token(Role::Referee), token(Role::Spectator))
}

async fn whole_day(store: Arc<dyn Store>, db: PathBuf) {
    let (event, referee, spectator) = morning(&*store);
    let s = start_on(store.clone(), db, None, Limits::default()).await;
    s.hub.watch_store();
    let mut monitor = Client::join(&s.url("monitor"), &referee, None).await;
    let mut watcher = Client::join(&s.url("watch"), &spectator, None).await;
    let (mut aside, mut told, mut withdrawn) = (BTreeSet::new(), BTreeSet::new(), None);
    for round in (1..=7).map(RoundNumber) {
        if round == RoundNumber(2) {
            let late = Patch {
                name: Some("遲到者".into()),
                ..Patch::default()
            };
            edits::add(&*store, event, &late).unwrap();
        }
        let outcomes = results::from_store(&*store, event).unwrap();
        let paired = rounds::pair(&*store, event, &outcomes).unwrap();
        let mut ids: Vec<TableId> = paired.created.tables.iter().map(|t| t.id).collect();
        let (gone, replayed) = after_pairing(&*store, event, round, &ids);
        withdrawn = withdrawn.or(gone);
        if let Some((old, new)) = replayed {
            told.insert(old);
            ids.retain(|&t| t != old);
            ids.push(new);
        }
        sees(&mut monitor, &ids, &mut aside).await;
        sees(&mut watcher, &ids, &mut BTreeSet::new()).await;
        enter_results(&*store, event, round);
    }
    // The monitor was told of the table set aside (every later list repeats it); neither
    // screen ever reconnected.
    assert_eq!(aside, told, "the table set aside by the replay");
    for c in [&monitor, &watcher] {
        let welcomes = c.seen.iter().filter(|v| v["type"] == "welcome").count();
        assert_eq!(welcomes, 1, "one connection all day");
    }
    evening(&s, &*store, event, withdrawn, &told).await;
    s.stop().await;
}

/// After the last round: the standings and the public results file.
async fn evening(
    s: &common::Server,
    store: &dyn Store,
    event: EventId,
    withdrawn: Option<baoqi_tournament::PlayerId>,
    told: &BTreeSet<TableId>,
) {
    let outcomes = results::from_store(store, event).unwrap();
    let st = standings::compute(store, event, &outcomes).unwrap();
    assert_eq!(st.rounds_complete, 7);
    assert_eq!(st.lines.len(), 41, "40 and the late entrant");
    let gone = st.lines.iter().find(|l| Some(l.player.id) == withdrawn);
    assert!(gone.unwrap().withdrawn);
    let path = format!("/api/events/{event}/results.txt");
    let (status, _, text) = s.get(&path, None).await;
    assert!(status.is_success());
    for t in told {
        let line = format!("桌{t}）");
        assert!(
            !text.contains(&line),
            "set aside, not in the results: {text}"
        );
    }
    assert!(text.contains("第7輪"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_day_on_sqlite_with_the_screens_open_from_morning_to_evening() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    whole_day(Arc::new(store), db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_day_on_postgres_with_the_screens_open_from_morning_to_evening() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    whole_day(Arc::new(schema.open()), PathBuf::new()).await;
}
