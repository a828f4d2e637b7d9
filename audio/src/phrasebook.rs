//! The phrasebook: [`Utterance`] → [`Phrase`] (a phrase as shown and as fed to each
//! language's voice), from the entries of the shared phrasebook (`baoqi_phrases`, whose data
//! file the pages read too) and the grammar's readings of move words; and the espeak-ng
//! [`voice`] of each language.

use std::time::Duration;

use baoqi_grammar::Word;
use baoqi_grammar::speech::{self, Lang};
use baoqi_rules::{Color, EndReason, Pattern, WarningKind};

use crate::spoken_time;
use crate::utterance::{
    Board, Call, Declined, EndCause, GameResult, PauseWhy, SideTime, TimeReason, Utterance,
    Violation, Warned,
};

pub use baoqi_phrases::{Phrase, entry, fill, keys, parse, plain};

/// The espeak-ng voice that speaks `lang`'s phrases.
///
/// Cantonese uses `yue-Latn-jyutping`, not the grammar's `yue`: the plain `yue` voice of
/// espeak-ng 1.51 reads Latin letters as English (`geoi1` becomes "gee-oh-eye"), while
/// `yue-Latn-jyutping` reads characters exactly like `yue` and Latin as Jyutping. See
/// `docs/decisions.md`.
pub const fn voice(lang: Lang) -> &'static str {
    match lang {
        Lang::Yue => "yue-Latn-jyutping",
        Lang::Cmn => "cmn-latn-pinyin",
    }
}

/// How much faster than the player's rate the voice named `voice_name` is driven, in percent,
/// so that both languages say a syllable in the same time at the same rate: espeak-ng's
/// Mandarin voice is 13 % slower per syllable than its Cantonese one (the start position's
/// terse reading took 20.9 s against 18.4 s at 175 words a minute). Other voices are driven
/// at the rate as given.
pub fn pace_percent(voice_name: &str) -> u16 {
    match LANGS.iter().find(|&&lang| voice(lang) == voice_name) {
        Some(Lang::Cmn) => 113,
        Some(Lang::Yue) | None => 100,
    }
}

/// Both languages, for loops in tests and warm-up.
pub const LANGS: [Lang; 2] = [Lang::Yue, Lang::Cmn];

/// Both times, in the order the rule gives (`first` first), each said as the listener's
/// (`me`: 你) or his opponent's (對手).
fn times(reason: TimeReason, first: &SideTime, second: &SideTime, me: Color) -> Phrase {
    let whose = |s: Color| {
        plain(if s == me {
            "times.you"
        } else {
            "times.opponent"
        })
    };
    fill(
        match reason {
            // In the last minute only the triggering side's time is said (6.6(3),
            // docs/decisions.md): every syllable is that player's clock running.
            TimeReason::Alert if first.left < Duration::from_secs(60) => "times.alert_final",
            TimeReason::Alert => "times.alert",
            TimeReason::Query => "times.query",
            TimeReason::ClockPress => "times.press",
        },
        &[
            ("first_side", &whose(first.side)),
            ("first_time", &spoken_time::duration(first.left)),
            ("second_side", &whose(second.side)),
            ("second_time", &spoken_time::duration(second.left)),
        ],
    )
}

/// The keypad's listener operates the VI board: the regular board is the sighted player's to
/// fix, not his.
fn diverged(b: Board) -> Phrase {
    fill(
        match b {
            Board::Special => "board.diverged",
            Board::Regular => "board.diverged_other",
        },
        &[("board", board(b))],
    )
}

pub(crate) fn side(c: Color) -> &'static Phrase {
    entry(match c {
        Color::Red => "side.red",
        Color::Black => "side.black",
    })
}

fn pattern(p: Pattern) -> &'static Phrase {
    entry(match p {
        Pattern::PerpetualCheck => "repetition.check",
        Pattern::PerpetualChase => "repetition.chase",
    })
}

pub(crate) fn violation(v: Violation) -> &'static Phrase {
    entry(match v {
        Violation::Technical => "violation.technical",
        Violation::Recording => "violation.recording",
        Violation::ClockPress => "violation.clock",
    })
}

fn board(b: Board) -> &'static Phrase {
    entry(match b {
        Board::Special => "board.special",
        Board::Regular => "board.regular",
    })
}

