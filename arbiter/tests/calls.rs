//! `docs/product.md` §10: the referee's open calls ([`Match::open_calls`], also in the
//! snapshot): each pending 走子檢查 with what it found (6.4, 7.5), moves to announce for a
//! player (6.3(7), 7.4(2)(c)-(d)), 61 warnings due (60, 61, 121(2)), board divergences
//! (7.4(2)(g)(iv)), open offers (69(2)), pauses (103–104), results to verify (6.8).

use crate::common;

use baoqi_arbiter::{
    AnnouncedFor, BoardId, CallAction, Card, Category, Command, EndCause, Match, Matter, Millis,
    OpenCall, Outcome, PauseReason, RestoreCause, Seat, Side, Tally,
};
use baoqi_rules::WarningKind;
use common::{Table, art, four, m, part6, part7, pt, regular};

fn calls(t: &Table) -> Vec<OpenCall> {
    t.m.open_calls()
}

/// The kind of each call, as its JSON names it.
fn kinds(t: &Table) -> Vec<String> {
    calls(t)
        .iter()
        .map(|c| {
            serde_json::to_value(c).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

fn only(t: &Table, kind: &str) -> OpenCall {
    let all = calls(t);
    let found: Vec<&OpenCall> = all
        .iter()
        .filter(|c| serde_json::to_value(c).unwrap()["kind"] == kind)
        .collect();
    assert_eq!(found.len(), 1, "one {kind} in {all:#?}");
    found[0].clone()
}

fn pause() -> Command {
    Command::Pause {
        reason: PauseReason::Adjournment,
    }
}

#[test]
fn nothing_is_open_before_the_start_nor_in_an_ordinary_turn() {
    let t = Table {
        m: Match::new(part6(), Millis(0)).unwrap(),
        now: 0,
        log: Vec::new(),
    };
    assert!(calls(&t).is_empty());
    let mut t = Table::started(part6());
    assert!(calls(&t).is_empty());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_4_a_correction_pending_names_the_move_the_board_must_show() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    let c = only(&t, "check_correction");
    assert_eq!(c.articles, vec![art("6.4(a)")]);
    assert_eq!(
        c.matter,
        Matter::CheckCorrection {
            side: Side::Red,
            announced: Some(four("炮二進四")),
            played: Some(m("h2e2")),
            target: m("h2h6"),
        }
    );
    assert_eq!(c.action, Some(CallAction::ConfirmCheck));
    // The snapshot carries the same list, for a monitor that reconnects.
    assert_eq!(t.m.snapshot().calls, calls(&t));
    // Confirmed by the referee: the announced move stands and the check is closed; the
    // board that still shows the other move now differs from the game (7.4(2)(g)(iv)).
    t.ok(Seat::Referee, Command::ConfirmCheck);
    assert_eq!(kinds(&t), vec!["board_divergence"]);
}

#[test]
fn s7p7_5_a_in_an_inclusion_game_the_article_is_7_5() {
    let mut t = Table::started(part7());
    t.say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    assert_eq!(only(&t, "check_correction").articles, vec![art("7.5(a)")]);
}

#[test]
fn s7p6_4_b_the_board_move_stands_and_the_mover_announces_again() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "i0i1");
    t.press(Seat::Red);
    let c = only(&t, "check_reannounce");
    assert_eq!(c.articles, vec![art("6.4(b)")]);
    assert_eq!(
        c.matter,
        Matter::CheckReannounce {
            side: Side::Red,
            announced: Some(four("車一平二")),
            stands: m("i0i1"),
            words: four("車一進一"),
            tally: Tally { count: 1, limit: 4 },
        }
    );
    assert_eq!(c.action, None, "the player acts, not the referee");
    t.say(Seat::Red, "車一進一");
    t.press(Seat::Red);
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_4_c_restore_with_the_technical_foul_counted_against_its_limit() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    let c = only(&t, "check_restore");
    assert_eq!(c.articles, vec![art("6.4(c)")]);
    assert_eq!(
        c.matter,
        Matter::CheckRestore {
            side: Side::Red,
            cause: RestoreCause::CheckC,
            announced: Some(four("車一平二")),
            mv: m("h2e2"),
            tally: Tally { count: 1, limit: 2 },
        }
    );
    t.board(Seat::Red, "e2h2");
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_3_7_the_referee_announces_first_for_a_player_without_notation() {
    let mut cfg = part6();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    let c = only(&t, "announce_for");
    assert_eq!(c.articles, vec![art("6.3(7)")]);
    assert!(matches!(
        c.matter,
        Matter::AnnounceFor {
            side: Side::Red,
            why: AnnouncedFor::RefereeFirst,
            mv: None,
            ..
        }
    ));
    assert_eq!(c.action, Some(CallAction::AnnounceFor));
    t.say(Seat::Referee, "炮二平五");
    assert!(!kinds(&t).contains(&"announce_for".to_string()));
}

#[test]
fn s7p7_4_2_c_the_referee_announces_only_after_the_player_moved() {
    let mut cfg = part7();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    assert!(calls(&t).is_empty(), "該方先走子: nothing to announce yet");
    t.board(Seat::Red, "h2e2");
    let c = only(&t, "announce_for");
    assert_eq!(c.articles, vec![art("7.4(2)(c)")]);
    let Matter::AnnounceFor { mv, words, why, .. } = c.matter else {
        panic!("{c:?}")
    };
    assert_eq!((mv, words), (Some(m("h2e2")), Some(four("炮二平五"))));
    assert_eq!(why, AnnouncedFor::MovesFirst);
}

#[test]
fn s7p7_4_2_d_i_after_the_deaf_players_signal_the_referee_announces() {
    let mut cfg = part7();
    cfg.black.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    t.board(Seat::Black, "h2e2");
    assert!(calls(&t).is_empty());
    t.ok(Seat::Black, Command::Signal);
    let c = only(&t, "announce_for");
    assert_eq!(c.articles, vec![art("7.4(2)(d)"), art("7.4(2)(f)(iii)")]);
    assert!(matches!(
        c.matter,
        Matter::AnnounceFor {
            why: AnnouncedFor::Deaf,
            proxy: false,
            signalled: true,
            ..
        }
    ));
    t.board(Seat::Black, "h9g7");
    t.say(Seat::Referee, "馬８進７");
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p7_4_2_d_ii_a_named_proxy_announces_and_presses() {
    let mut cfg = part7();
    cfg.black.categories = vec![Category::Deaf];
    cfg.black.proxy = Some("丙".into());
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    t.board(Seat::Black, "h2e2");
    t.board(Seat::Black, "h9g7");
    let c = only(&t, "announce_for");
    assert!(matches!(
        c.matter,
        Matter::AnnounceFor {
            why: AnnouncedFor::Deaf,
            proxy: true,
            ..
        }
    ));
}

#[test]
fn s7p7_4_2_g_iv_a_diverging_board_is_to_be_corrected_to_the_game() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    // Black's regular board shows another move than red's.
    t.board(Seat::Black, "b2e2");
    let c = only(&t, "board_divergence");
    assert_eq!(c.articles, vec![art("7.4(2)(g)(iv)")]);
    assert_eq!(c.action, Some(CallAction::CorrectBoard));
    let game = t.m.snapshot().fen.split(' ').next().unwrap().to_string();
    let Matter::BoardDivergence {
        board,
        placement,
        points,
    } = c.matter
    else {
        panic!("{c:?}")
    };
    assert_eq!(
        (board, placement.as_str()),
        (BoardId::Regular, game.as_str())
    );
    assert!(points.contains(&pt("b2")), "{points:?}");
    t.ok(
        Seat::Referee,
        Command::CorrectBoard {
            board: BoardId::Regular,
            placement: game,
        },
    );
    assert!(!kinds(&t).contains(&"board_divergence".to_string()));
}

fn repetition() -> Table {
    let mut c = regular();
    c.start_fen = Some("4k4/9/9/9/9/9/9/9/R8/5K3 w".into());
    let mut t = Table::started(c);
    for _ in 0..2 {
        for mv in ["a1a2", "e9d9", "a2a1", "d9e9"] {
            let seat = if t.m.to_move() == Side::Red {
                Seat::Red
            } else {
                Seat::Black
            };
            t.board(seat, mv);
            t.press(seat);
        }
    }
    t
}

#[test]
fn a61_1_a_warning_due_stays_open_until_the_referee_gives_it() {
    let mut t = repetition();
    let c = only(&t, "repetition_warning");
    assert_eq!(
        c.matter,
        Matter::RepetitionWarning {
            side: None,
            ply: 8,
            warning: WarningKind::Ordinary,
        },
        "61(1) warns both sides"
    );
    assert_eq!(c.articles, vec![art("61(1)"), art("121(2)")]);
    assert_eq!(c.action, Some(CallAction::IssueWarning));
    // Another warning does not settle it; the 61 warning does (121(2)).
    t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: Some(Side::Red),
            repetition: None,
            text: "請保持安靜".into(),
        },
    );
    assert!(kinds(&t).contains(&"repetition_warning".to_string()));
    t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: None,
            repetition: Some(WarningKind::Ordinary),
            text: String::new(),
        },
    );
    assert!(calls(&t).is_empty());
}

