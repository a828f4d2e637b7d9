//! The register: CSV import with errors naming line and column, and each player's settings
//! derived from it and the event's rules (附表七 7.2, 7.4).

use baoqi_arbiter::{BoardUse, Category, ClockMode, EventKind, TimeControl, TimeTable};
use baoqi_tournament::{
    EventRules, FieldProblem, LineError, PlayerId, RegisterError, RoundNumber, read_register,
};

const REGISTER: &str = "\
姓名,所屬團體,種子,類別,眼罩,懂記譜,代理,棋盤
陳大文,香港盲人輔導會,1,全失明,否,是,,
李小明,,2,部份失明,是,是,,
黃美玲,聾人協會,,聾啞,否,否,張代理,
何志強,,,健視;肢體傷殘,,,,正規
";

fn control(minutes: u64, extra_s: u64) -> TimeControl {
    TimeControl {
        base_ms: minutes * 60_000,
        mode: ClockMode::Increment,
        extra_ms: extra_s * 1000,
    }
}

fn rules() -> EventRules {
    EventRules {
        kind: EventKind::Part7,
        time: TimeTable {
            default: control(20, 5),
            blind: Some(control(40, 20)),
            partially_sighted: Some(control(30, 10)),
            physical: Some(control(25, 10)),
            sighted: Some(control(20, 5)),
            ..TimeTable::default()
        },
        talking_clock: true,
        ..EventRules::default()
    }
}

#[test]
fn register_reads_chinese_headers() {
    let players = read_register(REGISTER).expect("a valid register");
    assert_eq!(players.len(), 4);
    assert_eq!(players[0].id, PlayerId(1));
    assert_eq!(players[0].name, "陳大文");
    assert_eq!(players[0].club.as_deref(), Some("香港盲人輔導會"));
    assert_eq!(players[0].seed, Some(1));
    assert_eq!(players[0].categories, vec![Category::Blind]);
    assert!(players[1].blindfold);
    assert!(!players[2].knows_notation);
    assert_eq!(players[2].proxy.as_deref(), Some("張代理"));
    assert_eq!(
        players[3].categories,
        vec![Category::Sighted, Category::Physical]
    );
    assert_eq!(players[3].board, Some(BoardUse::Regular));
}

#[test]
fn register_reads_english_headers_and_defaults() {
    let players = read_register("name,rating\nAmy,1800\nBo,\n").expect("valid");
    assert_eq!(players[0].rating, Some(1800));
    assert_eq!(players[1].rating, None);
    assert!(players[1].knows_notation, "knowing notation is the default");
    assert!(players[1].categories.is_empty());
}

#[test]
fn register_bad_number_names_line_and_column() {
    let err = read_register("姓名,種子\n甲,1\n乙,two\n").expect_err("seed `two`");
    match &err.lines()[0] {
        LineError::Field {
            line,
            column,
            problem,
        } => {
            assert_eq!((*line, column.as_str()), (3, "種子"));
            assert_eq!(*problem, FieldProblem::NotANumber("two".into()));
        }
        other => panic!("{other}"),
    }
}

#[test]
fn register_bad_category_and_yes_no_are_refused() {
    let err = read_register("name,category\nA,blind\nB,半盲\n").expect_err("半盲");
    assert_eq!(
        err.to_string(),
        "1 line of the register cannot be read:\n  line 3, column `category`: `半盲` is not a category (全失明, 部份失明, 健視, 聾啞, 肢體傷殘)"
    );
    let err = read_register("name,blindfold\nA,maybe\n").expect_err("maybe");
    assert!(
        matches!(&err.lines()[0], LineError::Field { line: 2, column, .. } if column == "blindfold")
    );
}

#[test]
fn register_needs_names_and_distinct_seeds() {
    assert!(matches!(
        read_register("club\nX\n"),
        Err(RegisterError::MissingColumn(_))
    ));
    let first = |text: &str| read_register(text).unwrap_err().lines()[0].clone();
    // A row of empty cells is no player; a player without a name is refused.
    assert!(matches!(
        first("name,club\n\n\"\",東區\n"),
        LineError::Field {
            problem: FieldProblem::Empty,
            ..
        }
    ));
    assert_eq!(
        first("name,seed\nA,1\nB,1\n"),
        LineError::DuplicateSeed {
            line: 3,
            seed: 1,
            first: 2
        }
    );
    assert!(matches!(
        first("name,seed\nA,0\n"),
        LineError::Field {
            problem: FieldProblem::ZeroSeed,
            ..
        }
    ));
}

#[test]
fn register_ragged_row_is_a_csv_error_with_its_line() {
    let err = read_register("name,club\nA,X\nB,Y,Z\n").expect_err("three fields");
    assert!(
        matches!(err.lines(), [LineError::Csv { line: 3, .. }]),
        "{err}"
    );
}

#[test]
fn s7p2_1_time_allowance_by_category() {
    let players = read_register(REGISTER).expect("valid");
    let rules = rules();
    assert_eq!(
        rules.settings(&players[0]).time,
        control(40, 20),
        "全失明 longest"
    );
    assert_eq!(
        rules.settings(&players[3]).time,
        control(25, 10),
        "肢體傷殘"
    );
    assert_eq!(
        rules.settings(&players[2]).time,
        control(20, 5),
        "聾啞: the default"
    );
}

#[test]
fn s7p2_2_blindfold_counts_as_fully_blind() {
    let players = read_register(REGISTER).expect("valid");
    // 李小明 is 部份失明 but plays blindfolded.
    assert_eq!(rules().settings(&players[1]).time, control(40, 20));
    assert_eq!(rules().settings(&players[1]).board, BoardUse::Vi);
}

