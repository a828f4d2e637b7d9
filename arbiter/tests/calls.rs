//! SPEC §10: the referee's open calls ([`Match::open_calls`], also in the snapshot): each
//! pending 走子檢查 with the consequence the rule gives (6.4, 7.5), moves to announce for a
//! player (6.3(7), 7.4(2)(c)-(d)), 61 warnings due with their words (60, 61, 121(2)), board
//! divergences (7.4(2)(g)(iv)), open offers (69(2)), pauses (103–104), results to verify (6.8).

mod common;

use baoqi_arbiter::{
    BoardId, CallAction, CallKind, Category, Command, Match, Millis, OpenCall, Seat, Side,
};
use common::{Table, part6, part7, regular};

fn calls(t: &Table) -> Vec<OpenCall> {
    t.m.open_calls()
}

fn kinds(t: &Table) -> Vec<CallKind> {
    calls(t).iter().map(|c| c.kind).collect()
}

fn only(t: &Table, kind: CallKind) -> OpenCall {
    let all = calls(t);
    let found: Vec<&OpenCall> = all.iter().filter(|c| c.kind == kind).collect();
    assert_eq!(found.len(), 1, "one {kind:?} in {all:#?}");
    found[0].clone()
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
    let c = only(&t, CallKind::CheckCorrection);
    assert_eq!(c.article, "6.4(a)");
    assert_eq!(c.side, Some(Side::Red));
    assert_eq!(c.mv.as_deref(), Some("h2h6"));
    assert_eq!(c.words.as_deref(), Some("炮二進四"));
    assert_eq!(c.action, Some(CallAction::ConfirmCheck));
    assert!(
        c.text.contains("以自己的用時") && c.text.contains("h2e2"),
        "{}",
        c.text
    );
    // The snapshot carries the same list, for a monitor that reconnects.
    assert_eq!(t.m.snapshot().calls, calls(&t));
    // Confirmed by the referee: the announced move stands and the check is closed; the
    // board that still shows the other move now differs from the game (7.4(2)(g)(iv)).
    t.ok(Seat::Referee, Command::ConfirmCheck);
    assert_eq!(kinds(&t), vec![CallKind::BoardDivergence]);
}

#[test]
fn s7p7_5_a_in_an_inclusion_game_the_article_is_7_5() {
    let mut t = Table::started(part7());
    t.say(Seat::Red, "炮二進四");
    t.board(Seat::Red, "h2e2");
    t.press(Seat::Red);
    assert_eq!(only(&t, CallKind::CheckCorrection).article, "7.5(a)");
}

#[test]
fn s7p6_4_b_the_board_move_stands_and_the_mover_announces_again() {
    let mut t = Table::started(part6());
    t.say(Seat::Red, "車一平二");
    t.board(Seat::Red, "i0i1");
    t.press(Seat::Red);
    let c = only(&t, CallKind::CheckReannounce);
    assert_eq!(c.article, "6.4(b)");
    assert_eq!(c.mv.as_deref(), Some("i0i1"));
    assert_eq!(c.words.as_deref(), Some("俥一平二"));
    assert_eq!(c.action, None, "the player acts, not the referee");
    assert!(c.text.contains("重新報棋"), "{}", c.text);
    assert!(c.text.contains("違反記錄規則 1／4"), "{}", c.text);
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
    let c = only(&t, CallKind::CheckRestore);
    assert_eq!(c.article, "6.4(c)");
    assert_eq!(c.mv.as_deref(), Some("h2e2"));
    assert!(c.text.contains("可改走別子"), "{}", c.text);
    assert!(c.text.contains("技術犯規 1／2"), "{}", c.text);
    t.board(Seat::Red, "e2h2");
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_3_7_the_referee_announces_first_for_a_player_without_notation() {
    let mut cfg = part6();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    let c = only(&t, CallKind::AnnounceFor);
    assert_eq!((c.article.as_str(), c.side), ("6.3(7)", Some(Side::Red)));
    assert_eq!(c.action, Some(CallAction::AnnounceFor));
    t.say(Seat::Referee, "炮二平五");
    assert!(!kinds(&t).contains(&CallKind::AnnounceFor));
}

#[test]
fn s7p7_4_2_c_the_referee_announces_only_after_the_player_moved() {
    let mut cfg = part7();
    cfg.red.knows_notation = false;
    let mut t = Table::started(cfg);
    assert!(calls(&t).is_empty(), "該方先走子: nothing to announce yet");
    t.board(Seat::Red, "h2e2");
    let c = only(&t, CallKind::AnnounceFor);
    assert_eq!(c.article, "7.4(2)(c)");
    assert_eq!(c.mv.as_deref(), Some("h2e2"));
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
    let c = only(&t, CallKind::AnnounceFor);
    assert!(c.article.starts_with("7.4(2)(d)"), "{}", c.article);
    assert!(c.text.contains("監局裁判代為報棋"), "{}", c.text);
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
    let c = only(&t, CallKind::AnnounceFor);
    assert!(c.text.contains("代理代為報棋並按鐘"), "{}", c.text);
}

#[test]
fn s7p7_4_2_g_iv_a_diverging_board_is_to_be_corrected_to_the_game() {
    let mut t = Table::started(part7());
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(Seat::Black, Command::ConfirmRepeat);
    // Black's regular board shows another move than red's.
    t.board(Seat::Black, "b2e2");
    let c = only(&t, CallKind::BoardDivergence);
    assert_eq!(c.board, Some(BoardId::Regular));
    assert_eq!(c.article, "7.4(2)(g)(iv)");
    assert_eq!(c.action, Some(CallAction::CorrectBoard));
    let game = t.m.snapshot().fen.split(' ').next().unwrap().to_string();
    assert_eq!(c.placement.as_deref(), Some(game.as_str()));
    assert!(c.points.contains(&"b2".to_string()), "{:?}", c.points);
    t.ok(
        Seat::Referee,
        Command::CorrectBoard {
            board: BoardId::Regular,
            placement: game,
        },
    );
    assert!(!kinds(&t).contains(&CallKind::BoardDivergence));
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
fn a61_1_a_warning_due_carries_the_exact_words_until_the_referee_gives_it() {
    let mut t = repetition();
    let c = only(&t, CallKind::RepetitionWarning);
    assert_eq!(c.words.as_deref(), Some("一般循環盤面，雙方不變作和"));
    assert_eq!(c.article, "61(1), 121(2)");
    assert_eq!(c.side, None, "61(1) warns both sides");
    assert_eq!(c.action, Some(CallAction::IssueWarning));
    // Another warning does not settle it; the 61 words do (121(2)).
    t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: Some(Side::Red),
            text: "請保持安靜".into(),
        },
    );
    assert!(kinds(&t).contains(&CallKind::RepetitionWarning));
    t.ok(
        Seat::Referee,
        Command::IssueWarning {
            side: None,
            text: "一般循環盤面，雙方不變作和".into(),
        },
    );
    assert!(calls(&t).is_empty());
}

