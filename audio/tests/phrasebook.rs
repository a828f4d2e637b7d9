//! The phrasebook says every kind of utterance in both languages, with the rule's words.

use crate::common;

use std::time::Duration;

use baoqi_audio::phrasebook::{all_words, phrase};
use baoqi_audio::{
    Because, Board, CheckOutcome, Declined, EndCause, GameResult, Missing, PauseWhy, Phrase,
    TimeReason, Utterance, Violation, Warned,
};
use baoqi_grammar::Word;
use baoqi_rules::{Color, EndReason, Kind, Pattern, Piece, WarningKind};
use common::{cantonese_ok, pinyin_ok};

#[allow(clippy::too_many_lines)]
fn every_kind() -> Vec<Utterance> {
    use Color::{Black, Red};
    let mut us = vec![
        Utterance::PieceTouched {
            words: vec![Word::Front, Word::Piece(Kind::Rook)],
            side: Red,
        },
        Utterance::Impossible {
            words: vec![Word::Piece(Kind::Horse), Word::Numeral(5)],
            side: Red,
        },
        Utterance::Move {
            side: Black,
            words: vec![
                Word::Piece(Kind::Horse),
                Word::Numeral(8),
                Word::Forward,
                Word::Numeral(7),
            ],
            captured: None,
            check: false,
        },
        Utterance::Move {
            side: Red,
            words: vec![
                Word::Piece(Kind::Cannon),
                Word::Numeral(2),
                Word::Across,
                Word::Numeral(5),
            ],
            captured: Some(Piece::new(Black, Kind::Pawn)),
            check: true,
        },
        Utterance::times(
            TimeReason::Alert,
            Black,
            Duration::from_secs(754),
            Duration::from_secs(300),
            Color::Red,
        ),
        Utterance::times(
            TimeReason::Query,
            Red,
            Duration::from_secs(3900),
            Duration::from_secs(59),
            Color::Red,
        ),
        Utterance::times(
            TimeReason::ClockPress,
            Red,
            Duration::from_secs(60),
            Duration::from_secs(30),
            Color::Red,
        ),
        Utterance::DrawOffered { by: Red },
        Utterance::DrawAccepted { by: Black },
        Utterance::DrawDeclined {
            by: Black,
            you: false,
            how: Declined::Said,
        },
        Utterance::DrawDeclined {
            by: Red,
            you: false,
            how: Declined::CardReturned,
        },
        Utterance::DrawDeclined {
            by: Black,
            you: false,
            how: Declined::Touched,
        },
        Utterance::Resigned { by: Red },
        Utterance::BoardDiverged {
            board: Board::Special,
        },
        Utterance::BoardAgrees {
            board: Board::Regular,
        },
        Utterance::Referee {
            text: "請雙方停鐘".to_owned(),
            warned: Warned::Both,
        },
        Utterance::YourMove {
            captured: Some(Piece::new(Black, Kind::Horse)),
            check: true,
        },
        Utterance::YourMove {
            captured: None,
            check: true,
        },
        Utterance::Started { first: Red },
        Utterance::Paused {
            side: Red,
            why: PauseWhy::Adjournment,
        },
        Utterance::Paused {
            side: Black,
            why: PauseWhy::ServerRestart,
        },
    ];
    for (stage, you) in [
        (baoqi_audio::Stage::Playing, true),
        (baoqi_audio::Stage::Paused, false),
        (baoqi_audio::Stage::NotStarted, true),
        (baoqi_audio::Stage::Over, false),
    ] {
        us.push(Utterance::Client(baoqi_audio::Notice::Standing(
            baoqi_audio::Standing {
                stage,
                to_move: Red,
                you,
                words: vec![Word::Piece(Kind::Cannon), Word::Numeral(2)],
                complete: false,
                offer_from: Some(Black),
                ended: None,
            },
        )));
    }
    let cannon = || {
        vec![
            Word::Piece(Kind::Cannon),
            Word::Numeral(2),
            Word::Across,
            Word::Numeral(5),
        ]
    };
    for outcome in [
        CheckOutcome::CorrectBoard,
        CheckOutcome::AnnounceAgain,
        CheckOutcome::RestoreOtherPiece,
        CheckOutcome::RestoreIllegalMove,
        CheckOutcome::SealedMoveBroken,
        CheckOutcome::Corrected,
    ] {
        for (board, you) in [(Some(cannon()), true), (None, true), (None, false)] {
            us.push(Utterance::Check {
                side: Red,
                you,
                outcome,
                announced: cannon(),
                board,
            });
        }
    }
    let reasons = [
        Because::PressedEarly(vec![Missing::Move]),
        Because::PressedEarly(vec![Missing::Announcement, Missing::Repeat]),
        Because::PressedBeforeReannouncing,
        Because::PressedBeforeCorrecting,
        Because::IllegalAnnouncement(cannon()),
        Because::WrongReannouncement(cannon()),
        Because::SealedMoveNotPlayed,
        Because::ConsecutiveDrawOffer,
        Because::Referee(String::new()),
    ];
    for (i, because) in reasons.into_iter().enumerate() {
        let (violation, limit) = [
            (Violation::Technical, 2),
            (Violation::Recording, 4),
            (Violation::ClockPress, 4),
        ][i % 3];
        us.push(Utterance::Violation {
            side: Black,
            you: i % 2 == 0,
            violation,
            because,
            count: 1,
            limit,
        });
    }
    us.extend(
        warnings()
            .into_iter()
            .map(|kind| Utterance::Repetition { kind }),
    );
    us.extend(
        causes()
            .into_iter()
            .map(|(winner, cause)| Utterance::GameEnd {
                result: GameResult::of(winner),
                cause,
                me: Color::Red,
            }),
    );
    us
}

