//! The register as the organiser imports and corrects it: a file saved by a spreadsheet in
//! Big5 or UTF-16 is read and the encoding said; every bad line is reported at once; a
//! second player of one name and club is refused unless the organiser confirms; a line
//! entered by mistake is struck before the player is paired, which is not a withdrawal
//! (89(2)); `players list` shows the ratings.

use baoqi_organiser::admin::{self, Created};
use baoqi_organiser::edits::{self, EditError, Patch};
use baoqi_organiser::register::{self, DeleteError, ImportError};
use baoqi_organiser::{Logged, results, rounds};
use baoqi_store::config::EventFile;
use baoqi_store::{SqliteStore, Store};
use baoqi_tournament::{PlayerId, RoundNumber, SameName, TextEncoding};

const PLAYERS: &str = "姓名,所屬團體,等級分,類別
李明,視障協會,1850,全失明
張華,視障協會,,部份失明
王芳,東區,1700,健視
趙強,聾人會,,聾啞
";

/// A Swiss event of three rounds, its register not yet imported.
fn event() -> (SqliteStore, Created) {
    let toml = "name = \"共融賽\"\nspectators = 1\n[tournament]\nsystem = \"swiss\"\nrounds = 3\n\
         [tournament.match]\ntime.default = { base_ms = 1200000, mode = \"plain\" }\n";
    let (store, _) = SqliteStore::open_temp().unwrap();
    let (file, settings) = EventFile::with_tournament(toml).unwrap();
    let created = admin::create_tournament(&store, &file, settings.as_ref().unwrap()).unwrap();
    (store, created)
}

fn big5(text: &str) -> Vec<u8> {
    let (bytes, _, lossy) = encoding_rs::BIG5.encode(text);
    assert!(!lossy);
    bytes.into_owned()
}

fn named(name: &str, club: Option<&str>) -> Patch {
    Patch {
        name: Some(name.into()),
        club: Some(club.map(str::to_string)),
        ..Patch::default()
    }
}

#[test]
fn a_register_saved_as_big5_is_imported_and_the_encoding_said() {
    let (store, c) = event();
    let imported =
        register::import_file(&store, c.event, &big5(PLAYERS), SameName::Refuse).unwrap();
    assert_eq!(imported.encoding, TextEncoding::Big5);
    assert_eq!(imported.players.len(), 4);
    assert_eq!(imported.players[3].player.name, "趙強");
}

#[test]
fn bytes_no_encoding_reads_are_refused_with_the_fix_in_words() {
    let (store, c) = event();
    let e =
        register::import_file(&store, c.event, b"name\n\x80\x81\n", SameName::Refuse).unwrap_err();
    assert!(matches!(e, ImportError::Decode(_)), "{e}");
    assert!(e.to_string().contains("CSV UTF-8"), "{e}");
    assert!(register::list(&store, c.event).unwrap().1.is_empty());
}

#[test]
fn every_bad_line_is_reported_and_nothing_imported() {
    let (store, c) = event();
    let e = register::import(&store, c.event, "姓名,種子\n甲,x\n乙,0\n丙,\n").unwrap_err();
    let words = e.to_string();
    assert!(words.starts_with("2 lines of the register"), "{words}");
    assert!(
        words.contains("line 2") && words.contains("line 3"),
        "{words}"
    );
    assert!(register::list(&store, c.event).unwrap().1.is_empty());
}

#[test]
fn a_second_player_of_one_name_and_club_needs_the_organisers_word() {
    let (store, c) = event();
    let twice = "姓名,所屬團體\n陳大文,盲人會\n陳大文,盲人會\n";
    assert!(register::import_file(&store, c.event, twice.as_bytes(), SameName::Refuse).is_err());
    let imported =
        register::import_file(&store, c.event, twice.as_bytes(), SameName::Allow).unwrap();
    assert_eq!(imported.players.len(), 2);

    let (store, c) = event();
    register::import(&store, c.event, PLAYERS).unwrap();
    let e = edits::add(&store, c.event, &named("李明", Some("視障協會"))).unwrap_err();
    assert!(
        matches!(
            e,
            EditError::SameName {
                holder: PlayerId(1),
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.code(), "same_name");
    // Another club tells them apart; the organiser's word takes the same club.
    edits::add(&store, c.event, &named("李明", Some("西區"))).unwrap();
    edits::add_with(
        &store,
        c.event,
        &named("王芳", Some("東區")),
        (SameName::Allow, baoqi_tournament::changes::Missed::Nothing),
    )
    .unwrap();
    // An edit renaming a player to another's name and club is refused the same way.
    let e = edits::edit(
        &store,
        c.event,
        PlayerId(4),
        &named("張華", Some("視障協會")),
    );
    assert!(matches!(
        e,
        Err(EditError::SameName {
            holder: PlayerId(2),
            ..
        })
    ));
}

#[test]
fn a_line_entered_by_mistake_is_struck_before_the_player_is_paired() {
    let (store, c) = event();
    register::import(&store, c.event, PLAYERS).unwrap();
    let struck = register::delete(&store, c.event, PlayerId(2), Some("entered twice")).unwrap();
    assert_eq!(struck.name, "張華");
    let (_, players) = register::list(&store, c.event).unwrap();
    let numbers: Vec<u32> = players.iter().map(|r| r.player.id.0).collect();
    assert_eq!(numbers, [1, 3, 4], "the others keep their numbers");
    let log = store.tournaments().unwrap().changes(c.event).unwrap();
    assert!(matches!(
        &log.last().unwrap().change,
        Logged::Deleted { player, reason: Some(r) } if player.id == PlayerId(2) && r == "entered twice"
    ));
    // Three players: a round gives one a bye; once paired, nobody is struck.
    let outcomes = results::from_store(&store, c.event).unwrap();
    rounds::pair(&store, c.event, &outcomes).unwrap();
    let e = register::delete(&store, c.event, PlayerId(3), None).unwrap_err();
    assert!(
        matches!(
            e,
            DeleteError::Paired {
                round: RoundNumber(1),
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("89(2)"), "{e}");
}

#[test]
fn a89_2_a_withdrawn_players_line_is_not_struck() {
    let (store, c) = event();
    register::import(&store, c.event, PLAYERS).unwrap();
    edits::withdraw(&store, c.event, PlayerId(4), None).unwrap();
    let e = register::delete(&store, c.event, PlayerId(4), None).unwrap_err();
    assert!(matches!(e, DeleteError::Withdrawn(PlayerId(4))), "{e}");
}

#[test]
fn players_list_shows_the_ratings() {
    let (store, c) = event();
    register::import(&store, c.event, PLAYERS).unwrap();
    let (rules, players) = register::list(&store, c.event).unwrap();
    let text = register::list_text(&rules, &players);
    let first = text.lines().next().unwrap();
    assert!(first.contains("李明 (視障協會) rating 1850"), "{first}");
    assert!(!text.lines().nth(1).unwrap().contains("rating"));
}
