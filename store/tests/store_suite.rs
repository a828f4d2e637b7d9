//! The store's test suite, run against both backends: every case below runs
//! once on a `SQLite` file and once on PostgreSQL (a schema of its own on the database that
//! `BAOQI_TEST_POSTGRES` names; `scripts/services.sh start` gives one). The test command
//! sets `BAOQI_REQUIRE_POSTGRES=1`, so there a missing PostgreSQL fails the PostgreSQL half
//! instead of skipping it. (The `SQLite` store's own unit tests of these cases moved here.)

use std::path::PathBuf;

use baoqi_arbiter::{Command, Event, MatchConfig, Millis, Side};
use baoqi_store::amendment::Amendment;
use baoqi_store::config::EventSettings;
use baoqi_store::config::tournament::TournamentSettings;
use baoqi_store::game::Actor;
use baoqi_store::model::{EventId, Role, SeatRow, TableId, TableRow};
use baoqi_store::records::{ChangeLine, Logged, PairingRow, Registered};
use baoqi_store::{
    EntryKind, LogEntry, NewBoard, NewRound, NewSeat, NewTables, Snapshot, SqliteStore, Store,
    StoreError,
};
use baoqi_tournament::{GameResult, Player, PlayerId, RoundNumber};

use baoqi_store::testing::PgSchema;

/// A database for one case, reopened as often as the case asks, removed at the end.
enum TestDb {
    Sqlite(PathBuf),
    Postgres(PgSchema),
}

impl TestDb {
    fn sqlite() -> TestDb {
        let (store, path) = SqliteStore::open_temp().unwrap();
        drop(store);
        TestDb::Sqlite(path)
    }

    /// `None` (with a note) when no PostgreSQL is configured and none is required.
    fn postgres() -> Option<TestDb> {
        PgSchema::new().map(TestDb::Postgres)
    }

    fn open(&self) -> Box<dyn Store> {
        match self {
            TestDb::Sqlite(path) => Box::new(SqliteStore::open(path, false).unwrap()),
            TestDb::Postgres(schema) => Box::new(schema.open()),
        }
    }

    /// Makes every insert into `table` fail, as a full disk would halfway through a write
    /// ([`TestDb::heal`] undoes it).
    fn fail_inserts(&self, table: &str) {
        match self {
            TestDb::Sqlite(_) => self.exec(&format!(
                "CREATE TRIGGER full_disk BEFORE INSERT ON {table}
                 BEGIN SELECT RAISE(ABORT, 'disk full'); END;"
            )),
            TestDb::Postgres(_) => self.exec(&format!(
                "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS
                 $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
                 CREATE TRIGGER full_disk BEFORE INSERT ON {table}
                 FOR EACH ROW EXECUTE FUNCTION full_disk();"
            )),
        }
    }

    /// Undoes [`TestDb::fail_inserts`] on `table`.
    fn heal(&self, table: &str) {
        match self {
            TestDb::Sqlite(_) => self.exec("DROP TRIGGER full_disk"),
            TestDb::Postgres(_) => {
                self.exec(&format!(
                    "DROP TRIGGER full_disk ON {table}; DROP FUNCTION full_disk();"
                ));
            }
        }
    }