#[test]
fn a121_2_a_warning_given_in_the_words_of_61_settles_it_too() {
    let mut t = repetition();
    t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: None,
            repetition: None,
            text: "一般循環盤面，雙方不變作和".into(),
        },
    );
    assert!(calls(&t).is_empty());
}

#[test]
fn a69_2_b_an_offer_is_open_and_stands_from_the_end_of_the_turn() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    let c = only(&t, "draw_offer");
    assert!(matches!(c.matter, Matter::DrawOffer { stands: false, .. }));
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let c = only(&t, "draw_offer");
    assert!(matches!(c.matter, Matter::DrawOffer { stands: true, .. }));
    assert_eq!(c.articles, vec![art("69(2)")]);
    t.ok(Seat::Black, Command::DeclineDraw);
    assert!(calls(&t).is_empty());
}

#[test]
fn a103_a104_a_pause_is_open_until_the_referee_resumes() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, pause());
    let c = only(&t, "paused");
    assert_eq!(c.action, Some(CallAction::Resume));
    assert_eq!(
        c.matter,
        Matter::Paused {
            side: Side::Red,
            reason: PauseReason::Adjournment,
            sealed: false
        }
    );
    t.ok(Seat::Referee, Command::Resume);
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_8_a_finished_game_lists_only_the_result_to_verify() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.ok(Seat::Black, Command::Resign);
    let c = only(&t, "verify_result");
    assert_eq!(calls(&t).len(), 1, "the offer is gone with the game");
    assert_eq!(c.articles, vec![art("6.8")]);
    assert_eq!(
        c.matter,
        Matter::VerifyResult {
            outcome: Outcome::RedWins,
            cause: EndCause::Resigned {
                loser: Side::Black,
                card: false
            }
        }
    );
    t.ok(
        Seat::Referee,
        Command::VerifyResult {
            note: "雙方確認".into(),
        },
    );
    assert!(calls(&t).is_empty());
}

