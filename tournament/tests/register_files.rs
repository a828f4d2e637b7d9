//! The register as a spreadsheet saves it: Big5 or UTF-16 from a spreadsheet on Traditional
//! Chinese Windows is read and the encoding said, anything else refused with how to save it
//! as UTF-8; every bad line reported at once; a second player of a name refused unless the
//! clubs tell them apart or the organiser confirms.

use baoqi_tournament::{
    DecodeError, FieldProblem, LineError, SameName, TextEncoding, decode_register, read_register,
    read_register_with,
};
use encoding_rs::BIG5;

const REGISTER: &str = "姓名,所屬團體,類別\n陳大文,香港盲人輔導會,全失明\n黃美玲,聾人協會,聾啞\n";

fn utf16(text: &str, little: bool) -> Vec<u8> {
    let mut bytes = if little {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        let pair = if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        bytes.extend(pair);
    }
    bytes
}

#[test]
fn a_big5_csv_from_traditional_chinese_windows_is_read_and_said_so() {
    let (bytes, _, lossy) = BIG5.encode(REGISTER);
    assert!(!lossy);
    let read = decode_register(&bytes).expect("Big5 decodes");
    assert_eq!(read.encoding, TextEncoding::Big5);
    assert_eq!(read.text, REGISTER);
    let players = read_register(&read.text).expect("a register");
    assert_eq!(players[1].name, "黃美玲");
}

#[test]
fn utf16_with_its_byte_order_mark_is_read_either_way() {
    for (little, encoding) in [
        (true, TextEncoding::Utf16Le),
        (false, TextEncoding::Utf16Be),
    ] {
        let read = decode_register(&utf16(REGISTER, little)).expect("UTF-16");
        assert_eq!((read.encoding, read.text.as_str()), (encoding, REGISTER));
    }
}

#[test]
fn a_spreadsheets_unicode_text_is_tab_separated_and_read() {
    let text = REGISTER.replace(',', "\t");
    let read = decode_register(&utf16(&text, true)).expect("UTF-16 LE");
    let players = read_register(&read.text).expect("tabs separate the columns");
    assert_eq!(players[0].club.as_deref(), Some("香港盲人輔導會"));
}

#[test]
fn utf8_with_or_without_bom_is_utf8() {
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend(REGISTER.as_bytes());
    let read = decode_register(&bom).expect("UTF-8 BOM");
    assert_eq!(
        (read.encoding, read.text.as_str()),
        (TextEncoding::Utf8Bom, REGISTER)
    );
    let read = decode_register(REGISTER.as_bytes()).expect("UTF-8");
    assert_eq!(read.encoding, TextEncoding::Utf8);
}

#[test]
fn bytes_neither_utf8_nor_big5_are_refused_with_how_to_save_as_utf8() {
    // 0x80 begins no Big5 character, and is no UTF-8 either.
    let e = decode_register(b"name\n\x80\x80\x80\n").unwrap_err();
    assert_eq!(e, DecodeError::Unknown { offset: 5 });
    let words = e.to_string();
    assert!(words.contains("CSV UTF-8"), "{words}");
    assert!(words.contains("另存新檔"), "{words}");
    let e = decode_register(&[0xFF, 0xFE, 0x00, 0xD8]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::Malformed {
            encoding: TextEncoding::Utf16Le
        }
    );
}

#[test]
fn every_bad_line_is_reported_at_once() {
    let e =
        read_register("姓名,種子,類別\n甲,x,\n乙,1,健視\n丙,1,半盲\n丁,1,\n戊,2,健視,多\n己,0,\n")
            .unwrap_err();
    let lines: Vec<u64> = e.lines().iter().map(LineError::line).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7], "{e}");
    assert!(
        matches!(&e.lines()[1], LineError::Field { column, problem: FieldProblem::Category(_), .. } if column == "類別")
    );
    assert_eq!(
        e.lines()[2],
        LineError::DuplicateSeed {
            line: 5,
            seed: 1,
            first: 3
        }
    );
    assert_eq!(
        e.lines()[3].to_string(),
        "line 6: 4 fields where the header has 3 (a comma in a name needs the name in quotes)"
    );
    assert!(
        e.to_string()
            .starts_with("5 lines of the register cannot be read:\n  line 2, column `種子`"),
        "{e}"
    );
}

#[test]
fn a_second_player_of_one_name_and_club_is_refused() {
    let e = read_register("姓名,所屬團體\n陳大文,盲人會\n李四,\n陳 大文,盲人會\n").unwrap_err();
    assert_eq!(
        e.lines(),
        [LineError::SameName {
            line: 4,
            name: "陳 大文".into(),
            club: Some("盲人會".into()),
            first: 2
        }]
    );
    // No club tells nobody apart.
    assert!(read_register("name,club\nAmy Wong,\namy wong,Lions\n").is_err());
}