#[test]
fn a69_2_b_an_offer_is_open_and_stands_from_the_end_of_the_turn() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    let c = only(&t, CallKind::DrawOffer);
    assert!(c.text.contains("本輪結束後生效"), "{}", c.text);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    let c = only(&t, CallKind::DrawOffer);
    assert!(c.text.contains("已生效"), "{}", c.text);
    assert_eq!(c.article, "69(2)");
    t.ok(Seat::Black, Command::DeclineDraw);
    assert!(calls(&t).is_empty());
}

#[test]
fn a103_a104_a_pause_is_open_until_the_referee_resumes() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, Command::Pause);
    let c = only(&t, CallKind::Paused);
    assert_eq!(c.action, Some(CallAction::Resume));
    assert!(c.text.contains("繼續着法"), "{}", c.text);
    t.ok(Seat::Referee, Command::Resume);
    assert!(calls(&t).is_empty());
}

#[test]
fn s7p6_8_a_finished_game_lists_only_the_result_to_verify() {
    let mut t = Table::started(part6());
    t.ok(Seat::Red, Command::OfferDraw);
    t.ok(Seat::Black, Command::Resign);
    let c = only(&t, CallKind::VerifyResult);
    assert_eq!(calls(&t).len(), 1, "the offer is gone with the game");
    assert_eq!(c.article, "6.8");
    assert!(c.text.contains("1-0"), "{}", c.text);
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
    let c = only(&t, CallKind::CheckRestore);
    assert_eq!(c.article, "37(2)(f)");
    assert_eq!(c.mv.as_deref(), Some("e0e2"));
    assert!(c.text.contains("須還原棋盤"), "{}", c.text);
    t.board(Seat::Red, "e2e0");
    assert!(calls(&t).is_empty(), "restored: {:#?}", calls(&t));
}

#[test]
fn a125_a_move_other_than_the_sealed_one_is_restored_with_a_technical_foul() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, Command::Pause);
    t.ok(Seat::Referee, Command::SealMove { mv: "h2e2".into() });
    t.ok(Seat::Referee, Command::Resume);
    t.turn(Seat::Red, "炮二平四", "h2f2");
    let c = only(&t, CallKind::CheckRestore);
    assert_eq!(c.article, "125");
    assert!(
        c.text.contains("續着記錄") && c.text.contains("技術犯規 1／2"),
        "{}",
        c.text
    );
}

#[test]
fn a103_1_while_paused_the_call_says_whether_the_next_move_is_sealed() {
    let mut t = Table::started(part6());
    t.ok(Seat::Referee, Command::Pause);
    let c = only(&t, CallKind::Paused);
    assert!(
        c.text.contains("須以自己的用時決定繼續着法 (103(1))"),
        "{}",
        c.text
    );
    t.ok(Seat::Referee, Command::SealMove { mv: "h2e2".into() });
    let c = only(&t, CallKind::Paused);
    assert!(c.text.contains("繼續着法已記錄，棋鐘已停"), "{}", c.text);
}

#[test]
fn s7p7_1_2_an_offer_by_card_is_listed_with_the_card_article() {
    let mut cfg = part7();
    cfg.black.categories = vec![Category::Deaf];
    let mut t = Table::started(cfg);
    t.turn(Seat::Red, "炮二平五", "h2e2");
    t.ok(
        Seat::Black,
        Command::HandCard {
            card: baoqi_arbiter::Card::Draw,
        },
    );
    let c = only(&t, CallKind::DrawOffer);
    assert_eq!(c.article, "69(2), 7.1(2)");
    assert!(c.text.contains("黑方交出提和卡"), "{}", c.text);
}

#[test]
fn s7p7_9_an_inclusion_games_result_is_verified_orally() {
    let mut t = Table::started(part7());
    t.ok(Seat::Black, Command::Resign);
    let c = only(&t, CallKind::VerifyResult);
    assert_eq!(c.article, "7.9");
    assert_eq!(c.action, Some(CallAction::VerifyResult));
}