    /// Runs SQL written for both databases directly (to damage a row on purpose).
    fn exec(&self, sql: &str) {
        match self {
            TestDb::Sqlite(path) => {
                rusqlite::Connection::open(path)
                    .unwrap()
                    .execute_batch(sql)
                    .unwrap();
            }
            TestDb::Postgres(schema) => {
                let mut c = ::postgres::Client::connect(&schema.url, ::postgres::NoTls).unwrap();
                c.batch_execute(&format!("SET search_path TO {}; {sql}", schema.name))
                    .unwrap();
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Sqlite(path) = self {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Each case as a test on each backend.
macro_rules! on_both {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $case() { super::$case(&super::TestDb::sqlite()); } )*
        }
        mod postgres {
            $( #[test] fn $case() {
                if let Some(db) = super::TestDb::postgres() { super::$case(&db); }
            } )*
        }
    };
}

on_both!(
    a_log_survives_reopening_and_keeps_its_order,
    a_duplicate_index_fails_the_whole_batch,
    events_tables_and_seats_read_back_as_written,
    a_revoked_seat_is_listed_and_a_missing_one_is_reported,
    the_timeline_mark_only_moves_forward,
    wall_clock_marks_read_back_in_timeline_order,
    the_latest_snapshot_replaces_older_ones,
    s11_a_damaged_entry_is_an_error_that_names_it_never_a_guess,
    a_register_rounds_and_changes_survive_reopening,
    a_round_is_written_whole_or_not_at_all,
    a_player_and_a_board_are_added_or_replaced,
    a108_a_replay_is_written_whole_or_not_at_all,
);

fn table(event: EventId, name: &str) -> TableRow {
    TableRow {
        id: TableId(0),
        event,
        round: RoundNumber(2),
        name: name.into(),
        red: "紅方".into(),
        black: "黑方".into(),
        config: MatchConfig::default(),
    }
}

fn entries(table: TableId, from: u64, n: u64) -> Vec<LogEntry> {
    (from..from + n)
        .map(|i| LogEntry {
            table,
            index: i,
            at: Millis(100 * i),
            kind: if i == 0 {
                EntryKind::Create
            } else {
                EntryKind::Command
            },
            actor: if i == 0 {
                Actor::Server
            } else {
                Actor::Seat(Role::Red)
            },
            command: (i > 0).then(|| Command::Word { text: "炮".into() }),
            first_seq: i + 1,
            events: vec![Event::Turn {
                side: Side::Red,
                ply: i as usize,
            }],
        })
        .collect()
}

fn new_event(store: &dyn Store) -> EventId {
    store
        .create_event("公開賽", &EventSettings::default())
        .unwrap()
}

fn a_log_survives_reopening_and_keeps_its_order(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let tid = store.add_table(&table(ev, "t")).unwrap();
    let first = entries(tid, 0, 3);
    let second = entries(tid, 3, 2);
    store.append(&first, Some(Millis(250))).unwrap();
    store.append(&second, None).unwrap();
    drop(store);
    let store = db.open();
    let all: Vec<LogEntry> = first.iter().chain(&second).cloned().collect();
    assert_eq!(store.log(tid).unwrap(), all);
    assert_eq!(store.log_from(tid, 3).unwrap(), second);
    assert_eq!(store.timeline().unwrap(), Millis(250));
}

fn a_duplicate_index_fails_the_whole_batch(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let tid = store.add_table(&table(ev, "t")).unwrap();
    let e = entries(tid, 0, 1).remove(0);
    assert!(
        store
            .append(&[e.clone(), e.clone()], Some(Millis(9)))
            .is_err()
    );
    assert!(store.log(tid).unwrap().is_empty(), "nothing of the batch");
    assert_eq!(
        store.timeline().unwrap(),
        Millis(0),
        "not even its timeline mark"
    );
    store.append(std::slice::from_ref(&e), None).unwrap();
    assert!(
        store.append(&[e], None).is_err(),
        "an index is written once"
    );
}

fn seat(hash: &str, event: EventId, role: Role, tables: Vec<TableId>) -> SeatRow {
    SeatRow {
        token_hash: hash.into(),
        event,
        role,
        name: format!("{hash} 的座位"),
        tables,
        revoked: false,
    }
}

fn events_tables_and_seats_read_back_as_written(db: &TestDb) {
    let store = db.open();
    let a = new_event(&*store);
    let b = new_event(&*store);
    let t1 = store.add_table(&table(a, "視障賽 1")).unwrap();
    let t2 = store.add_table(&table(b, "視障賽 2")).unwrap();
    let t3 = store.add_table(&table(a, "視障賽 3")).unwrap();
    assert!(t1 < t2 && t2 < t3, "numbers grow");
    let names = |ev| -> Vec<String> {
        let rows = store.tables(ev).unwrap();
        rows.into_iter().map(|t| t.name).collect()
    };
    assert_eq!(names(Some(a)), ["視障賽 1", "視障賽 3"]);
    assert_eq!(names(None).len(), 3);
    let after: Vec<TableId> = store
        .tables_after(t1)
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(after, [t2, t3]);
    let row = &store.tables(Some(b)).unwrap()[0];
    assert_eq!((row.round, row.red.as_str()), (RoundNumber(2), "紅方"));
    let seats = [
        seat("h2", a, Role::Black, vec![t1]),
        seat("h1", a, Role::Red, vec![t1]),
        seat("h3", a, Role::Referee, vec![]),
    ];
    for s in &seats {
        store.add_seat(s).unwrap();
    }
    store.add_seat(&seat("h4", b, Role::Red, vec![t2])).unwrap();
    assert_eq!(
        store.seats(a).unwrap(),
        seats,
        "in the order they were added"
    );
    assert_eq!(store.seat("h3").unwrap().as_ref(), Some(&seats[2]));
    assert_eq!(store.seat("nobody").unwrap(), None);
    assert!(store.add_seat(&seats[0]).is_err(), "a token hash is unique");
    let events = store.events().unwrap();
    assert_eq!(events.iter().map(|e| e.id).collect::<Vec<_>>(), [a, b]);
    assert_eq!(events[0].name, "公開賽");
}

fn a_revoked_seat_is_listed_and_a_missing_one_is_reported(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    store.add_seat(&seat("h1", ev, Role::Red, vec![])).unwrap();
    store
        .add_seat(&seat("h2", ev, Role::Black, vec![]))
        .unwrap();
    assert!(store.revoked().unwrap().is_empty());
    assert!(store.revoke("h2").unwrap());
    assert!(!store.revoke("nobody").unwrap());
    assert_eq!(
        store.revoked().unwrap().into_iter().collect::<Vec<_>>(),
        ["h2"]
    );
    assert!(store.seat("h2").unwrap().unwrap().revoked);
}

fn the_timeline_mark_only_moves_forward(db: &TestDb) {
    let store = db.open();
    assert_eq!(
        store.timeline().unwrap(),
        Millis(0),
        "a new store starts at 0"
    );
    store.append(&[], Some(Millis(500))).unwrap();
    store.append(&[], Some(Millis(300))).unwrap();
    assert_eq!(store.timeline().unwrap(), Millis(500));
    store.append(&[], Some(Millis(800))).unwrap();
    assert_eq!(db.open().timeline().unwrap(), Millis(800));
}

fn wall_clock_marks_read_back_in_timeline_order(db: &TestDb) {
    let store = db.open();
    store
        .mark_wall_clock(Millis(20_000), 1_700_000_020_000)
        .unwrap();
    store.mark_wall_clock(Millis(0), 1_700_000_000_000).unwrap();
    store
        .mark_wall_clock(Millis(20_000), 1_700_000_030_000)
        .unwrap();
    assert_eq!(
        db.open().wall_clock_marks().unwrap(),
        [
            (Millis(0), 1_700_000_000_000),
            (Millis(20_000), 1_700_000_030_000)
        ],
        "a later mark for the same instant replaces it"
    );
}

fn the_latest_snapshot_replaces_older_ones(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let tid = store.add_table(&table(ev, "t")).unwrap();
    assert_eq!(store.snapshot(tid).unwrap(), None);
    let snap = |index, state: &str| Snapshot {
        table: tid,
        index,
        format: 3,
        state: state.into(),
    };
    store.put_snapshot(&snap(10, "{\"a\":1}")).unwrap();
    store.put_snapshot(&snap(20, "{\"a\":2}")).unwrap();
    assert_eq!(
        db.open().snapshot(tid).unwrap(),
        Some(snap(20, "{\"a\":2}"))
    );
}

fn s11_a_damaged_entry_is_an_error_that_names_it_never_a_guess(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let tid = store.add_table(&table(ev, "t")).unwrap();
    db.exec(&format!(
        "INSERT INTO log VALUES ({tid}, 0, 0, 'advance', 'server', 'null', 1, \
         '[{{\"type\":\"sealed\",\"side\":\"purple\"}}]')"
    ));
    let e = store.log(tid).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Corrupt {
                index: 0,
                what: "the events",
                ..
            }
        ),
        "{e}"
    );
}

