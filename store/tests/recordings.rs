//! The games' recordings (附表七 第六部分 advises one for every game), kept by both stores
//! alike: numbered per table, re-uploads versioned with the latest current, read back byte
//! for byte from anywhere in the file, and still there when the store is opened again. On
//! PostgreSQL the audio is kept in the database in chunks, so that every node of a
//! federation reads what any node received. Each case runs on a `SQLite` file and on
//! PostgreSQL (skipped, with a note, when none is configured and none is required).

use std::path::PathBuf;

use baoqi_arbiter::{MatchConfig, Side};
use baoqi_store::config::EventSettings;
use baoqi_store::model::{Role, TableId, TableRow};
use baoqi_store::recordings::{Recordings, Upload};
use baoqi_store::testing::PgSchema;
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::RoundNumber;

/// Opens a test's store (again).
type Opener = Box<dyn Fn() -> Box<dyn Store>>;

/// A store of each kind there is here, each with its kind's name.
fn stores() -> Vec<(&'static str, Opener)> {
    let (store, path) = SqliteStore::open_temp().unwrap();
    drop(store);
    let mut all: Vec<(&'static str, Opener)> = vec![(
        "SQLite",
        Box::new(move || Box::new(SqliteStore::open(&path, false).unwrap())),
    )];
    if let Some(schema) = PgSchema::new() {
        let schema = std::sync::Arc::new(schema);
        all.push(("PostgreSQL", Box::new(move || Box::new(schema.open()))));
    }
    all
}

/// An event of two tables; their numbers.
fn two_tables(store: &dyn Store) -> [TableId; 2] {
    let event = store
        .create_event("錄音", &EventSettings::default())
        .unwrap();
    [1, 2].map(|k| {
        store
            .add_table(&TableRow {
                id: TableId(0),
                event,
                round: RoundNumber(1),
                name: format!("第{k}台"),
                red: "紅方".into(),
                black: "黑方".into(),
                config: MatchConfig::default(),
            })
            .unwrap()
    })
}

fn upload(table: TableId, side: Side, game: &str, bytes: usize) -> Upload {
    Upload {
        table,
        side,
        role: Role::Red,
        game: game.into(),
        event_log_offset_ms: 1_000,
        started_unix_ms: 1_700_000_000_000,
        sample_rate: 22_050,
        channels: 1,
        duration_ms: 1_500,
        bytes: bytes as u64,
        received_unix_ms: 1_700_000_100_000,
    }
}

/// Bytes that differ from place to place, so that a piece read from the wrong place shows.
fn audio(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3] ^ seed)
        .collect()
}

/// Receives `bytes` as an upload would (into the store's incoming file) and commits it.
fn keep(r: &dyn Recordings, bytes: &[u8], up: &Upload) -> u64 {
    let received: PathBuf = r.incoming().unwrap();
    std::fs::write(&received, bytes).unwrap();
    let row = r.commit(&received, up).unwrap();
    assert!(row.current, "the newest upload is current");
    assert!(!received.exists(), "the received file was taken");
    row.n
}

#[test]
fn s7p6_recordings_are_numbered_per_table_and_a_reupload_keeps_the_first() {
    for (kind, open) in stores() {
        let store = open();
        let [t1, t2] = two_tables(&*store);
        let r = store.recordings().unwrap();
        let (one, two, other) = (audio(3, 1), audio(5, 2), audio(7, 3));
        let first = keep(&*r, &one, &upload(t1, Side::Red, "g", one.len()));
        let second = keep(&*r, &two, &upload(t1, Side::Red, "g", two.len()));
        let third = keep(&*r, &other, &upload(t2, Side::Black, "h", other.len()));
        assert_eq!((first, second, third), (1, 2, 1), "{kind}");
        let listed = r.list(t1).unwrap();
        let current: Vec<bool> = listed.iter().map(|row| row.current).collect();
        assert_eq!(current, [false, true], "{kind}: the re-upload is current");
        assert_eq!(
            r.read(t1, 1, 0, 100).unwrap(),
            one,
            "{kind}: the first is kept"
        );
        assert_eq!(r.table_bytes(t1).unwrap(), 8, "{kind}");
        drop((r, store));
        let again = open().recordings().unwrap();
        assert_eq!(
            again.all().unwrap().len(),
            3,
            "{kind}: kept across a reopening"
        );
        assert_eq!(again.read(t2, 1, 0, 7).unwrap(), other, "{kind}");
        assert!(again.get(t1, 9).unwrap().is_none(), "{kind}");
    }
}

#[test]
fn s7p6_a_long_recording_reads_back_byte_for_byte_from_any_place() {
    for (kind, open) in stores() {
        let store = open();
        let [t1, _] = two_tables(&*store);
        let r = store.recordings().unwrap();
        // Two and a half megabytes: several of PostgreSQL's chunks, the last one short.
        let wav = audio(2_621_440 + 1_234, 7);
        let n = keep(&*r, &wav, &upload(t1, Side::Black, "long", wav.len()));
        let row = r.get(t1, n).unwrap().unwrap();
        assert_eq!(row.upload.bytes, wav.len() as u64, "{kind}");
        assert_eq!(row.upload.side, Side::Black, "{kind}");
        for (start, len) in [
            (0, wav.len()),
            (0, 44),
            (524_287, 2),
            (524_288, 524_288),
            (1_000_000, 1_500_000),
            (wav.len() - 10, 100),
        ] {
            let got = r.read(t1, n, start as u64, len).unwrap();
            let end = (start + len).min(wav.len());
            assert!(
                got == wav[start..end],
                "{kind}: bytes {start}..{end} read back as stored"
            );
        }
    }
}

#[test]
fn s7p6_a_halls_recordings_go_with_its_tables_into_the_federations_database() {
    let Some(schema) = PgSchema::new() else {
        return;
    };
    let (hall, _) = SqliteStore::open_temp().unwrap();
    let [t1, t2] = two_tables(&hall);
    let kept = hall.recordings().unwrap();
    let (a, b, c) = (audio(600_000, 1), audio(10, 2), audio(20, 3));
    keep(&*kept, &a, &upload(t1, Side::Red, "g", a.len()));
    keep(&*kept, &b, &upload(t1, Side::Red, "g", b.len()));
    keep(&*kept, &c, &upload(t2, Side::Black, "h", c.len()));
    let federation = schema.open();
    // Another hall's event is there first: the tables get new numbers.
    two_tables(&federation);
    let report = baoqi_store::copy::copy(&hall, &federation).unwrap();
    assert_eq!(report.recordings, 3);
    let moved = federation.recordings().unwrap();
    let tables: Vec<TableId> = federation
        .tables(Some(report.events[0].1))
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect();
    let listed = moved.list(tables[0]).unwrap();
    let numbers: Vec<(u64, bool)> = listed.iter().map(|r| (r.n, r.current)).collect();
    assert_eq!(
        numbers,
        [(1, false), (2, true)],
        "numbers and versions kept"
    );
    assert!(moved.read(tables[0], 1, 0, a.len()).unwrap() == a);
    assert_eq!(moved.read(tables[1], 1, 0, 100).unwrap(), c);
    assert_eq!(
        moved.get(tables[1], 1).unwrap().unwrap().upload.side,
        Side::Black
    );
}
