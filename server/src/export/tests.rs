//! The exports of a game played at known instants: the clocks' milliseconds are exact, so
//! the faces on the scoresheet and in `[%clk]` can be checked to the second.

use baoqi_arbiter::{ClockMode, Command, MatchConfig, Millis, TimeControl, View};
use baoqi_tournament::RoundNumber;

use super::*;
use baoqi_store::config::EventSettings;
use baoqi_store::game::Game;
use baoqi_store::model::{EventId, EventRow, Role, TableRow};

fn known(config: MatchConfig) -> Known {
    Known {
        event: EventRow {
            id: EventId(1),
            name: "公開賽".into(),
            settings: EventSettings::default(),
        },
        table: TableRow {
            id: TableId(3),
            event: EventId(1),
            round: RoundNumber(2),
            name: "視障賽 1".into(),
            red: "甲".into(),
            black: "乙".into(),
            config,
        },
        referees: vec!["陳裁判".into()],
        started: None,
        recorded: None,
    }
}

/// Ten minutes each, no adjustment. Red offers a draw and plays 炮二平五 after 10.4 s (9:49.6
/// left), black declines and plays 馬8進7 after 20 s, red plays 馬二進三, black resigns.
fn played() -> (Known, View) {
    let mut config = MatchConfig::default();
    config.time.default = TimeControl {
        base_ms: 600_000,
        mode: ClockMode::Plain,
        extra_ms: 0,
    };
    let k = known(config.clone());
    let mut game = Game::create(config, Millis(0)).unwrap();
    let red = Actor::Seat(Role::Red);
    let black = Actor::Seat(Role::Black);
    game.apply(Actor::Server, &Command::Start, Millis(0))
        .unwrap();
    game.apply(red, &Command::OfferDraw, Millis(1_000)).unwrap();
    let mut now = 0;
    for (actor, mv, used) in [
        (red, "h2e2", 10_400),
        (black, "h9g7", 20_000),
        (red, "h0g2", 5_000),
    ] {
        now += used;
        let board = Command::BoardMove {
            board: None,
            mv: mv.parse().unwrap(),
        };
        game.apply(actor, &board, Millis(now)).unwrap();
        game.apply(actor, &Command::PressClock, Millis(now))
            .unwrap();
        if mv == "h2e2" {
            game.apply(black, &Command::DeclineDraw, Millis(now))
                .unwrap();
        }
    }
    game.apply(black, &Command::Resign, Millis(now)).unwrap();
    (k, game.snapshot())
}

#[test]
fn s4p3_the_scoresheet_has_the_whole_header_and_clock_faces() {
    let (k, view) = played();
    let sheet = scoresheet(&k, &view).unwrap();
    for line in [
        "比賽名稱：公開賽",
        "對賽日期：",
        "比賽地點：",
        "對賽輪數：2　對賽枱號：3（視障賽 1）",
        "紅方：甲　黑方：乙",
        "  1. 炮二平五＝ (9:50)    馬８進７ (9:40)",
        "  2. 傌二進三 (9:45)",
        "結果：1-0 紅方勝　終局原因：黑方認負（第69(1)條）",
        "終局裁判：陳裁判",
    ] {
        assert!(sheet.lines().any(|l| l == line), "no {line:?} in\n{sheet}");
    }
}

#[test]
fn s4p3_12_the_pgn_has_the_roster_draw_mark_and_clock_faces() {
    let (k, view) = played();
    let text = pgn(&k, &view).unwrap();
    let head: Vec<&str> = text.lines().take(7).collect();
    assert_eq!(
        head,
        [
            "[Event \"公開賽\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"2\"]",
            "[Red \"甲\"]",
            "[Black \"乙\"]",
            "[Result \"1-0\"]",
        ],
        "{text}"
    );
    assert!(
        text.contains(
            "1. 炮二平五 {＝ [%clk 0:09:50]} 1... 馬８進７ {[%clk 0:09:40]}\n\
             2. 傌二進三 {[%clk 0:09:45]}\n1-0\n"
        ),
        "{text}"
    );
    assert!(text.contains("[Referee \"陳裁判\"]"), "{text}");
    let replayed = baoqi_grammar::pgn::replay_bytes(text.as_bytes()).unwrap();
    let moves: Vec<_> = view.moves.iter().map(|m| m.mv.iccs).collect();
    assert_eq!(replayed.moves, moves);
}

#[test]
fn s4p3_2_a_dated_game_carries_its_date_and_utc_start() {
    let (mut k, view) = played();
    k.started = Some(1_700_000_000_000);
    let text = pgn(&k, &view).unwrap();
    for tag in [
        "[Date \"2023.11.14\"]",
        "[UTCDate \"2023.11.14\"]",
        "[UTCTime \"22:13:20\"]",
    ] {
        assert!(text.contains(tag), "no {tag} in\n{text}");
    }
    let sheet = scoresheet(&k, &view).unwrap();
    assert!(sheet.contains("對賽日期：2023.11.14\n"), "{sheet}");
}

#[test]
fn the_results_table_lists_every_table() {
    let (k, _) = played();
    let mut game = Game::create(k.table.config.clone(), Millis(0)).unwrap();
    game.apply(Actor::Server, &Command::Start, Millis(0))
        .unwrap();
    let lines = results::by_table(&[(k.table.clone(), game.record())]);
    assert!(results::text(&k.event, &lines).contains("甲 — 乙  *"));
}