fn a_register_rounds_and_changes_survive_reopening(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let t = store.tournaments().expect("both stores keep tournaments");
    assert_eq!(t.tournament(ev).unwrap(), None, "an event is no tournament");
    t.set_tournament(ev, &TournamentSettings::default())
        .unwrap();
    let players: Vec<Registered> = (1..=3)
        .map(|i| Registered {
            player: Player::new(i, format!("棋手{i}")),
            active: i != 3,
        })
        .collect();
    t.put_players(ev, &players).unwrap();
    let rows = [
        PairingRow {
            round: RoundNumber(1),
            board: 1,
            red: PlayerId(1),
            black: Some(PlayerId(2)),
            table: None,
            result: None,
        },
        PairingRow {
            round: RoundNumber(1),
            board: 2,
            red: PlayerId(3),
            black: None,
            table: None,
            result: None,
        },
    ];
    t.add_pairings(ev, &rows).unwrap();
    assert!(
        t.set_result(ev, RoundNumber(1), 1, Some(GameResult::RedAbsent))
            .unwrap()
    );
    assert!(
        !t.set_result(ev, RoundNumber(2), 1, None).unwrap(),
        "no such board"
    );
    let lines = [
        ChangeLine {
            at: 5,
            change: Logged::Registered { players: 3 },
        },
        ChangeLine {
            at: 9,
            change: Logged::Registered { players: 4 },
        },
    ];
    for l in &lines {
        t.log_change(ev, l).unwrap();
    }
    drop(store);
    let store = db.open();
    let t = store.tournaments().unwrap();
    assert_eq!(
        t.tournament(ev).unwrap(),
        Some(TournamentSettings::default())
    );
    assert_eq!(t.players(ev).unwrap(), players);
    let got = t.pairings(ev).unwrap();
    assert_eq!(got[0].result, Some(GameResult::RedAbsent));
    assert_eq!(got[1], rows[1]);
    assert_eq!(t.changes(ev).unwrap(), lines);
    // The count a page polls is the log's length, counted by the backend itself.
    assert_eq!(t.change_count(ev).unwrap(), 2);
    assert_eq!(t.change_count(EventId(ev.0 + 1)).unwrap(), 0);
}

