//! The register on the command line as the organiser meets it: a CSV a spreadsheet saved in
//! Big5 is imported and the encoding said; every bad line is reported at once, nothing
//! imported; a second player of one name and club needs `--allow-same-name`;
//! `players delete` strikes a line entered by mistake before the player is paired (not a
//! withdrawal, 89(2)); `players list` shows the ratings.

use crate::cli_tournament::Event;

const REGISTER: &str = "姓名,所屬團體,等級分,類別\r\n陳大文,香港盲人輔導會,1850,全失明\r\n\
李小明,,1720,部份失明\r\n黃美玲,聾人協會,,聾啞\r\n何志強,東區,1900,健視\r\n";

/// `text` saved in Big5 in the event's directory, as Excel's "CSV" on Traditional Chinese
/// Windows saves it.
fn big5(e: &Event, name: &str, text: &str) -> String {
    let (bytes, _, lossy) = encoding_rs::BIG5.encode(text);
    assert!(!lossy);
    let path = e.dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn players_import_reads_big5_and_says_so_and_list_shows_ratings() {
    let e = Event::new("reg-big5", None);
    let file = big5(&e, "players.csv", REGISTER);
    let out = e.ok(&["players", "import", "--event", "1", &file]);
    assert!(
        out.starts_with("4 players registered in event 1 (read as Big5"),
        "{out}"
    );
    let list = e.ok(&["players", "list", "--event", "1"]);
    assert!(
        list.contains("陳大文 (香港盲人輔導會) rating 1850"),
        "{list}"
    );
    assert!(list.contains("黃美玲 (聾人協會) [聾啞]"), "{list}");
}

#[test]
fn players_import_reports_every_bad_line_and_imports_nothing() {
    let e = Event::new("reg-bad", None);
    let bad = "姓名,等級分,類別\r\n甲,x,\r\n乙,1500,半盲\r\n丙,,健視,多\r\n丁,1600,\r\n";
    let file = big5(&e, "bad.csv", bad);
    let err = e.refused(&["players", "import", "--event", "1", &file]);
    for want in [
        "3 lines of the register cannot be read",
        "line 2, column `等級分`",
        "line 3, column `類別`",
        "line 4: 4 fields where the header has 3",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
    let list = e.ok(&["players", "list", "--event", "1"]);
    assert!(list.contains("李明"), "the register before stands: {list}");
}

/// `text` saved as Excel's "Unicode Text" saves it: UTF-16 LE with its byte order mark.
fn unicode_text(e: &Event, name: &str, text: &str) -> String {
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = e.dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn an_excel_register_with_separators_full_width_punctuation_and_extra_columns_reads() {
    let e = Event::new("reg-excel", None);
    let text = "編號\t姓名\t性別\t出生年份\t所屬團體\t等級分\t類別\t電話\r\n\
        1\t陳大文\t男\t1958\t東區\t1,810\t全失明；聾啞\t2345 6789\r\n\
        2\t黃美玲\t女\t2010\t西區\t\t部份失明\t\r\n\
        \t\t\t\t\t\t\t\r\n";
    let file = unicode_text(&e, "excel.txt", text);
    let out = e.ok(&["players", "import", "--event", "1", &file]);
    assert!(out.starts_with("2 players registered in event 1"), "{out}");
    assert!(
        out.contains("columns not read (not part of the register): 電話"),
        "the telephone column is named, not dropped silently: {out}"
    );
    let list = e.ok(&["players", "list", "--event", "1"]);
    assert!(
        list.contains("陳大文 (東區) rating 1810 [全失明、聾啞] 男 1958"),
        "{list}"
    );
}

#[test]
fn a_big5_register_where_excel_lost_characters_is_refused_with_how_to_save_it() {
    let e = Event::new("reg-lost", None);
    let file = big5(
        &e,
        "lost.csv",
        "姓名,所屬團體\r\n?田明,東區\r\n鄧冇?,西區\r\n",
    );
    let err = e.refused(&["players", "import", "--event", "1", &file]);
    for want in [
        "line 2, column `姓名`",
        "line 3, column `姓名`",
        "CSV UTF-8",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
}

#[test]
fn a_namesake_needs_allow_same_name_on_import_and_add() {
    let e = Event::new("reg-same", None);
    let twice = "姓名,所屬團體\n陳大文,盲人會\n陳大文,盲人會\n";
    let file = e.dir.join("twice.csv");
    std::fs::write(&file, twice).unwrap();
    let file = file.to_str().unwrap();
    let err = e.refused(&["players", "import", "--event", "1", file]);
    assert!(
        err.contains("line 3: 陳大文 is already registered on line 2")
            && err.contains("--allow-same-name"),
        "{err}"
    );
    let out = e.ok(&[
        "players",
        "import",
        "--event",
        "1",
        "--allow-same-name",
        file,
    ]);
    assert!(out.contains("2 players registered"), "{out}");
    let err = e.refused(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "陳大文",
        "--club",
        "盲人會",
    ]);
    assert!(err.contains("--allow-same-name"), "{err}");
    e.ok(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "陳大文",
        "--club",
        "東區",
    ]);
}

#[test]
fn players_delete_strikes_a_line_before_pairing_and_never_after() {
    let e = Event::new("reg-delete", None);
    let out = e.ok(&[
        "players",
        "delete",
        "--event",
        "1",
        "--player",
        "8",
        "--reason",
        "entered by mistake",
    ]);
    assert!(out.contains("#8 周四 struck from the register"), "{out}");
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(
        log.contains("not a withdrawal") && log.contains("entered by mistake"),
        "{log}"
    );
    e.ok(&["round", "pair", "--event", "1"]);
    let err = e.refused(&["players", "delete", "--event", "1", "--player", "1"]);
    assert!(
        err.contains("withdraw him instead") || err.contains("89(2)"),
        "{err}"
    );
}

#[test]
fn sex_and_year_of_birth_are_added_corrected_and_logged_for_the_prizes() {
    let e = Event::new("reg-prizes", None);
    e.ok(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "周小慧",
        "--sex",
        "女",
        "--born",
        "2011",
    ]);
    let list = e.ok(&["players", "list", "--event", "1"]);
    assert!(list.contains("周小慧 [健視] 女 2011"), "{list}");
    let refused = e.refused(&[
        "players",
        "add",
        "--event",
        "1",
        "--name",
        "何大為",
        "--born",
        "11",
    ]);
    assert!(refused.contains("--born"), "{refused}");
    let line = list
        .lines()
        .find(|l| l.contains("周小慧"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_owned();
    e.ok(&[
        "players", "edit", "--event", "1", "--player", &line, "--born", "2010", "--sex", "",
    ]);
    let list = e.ok(&["players", "list", "--event", "1"]);
    assert!(list.contains("周小慧 [健視] 2010"), "{list}");
    let log = e.ok(&["changes", "--event", "1"]);
    assert!(log.contains("sex 女 → -, born 2011 → 2010"), "{log}");
}