#[test]
fn s7p4_2_g_iii_vi_player_with_proxy_gets_the_smaller_adjustment() {
    let mut players = read_register(REGISTER).expect("valid");
    let mut rules = rules();
    rules.time.vi_with_proxy = Some(control(30, 15));
    players[0].proxy = Some("助手".into());
    assert_eq!(rules.settings(&players[0]).time, control(30, 15));
}

#[test]
fn s7p4_2_c_d_deaf_player_without_notation_gets_cards_and_the_referee_announces() {
    let players = read_register(REGISTER).expect("valid");
    let s = rules().settings(&players[2]);
    assert!(s.cards);
    assert!(s.referee_announces);
}

#[test]
fn s7p1_match_config_of_a_pairing_repeats_nothing_by_hand() {
    let players = read_register(REGISTER).expect("valid");
    let config = rules().match_config(&players[0], &players[2], RoundNumber(3), 7);
    assert_eq!(config.red.name, "陳大文");
    assert!(
        config.announcing(),
        "a VI player is at the table (7.4(2)(a))"
    );
    assert!(config.cards(), "a deaf player is at the table (7.1(2))");
    assert!(config.talking_clock);
    assert_eq!(config.time.for_side(&config.red), control(40, 20));
    assert_eq!(
        (config.header.round.as_str(), config.header.table.as_str()),
        ("3", "7")
    );
    // Two sighted players: no announcing, no talking clock.
    let sighted = read_register("name\nA\nB\n").expect("valid");
    let config = rules().match_config(&sighted[0], &sighted[1], RoundNumber(1), 1);
    assert!(!config.announcing());
    assert!(!config.talking_clock);
}

#[test]
fn a_register_beyond_an_events_size_is_refused_before_it_is_read() {
    let line = "陳大文,香港盲人輔導會\n";
    let huge = format!("姓名,所屬團體\n{}", line.repeat(60_000));
    assert!(matches!(
        read_register(&huge),
        Err(RegisterError::TooLarge { max, .. }) if max == baoqi_tournament::MAX_REGISTER_BYTES
    ));
    let names = |n: usize| -> String {
        (0..n)
            .map(|i| format!("棋手{i}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let many = names(baoqi_tournament::MAX_PLAYERS + 1);
    let e = read_register(&format!("姓名\n{many}")).unwrap_err();
    assert!(matches!(e, RegisterError::TooMany { max: 1_000 }), "{e}");
    let exactly = names(baoqi_tournament::MAX_PLAYERS);
    assert_eq!(
        read_register(&format!("姓名\n{exactly}")).unwrap().len(),
        1_000
    );
}

#[test]
fn a_name_is_a_name_not_a_payload() {
    let long = "名".repeat(101);
    let e = read_register(&format!("姓名\n{long}\n")).unwrap_err();
    assert!(
        matches!(
            e.lines(),
            [LineError::Field {
                line: 2,
                problem: FieldProblem::TooLong(101),
                ..
            }]
        ),
        "{e}"
    );
    let e = read_register("姓名,所屬團體\n陳\u{7}大文,會\n").unwrap_err();
    assert!(
        matches!(
            e.lines(),
            [LineError::Field {
                problem: FieldProblem::Control,
                ..
            }]
        ),
        "{e}"
    );
}

/// Characters that change how the text around them reads without being seen: an override
/// reversing the rest of a line, marks, isolates and zero-width characters.
const INVISIBLE: [char; 6] = [
    '\u{202E}', '\u{2067}', '\u{200F}', '\u{200B}', '\u{2060}', '\u{FEFF}',
];

#[test]
fn a_name_with_a_bidi_control_or_a_zero_width_character_is_refused() {
    for c in INVISIBLE {
        for register in [
            format!("姓名\n陳{c}大文\n"),
            format!("姓名,所屬團體\n陳大文,會{c}\n"),
        ] {
            let e = read_register(&register).unwrap_err();
            let code = u32::from(c);
            assert!(
                matches!(
                    e.lines(),
                    [LineError::Field { line: 2, problem: FieldProblem::Invisible(found), .. }]
                        if *found == code
                ),
                "{c:?}: {e}"
            );
            assert!(e.to_string().contains(&format!("U+{code:04X}")), "{e}");
        }
    }
}

#[test]
fn names_that_differ_only_by_invisible_characters_are_namesakes() {
    let plain = baoqi_tournament::Player::new(1, "𠮷野家𠮷");
    for c in INVISIBLE {
        let hidden = baoqi_tournament::Player::new(2, format!("𠮷野家{c}𠮷"));
        assert!(plain.namesake(&hidden), "{c:?}");
    }
}

mod fuzz {
    use baoqi_tournament::read_register;
    use proptest::prelude::*;

    /// Pieces of a register: its headers, values, separators and quotes.
    const PIECES: &[&str] = &[
        "姓名",
        "name",
        "所屬團體",
        "種子",
        "類別",
        "眼罩",
        "代理",
        "棋盤",
        ",",
        "\n",
        "\r\n",
        "\"",
        "陳大文",
        "全失明",
        "聾啞",
        "是",
        "否",
        "1",
        "0",
        "-3",
        "視障",
        "；",
        ";",
        "\u{feff}",
        "=SUM(A1)",
        "\u{7}",
        "99999999999999999999",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// No register file panics the reader.
        #[test]
        fn no_register_panics_the_reader(
            random in any::<String>(),
            built in prop::collection::vec(prop::sample::select(PIECES), 0..80),
        ) {
            let _ = read_register(&random);
            let _ = read_register(&built.concat());
        }
    }
}