fn warnings() -> Vec<WarningKind> {
    let mut ws = vec![WarningKind::Ordinary];
    for side in Color::ALL {
        for pattern in [Pattern::PerpetualCheck, Pattern::PerpetualChase] {
            ws.push(WarningKind::Forbidden { side, pattern });
            ws.push(WarningKind::Mutual {
                first: side,
                pattern,
            });
        }
    }
    ws
}

fn causes() -> Vec<(Option<Color>, EndCause)> {
    use Color::{Black, Red};
    vec![
        (Some(Red), EndCause::Board(EndReason::Checkmate)),
        (Some(Black), EndCause::Board(EndReason::Stalemate)),
        (None, EndCause::Board(EndReason::DeadDraw)),
        (None, EndCause::Board(EndReason::NaturalLimit)),
        (
            Some(Black),
            EndCause::Forbidden {
                offender: Red,
                pattern: Pattern::PerpetualCheck,
            },
        ),
        (None, EndCause::MutualForbidden),
        (None, EndCause::CycleDraw),
        (None, EndCause::OfficialDraw),
        (Some(Red), EndCause::Timeout { loser: Black }),
        (
            Some(Red),
            EndCause::ViolationLimit {
                loser: Black,
                violation: Violation::Technical,
                count: 2,
            },
        ),
        (
            Some(Black),
            EndCause::Resignation {
                loser: Red,
                card: false,
            },
        ),
        (None, EndCause::DrawAgreed { card: false }),
    ]
}

#[test]
fn every_utterance_is_said_in_both_languages() {
    let mut us = every_kind();
    us.extend(
        all_words()
            .into_iter()
            .map(|(word, side)| Utterance::Word { word, side }),
    );
    for u in &us {
        let p: Phrase = phrase(u);
        assert!(
            !p.display.is_empty() && !p.yue.is_empty() && !p.cmn.is_empty(),
            "{u:?}"
        );
        assert!(
            !p.display.contains('{') && !p.yue.contains('{') && !p.cmn.contains('{'),
            "{u:?}: {p:?}"
        );
        assert!(cantonese_ok(&p.yue), "{u:?}: Latin in Cantonese: {}", p.yue);
        if !matches!(u, Utterance::Referee { .. }) {
            assert!(pinyin_ok(&p.cmn), "{u:?}: not pinyin: {}", p.cmn);
        }
    }
}

#[test]
fn s7p6_3_words_are_echoed_with_the_grammar_readings() {
    let p = phrase(&Utterance::Word {
        word: Word::Piece(Kind::Rook),
        side: Color::Black,
    });
    assert_eq!(
        (p.display.as_str(), p.yue.as_str(), p.cmn.as_str()),
        ("車", "geoi1", "ju1")
    );
    let p = phrase(&Utterance::Word {
        word: Word::Numeral(8),
        side: Color::Black,
    });
    assert_eq!((p.display.as_str(), p.cmn.as_str()), ("８", "ba1"));
    let p = phrase(&every_kind()[0]);
    assert_eq!(p.display, "摸子：前俥");
}

#[test]
fn a61_warnings_are_the_rule_text_verbatim() {
    // What it is first, then the rule's words as they stand.
    for kind in warnings() {
        let p = phrase(&Utterance::Repetition { kind });
        assert_eq!(p.display, format!("循環警告。{}", kind.text()), "{kind:?}");
    }
    let p = phrase(&Utterance::Repetition {
        kind: WarningKind::Forbidden {
            side: Color::Red,
            pattern: Pattern::PerpetualCheck,
        },
    });
    assert_eq!(p.display, "循環警告。紅方長將，紅方不變作負");
    assert_eq!(p.yue, "循環警告，紅方 coeng4 zoeng1，紅方不變作負");
    assert_eq!(
        p.cmn,
        "xun2 huan2 jing3 gao4, hong2 fang1 chang2 jiang1, hong2 fang1 bu4 bian4 zuo4 fu4"
    );
}

#[test]
fn s7p6_6_3_alert_says_the_triggering_side_and_its_time_first() {
    // Heard by red: black's time first, as his opponent's; shown in digits, said in words.
    let p = phrase(&every_kind()[4]);
    assert_eq!(p.display, "對手尚餘 5 分鐘。你 12 分 34 秒");
    assert_eq!(p.yue, "對手尚餘五分鐘，你十二分三十四秒");
    assert_eq!(
        p.cmn,
        "dui4 shou3 shang4 yu2 wu3 fen1 zhong1, ni3 shi2 er4 fen1 san1 shi2 si4 miao3"
    );
    let p = phrase(&every_kind()[5]);
    assert_eq!(p.display, "時間：你 1 小時 5 分。對手 59 秒");
}

