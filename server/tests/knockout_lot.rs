//! A knock-out's last resorts (附表二 第一部份 1(1), 3(a)): a tie still level
//! after its tie-break games goes to the lot (抽籤), drawn by the server at the organiser's
//! word, logged, its winner through to the next round; the tie-break games (and a
//! decider) are played at the event's tie-break time, each player keeping his 7.2
//! allowance.

use crate::common;
use crate::rounds::{event, games, owned, pair, play, token, tournament};

use baoqi_arbiter::{ClockMode, MatchConfig, TimeControl};
use baoqi_organiser::lot::{self, LotError};
use baoqi_organiser::results::{Outcomes, TableOutcome};
use baoqi_organiser::rounds::{self, PairError, Paired};
use baoqi_organiser::{Logged, results};
use baoqi_store::model::{EventId, Role, TableId};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::{GameResult, RoundNumber};
use common::start;

/// One game, a pair of tie-break games at 5′, then `decider`; 部份失明 has 15′ to the
/// default 10′ in the ordinary games (7.2(1)).
fn knockout(decider: &str) -> String {
    let extra = format!(
        "[tournament.knockout]\ngames = 1\ntiebreak_pairs = 1\ndecider = \"{decider}\"\n\
         tie_break_minutes = 5\n[[tournament.referees]]\nname = \"監局裁判\"\n"
    );
    event("knockout", &extra) + "time.partially_sighted = { base_ms = 900_000, mode = \"plain\" }\n"
}

fn plain(minutes_x2: u64) -> TimeControl {
    TimeControl {
        base_ms: minutes_x2 * 30_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    }
}

/// The time each side of a stored table's game plays at: (red, black).
fn times(store: &dyn Store, table: TableId) -> (TimeControl, TimeControl) {
    let rows = store.tables(None).unwrap();
    let c: &MatchConfig = &rows
        .iter()
        .find(|t| t.id == table)
        .expect("the table")
        .config;
    (c.time.for_side(&c.red), c.time.for_side(&c.black))
}

/// `outcomes` with every table of `paired` over at `result` and verified (7.9).
fn verified(outcomes: &mut Outcomes, paired: &Paired, result: &[GameResult]) {
    for (t, r) in paired.created.tables.iter().zip(result) {
        outcomes.insert(
            t.id,
            TableOutcome {
                result: Some(*r),
                verified: true,
                started: true,
            },
        );
    }
}

#[test]
fn s7p2_1_tie_break_tables_take_the_tie_break_time_with_the_vi_allowance() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let event = tournament(&store, &knockout("sudden_death"));
    let mut outcomes = Outcomes::new();
    let r1 = rounds::pair(&store, event, &outcomes).unwrap();
    let t2 = r1.created.tables[1].id;
    assert_eq!(
        times(&store, t2),
        (plain(30), plain(20)),
        "張華 (部份失明) 15′, 王芳 10′"
    );
    verified(&mut outcomes, &r1, &[GameResult::RedWins, GameResult::Draw]);
    let breaks = rounds::pair(&store, event, &outcomes).unwrap();
    assert_eq!(
        games(&breaks),
        owned(&[
            ("第1輪 第3台 加賽", "王芳", "張華"),
            ("第1輪 第4台 加賽", "張華", "王芳")
        ])
    );
    // 5′ for 王芳; 張華 keeps half as much again: 7′30″.
    assert_eq!(
        times(&store, breaks.created.tables[0].id),
        (plain(10), plain(15))
    );
    assert_eq!(
        times(&store, breaks.created.tables[1].id),
        (plain(15), plain(10))
    );
    // The decider (sudden death) is played at the tie-break time too.
    verified(
        &mut outcomes,
        &breaks,
        &[GameResult::Draw, GameResult::Draw],
    );
    let decider = rounds::pair(&store, event, &outcomes).unwrap();
    assert_eq!(
        games(&decider),
        owned(&[("第1輪 第5台 決勝局", "王芳", "張華")])
    );
    assert_eq!(
        times(&store, decider.created.tables[0].id),
        (plain(10), plain(15))
    );
    // The next round's main game is back at the ordinary time.
    verified(&mut outcomes, &decider, &[GameResult::BlackWins]);
    let r2 = rounds::pair(&store, event, &outcomes).unwrap();
    assert_eq!(games(&r2), owned(&[("第2輪 第1台", "李明", "張華")]));
    assert_eq!(
        times(&store, r2.created.tables[0].id),
        (plain(20), plain(30)),
        "李明 (全失明) on the default 10′ of this event, 張華 15′"
    );
    let _ = std::fs::remove_file(&db);
}