/// Round 1 of four players: two tables with a seat each, two boards, its log line.
fn round_one(seat_hash: &str) -> NewRound {
    let board = |n: u32, red, black| NewBoard {
        row: PairingRow {
            round: RoundNumber(1),
            board: n,
            red: PlayerId(red),
            black: Some(PlayerId(black)),
            table: None,
            result: None,
        },
        table: Some(n as usize - 1),
    };
    NewRound {
        tables: NewTables {
            tables: vec![table(EventId(0), "第一台"), table(EventId(0), "第二台")],
            seats: vec![
                NewSeat {
                    seat: seat("round-1-a", EventId(0), Role::Red, vec![]),
                    tables: vec![0],
                },
                NewSeat {
                    seat: seat(seat_hash, EventId(0), Role::Red, vec![]),
                    tables: vec![1],
                },
            ],
        },
        boards: vec![board(1, 1, 2), board(2, 3, 4)],
        log: ChangeLine {
            at: 7,
            change: Logged::Registered { players: 4 },
        },
        cover: Vec::new(),
    }
}

fn a_round_is_written_whole_or_not_at_all(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    store
        .add_seat(&seat("taken", ev, Role::Referee, vec![]))
        .unwrap();
    let earlier = TableId(99);
    store
        .add_seat(&seat("kept-referee", ev, Role::Referee, vec![earlier]))
        .unwrap();
    let kept = || store.seat("kept-referee").unwrap().unwrap().tables;
    let t = store.tournaments().unwrap();
    // The second table's seat collides with a stored token: nothing of the round stays.
    // A referee of an earlier round keeps his seat: it comes to cover both tables.
    let covering = |hash| NewRound {
        cover: vec![("kept-referee".into(), 0), ("kept-referee".into(), 1)],
        ..round_one(hash)
    };
    assert!(t.add_round(ev, &covering("taken")).is_err());
    assert!(store.tables(Some(ev)).unwrap().is_empty(), "no table");
    assert_eq!(store.seats(ev).unwrap().len(), 2, "no seat");
    assert_eq!(kept(), [earlier], "no seat extended");
    assert!(t.pairings(ev).unwrap().is_empty(), "no board");
    assert!(t.changes(ev).unwrap().is_empty(), "no log line");
    let ids = t.add_round(ev, &covering("round-1-b")).unwrap();
    assert_eq!(ids.len(), 2);
    let boards = t.pairings(ev).unwrap();
    let tables: Vec<Option<TableId>> = boards.iter().map(|b| b.table).collect();
    assert_eq!(
        tables,
        [Some(ids[0]), Some(ids[1])],
        "each board on its table"
    );
    let seat_b = store.seat("round-1-b").unwrap().unwrap();
    assert_eq!((seat_b.event, seat_b.tables), (ev, vec![ids[1]]));
    assert_eq!(kept(), [earlier, ids[0], ids[1]], "one link for the event");
    assert_eq!(t.changes(ev).unwrap().len(), 1);
}