#[test]
fn two_players_of_one_name_are_taken_when_their_clubs_differ_or_the_organiser_confirms() {
    let clubs = read_register("姓名,所屬團體\n陳大文,盲人會\n陳大文,聾人會\n").expect("two clubs");
    assert_eq!(clubs.len(), 2);
    let confirmed =
        read_register_with("姓名\n陳大文\n陳大文\n", SameName::Allow).expect("confirmed");
    assert_eq!(confirmed[1].id.0, 2);
}

#[test]
fn lines_are_counted_as_the_spreadsheet_numbers_its_rows_with_crlf_too() {
    let e = read_register("姓名,種子\r\n甲,1\r\n乙,x\r\n丙,y\r\n").unwrap_err();
    let lines: Vec<u64> = e.lines().iter().map(LineError::line).collect();
    assert_eq!(lines, [3, 4], "{e}");
}

/// The register a spreadsheet saved in Big5, read as the import reads it.
fn from_big5(text: &str) -> Result<Vec<baoqi_tournament::Player>, baoqi_tournament::RegisterError> {
    let (bytes, _, _) = BIG5.encode(text);
    let decoded = decode_register(&bytes).unwrap();
    assert_eq!(decoded.encoding, TextEncoding::Big5);
    read_register(&decoded.text)
}

#[test]
fn question_marks_where_big5_lost_a_character_are_refused_with_how_to_save_the_file() {
    // Excel writes `?` for a character Big5 cannot hold (𠮷, 冇's neighbours in HKSCS…).
    let text = "姓名,所屬團體\n?田明,東區\n鄧冇?,西區\n陳大文,東區\n";
    let Err(baoqi_tournament::RegisterError::Lines(lines)) = from_big5(text) else {
        panic!("a name with a lost character was taken");
    };
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, l) in [2, 3].into_iter().zip(&lines) {
        assert!(
            matches!(l, LineError::Field { line: n, problem: FieldProblem::LostCharacter, .. } if *n == line),
            "{l}"
        );
        assert!(l.to_string().contains("UTF-8"), "says how to save: {l}");
    }
}

#[test]
fn a_trailing_row_of_empty_cells_is_no_player() {
    let text = "姓名\t所屬團體\t類別\r\n陳大文\t東區\t全失明\r\n黃美玲\t\t聾啞\r\n\t\t\r\n\t\r\n";
    let players = read_register(text).expect("the empty rows are passed over");
    assert_eq!(players.len(), 2);
}

#[test]
fn a_rating_written_with_a_thousands_separator_or_full_width_digits_reads() {
    let text = "姓名,等級分\n陳大文,\"1,810\"\n黃美玲,１７２０\n何志強,\"1,8,10\"\n";
    let Err(baoqi_tournament::RegisterError::Lines(lines)) = read_register(text) else {
        panic!("1,8,10 is no number");
    };
    assert_eq!(lines.len(), 1, "only 1,8,10 is refused: {lines:?}");
    let players = read_register("姓名,等級分\n陳大文,\"1,810\"\n黃美玲,１７２０\n").unwrap();
    let ratings: Vec<Option<u32>> = players.iter().map(|p| p.rating).collect();
    assert_eq!(ratings, [Some(1810), Some(1720)]);
}

#[test]
fn categories_joined_by_full_width_punctuation_read() {
    let players =
        read_register("姓名,類別\n陳大文,全失明；聾啞\n黃美玲,部份失明，肢體傷殘\n").unwrap();
    assert_eq!(
        players[0].categories,
        [
            baoqi_arbiter::Category::Blind,
            baoqi_arbiter::Category::Deaf
        ]
    );
    assert_eq!(
        players[1].categories,
        [
            baoqi_arbiter::Category::PartiallySighted,
            baoqi_arbiter::Category::Physical
        ]
    );
}

#[test]
fn sex_and_birth_year_are_kept_for_the_prizes_and_a_number_out_of_order_is_refused() {
    let text = "編號,姓名,性別,出生年份\n1,陳大文,男,1958\n2,黃美玲,女,2010\n";
    let players = read_register(text).unwrap();
    assert_eq!(players[0].sex, Some(baoqi_tournament::Sex::Male));
    assert_eq!(
        (players[1].sex, players[1].born),
        (Some(baoqi_tournament::Sex::Female), Some(2010))
    );
    let shuffled = "編號,姓名\n2,陳大文\n1,黃美玲\n";
    let Err(baoqi_tournament::RegisterError::Lines(lines)) = read_register(shuffled) else {
        panic!("a 編號 that is not the line's order was taken");
    };
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (bad, problem) in [("性別", "x"), ("出生年份", "58")] {
        let text = format!("姓名,{bad}\n陳大文,{problem}\n");
        assert!(read_register(&text).is_err(), "{bad} = {problem}");
    }
}

#[test]
fn the_columns_the_import_does_not_read_are_named() {
    let text = "編號,姓名,電話,所屬團體,備註\n1,陳大文,2345,東區,\n";
    assert_eq!(baoqi_tournament::unread_columns(text), ["電話", "備註"]);
    assert!(baoqi_tournament::unread_columns(REGISTER).is_empty());
}