/// Round 1 of a fresh lot event with both ties' games over: 李明 beat 趙強, 張華 and
/// 王芳 drew every game. Returns the event, the outcomes and 張華 v 王芳's first table.
fn level_after_tie_breaks(store: &SqliteStore) -> (EventId, Outcomes, TableId) {
    let event = tournament(store, &knockout("lot"));
    let mut outcomes = Outcomes::new();
    let r1 = rounds::pair(store, event, &outcomes).unwrap();
    verified(&mut outcomes, &r1, &[GameResult::RedWins, GameResult::Draw]);
    let breaks = rounds::pair(store, event, &outcomes).unwrap();
    verified(
        &mut outcomes,
        &breaks,
        &[GameResult::Draw, GameResult::Draw],
    );
    (event, outcomes, r1.created.tables[1].id)
}

#[test]
fn fu2_3_a_the_server_draws_the_lot_at_random() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let mut winners = std::collections::BTreeSet::new();
    // 24 draws all the same way: once in 8 million runs.
    for _ in 0..24 {
        let (event, outcomes, table) = level_after_tie_breaks(&store);
        let drawn = lot::draw(&store, event, table, &outcomes).unwrap();
        winners.insert(drawn.winner.name);
    }
    assert_eq!(
        winners.into_iter().collect::<Vec<_>>(),
        vec!["張華".to_string(), "王芳".to_string()]
    );
    let _ = std::fs::remove_file(&db);
}

#[tokio::test]
async fn fu2_3_a_a_tie_level_after_its_tie_break_games_goes_through_by_lot() {
    let (store, db) = SqliteStore::open_temp().unwrap();
    let event = tournament(&store, &knockout("lot"));
    drop(store);
    let s = start(Some(db), None).await;
    let store = s.hub.store().clone();
    let outcomes = || results::from_store(&*store, event).unwrap();

    let r1 = pair(&*store, event).unwrap();
    s.hub.start_tables(false).await.unwrap();
    let (t1, t2) = (r1.created.tables[0].id, r1.created.tables[1].id);
    let chief = token(&r1, Role::Referee, t1);
    play(&s, (&r1, &chief), t1, GameResult::RedWins, true).await;
    play(&s, (&r1, &chief), t2, GameResult::ForcedDraw, true).await;
    // Level after the main game: the tie-break games come first.
    let e = lot::draw(&*store, event, t2, &outcomes()).unwrap_err();
    assert!(
        matches!(
            e,
            LotError::GamesToPlay {
                round: RoundNumber(1),
                to_play: 2,
                ..
            }
        ),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.contains("張華 v 王芳") && text.contains("2 game(s)") && text.contains("round pair"),
        "{text}"
    );

    let breaks = pair(&*store, event).unwrap();
    s.hub.start_tables(false).await.unwrap();
    let (t3, t4) = (breaks.created.tables[0].id, breaks.created.tables[1].id);
    play(&s, (&breaks, &chief), t3, GameResult::ForcedDraw, true).await;
    // A tie-break game not yet over: no lot.
    let e = lot::draw(&*store, event, t3, &outcomes()).unwrap_err();
    assert!(
        matches!(&e, LotError::Undecided { round: RoundNumber(1), tables, .. } if *tables == [t4]),
        "{e}"
    );
    play(&s, (&breaks, &chief), t4, GameResult::ForcedDraw, true).await;
    let e = pair(&*store, event).unwrap_err();
    assert!(
        matches!(
            e,
            PairError::Lot {
                round: RoundNumber(1),
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains(&format!("baoqi round lot --event {event} --table {t2}")),
        "{e}"
    );
    // The lot of a tie decided by its games is refused.
    let e = lot::draw(&*store, event, t1, &outcomes()).unwrap_err();
    assert!(e.to_string().contains("decided by its games"), "{e}");

    let drawn = lot::draw(&*store, event, t4, &outcomes()).unwrap();
    assert_eq!(drawn.round, RoundNumber(1));
    assert!(["張華", "王芳"].contains(&drawn.winner.name.as_str()));
    let e = lot::draw(&*store, event, t2, &outcomes()).unwrap_err();
    assert!(e.to_string().contains("drawn already"), "{e}");
    let log = store.tournaments().unwrap().changes(event).unwrap();
    assert!(
        log.iter().any(|l| l.change
            == Logged::Lot {
                round: RoundNumber(1),
                first: drawn.first.id,
                second: drawn.second.id,
                winner: drawn.winner.id,
            }),
        "{log:?}"
    );

    // The lot's winner meets 李明 in the final.
    let r2 = pair(&*store, event).unwrap();
    assert_eq!(r2.round, RoundNumber(2));
    assert_eq!(
        games(&r2),
        owned(&[("第2輪 第1台", "李明", drawn.winner.name.as_str())])
    );
    s.stop().await;
}
