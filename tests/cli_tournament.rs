//! The organiser's changes on the command line: `baoqi players add|edit|withdraw`
//! with the CSV register's spellings, `baoqi round override` (108) and `baoqi changes`, each
//! refusal a sentence on stderr with exit code 2.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use crate::common;
use baoqi_store::PgStore;
use common::BIN;

fn baoqi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// The web tests' fixtures: the tournament's event file and its 8 players.
const FIX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/fixtures");

/// A database with the web tests' 8-player Swiss (20′ a side, more for VI players),
/// its register imported; `minutes` replaces the sighted players' time when given.
pub(crate) struct Event {
    /// The `--db` of every command: a file, or a PostgreSQL schema's URL.
    db: String,
    pub(crate) dir: PathBuf,
    /// The PostgreSQL server and the schema made for the event, dropped with it.
    schema: Option<(String, String)>,
}

impl Event {
    pub(crate) fn new(tag: &str, minutes: Option<u64>) -> Event {
        let mut toml = std::fs::read_to_string(format!("{FIX}/tournament.toml")).unwrap();
        if let Some(m) = minutes {
            toml = toml
                .lines()
                .filter(|l| !l.starts_with("time."))
                .collect::<Vec<_>>()
                .join("\n");
            let _ = writeln!(
                toml,
                "\ntime.default = {{ base_ms = {}, mode = \"plain\" }}",
                m * 60_000
            );
        }
        Event::of(&format!("t-{tag}"), &toml)
    }

    /// The event of `toml` in a scratch directory's database, the fixtures' 8 players
    /// imported.
    fn of(tag: &str, toml: &str) -> Event {
        Event::at(tag, toml, None)
    }

    /// [`Event::of`] in a schema of its own on the PostgreSQL server at `url`.
    fn on_postgres(tag: &str, toml: &str, url: &str) -> Event {
        let schema = PgStore::create_schema(url).unwrap();
        Event::at(tag, toml, Some((url.to_owned(), schema)))
    }

    fn at(tag: &str, toml: &str, schema: Option<(String, String)>) -> Event {
        let dir = std::env::temp_dir().join(format!("baoqi-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("event.toml");
        std::fs::write(&config, toml).unwrap();
        let db = match &schema {
            // The schema is chosen through the URL's options, as a federation could.
            Some((url, name)) => format!("{url}?options=-csearch_path%3D{name}"),
            None => dir.join("t.db").to_str().unwrap().to_owned(),
        };
        let e = Event { db, dir, schema };
        e.ok(&["event", "create", "--config", config.to_str().unwrap()]);
        let players = format!("{FIX}/players.csv");
        e.ok(&["players", "import", "--event", "1", &players]);
        e
    }

    pub(crate) fn run(&self, args: &[&str]) -> (bool, String, String) {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--db", &self.db]);
        baoqi(&all)
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(ok, "{args:?}: {err}");
        out
    }

    pub(crate) fn refused(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(!ok, "{args:?} was accepted: {out}");
        err
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((url, schema)) = &self.schema {
            let _ = PgStore::drop_schema(url, schema);
        }
    }
}

#[test]
fn a_late_entrant_is_added_edited_and_logged_with_the_csv_spellings() {
    let e = Event::new("add", None);
    let out = e.ok(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "吳五",
        "--club",
        "南區",
        "--seed",
        "5",
        "--category",
        "全失明、聾啞",
        "--blindfold",
        "是",
        "--knows-notation",
        "否",
        "--proxy",
        "何助手",
        "--board",
        "視障",
    ]);
    assert!(out.contains("registered #9 in event 1"), "{out}");
    assert!(
        out.contains("吳五 (南區) seed 5 [全失明、聾啞、眼罩]"),
        "{out}"
    );
    assert!(
        out.contains("referee announces first") && out.contains("proxy 何助手"),
        "{out}"
    );
    let out = e.ok(&[
        "players", "edit", "--event", "1", "--player", "9", "--club", "", "--seed", "6",
    ]);
    assert!(out.contains("  9 吳五 seed 6 ["), "{out}");
    let err = e.refused(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "x",
        "--category",
        "盲",
    ]);
    assert!(err.contains("--category: `盲` is not a category"), "{err}");
    let err = e.refused(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "x",
        "--blindfold",
        "maybe",
    ]);
    assert!(
        err.contains("--blindfold: `maybe` is neither yes (是) nor no (否)"),
        "{err}"
    );
    let err = e.refused(&["players", "add", "--event", "1", "--club", "x"]);
    assert!(err.contains("needs --name"), "{err}");
    let err = e.refused(&[
        "players", "add", "--event", "1", "--name", "x", "--seed", "1",
    ]);
    assert!(err.contains("seed 1 is already player #1's"), "{err}");
    let err = e.refused(&[
        "players", "edit", "--event", "1", "--player", "42", "--name", "y",
    ]);
    assert!(err.contains("event 1 has no player #42"), "{err}");
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(log.contains("register imported: 8 players"), "{log}");
    assert!(
        log.contains("late entrant #9 吳五, paired from round 1"),
        "{log}"
    );
    assert!(
        log.contains("#9 吳五 edited: club 南區 → —, seed 5 → 6"),
        "{log}"
    );
}

