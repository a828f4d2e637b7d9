//! The standings as the organiser uses them: the CSV a spreadsheet opens (UTF-8 with a BOM,
//! scores and tie-breaks as numbers, every tie-break for every player, blank only where it
//! does not apply, a withdrawn, a category and a rating column, no cell a formula); the
//! keypad's place counting the players ranked; the text standings saying how far they go
//! and lining up with Chinese names.

use baoqi_organiser::admin::{self, Created};
use baoqi_organiser::rounds::{self, Absent, Paired};
use baoqi_organiser::{edits, place, register, results, standings};
use baoqi_protocol::StandingAnswer;
use baoqi_store::config::EventFile;
use baoqi_store::model::{EventId, Role};
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::PlayerId;
use unicode_width::UnicodeWidthStr;

const PLAYERS: &str = "姓名,所屬團體,等級分,類別
李明,視障協會,1850,全失明
張華,,1720,部份失明
=王芳,東區,,健視
趙強,聾人會,1600,聾啞
陳一,,,全失明;聾啞
";

/// A Swiss of 1/½/0 with a bye scored as a draw and `tiebreaks`, the five players above.
fn event(tiebreaks: &str) -> (SqliteStore, Created) {
    let toml = format!(
        "name = \"共融賽\"\nspectators = 1\n[tournament]\nsystem = \"swiss\"\nrounds = 3\n\
         scoring = \"game_points\"\nbye = \"draw\"\ntiebreaks = [{tiebreaks}]\n\
         [tournament.match]\ntime.default = {{ base_ms = 1200000, mode = \"plain\" }}\n"
    );
    let (store, _) = SqliteStore::open_temp().unwrap();
    let (file, settings) = EventFile::with_tournament(&toml).unwrap();
    let created = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    register::import(&store, created.event, PLAYERS).unwrap();
    (store, created)
}

fn pair(store: &dyn Store, event: EventId) -> Paired {
    let outcomes = results::from_store(store, event).unwrap();
    rounds::pair(store, event, &outcomes).unwrap()
}

/// Every game of the round lost by black's absence (87): the round is final.
fn finish(store: &dyn Store, event: EventId, paired: &Paired) {
    for t in &paired.created.tables {
        rounds::record_absence(store, event, t.id, Absent::Black).unwrap();
    }
}

fn computed(store: &dyn Store, event: EventId) -> standings::Standings {
    let outcomes = results::from_store(store, event).unwrap();
    standings::compute(store, event, &outcomes).unwrap()
}

#[test]
fn the_standings_csv_is_a_spreadsheets_numbers_for_every_player() {
    let (store, c) = event("\"head_to_head\", \"buchholz\", \"club\"");
    let paired = pair(&store, c.event);
    finish(&store, c.event, &paired);
    let bye = paired.byes[0].id;
    edits::withdraw(&store, c.event, PlayerId(2), None).unwrap();
    let csv = standings::csv(&computed(&store, c.event));
    let text = csv.strip_prefix('\u{feff}').expect("UTF-8 with a BOM");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        head,
        [
            "place",
            "shared",
            "player",
            "name",
            "club",
            "score",
            "Head-to-head",
            "Buchholz",
            "Club score",
            "withdrawn",
            "category",
            "rating"
        ]
    );
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 5);
    let row = |id: u32| rows.iter().find(|r| r[2] == id.to_string()).unwrap();
    // The bye scores a draw: 0.5, not ½; alone on his score, head-to-head does not apply.
    let b = row(bye.0);
    assert_eq!((b[5].as_str(), b[6].as_str()), ("0.5", ""), "{csv}");
    for r in &rows {
        assert!(r[5].parse::<f64>().is_ok(), "a score is a number: {r:?}");
        assert!(
            r[7].parse::<f64>().is_ok(),
            "every player's Buchholz: {r:?}"
        );
        assert_eq!(r[6], "", "level players who never met: blank, {r:?}");
        assert!(
            !r.iter().any(|cell| cell.starts_with(['+', '-', '=', '@'])),
            "{r:?}"
        );
    }
    // 張華 has no club (blank), withdrew after round 1 (his result stands), 部份失明, 1720.
    let zhang = row(2);
    assert_eq!(&zhang[8..], ["", "true", "部份失明", "1720"]);
    assert_eq!(&row(5)[10..], ["全失明、聾啞", ""]);
    assert_eq!(row(3)[3], "'=王芳", "a name is never a formula");
    assert!(
        row(1)[8].parse::<f64>().is_ok(),
        "a club's total: {:?}",
        row(1)
    );
}

#[test]
fn the_json_carries_what_the_category_prizes_need() {
    let (store, c) = event("");
    let json = serde_json::to_value(computed(&store, c.event)).unwrap();
    let line = &json["lines"][0];
    assert_eq!(line["categories"], serde_json::json!(["blind"]));
    assert_eq!(line["rating"], 1850);
    assert_eq!(line["withdrawn"], false);
}

#[test]
fn the_keypads_place_counts_the_players_ranked_not_the_register() {
    let (store, c) = event("");
    // 陳一 withdraws before the start: drawn without him, he has no line (89(2)).
    edits::withdraw(&store, c.event, PlayerId(5), None).unwrap();
    let paired = pair(&store, c.event);
    finish(&store, c.event, &paired);
    let seat = paired
        .created
        .seats
        .iter()
        .find(|s| s.seat.role == Role::Red)
        .unwrap();
    let outcomes = results::from_store(&store, c.event).unwrap();
    let answer = place::answer(&store, &seat.seat, &outcomes).unwrap();
    let StandingAnswer::Placed(p) = answer else {
        panic!("{answer:?}")
    };
    let ranked = computed(&store, c.event).lines.len() as u32;
    assert_eq!((p.players, ranked), (4, 4), "共四人, as the standings list");
}

#[test]
fn the_text_standings_say_round_1_is_in_play_not_after_round_0() {
    let (store, c) = event("");
    let text = standings::text(&computed(&store, c.event));
    assert!(text.contains("before round 1: no round paired"), "{text}");
    let paired = pair(&store, c.event);
    let text = standings::text(&computed(&store, c.event));
    assert!(
        text.contains("round 1 in play, no round finished (第1輪進行中"),
        "{text}"
    );
    assert!(!text.contains("after round 0"), "{text}");
    finish(&store, c.event, &paired);
    pair(&store, c.event);
    let text = standings::text(&computed(&store, c.event));
    assert!(
        text.contains("after round 1; round 2 in play (第1輪後；第2輪進行中)"),
        "{text}"
    );
}

#[test]
fn the_text_standings_line_up_with_chinese_names() {
    let (store, c) = event("");
    let paired = pair(&store, c.event);
    finish(&store, c.event, &paired);
    let text = standings::text(&computed(&store, c.event));
    // Without tie-breaks the score is the last column, right-aligned: every line of the
    // table ends at the same display column, Chinese names (two columns a character) and all.
    let widths: Vec<usize> = text.lines().skip(1).map(UnicodeWidthStr::width).collect();
    assert_eq!(widths.len(), 6, "{text}");
    assert!(widths.iter().all(|w| *w == widths[0]), "{widths:?}\n{text}");
}