#[test]
fn open_calls_survive_a_rebuild_from_the_events() {
    let mut t = repetition();
    t.ok(Seat::Red, Command::OfferDraw);
    let again = Match::from_events(t.m.config().clone(), Millis(0), &t.log).unwrap();
    assert_eq!(again.open_calls(), calls(&t));
    assert_eq!(calls(&t).len(), 2);
}

#[test]
fn a37_2_f_in_a_game_without_announcements_an_illegal_move_is_to_be_restored() {
    let mut t = Table::started(regular());
    // The general two points forward: not a move of a general (26(1)).
    t.board(Seat::Red, "e0e2");
    t.press(Seat::Red);
    let c = only(&t, "check_restore");
    assert_eq!(c.articles, vec![art("37(2)(f)")]);
    assert!(matches!(
        c.matter,
        Matter::CheckRestore {
            cause: RestoreCause::IllegalBoardMove,
            mv,
            ..
        } if mv == m("e0e2")
    ));
    t.board(Seat::Red, "e2e0");
    assert!(calls(&t).is_empty(), "restored: {:#?}", calls(&t));
}

#[test]
fn a125_a_move_other_than_the_sealed_one_is_restored_with_a_technical_foul() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, pause());
    t.ok(Seat::Referee, Command::SealMove { mv: m("h2e2") });
    t.ok(Seat::Referee, Command::Resume);
    t.turn(Seat::Red, "炮二平四", "h2f2");
    let c = only(&t, "check_restore");
    assert_eq!(c.articles, vec![art("125")]);
    assert!(matches!(
        c.matter,
        Matter::CheckRestore {
            cause: RestoreCause::SealedMoveBroken,
            tally: Tally { count: 1, limit: 2 },
            ..
        }
    ));
}

#[test]
fn a103_1_while_paused_the_call_says_whether_the_next_move_is_sealed() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, pause());
    let c = only(&t, "paused");
    assert!(matches!(c.matter, Matter::Paused { sealed: false, .. }));
    t.ok(Seat::Referee, Command::SealMove { mv: m("h2e2") });
    let c = only(&t, "paused");
    assert!(matches!(c.matter, Matter::Paused { sealed: true, .. }));
}

#[test]
fn s7p7_1_2_an_offer_by_card_is_listed_with_the_card_article() {
    let mut cfg = part7();
    cfg.black.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::HandCard { card: Card::Draw });
    let c = only(&t, "draw_offer");
    assert_eq!(c.articles, vec![art("69(2)"), art("7.1(2)")]);
    assert!(matches!(
        c.matter,
        Matter::DrawOffer {
            side: Side::Black,
            card: true,
            ..
        }
    ));
}

#[test]
fn s7p7_9_an_inclusion_games_result_is_verified_orally() {
    let mut t = Table::started(part7());
    t.ok(Seat::Black, Command::Resign);
    let c = only(&t, "verify_result");
    assert_eq!(c.articles, vec![art("7.9")]);
    assert_eq!(c.action, Some(CallAction::VerifyResult));
}