#[test]
fn a89_2_a_withdrawal_on_the_command_line_once_only() {
    let e = Event::new("withdraw", None);
    let out = e.ok(&[
        "players", "withdraw", "--event", "1", "--player", "8", "--reason", "病假",
    ]);
    assert!(
        out.contains("89(2) #8 周四 withdrew: before the start"),
        "{out}"
    );
    let err = e.refused(&["players", "withdraw", "--event", "1", "--player", "8"]);
    assert!(
        err.contains("player #8 has already withdrawn (89(2))"),
        "{err}"
    );
    let err = e.refused(&["players", "withdraw", "--event", "1", "--player", "77"]);
    assert!(err.contains("event 1 has no player #77"), "{err}");
    let out = e.ok(&["players", "list", "--event", "1"]);
    assert!(
        out.lines()
            .any(|l| l.contains("周四") && l.ends_with("withdrawn")),
        "{out}"
    );
    let out = e.ok(&["round", "pair", "--event", "1"]);
    assert!(
        !out.contains("周四"),
        "a withdrawn player is not paired: {out}"
    );
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(log.contains("(reason: 病假)"), "{log}");
}

/// `baoqi round override --event 1 --round R --table T` and what follows.
fn overriding<'a>(round: &'a str, table: &'a str, how: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "round", "override", "--event", "1", "--round", round, "--table", table,
    ];
    args.extend(how);
    args
}

#[test]
fn a108_round_override_replays_within_the_window() {
    let e = Event::new("override", None);
    e.ok(&["round", "pair", "--event", "1"]);
    let out = e.ok(&overriding("1", "1", &["--swap-colours"]));
    assert!(out.contains("round 1: replayed (108)"), "{out}");
    assert!(
        out.contains("board 1 (table 5)") && out.contains("/seat#token="),
        "{out}"
    );
    let err = e.refused(&overriding("1", "1", &["--swap-colours"]));
    assert!(
        err.contains("table 1 is not a board of a round of event 1"),
        "{err}"
    );
    let err = e.refused(&overriding("1", "2", &[]));
    assert!(
        err.contains("--swap-colours") || err.contains("--exchange-with"),
        "{err}"
    );
    let err = e.refused(&overriding("1", "2", &["--exchange-with", "2"]));
    assert!(err.contains("cannot be exchanged with itself"), "{err}");
    let out = e.ok(&overriding("1", "2", &["--exchange-with", "3"]));
    assert!(out.contains("round 1: replayed (108)"), "{out}");
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(
        log.contains("108(1) round 1 board 1: colours reversed, replayed"),
        "{log}"
    );
    assert!(log.contains("108(2) round 1: pairing corrected"), "{log}");
}

