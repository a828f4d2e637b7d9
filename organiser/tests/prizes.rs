//! The event file's prize lists given from the standings: in the organiser's order, one prize
//! per player, each winner one the list admits; final once every round is, and said so.

use std::collections::BTreeSet;

use baoqi_organiser::admin;
use baoqi_organiser::rounds::{self, Absent};
use baoqi_organiser::{register, report, results, standings};
use baoqi_store::config::EventFile;
use baoqi_store::{SqliteStore, Store};

const PLAYERS: &str = "姓名,所屬團體,類別,性別,出生年份
李明,視障協會,全失明,男,1958
張華,,部份失明,女,1990
王芳,東區,健視,女,2011
趙強,聾人會,聾啞,男,1980
陳一,,健視,男,2012
";

const PRIZES: &str = r#"
[[tournament.prizes]]
name = "總成績"
places = 2
[[tournament.prizes]]
name = "視障組"
places = 1
categories = ["blind", "partially_sighted"]
[[tournament.prizes]]
name = "女子組"
places = 1
sex = "female"
[[tournament.prizes]]
name = "少年組"
places = 2
born_from = 2008
"#;

fn event_file(prizes: &str) -> String {
    format!(
        "name = \"共融賽\"\nspectators = 1\n[tournament]\nsystem = \"swiss\"\nrounds = 2\n\
         [tournament.match]\ntime.default = {{ base_ms = 1200000, mode = \"plain\" }}\n{prizes}"
    )
}

fn computed(store: &dyn Store, event: baoqi_store::model::EventId) -> standings::Standings {
    let outcomes = results::from_store(store, event).unwrap();
    standings::compute(store, event, &outcomes).unwrap()
}

#[test]
fn the_prize_lists_are_given_in_order_one_prize_per_player_final_after_the_last_round() {
    let (store, _) = SqliteStore::open_temp().unwrap();
    let (file, settings) = EventFile::with_tournament(&event_file(PRIZES)).unwrap();
    let c = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    register::import(&store, c.event, PLAYERS).unwrap();
    for round in 1..=2 {
        let outcomes = results::from_store(&store, c.event).unwrap();
        let paired = rounds::pair(&store, c.event, &outcomes).unwrap();
        let before = report::text(&computed(&store, c.event));
        assert!(
            before.contains("獎項 prizes, if the event ended now (not final)"),
            "round {round}: {before}"
        );
        for t in &paired.created.tables {
            rounds::record_absence(&store, c.event, t.id, Absent::Black).unwrap();
        }
    }
    let s = computed(&store, c.event);
    let names: Vec<Vec<&str>> = s
        .prizes
        .iter()
        .map(|l| l.prizes.iter().map(|p| p.player.name.as_str()).collect())
        .collect();
    assert_eq!(s.prizes.len(), 4, "{names:?}");
    // The overall prizes go to the first two places.
    let first_two: Vec<&str> = s.lines[..2]
        .iter()
        .map(|l| l.player.name.as_str())
        .collect();
    assert_eq!(names[0], first_two);
    // One prize per player, each to a player the list admits.
    let all: Vec<&str> = names.iter().flatten().copied().collect();
    assert_eq!(
        all.len(),
        all.iter().collect::<BTreeSet<_>>().len(),
        "{names:?}"
    );
    assert!(
        names[1].iter().all(|n| ["李明", "張華"].contains(n)),
        "{names:?}"
    );
    assert!(
        names[2].iter().all(|n| ["張華", "王芳"].contains(n)),
        "{names:?}"
    );
    assert!(
        names[3].iter().all(|n| ["王芳", "陳一"].contains(n)),
        "{names:?}"
    );
    // Each list goes down the standings: its winners' places rise.
    for list in &s.prizes {
        assert!(
            list.prizes.windows(2).all(|w| w[0].place <= w[1].place),
            "{list:?}"
        );
    }
    let text = report::text(&s);
    assert!(text.contains("獎項 prizes, final after round 2"), "{text}");
    assert!(text.contains("總成績（2 名 prizes）"), "{text}");
}

#[test]
fn a_prize_list_without_a_prize_is_refused_with_its_field() {
    let bad = "[[tournament.prizes]]\nname = \"總成績\"\nplaces = 0\n";
    let e = EventFile::with_tournament(&event_file(bad)).unwrap_err();
    assert!(e.to_string().contains("tournament.prizes[1].places"), "{e}");
    let nobody = "[[tournament.prizes]]\nname = \"少年組\"\nplaces = 1\nborn_from = 2010\nborn_until = 2000\n";
    let e = EventFile::with_tournament(&event_file(nobody)).unwrap_err();
    assert!(
        e.to_string().contains("tournament.prizes[1].born_until"),
        "{e}"
    );
}
