//! How moves, 走子檢查 and violations are said: with what they mean for the listener (the
//! piece captured, the check given; what was announced, what the board shows and what to
//! do now; why a violation was recorded). Worded in `phrases/data/phrases.toml`.

use baoqi_grammar::Word;
use baoqi_rules::{Color, Piece};

use crate::phrasebook::{Phrase, fill, plain, side, violation as violation_name, words};
use crate::spoken_time;
use crate::utterance::{Because, CheckOutcome, Missing, Violation};

/// A move read out: `紅方 炮五進四，吃卒，將軍` (the pages read it in the same words). The captured piece is named, and the
/// check said apart from it (「吃將軍」 would sound like capturing the general).
pub(crate) fn move_reading(s: Color, ws: &[Word], captured: Option<Piece>, check: bool) -> Phrase {
    let mv = words(ws, s);
    let piece = captured.map(|p| Phrase::of_char(p.chinese()));
    let slots = |key| fill(key, &[("side", side(s)), ("move", &mv)]);
    match (piece, check) {
        (None, false) => slots("move.plain"),
        (None, true) => slots("move.check"),
        (Some(p), check) => fill(
            if check {
                "move.captured_check"
            } else {
                "move.captured"
            },
            &[("side", side(s)), ("move", &mv), ("piece", &p)],
        ),
    }
}

/// What the listener's own move did: 「吃馬」, 「將軍」, 「吃馬，將軍」.
pub(crate) fn your_move(captured: Option<Piece>, check: bool) -> Phrase {
    match captured.map(|p| Phrase::of_char(p.chinese())) {
        Some(p) if check => fill("move.you_took_check", &[("piece", &p)]),
        Some(p) => fill("move.you_took", &[("piece", &p)]),
        None => plain("move.you_check"),
    }
}

/// The outcome of 走子檢查 (附表七 6.4, 7.5) for the mover `s`, in the second person (`you`:
/// the listener's own move, else his opponent's): what the mover must do now first, then the
/// words announced and the board's move in the mover's words (`None`: not a legal move).
pub(crate) fn check(
    s: Color,
    you: bool,
    outcome: CheckOutcome,
    announced: &[Word],
    board: Option<&[Word]>,
) -> Phrase {
    let announced = words(announced, s);
    let board = board.map_or_else(|| plain("check.no_legal_move"), |b| words(b, s));
    let key = match (outcome, you) {
        (CheckOutcome::CorrectBoard, true) => "check.correct_board_you",
        (CheckOutcome::CorrectBoard, false) => "check.correct_board_opponent",
        (CheckOutcome::AnnounceAgain, true) => "check.announce_again_you",
        (CheckOutcome::AnnounceAgain, false) => "check.announce_again_opponent",
        (CheckOutcome::RestoreOtherPiece, true) => "check.restore_other_piece_you",
        (CheckOutcome::RestoreOtherPiece, false) => "check.restore_other_piece_opponent",
        (CheckOutcome::RestoreIllegalMove, true) => "check.restore_illegal_move_you",
        (CheckOutcome::RestoreIllegalMove, false) => "check.restore_illegal_move_opponent",
        (CheckOutcome::SealedMoveBroken, true) => "check.sealed_move_broken_you",
        (CheckOutcome::SealedMoveBroken, false) => "check.sealed_move_broken_opponent",
        (CheckOutcome::Corrected, true) => "check.corrected_you",
        (CheckOutcome::Corrected, false) => "check.corrected_opponent",
    };
    fill(key, &[("announced", &announced), ("board", &board)])
}

/// A violation with its tally first and its reason after (126), in the second person:
/// `你被記按鐘違規，第 1 次，上限 4 次。走子未完成便按鐘` (the count shown in digits, spoken in
/// words); of the other side, `對手被記…`. A limit of 0 is no limit, and is not said.
pub(crate) fn violation(
    s: Color,
    you: bool,
    v: Violation,
    because: &Because,
    count: u32,
    limit: u32,
) -> Phrase {
    let key = match (you, limit) {
        (true, 0) => "violation.tally_you_no_limit",
        (true, _) => "violation.tally_you",
        (false, 0) => "violation.tally_opponent_no_limit",
        (false, _) => "violation.tally_opponent",
    };
    fill(
        key,
        &[
            ("because", &reason(s, because)),
            ("violation", violation_name(v)),
            ("count", &spoken_time::count_in_digits(count)),
            ("limit", &spoken_time::count_in_digits(limit)),
        ],
    )
}

/// Why the violation was recorded.
fn reason(s: Color, because: &Because) -> Phrase {
    let with_move = |key: &str, ws: &[Word]| fill(key, &[("move", &words(ws, s))]);
    match because {
        Because::PressedEarly(missing) => {
            fill("because.pressed_early", &[("missing", &owed(missing))])
        }
        Because::PressedBeforeReannouncing => plain("because.pressed_before_reannouncing"),
        Because::PressedBeforeCorrecting => plain("because.pressed_before_correcting"),
        Because::IllegalAnnouncement(ws) => with_move("because.illegal_announcement", ws),
        Because::WrongReannouncement(ws) => with_move("because.wrong_reannouncement", ws),
        Because::SealedMoveNotPlayed => plain("because.sealed_move_not_played"),
        Because::ConsecutiveDrawOffer => plain("because.consecutive_draw_offer"),
        Because::Referee(note) if note.is_empty() => plain("because.referee"),
        Because::Referee(note) => fill(
            "because.referee_note",
            &[("note", &Phrase::new(note, note, note))],
        ),
    }
}

/// `走子及報棋`: what was still owed.
fn owed(missing: &[Missing]) -> Phrase {
    let mut parts = Vec::new();
    for (i, m) in missing.iter().enumerate() {
        if i > 0 {
            parts.push(plain("because.and"));
        }
        parts.push(plain(match m {
            Missing::Move => "because.move",
            Missing::Announcement => "because.announcement",
            Missing::Repeat => "because.repeat",
        }));
    }
    Phrase::join(&parts)
}