#[test]
fn a108_after_the_window_the_game_stands() {
    let short = Event::new("short", Some(10));
    short.ok(&["round", "pair", "--event", "1"]);
    let err = short.refused(&overriding("1", "3", &["--exchange-with", "4"]));
    assert!(
        err.contains("108(2)") && err.contains("the game stands"),
        "{err}"
    );
    let out = short.ok(&overriding("1", "3", &["--swap-colours"]));
    assert!(
        out.contains("the game stands, recorded as played (108)"),
        "{out}"
    );
    let err = short.refused(&overriding("2", "3", &["--swap-colours"]));
    assert!(
        err.contains("table 3 is a board of round 1, not of round 2"),
        "{err}"
    );
}

#[test]
fn the_organisers_commands_explain_themselves() {
    for (args, want) in [
        (&["players", "add", "--help"][..], "全失明"),
        (&["players", "withdraw", "--help"], "89(2)"),
        (&["round", "override", "--help"], "108"),
        (&["changes", "--help"], "--event"),
    ] {
        let (ok, out, err) = baoqi(args);
        assert!(ok && out.contains(want), "{args:?}: {out}{err}");
    }
}

/// The names at table `table` in `baoqi round pair`'s listing ("table 1 (round 1) …: 李明 vs 陳一").
fn names_at(listing: &str, table: u32) -> (String, String) {
    let line = listing
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("table {table} (round")))
        .unwrap_or_else(|| panic!("no table {table}: {listing}"));
    let (_, players) = line.rsplit_once(": ").unwrap();
    let (red, black) = players.split_once(" vs ").unwrap();
    (red.to_string(), black.to_string())
}

#[test]
fn fu2_standings_text_gives_every_rounds_pairings_with_points_and_the_crosstable() {
    let e = Event::new("text", None);
    e.ok(&["players", "withdraw", "--event", "1", "--player", "8"]);
    let listing = e.ok(&["round", "pair", "--event", "1"]);
    let (red1, black1) = names_at(&listing, 1);
    let (red2, black2) = names_at(&listing, 2);
    let (red3, black3) = names_at(&listing, 3);
    e.ok(&[
        "round",
        "result",
        "--event",
        "1",
        "--table",
        "1",
        "--forfeit",
        "black",
    ]);
    e.ok(&[
        "round",
        "result",
        "--event",
        "1",
        "--table",
        "2",
        "--forfeit",
        "red",
    ]);
    let text = e.ok(&["standings", "--event", "1", "--format", "text"]);
    let (_, cross) = text
        .split_once("交叉表 crosstable")
        .unwrap_or_else(|| panic!("no crosstable:\n{text}"));
    let line_of = |part: &str, what: &[&str]| {
        part.lines()
            .find(|l| what.iter().all(|w| l.contains(w)))
            .unwrap_or_else(|| panic!("no line with {what:?}:\n{text}"))
            .to_string()
    };
    let line = |what: &[&str]| line_of(&text, what);
    let row = |name: &str| line_of(cross, &[&format!(" {name} ")]);
    // No "after round 0" during round 1.
    assert!(
        text.contains("名次 standings round 1 in play, no round finished"),
        "{text}"
    );
    // Every round's pairings, with each side's points by 黃氏計分法 (不戰而勝 12, 缺席 0).
    assert!(text.contains("第1輪配對 pairings, round 1"), "{text}");
    let one = line(&[&red1, &black1, "+/-"]);
    assert!(
        one.contains("12 : 0") && one.starts_with("   1     1  "),
        "{one}"
    );
    assert!(line(&[&red2, &black2, "-/+"]).contains("0 : 12"), "{text}");
    assert!(line(&[&red3, &black3]).contains("對局中 in play"), "{text}");
    assert!(line(&["輪空 bye"]).ends_with("12"), "{text}");
    // The crosstable: each player's round, the opponent by his line's number.
    assert!(row(&red1).contains("紅不戰勝 12"), "{text}");
    assert!(row(&black1).contains("黑缺席 0"), "{text}");
    assert!(row(&red3).contains("紅…"), "{text}");
    // 周四 withdrew before the start (89(2)): drawn without him, he has no line at all.
    assert!(!text.contains("周四"), "{text}");
}