#[test]
fn moves_checks_violations_cards_boards_and_endings_read_as_written() {
    let kinds = every_kind();
    let display = |i: usize| phrase(&kinds[i]).display;
    assert_eq!(display(2), "黑方 馬８進７");
    assert_eq!(display(3), "紅方 炮二平五，吃卒，將軍");
    assert_eq!(phrase(&kinds[2]).cmn, "hei1 fang1, ma3 ba1 jin4 qi1");
    assert_eq!(display(7), "對手提和");
    assert_eq!(display(12), "紅方認負");
    assert_eq!(display(13), "視障棋盤與對局不符。請改正");
    assert_eq!(display(15), "裁判警告雙方：請雙方停鐘");
    let texts: Vec<String> = kinds.iter().map(|u| phrase(u).display).collect();
    for want in [
        // 走子檢查 (6.4): to the mover in the second person, what he must do first.
        "你須把棋盤改為炮二平五。用你的時間；棋盤走了不合法的着法，與報棋不符",
        "對手須重新報棋：不合法的着法。報棋炮二平五非法，以棋盤為準",
        "你須重新報棋：炮二平五。報棋炮二平五非法，以棋盤為準",
        "你須還原棋盤，可改走別子。報棋炮二平五非法，棋盤走了炮二平五，非所報之子",
        "對手須還原棋盤，可改走別子。報棋炮二平五非法，走子亦不合法",
        "棋盤已改為炮二平五。你此着完成",
        // Where the game stands on (re)joining: his turn and the words that bind him first,
        // one sentence each (the seat page's summary says them in the same words).
        "輪到你。你本輪已報「炮二」，報棋未完。對手提和，未回應",
        "對局暫停。輪到對手。對手已報「炮二」。對手提和，未回應",
        // An impossible prefix names the words he said (6.3(6)(b)).
        "「傌五」不可能，可以修正",
        // Said to the player who committed it: second person, the tally first, the count in
        // digits (spoken in words); the reason its own sentence.
        "你被判技術犯規。第 1 次，上限 2 次。走子未完成便按鐘",
        "對手被判記錄違例。第 1 次，上限 4 次。報棋及複讀未完成便按鐘",
        // The mover hears his own capture and check.
        "吃馬，將軍",
        "將軍",
        "對局開始，紅方先走",
        "對局暫停：伺服器重新啟動。雙方時鐘停止，等候恢復",
        "對手摸子，即不接受提和",
        // The result for the listener (red) first, then why.
        "對局結束：你勝。將死",
        "對局結束：和局。正和",
        "對局結束：和局。一般循環和局",
        // The side it ends for, as he hears it: 你 or 對手.
        "對局結束：你負。你長將犯禁",
        "對局結束：你勝。對手超時",
        "對局結束：你勝。對手技術犯規達 2 次上限",
        "對局結束：和局。雙方同意議和",
        // 7.1(1)(b): the talking clock after red's press, red's time first.
        "你 1 分鐘。對手 30 秒",
        // 7.1(2): the deaf opponent's cards, as the VI player hears them.
        "黑方接受提和",
        "對手不接受提和",
    ] {
        assert!(
            texts.iter().any(|t| t == want),
            "missing {want}\n{texts:#?}"
        );
    }
}

/// 正規棋盤與對局不符，請改正 told the VI player to fix his opponent's board.
/// The keypad's listener operates the VI board: he is asked to correct that one only.
#[test]
fn s7p7_5_the_vi_player_is_asked_to_fix_only_his_own_board() {
    let own = phrase(&Utterance::BoardDiverged {
        board: Board::Special,
    });
    assert_eq!(own.display, "視障棋盤與對局不符。請改正");
    let other = phrase(&Utterance::BoardDiverged {
        board: Board::Regular,
    });
    assert_eq!(other.display, "正規棋盤與對局不符。已請裁判處理");
    assert!(!other.display.contains("請改正"));
}

/// 126–127: a limit of 0 is no limit (the event file's choice). The tally then says the count
/// alone: it once said 「上限零次」, a limit that had already been passed.
#[test]
fn a126_a_violation_without_a_limit_says_no_limit() {
    let said = |limit| {
        phrase(&Utterance::Violation {
            side: Color::Red,
            you: true,
            violation: Violation::ClockPress,
            because: Because::ConsecutiveDrawOffer,
            count: 3,
            limit,
        })
    };
    let none = said(0);
    assert_eq!(none.display, "你被判按鐘違規。第 3 次。連續提和");
    assert!(
        !none.cmn.contains("shang4 xian4") && !none.yue.contains("上限"),
        "{none:?}"
    );
    let four = said(4);
    assert_eq!(four.display, "你被判按鐘違規。第 3 次，上限 4 次。連續提和");
    assert!(
        four.yue.contains("第三次，上限四次"),
        "spoken in words: {four:?}"
    );
}
