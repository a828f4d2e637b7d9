//! Game records: PGN in Big5, GBK and UTF-8, Chinese, ICCS and WXF moves, full-width and
//! glued move numbers, black-first games, comments and variations, `[FEN]`.

use baoqi_grammar::{Mode, pgn};
use encoding_rs::{BIG5, GBK};

const GAME: &str = "[Game \"Chinese Chess\"]\n[Event \"測試\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n3. 車一平二 馬２進３\n1-0\n";
const END_FEN: &str = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4";

fn replayed_fen(bytes: &[u8]) -> String {
    pgn::replay_bytes(bytes).map_or_else(|e| format!("failed: {e}"), |r| r.end.fen())
}

#[test]
fn s6p1_records_in_big5_gbk_and_utf8_replay_alike() {
    let (big5, _, _) = BIG5.encode(GAME);
    let (gbk, _, _) = GBK.encode(GAME);
    let simplified = GAME
        .replace('進', "进")
        .replace('車', "车")
        .replace('馬', "马");
    let (gbk_simplified, _, _) = GBK.encode(&simplified);
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(GAME.as_bytes());
    for (name, bytes) in [
        ("big5", &big5[..]),
        ("gbk", &gbk[..]),
        ("gbk simplified", &gbk_simplified[..]),
        ("utf-8", GAME.as_bytes()),
        ("utf-8 bom", &bom[..]),
    ] {
        assert_eq!(replayed_fen(bytes), END_FEN, "{name}");
    }
    assert_eq!(pgn::decode(&big5).1, "Big5");
    assert_eq!(pgn::decode(&gbk_simplified).1, "GBK");
    let (text, _) = pgn::decode(&big5);
    assert_eq!(pgn::read_game(&text).unwrap().tag("event"), Some("測試"));
}

#[test]
fn s6p1_iccs_and_wxf_records() {
    let iccs = "[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 1-0\n";
    let wxf = "[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3 1-0\n";
    assert_eq!(replayed_fen(iccs.as_bytes()), END_FEN);
    assert_eq!(replayed_fen(wxf.as_bytes()), END_FEN);
}

#[test]
fn s6p1_glued_full_width_numbers_comments_variations() {
    let text = "{開局} １．炮二平五 {中炮} 馬８進７ (1... 炮８平５ 2. 馬二進三) 2.馬二進三 ; 屏風馬\n2... 車９平８ 3.車一平二 $1 馬２進３ 1-0";
    assert_eq!(replayed_fen(text.as_bytes()), END_FEN);
}

#[test]
fn s6p1_black_first_game_with_custom_fen() {
    // ccpd writes black-first games as `1. 車２平７` then `2. 相三進一 馬６進５`.
    let text = "[FEN \"2C1ka3/4a4/9/R8/9/3ppnP2/Pr7/9/4A4/3AK1B2 b - - 0 1\"]\n1. 車２平７\n2. 相三進一 馬６進５\n";
    let game = pgn::read_game(text).unwrap();
    let r = pgn::replay(&game, Mode::Strict).unwrap();
    assert_eq!(
        r.moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["b3g3", "g0i2", "f4e2"]
    );
}

#[test]
fn s6p1_broken_records_name_the_problem() {
    let no_general = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"]\n1. 炮二平五\n";
    let e = pgn::replay_bytes(no_general.as_bytes()).unwrap_err();
    assert_eq!(e.ply, 0);
    assert!(e.to_string().contains("紅 has 0 generals"), "{e}");
    let illegal = "1. 炮二平五 馬８進７ 2. 車一平二\n";
    let e = pgn::replay_bytes(illegal.as_bytes()).unwrap_err();
    assert_eq!(e.ply, 2);
    assert!(
        e.to_string().contains("move 2. 車一平二") && e.to_string().contains("i0h0"),
        "{e}"
    );
}

#[test]
fn s6p1_written_records_read_back() {
    let game = pgn::read_game(GAME).unwrap();
    let r = pgn::replay(&game, Mode::Strict).unwrap();
    let tags = vec![("Event".to_string(), "測試".to_string())];
    for style in [
        baoqi_grammar::Style::Traditional,
        baoqi_grammar::Style::Wxf,
        baoqi_grammar::Style::Axf,
        baoqi_grammar::Style::Iccs,
    ] {
        let text = pgn::write_pgn(&tags, &r.start, &r.moves, style, "1-0").unwrap();
        let back = pgn::replay(&pgn::read_game(&text).unwrap(), Mode::Strict).unwrap();
        assert_eq!(back.moves, r.moves, "{text}");
    }
    let sheet = pgn::write_scoresheet("甲", "乙", &r.start, &r.moves).unwrap();
    assert!(
        sheet.contains("  1. 炮二平五") && sheet.contains("馬８進７"),
        "{sheet}"
    );
}

#[test]
fn s6p1_several_games_in_one_record() {
    let text = "[Event \"一\"]\n1。炮二平五 馬８進７ *\n\n[Event \"二\"]\n[FEN \"3k5/9/9/9/9/9/9/2R6/9/2R1K4 w - - 0 1\"]\n1. 前車平一 *\n";
    let games = pgn::read_games(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves, ["炮二平五", "馬８進７"]);
    assert_eq!(games[1].tag("Event"), Some("二"));
    let r = pgn::replay(&games[1], Mode::Strict).unwrap();
    assert_eq!(r.moves[0].to_string(), "c2i2");
}

#[test]
fn a_line_break_in_a_name_never_ends_a_tag() {
    let tags = vec![
        ("Red".to_string(), "王\n芳".to_string()),
        ("Black".to_string(), "趙\"強\"\r\u{0}".to_string()),
    ];
    let start = baoqi_rules::Position::start();
    let text = pgn::write_pgn(&tags, &start, &[], baoqi_grammar::Style::Traditional, "*").unwrap();
    let tag_lines: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        tag_lines.len(),
        3,
        "two tags and Format, a line each: {text}"
    );
    let game = pgn::read_game(&text).unwrap();
    assert_eq!(game.tag("Red"), Some("王 芳"));
    assert_eq!(game.tag("Black"), Some("趙\"強\"  "));
}
