//! The event's links from the command line: the address given at `event create --url` is
//! the one every later listing uses; a lost link is reissued (the old token revoked);
//! spectators are added later; a referee of several rounds (附表七 6.2(1)) keeps one link.

use std::process::Command;

use crate::common::{BIN, Scratch, seat_lines};
use baoqi_store::model::{EventId, Role, Token};
use baoqi_store::{SqliteStore, Store};

/// The sample tournament (docs/tournament.toml: referees by board) created with `--url`,
/// the fixtures' 8 players imported.
struct Hall {
    _dir: Scratch,
    db: String,
}

impl Hall {
    fn new(tag: &str) -> Hall {
        let dir = Scratch::new(tag);
        let db = dir.join("t.db").to_str().unwrap().to_string();
        let hall = Hall { _dir: dir, db };
        let root = env!("CARGO_MANIFEST_DIR");
        let out = hall.ok(&[
            "event",
            "create",
            "--config",
            &format!("{root}/docs/tournament.toml"),
            "--url",
            "https://hall.example",
        ]);
        assert!(out.contains("https://hall.example/watch#token="), "{out}");
        hall.ok(&[
            "players",
            "import",
            "--event",
            "1",
            &format!("{root}/tests/web/fixtures/players.csv"),
        ]);
        hall
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .args(args)
            .args(["--db", &self.db])
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    }

    fn store(&self) -> SqliteStore {
        SqliteStore::open(std::path::Path::new(&self.db), false).unwrap()
    }
}

/// The event's address is remembered: `round pair` without `--url` makes its links on it;
/// a lost player link is reissued on it, the old token revoked, the seat otherwise the same.
#[test]
fn the_events_address_is_remembered_and_a_lost_link_is_reissued() {
    let hall = Hall::new("cli-links");
    let out = hall.ok(&["round", "pair", "--event", "1"]);
    assert!(!out.contains("127.0.0.1"), "{out}");
    let seats = seat_lines(&out);
    assert!(
        seats
            .iter()
            .all(|s| s.line.contains("https://hall.example/")),
        "{out}"
    );
    let red = seats
        .iter()
        .find(|s| s.role == "red" && s.line.contains("table 1 "))
        .unwrap_or_else(|| panic!("{out}"));
    let out = hall.ok(&[
        "event", "reissue", "--event", "1", "--table", "1", "--role", "red",
    ]);
    assert!(
        out.contains("new link (the old one no longer works): https://hall.example/"),
        "{out}"
    );
    let new = out
        .split("#token=")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap();
    let store = hall.store();
    let old = store
        .seat(&Token::from_secret(&red.token).hash())
        .unwrap()
        .unwrap();
    let fresh = store
        .seat(&Token::from_secret(new).hash())
        .unwrap()
        .unwrap();
    assert!(old.revoked && !fresh.revoked);
    assert_eq!(
        (fresh.role, &fresh.name, &fresh.tables),
        (old.role, &old.name, &old.tables)
    );
    let log = hall.ok(&["changes", "--event", "1"]);
    assert!(
        log.contains("red 李明 (table(s) 1): link reissued (the old one revoked)"),
        "{log}"
    );
    // Spectators added later, numbered after the file's one.
    let out = hall.ok(&["event", "spectators", "--event", "1", "--add", "2"]);
    for n in [2, 3] {
        assert!(
            out.contains(&format!(
                "spectator {n} (all tables): link: https://hall.example/watch#token="
            )),
            "{out}"
        );
    }
    assert!(
        !out.contains("spectator spectator"),
        "the role said once: {out}"
    );
}

/// 附表七 6.2(1): a referee named for boards of every round gets one seat, and each round
/// paired after the first extends it to that round's tables instead of a new link.
#[test]
fn s7p6_2_1_a_referee_keeps_one_link_for_the_event() {
    let hall = Hall::new("cli-referee-link");
    let first = hall.ok(&["round", "pair", "--event", "1", "--referee", "林裁判"]);
    assert!(
        first.contains("referee monitor (陳監局): https://hall.example/monitor#token="),
        "{first}"
    );
    for t in ["1", "2", "3", "4"] {
        hall.ok(&[
            "round",
            "result",
            "--event",
            "1",
            "--table",
            t,
            "--forfeit",
            "black",
        ]);
    }
    let second = hall.ok(&["round", "pair", "--event", "1", "--referee", "林裁判"]);
    for name in ["陳監局", "黃監局", "林裁判"] {
        assert!(
            !second.contains(&format!("referee monitor ({name}): https://")),
            "no new link for {name}: {second}"
        );
        assert!(
            second.contains(&format!(
                "referee monitor ({name}): the link given before now covers table(s) "
            )),
            "{name}: {second}"
        );
    }
    let seats = hall.store().seats(EventId(1)).unwrap();
    let lin: Vec<_> = seats
        .iter()
        .filter(|s| s.role == Role::Referee && s.name == "林裁判")
        .collect();
    assert_eq!(lin.len(), 1, "{lin:?}");
    assert_eq!(lin[0].tables.len(), 8, "both rounds' tables: {lin:?}");
}