fn a_player_and_a_board_are_added_or_replaced(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let t = store.tournaments().unwrap();
    let mut late = Registered {
        player: Player::new(5, "遲到者".to_string()),
        active: true,
    };
    t.put_player(ev, &late).unwrap();
    late.active = false;
    t.put_player(ev, &late).unwrap();
    assert_eq!(t.players(ev).unwrap(), [late.clone()], "one line, replaced");
    let mut row = PairingRow {
        round: RoundNumber(2),
        board: 1,
        red: PlayerId(1),
        black: Some(PlayerId(5)),
        table: None,
        result: None,
    };
    t.put_pairing(ev, &row).unwrap();
    row.black = Some(PlayerId(3));
    row.result = Some(GameResult::BlackAbsent);
    t.put_pairing(ev, &row).unwrap();
    assert_eq!(t.pairings(ev).unwrap(), [row], "one board, replaced (108)");
}

/// 108: board 1 of round 1 replayed at a new table, its old table's red seat revoked.
fn replay_of_board_one(old_table: TableId) -> Amendment {
    Amendment {
        tables: NewTables {
            tables: vec![table(EventId(0), "第1輪 第1台 重賽")],
            seats: vec![NewSeat {
                seat: seat("replay-red", EventId(0), Role::Red, vec![]),
                tables: vec![0],
            }],
        },
        revoke: vec!["round-1-a".into()],
        cover: vec![("board-referee".into(), 0)],
        boards: vec![NewBoard {
            row: PairingRow {
                round: RoundNumber(1),
                board: 1,
                red: PlayerId(2),
                black: Some(PlayerId(1)),
                table: Some(old_table),
                result: None,
            },
            table: Some(0),
        }],
        log: vec![Logged::Registered { players: 4 }],
        at: 9,
        ..Amendment::default()
    }
}

fn a108_a_replay_is_written_whole_or_not_at_all(db: &TestDb) {
    let store = db.open();
    let ev = new_event(&*store);
    let t = store.tournaments().unwrap();
    let old = t.add_round(ev, &round_one("round-1-b")).unwrap();
    // A referee of board 1 (附表七 6.2(1)) follows it to its new table.
    store
        .add_seat(&seat("board-referee", ev, Role::Referee, vec![old[0]]))
        .unwrap();
    let (tables, seats) = (store.tables(Some(ev)).unwrap(), store.seats(ev).unwrap());
    let (boards, changes) = (t.pairings(ev).unwrap(), t.changes(ev).unwrap());
    let replay = replay_of_board_one(old[0]);
    // The change log's line, the last write, fails: the new table, its seat, the revocation
    // and the board moved before it are undone with it.
    db.fail_inserts("changes");
    assert!(t.amend(ev, &replay).is_err());
    assert_eq!(store.tables(Some(ev)).unwrap(), tables, "no new table");
    assert_eq!(store.seats(ev).unwrap(), seats, "no new seat, none revoked");
    assert_eq!(
        t.pairings(ev).unwrap(),
        boards,
        "the board stays on its table"
    );
    assert_eq!(t.changes(ev).unwrap(), changes, "no log line");
    db.heal("changes");
    let new = t.amend(ev, &replay).unwrap();
    assert_eq!(new.len(), 1);
    assert!(store.seat("round-1-a").unwrap().unwrap().revoked);
    assert!(!store.seat("round-1-b").unwrap().unwrap().revoked);
    let red = store.seat("replay-red").unwrap().unwrap();
    assert_eq!((red.event, red.tables), (ev, vec![new[0]]));
    let referee = store.seat("board-referee").unwrap().unwrap();
    assert_eq!(referee.tables, vec![old[0], new[0]]);
    let moved = t.pairings(ev).unwrap()[0];
    assert_eq!((moved.red, moved.table), (PlayerId(2), Some(new[0])));
    let lines: Vec<Logged> = t
        .changes(ev)
        .unwrap()
        .into_iter()
        .map(|l| l.change)
        .collect();
    assert_eq!(
        lines[changes.len()..],
        [
            Logged::Registered { players: 4 },
            Logged::Retabled {
                round: RoundNumber(1),
                board: 1,
                from: Some(old[0]),
                to: new[0]
            }
        ]
    );
}