#[test]
fn a_late_entrant_scores_his_missed_round_as_the_organiser_chose() {
    let e = Event::new("missed", None);
    let (_, tables) = e.pair_round();
    e.forfeit(&tables, "black");
    let late = |name: &str, missed: &[&str]| {
        let mut args = vec!["players", "add", "--event", "1", "--name", name];
        args.extend_from_slice(missed);
        e.ok(&args)
    };
    late("遲到甲", &["--missed", "half"]);
    late("遲到乙", &[]);
    // Round 1 missed: a draw's points under 黃氏計分法 (8, as a 強制和), or nothing.
    assert_eq!(e.score("遲到甲"), 8);
    assert_eq!(e.score("遲到乙"), 0);
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(
        log.contains("遲到甲") && log.contains("half a point for each round missed"),
        "{log}"
    );
    let err = e.refused(&[
        "players", "add", "--event", "1", "--name", "x", "--missed", "all",
    ]);
    assert!(err.contains("--missed"), "{err}");
    // Both are paired in round 2.
    let (listing, _) = e.pair_round();
    assert!(
        listing.contains("遲到甲") && listing.contains("遲到乙"),
        "{listing}"
    );
}

impl Event {
    /// The event as a single round robin (the 8 players: 7 rounds of the Berger table,
    /// numbers by seed then register order, so player #k is number k).
    fn round_robin(tag: &str) -> Event {
        let toml = std::fs::read_to_string(format!("{FIX}/tournament.toml"))
            .unwrap()
            .replace("system = \"swiss\"", "system = \"round_robin\"")
            .replace("rounds = 3\n", "");
        Event::of(&format!("rr-{tag}"), &toml)
    }

    /// Pairs the next round; returns its listing and its tables.
    fn pair_round(&self) -> (String, Vec<String>) {
        let listing = self.ok(&["round", "pair", "--event", "1"]);
        let tables = listing
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("table "))
            .filter_map(|l| l.split_once(" (round").map(|(t, _)| t.to_string()))
            .collect();
        (listing, tables)
    }

    /// Every table's `side` absent (87): the round is over.
    fn forfeit(&self, tables: &[String], side: &str) {
        for t in tables {
            self.ok(&[
                "round",
                "result",
                "--event",
                "1",
                "--table",
                t,
                "--forfeit",
                side,
            ]);
        }
    }

    /// A player's score in `baoqi standings --format csv` (黃氏計分法).
    fn score(&self, name: &str) -> u32 {
        let csv = self.ok(&["standings", "--event", "1", "--format", "csv"]);
        csv.lines()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|cells| cells.get(3) == Some(&name))
            .and_then(|cells| cells.get(5)?.parse().ok())
            .unwrap_or_else(|| panic!("no score for {name}: {csv}"))
    }
}

#[test]
fn a89_2_a_round_robin_withdrawal_after_half_forfeits_his_remaining_games() {
    let e = Event::round_robin("forfeit");
    for _ in 0..4 {
        let (_, tables) = e.pair_round();
        e.forfeit(&tables, "black");
    }
    // 周四 (#8) has played 4 of his 7 games: the rest are lost by his absence.
    let out = e.ok(&["players", "withdraw", "--event", "1", "--player", "8"]);
    assert!(
        out.contains("#8 周四 withdrew: his remaining games are lost by absence"),
        "{out}"
    );
    let (wang, zhou) = (e.score("王芳"), e.score("周四"));
    // Round 5 of the table of 8: 3-8 4-2 5-1 6-7. 王芳 (#3) wins without play, at no table.
    let (listing, tables) = e.pair_round();
    assert_eq!(tables.len(), 3, "{listing}");
    assert!(
        listing.contains("board 1 without play (不戰, 89(2)): #3 王芳 vs #8 周四 +/-"),
        "{listing}"
    );
    e.forfeit(&tables, "black");
    assert_eq!(e.score("王芳"), wang + 12, "不戰而勝 (黃氏計分法 12)");
    assert_eq!(e.score("周四"), zhou, "缺席 0");
    // The withdrawal stays in force in every round to come: round 6 (8-7 1-6 2-5 3-4).
    let (listing, tables) = e.pair_round();
    assert_eq!(tables.len(), 3, "{listing}");
    assert!(listing.contains("#8 周四 vs #7 黃三 -/+"), "{listing}");
}