/// Words of `side`'s move as one phrase, by the grammar's readings (炮 二 平 五).
pub(crate) fn words(ws: &[Word], side: Color) -> Phrase {
    let of = |lang| {
        ws.iter()
            .map(|&w| speech::word(w, side, lang))
            .collect::<Vec<_>>()
    };
    let (yue, cmn) = (of(Lang::Yue), of(Lang::Cmn));
    let join = |v: &[speech::Spoken]| {
        v.iter()
            .map(|s| s.speak.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    Phrase {
        display: yue.iter().map(|s| s.display.as_str()).collect(),
        yue: join(&yue),
        cmn: join(&cmn),
        entry: None,
    }
}

fn cause(c: &EndCause, me: Color) -> Phrase {
    // The side it ends for, as the listener hears it: 你 or 對手 (附表七 6.3: what concerns him).
    let who = |s: Color| {
        entry(if s == me {
            "times.you"
        } else {
            "times.opponent"
        })
    };
    match *c {
        EndCause::Board(r) => plain(match r {
            EndReason::Checkmate => "end.checkmate",
            EndReason::Stalemate => "end.stalemate",
            EndReason::DeadDraw => "end.dead_draw",
            EndReason::NaturalLimit => "end.natural_limit",
        }),
        EndCause::Forbidden {
            offender,
            pattern: p,
        } => fill(
            "end.forbidden",
            &[("side", who(offender)), ("pattern", pattern(p))],
        ),
        EndCause::MutualForbidden => plain("end.mutual_forbidden"),
        EndCause::CycleDraw => plain("end.cycle_draw"),
        EndCause::OfficialDraw => plain("end.official_draw"),
        EndCause::Timeout { loser } => fill("end.timeout", &[("side", who(loser))]),
        EndCause::ViolationLimit {
            loser,
            violation: v,
            count,
        } => fill(
            "end.violation_limit",
            &[
                ("side", who(loser)),
                ("violation", violation(v)),
                ("count", &spoken_time::count_in_digits(count)),
            ],
        ),
        EndCause::Resignation { loser, card } => fill(
            if card {
                "end.resignation_card"
            } else {
                "end.resignation"
            },
            &[("side", who(loser))],
        ),
        EndCause::DrawAgreed { card: true } => plain("end.draw_agreed_card"),
        EndCause::DrawAgreed { card: false } => plain("end.draw_agreed"),
        EndCause::Stated(ref text) => fill(
            "end.adjudicated",
            &[("reason", &Phrase::new(text, text, text))],
        ),
    }
}

/// A repetition warning of 第61條; its display is the rule's exact words.
fn repetition(kind: WarningKind) -> Phrase {
    match kind {
        WarningKind::Ordinary => plain("repetition.ordinary"),
        WarningKind::Forbidden {
            side: s,
            pattern: p,
        } => fill(
            "repetition.forbidden",
            &[("side", side(s)), ("pattern", pattern(p))],
        ),
        WarningKind::Mutual { first, pattern: p } => fill(
            "repetition.mutual",
            &[
                ("first", side(first)),
                ("second", side(first.other())),
                ("pattern", pattern(p)),
            ],
        ),
    }
}

/// What is said for `u`, in every form.
pub fn phrase(u: &Utterance) -> Phrase {
    match u {
        Utterance::Word { word, side } => words(&[*word], *side),
        Utterance::PieceTouched { words: ws, side } => {
            fill("echo.touched", &[("piece", &words(ws, *side))])
        }
        Utterance::Impossible { words: ws, side } => {
            fill("echo.impossible", &[("words", &words(ws, *side))])
        }
        Utterance::ReadBack { side: s, words: ws } => words(ws, *s),
        Utterance::Move {
            side: s,
            words: ws,
            captured,
            check,
        } => crate::rulings::move_reading(*s, ws, *captured, *check),
        Utterance::YourMove { captured, check } => crate::rulings::your_move(*captured, *check),
        Utterance::Started { first } => fill("game.started", &[("side", side(*first))]),
        Utterance::Check {
            side: s,
            you,
            outcome,
            announced,
            board,
        } => crate::rulings::check(*s, *you, *outcome, announced, board.as_deref()),
        Utterance::Violation {
            side: s,
            you,
            violation: v,
            because,
            count,
            limit,
        } => crate::rulings::violation(*s, *you, *v, because, *count, *limit),
        Utterance::Times {
            reason,
            first,
            second,
            me,
        } => times(*reason, first, second, *me),
        // What it is first, then the rule's own words (61): 「循環警告。紅方長將，紅方不變作負」.
        Utterance::Repetition { kind } => {
            fill("repetition.warning", &[("warning", &repetition(*kind))])
        }
        // Only the offerer's opponent hears it (from_event): 「對手提和」.
        Utterance::DrawOffered { .. } => fill("card.draw_offered", &[]),
        Utterance::DrawAccepted { by } => fill("card.draw_accepted", &[("side", side(*by))]),
        // In the second person, as the pages say it: 「對手摸子，即不接受提和」.
        // Said and card declines reach the offerer only (from_event); a touch both sides.
        Utterance::DrawDeclined { you, how, .. } => plain(match (how, you) {
            (Declined::Said, _) => "card.draw_declined",
            (Declined::CardReturned, _) => "card.draw_card_returned",
            (Declined::Touched, false) => "card.draw_declined_by_touch",
            (Declined::Touched, true) => "card.draw_declined_by_touch_you",
        }),
        Utterance::Resigned { by } => fill("card.resigned", &[("side", side(*by))]),
        Utterance::BoardDiverged { board: b } => diverged(*b),
        Utterance::BoardAgrees { board: b } => fill("board.agrees", &[("board", board(*b))]),
        // The result as it is for the listener first, then why (附表七 6.3: what concerns
        // him first): 「對局結束：你勝。對手超時」.
        Utterance::GameEnd {
            result,
            cause: c,
            me,
        } => game_end(*result, c, *me),
        Utterance::Referee { text, warned } => {
            let t = Phrase::new(text, text, text);
            let key = match warned {
                Warned::You => "referee.warning_you",
                Warned::Opponent => "referee.warning_opponent",
                Warned::Both => "referee.warning_both",
            };
            fill(key, &[("text", &t)])
        }
        Utterance::RepeatDue {
            mover,
            words: ws,
            mirror,
        } => fill(
            if *mirror {
                "mirror.repeat_mirror"
            } else {
                "mirror.repeat_referee"
            },
            &[("move", &words(ws, *mover))],
        ),
        Utterance::Repeated => plain("mirror.repeated"),
        Utterance::RepeatMismatch => plain("mirror.mismatch"),
        Utterance::RefereeCalled { call: c } => call(*c),
        Utterance::Paused { side: s, why } => fill(
            match why {
                PauseWhy::Adjournment => "pause.paused",
                PauseWhy::ServerRestart => "pause.server_restart",
            },
            &[("side", side(*s))],
        ),
        Utterance::Resumed => plain("pause.resumed"),
        Utterance::Client(n) => n.phrase(),
    }
}

/// The result as it is for the listener first, then why (附表七 6.3: what concerns him
/// first): 「對局結束：你勝。對手超時」.
fn game_end(result: GameResult, c: &EndCause, me: Color) -> Phrase {
    let outcome = plain(match (result, me) {
        (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => "end.you_win",
        (GameResult::RedWins | GameResult::BlackWins, _) => "end.you_lose",
        (GameResult::Draw, _) => "end.draw",
        (GameResult::BothLose, _) => "end.both_lose",
    });
    fill(
        "end.game_over",
        &[("outcome", &outcome), ("cause", &cause(c, me))],
    )
}

/// Why the referee is called: 已請裁判代紅方報棋, 已請裁判代你報棋 …
fn call(c: Call) -> Phrase {
    match c {
        Call::AnnounceFor {
            side: Some(s),
            you: false,
        } => fill("call.announce_for_side", &[("side", side(s))]),
        c => plain(call_key(c)),
    }
}

/// The phrasebook key of a call for the referee.
fn call_key(call: Call) -> &'static str {
    match call {
        Call::AnnounceFor { you: true, .. } => "call.announce_for_you",
        Call::AnnounceFor { .. } => "call.announce_for",
        Call::CorrectionPending => "call.correction_pending",
        Call::RepetitionWarning => "call.repetition_warning",
        Call::VerifyResult => "call.verify_result",
        Call::DrawOffer => "call.draw_offer",
        Call::TouchedPiece => "call.touched_piece",
        Call::ResultVerified => "call.result_verified",
    }
}

/// Every word a player can announce, for both sides (the echoes of the keypad).
pub fn all_words() -> Vec<(Word, Color)> {
    let mut ws = vec![
        Word::Front,
        Word::Middle,
        Word::Rear,
        Word::Forward,
        Word::Backward,
        Word::Across,
    ];
    ws.extend(baoqi_rules::Kind::ALL.iter().map(|&k| Word::Piece(k)));
    ws.extend((1..=9).map(Word::Numeral));
    Color::ALL
        .iter()
        .flat_map(|&c| ws.iter().map(move |&w| (w, c)))
        .collect()
}

/// The phrases that must be heard at once, worth rendering ahead: every word echo. (An
/// impossible prefix is said with its words, 「「炮二進」不可能」, after the error's earcon.)
pub fn echo_phrases() -> Vec<Phrase> {
    let mut out: Vec<Phrase> = all_words()
        .into_iter()
        .map(|(word, side)| phrase(&Utterance::Word { word, side }))
        .collect();
    out.sort_by(|a, b| a.display.cmp(&b.display));
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_glues_display_and_spaces_speech() {
        let p = Phrase::join(&[Phrase::of_char('車'), Phrase::of_char('二')]);
        assert_eq!(p.display, "車二");
        assert_eq!(p.yue, "geoi1 二");
        assert_eq!(p.cmn, "ju1 er4");
        assert_eq!(p.speak(Lang::Cmn), "ju1 er4");
    }

    #[test]
    fn the_data_file_parses_and_every_entry_has_three_forms() {
        assert!(keys().count() > 40);
        for k in keys() {
            let p = entry(k);
            assert!(
                !p.display.is_empty() && !p.yue.is_empty() && !p.cmn.is_empty(),
                "{k}"
            );
        }
        assert!(parse("[a]\nb = [\"x\", \"y\"]").is_err());
    }
}
