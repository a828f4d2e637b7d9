//! Table leases with fencing tokens on PostgreSQL: two stores on one database play two
//! nodes. A table has one writer at a time; a node paused past its lease is refused when it
//! wakes, and nothing of its append is written. Skipped (with a note) when no PostgreSQL is
//! configured; the test command requires one.

use std::sync::Arc;
use std::time::Duration;

use baoqi_arbiter::{Event, MatchConfig, Millis, Side};
use baoqi_store::game::Actor;
use baoqi_store::lease::{Fence, Holding};
use baoqi_store::model::{EventId, TableId, TableRow};
use baoqi_store::{EntryKind, LogEntry, PgStore, Store, StoreError};
use baoqi_tournament::RoundNumber;

use baoqi_store::testing::PgSchema;

const LONG: Duration = Duration::from_secs(30);

/// Two nodes on a schema of their own, and one table.
struct Nodes {
    a: Arc<PgStore>,
    b: Arc<PgStore>,
    table: TableId,
    /// Dropped last, with the stores gone.
    _schema: PgSchema,
}

impl Nodes {
    fn new() -> Option<Nodes> {
        let schema = PgSchema::new()?;
        let a = Arc::new(schema.open());
        let b = Arc::new(schema.open());
        let ev = a
            .create_event("聯賽", &baoqi_store::config::EventSettings::default())
            .unwrap();
        let table = a.add_table(&table_row(ev)).unwrap();
        Some(Nodes {
            a,
            b,
            table,
            _schema: schema,
        })
    }

    fn holding(&self, fence: Fence) -> Holding {
        Holding {
            table: self.table,
            fence,
        }
    }
}

/// A table of `event` (shared with the pools' tests).
pub(super) fn table_row(event: EventId) -> TableRow {
    TableRow {
        id: TableId(0),
        event,
        round: RoundNumber(1),
        name: "第一台".into(),
        red: "甲".into(),
        black: "乙".into(),
        config: MatchConfig::default(),
    }
}

/// Log entry `index` of `table`: an advance of the clocks (shared with the pools' tests).
pub(super) fn entry(table: TableId, index: u64) -> LogEntry {
    LogEntry {
        table,
        index,
        at: Millis(index * 10),
        kind: EntryKind::Advance,
        actor: Actor::Server,
        command: None,
        first_seq: index + 1,
        events: vec![Event::Turn {
            side: Side::Red,
            ply: index as usize,
        }],
    }
}

#[test]
fn a_table_has_one_owner_at_a_time() {
    let Some(n) = Nodes::new() else { return };
    let (a, b) = (n.a.leases().unwrap(), n.b.leases().unwrap());
    let fence = a.acquire(n.table, "node-a", LONG).unwrap();
    assert_eq!(fence, Some(Fence(1)));
    assert_eq!(b.acquire(n.table, "node-b", LONG).unwrap(), None);
    assert_eq!(b.owner(n.table).unwrap().as_deref(), Some("node-a"));
    assert_eq!(
        a.acquire(n.table, "node-a", LONG).unwrap(),
        fence,
        "the owner taking it again keeps its fence"
    );
    a.release(n.holding(Fence(1))).unwrap();
    assert_eq!(
        b.acquire(n.table, "node-b", LONG).unwrap(),
        Some(Fence(2)),
        "a released table is taken at once, with a new fence"
    );
}

#[test]
fn a_node_paused_past_its_lease_is_refused_when_it_wakes() {
    let Some(n) = Nodes::new() else { return };
    let (a, b) = (n.a.leases().unwrap(), n.b.leases().unwrap());
    let old = n.holding(
        a.acquire(n.table, "node-a", Duration::from_millis(300))
            .unwrap()
            .unwrap(),
    );
    n.a.append_fenced(&[entry(n.table, 0)], &[old], Some(Millis(10)))
        .unwrap();
    // Node a stops (SIGSTOP) past its lease; node b takes the table over.
    std::thread::sleep(Duration::from_millis(450));
    let new = n.holding(
        b.acquire(n.table, "node-b", LONG)
            .unwrap()
            .expect("expired"),
    );
    assert!(new.fence > old.fence);
    // Node a wakes and goes on as if nothing happened.
    let refused =
        n.a.append_fenced(&[entry(n.table, 1)], &[old], Some(Millis(20)));
    assert!(
        matches!(refused, Err(StoreError::Fenced { held: Some(f), .. }) if f == old.fence),
        "{refused:?}"
    );
    assert!(!a.renew(old, LONG).unwrap(), "nor may it renew");
    n.b.append_fenced(&[entry(n.table, 1)], &[new], Some(Millis(20)))
        .unwrap();
    let log = n.b.log(n.table).unwrap();
    assert_eq!(
        log.len(),
        2,
        "a's entry 0, then b's entry 1: one writer at a time"
    );
    assert_eq!(log[1], entry(n.table, 1));
}

#[test]
fn an_expired_lease_refuses_its_fence_even_when_nobody_took_the_table() {
    let Some(n) = Nodes::new() else { return };
    let a = n.a.leases().unwrap();
    let old = n.holding(
        a.acquire(n.table, "node-a", Duration::from_millis(100))
            .unwrap()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_millis(250));
    assert!(
        n.a.append_fenced(&[entry(n.table, 0)], &[old], None)
            .is_err()
    );
    assert!(n.a.log(n.table).unwrap().is_empty(), "nothing written");
    let again = a.acquire(n.table, "node-a", LONG).unwrap().unwrap();
    assert!(
        again > old.fence,
        "coming back after the lease ran out is a new holding"
    );
    n.a.append_fenced(&[entry(n.table, 0)], &[n.holding(again)], None)
        .unwrap();
}

#[test]
fn an_append_for_a_table_not_held_writes_nothing() {
    let Some(n) = Nodes::new() else { return };
    let refused =
        n.a.append_fenced(&[entry(n.table, 0)], &[], Some(Millis(5)));
    assert!(
        matches!(refused, Err(StoreError::Fenced { held: None, .. })),
        "{refused:?}"
    );
    assert!(n.a.log(n.table).unwrap().is_empty());
    assert_eq!(
        n.a.timeline().unwrap(),
        Millis(0),
        "not even the timeline mark"
    );
}

#[test]
fn nodes_racing_for_the_same_tables_never_share_one() {
    let Some(n) = Nodes::new() else { return };
    let ev = n.a.events().unwrap()[0].id;
    let tables: Vec<TableId> = (0..40)
        .map(|_| n.a.add_table(&table_row(ev)).unwrap())
        .collect();
    let stores = [n.a.clone(), n.b.clone()];
    let won: Vec<Vec<bool>> = std::thread::scope(|s| {
        let racers: Vec<_> = stores
            .iter()
            .enumerate()
            .map(|(i, store)| {
                let tables = &tables;
                s.spawn(move || {
                    let leases = store.leases().unwrap();
                    let node = format!("node-{i}");
                    tables
                        .iter()
                        .map(|&t| leases.acquire(t, &node, LONG).unwrap().is_some())
                        .collect::<Vec<bool>>()
                })
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (k, table) in tables.iter().enumerate() {
        assert!(
            won[0][k] ^ won[1][k],
            "table {table}: exactly one node owns it ({} / {})",
            won[0][k],
            won[1][k]
        );
    }
}