#[test]
fn a89_2_a_round_robin_withdrawal_before_half_annuls_all_his_games() {
    let e = Event::round_robin("annul");
    // Round 1: 1-8 2-7 3-6 4-5; every red absent, so 周四 (#8) beats 李明 (#1) without play.
    let (_, tables) = e.pair_round();
    e.forfeit(&tables, "red");
    assert_eq!(e.score("周四"), 12);
    // 李明 has played 1 of his 7 games: all of them are annulled.
    let out = e.ok(&["players", "withdraw", "--event", "1", "--player", "1"]);
    assert!(
        out.contains("#1 李明 withdrew: his games are annulled"),
        "{out}"
    );
    assert_eq!(e.score("周四"), 0, "his win over 李明 no longer counts");
    assert_eq!(e.score("林二"), 12, "other games stand");
    // As if he had never entered: he has no line in the standings (nor a place of 0).
    let csv = e.ok(&["standings", "--event", "1", "--format", "csv"]);
    assert!(!csv.contains("李明"), "{csv}");
    // Round 2: 8-5 6-4 7-3 1-2. 張華 (#2) sits out, unscored: no table, no bye.
    let (listing, tables) = e.pair_round();
    assert_eq!(tables.len(), 3, "{listing}");
    // He was absent in round 1 (the listing says so first), and has no board in round 2.
    let (absent, listing) = listing.split_once("round 2\n").unwrap();
    assert!(
        absent.contains("absent in round 1 (缺席, 87): #2 張華"),
        "{absent}"
    );
    assert!(!listing.contains("張華"), "{listing}");
    assert!(!listing.contains("without play"), "{listing}");
    e.forfeit(&tables, "black");
    assert_eq!(e.score("張華"), 0);
}

/// The federation's organiser works on its PostgreSQL database as on a hall's file: no hall
/// file anywhere, the event made, its register imported, a round paired and
/// its absences recorded (87), a withdrawal (89(2)), the standings, the change log and the
/// results export, each command with `--db postgres://…`.
#[test]
fn the_organiser_runs_a_tournament_on_the_federations_postgres() {
    let url = std::env::var("BAOQI_TEST_POSTGRES").ok();
    let required = std::env::var_os("BAOQI_REQUIRE_POSTGRES").is_some();
    assert!(url.is_some() || !required, "BAOQI_TEST_POSTGRES is not set");
    let Some(url) = url else {
        eprintln!("skipped: no BAOQI_TEST_POSTGRES");
        return;
    };
    let toml = std::fs::read_to_string(format!("{FIX}/tournament.toml")).unwrap();
    let e = Event::on_postgres("pg", &toml, &url);
    assert!(e.db.starts_with("postgres://"));
    let (listing, tables) = e.pair_round();
    assert_eq!(tables.len(), 4, "{listing}");
    e.forfeit(&tables, "black");
    let withdrew = e.ok(&["players", "withdraw", "--event", "1", "--player", "8"]);
    assert!(withdrew.contains("#8 周四 withdrew"), "{withdrew}");
    // 黃氏計分法: the four red players won without play (12), the black ones 缺席 0.
    let (red, black) = names_at(&listing, 1);
    assert_eq!((e.score(&red), e.score(&black)), (12, 0));
    let changes = e.ok(&["changes", "--event", "1"]);
    assert!(changes.contains("round 1 paired"), "{changes}");
    let results = e.ok(&["export", "--results", "1"]);
    assert!(results.contains(&red), "{results}");
}
