//! The tactile board at the client level (`docs/board-protocol.md`): sensed lifts, places,
//! presses and buttons become `board_move`, `press_clock` and `signal` commands of the seat,
//! accepted by a real arbiter match. The sensing cases themselves (captures in either
//! order, slides, put-backs, both colours) are tested in `board_sensor.rs`; here each case is
//! followed through the session to what it sends.

use crate::common;

use baoqi_arbiter::{Command, Seat};
use baoqi_audio::{Notice, Utterance};
use baoqi_clients::board::{SenseMode, SensorEvent, parse_line};
use baoqi_clients::session::{Input, Output, Session, SessionOptions};
use common::{Table, join, said, sent};

fn with_board(t: &Table, role: &str, mode: SenseMode) -> Session {
    join(
        t,
        role,
        SessionOptions {
            board: Some(mode),
            settle_ms: 400,
            ..SessionOptions::default()
        },
    )
}

/// Feeds board lines 50 ms apart, then lets the board settle; the table answers.
fn sense(s: &mut Session, t: &mut Table, lines: &str, seat: Seat) -> Vec<Output> {
    let mut outs = Vec::new();
    for line in lines.split(';') {
        let Some(e) = parse_line(line).expect("a board line") else {
            continue;
        };
        t.now += 50;
        let out = s.handle(Input::Board(e), t.now);
        let answers = t.serve(s, &out, seat);
        outs.push(out);
        outs.extend(answers);
    }
    t.now += 500;
    let out = s.handle(Input::Tick, t.now);
    let answers = t.serve(s, &out, seat);
    outs.push(out);
    outs.extend(answers);
    outs
}

fn board_move(mv: &str) -> Command {
    Command::BoardMove {
        board: None,
        mv: mv.parse().expect("an ICCS move"),
    }
}

#[test]
fn a33_a_move_is_reported_once_the_board_is_still() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.now += 50;
    let early = s.handle(
        Input::Board(SensorEvent::Lift("h2".parse().unwrap())),
        t.now,
    );
    let placed = s.handle(
        Input::Board(SensorEvent::Place("e2".parse().unwrap())),
        t.now,
    );
    assert!(
        sent(&[early, placed]).is_empty(),
        "not before the board is still"
    );
    assert_eq!(s.next_deadline(), Some(t.now + 400));
    let settled = s.handle(Input::Tick, t.now + 400);
    assert_eq!(sent(&[settled]), vec![board_move("h2e2")]);
}

#[test]
fn a33_3_a_slide_is_one_move_and_a_put_back_none() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    assert!(sent(&sense(&mut s, &mut t, "L h2;P h2", Seat::Red)).is_empty());
    let slide = sense(&mut s, &mut t, "L h2;P g2;L g2;P f2;L f2;P e2", Seat::Red);
    assert_eq!(sent(&slide), vec![board_move("h2e2")]);
}

#[test]
fn s7p6_3_3_the_clock_button_ends_the_move_at_once_and_presses() {
    let mut t = Table::part6();
    t.say(Seat::Red, "炮二平五");
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    let outs = sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    assert_eq!(sent(&outs), vec![board_move("h2e2"), Command::PressClock]);
    assert_eq!(
        s.table().map(|t| t.moves.len()),
        Some(1),
        "the move is on record"
    );
}

#[test]
fn a_capture_lifting_the_captured_piece_first_is_one_move() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    let outs = sense(&mut s, &mut t, "L h9;L h2;P h9", Seat::Red);
    assert_eq!(sent(&outs), vec![board_move("h2h9")]);
}

#[test]
fn an_illegal_board_move_is_said_then_the_restored_board() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    let bad = sense(&mut s, &mut t, "L e0;P e2", Seat::Red);
    assert_eq!(sent(&bad), vec![board_move("e0e2")]);
    assert!(said(&bad).contains(&Utterance::Client(Notice::BoardIllegal)));
    let back = sense(&mut s, &mut t, "L e2;P e0", Seat::Red);
    assert!(said(&back).contains(&Utterance::Client(Notice::BoardRestored)));
}

#[test]
fn s7p7_4_2_d_the_announce_button_signals() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    let outs = sense(&mut s, &mut t, "A", Seat::Red);
    assert_eq!(sent(&outs), vec![Command::Signal]);
}

#[test]
fn a_press_to_select_board_names_a_move_by_two_presses() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::PressToSelect);
    assert!(sent(&sense(&mut s, &mut t, "S h2;S h2", Seat::Red)).is_empty());
    let outs = sense(&mut s, &mut t, "S h2;S e2", Seat::Red);
    assert_eq!(sent(&outs), vec![board_move("h2e2")]);
}

#[test]
fn s7p6_one_vi_board_carries_both_sides_moves() {
    // 視障賽: red's sensor board is the table's one VI board; it senses black's moves too.
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "炮二平五");
    sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    t.say(Seat::Black, "馬８進７");
    let theirs = sense(&mut s, &mut t, "L h9;P g7", Seat::Red);
    assert_eq!(sent(&theirs), vec![board_move("h9g7")]);
    t.run(Seat::Black, Command::PressClock)
        .expect("black's move checks");
    assert_eq!(t.m.snapshot().moves.len(), 2);
}

#[test]
fn a_move_reported_by_another_seat_is_not_reported_again_when_sensed() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "炮二平五");
    sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    // Black's own board client reports black's move first; red's sensor then senses it.
    t.say(Seat::Black, "馬８進７");
    t.other(&mut s, Seat::Black, board_move("h9g7"));
    t.other(&mut s, Seat::Black, Command::PressClock);
    let sensed = sense(&mut s, &mut t, "L h9;P g7", Seat::Red);
    assert!(sent(&sensed).is_empty(), "{:?}", sent(&sensed));
    t.say(Seat::Red, "馬二進三");
    let next = sense(&mut s, &mut t, "L h0;P g2", Seat::Red);
    assert_eq!(sent(&next), vec![board_move("h0g2")]);
}

#[test]
fn s7p7_4_2_g_the_vi_board_carries_both_colours_in_an_inclusion_game() {
    // 共融賽 with mirrored boards: the blind player moves his own pieces and the sighted
    // opponent's on the VI board; each sensed move is reported for the VI board, so the
    // referee sees both boards agree with the game.
    let mut t = Table::part7();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "炮二平五");
    let mine = sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    assert_eq!(sent(&mine), vec![board_move("h2e2"), Command::PressClock]);
    // Black repeats red's announcement and plays it on the regular board, then his own move.
    for w in ["炮", "二", "平", "五"] {
        t.other(&mut s, Seat::Black, Command::RepeatWord { text: w.into() });
    }
    t.other(&mut s, Seat::Black, board_move("h2e2"));
    t.say(Seat::Black, "馬８進７");
    t.other(&mut s, Seat::Black, board_move("h9g7"));
    t.other(&mut s, Seat::Black, Command::PressClock);
    // Red plays black's move on the VI board: reported as the VI board's move.
    let theirs = sense(&mut s, &mut t, "L h9;P g7", Seat::Red);
    assert_eq!(sent(&theirs), vec![board_move("h9g7")]);
    assert!(
        !said(&theirs)
            .iter()
            .any(|u| matches!(u, Utterance::Client(Notice::Refused(_)))),
        "{:?}",
        said(&theirs)
    );
    let view = t.m.snapshot();
    let game = view.fen.split(' ').next().unwrap().to_owned();
    assert!(
        view.boards.iter().all(|b| b.placement == game),
        "both boards show the game: {:?}",
        view.boards
    );
}

fn divergence_open(t: &Table) -> bool {
    t.m.open_calls()
        .iter()
        .any(|c| matches!(c.matter, baoqi_arbiter::Matter::BoardDivergence { .. }))
}

/// 附表七 6.4(a): red announced 炮二進四 and moved 炮二平五 on the board; told to
/// correct it, he undoes the wrong move and makes the announced one. Both are reported, the
/// correction completes by itself (no referee), and no divergence is raised.
#[test]
fn s7p6_4_a_a_correction_on_the_sensor_board_completes_by_itself() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "炮二進四");
    sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    assert_eq!(
        t.m.snapshot().pending.correction,
        Some("h2h6".parse().unwrap())
    );
    let undo = sense(&mut s, &mut t, "L e2;P h2", Seat::Red);
    assert_eq!(sent(&undo), vec![board_move("e2h2")]);
    assert!(!said(&undo).contains(&Utterance::Client(Notice::BoardIllegal)));
    let fixed = sense(&mut s, &mut t, "L h2;P h6", Seat::Red);
    assert_eq!(sent(&fixed), vec![board_move("h2h6")]);
    assert_eq!(t.m.snapshot().pending.correction, None, "corrected");
    assert!(!divergence_open(&t), "{:?}", t.m.open_calls());
    // The game goes on from the announced move: red presses, black's turn.
    let press = sense(&mut s, &mut t, "C", Seat::Red);
    assert_eq!(sent(&press), vec![Command::PressClock]);
    assert_eq!(t.m.snapshot().moves.len(), 1);
}

/// 附表七 6.4(c): an illegal board move is restored on the sensor board; the
/// restore is reported, the server's restore order clears, and the next move is sensed.
#[test]
fn s7p6_4_c_a_restore_on_the_sensor_board_clears_and_play_goes_on() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "車一平二");
    sense(&mut s, &mut t, "L i0;P i5;C", Seat::Red);
    assert!(
        t.m.snapshot().pending.restore.is_some(),
        "a restore ordered"
    );
    let back = sense(&mut s, &mut t, "L i5;P i0", Seat::Red);
    assert_eq!(sent(&back), vec![board_move("i5i0")]);
    assert_eq!(t.m.snapshot().pending.restore, None, "restored");
    assert!(!divergence_open(&t), "{:?}", t.m.open_calls());
}

/// A piece knocked off its point and put back. The server's board follows both reports, and
/// whatever it raised meanwhile clears by itself once the board is right again: no
/// divergence is left for a board that is right.
#[test]
fn a_knocked_piece_put_back_leaves_nothing_open() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    sense(&mut s, &mut t, "L a6;P a5", Seat::Red);
    let back = sense(&mut s, &mut t, "L a5;P a6", Seat::Red);
    assert_eq!(sent(&back), vec![board_move("a5a6")]);
    assert!(!divergence_open(&t), "{:?}", t.m.open_calls());
    assert_eq!(t.m.snapshot().pending.restore, None);
    // And red's move is then sensed and stands.
    t.say(Seat::Red, "炮二平五");
    sense(&mut s, &mut t, "L h2;P e2;C", Seat::Red);
    assert_eq!(t.m.snapshot().moves.len(), 1);
}

/// A capture: red announced 炮二進四 but took the horse on the board (炮二進七). He puts
/// the cannon back and the horse with it, then makes the announced move: the server's board
/// gets the horse back from the take-back, and nothing is left open.
#[test]
fn s7p6_4_a_a_wrong_capture_undone_puts_the_captured_piece_back() {
    let mut t = Table::part6();
    let mut s = with_board(&t, "red", SenseMode::Occupancy);
    t.say(Seat::Red, "炮二進四");
    sense(&mut s, &mut t, "L h2;L h9;P h9;C", Seat::Red);
    assert_eq!(
        t.m.snapshot().pending.correction,
        Some("h2h6".parse().unwrap())
    );
    let undo = sense(&mut s, &mut t, "L h9;P h2;P h9", Seat::Red);
    assert_eq!(sent(&undo), vec![board_move("h9h2")]);
    sense(&mut s, &mut t, "L h2;P h6", Seat::Red);
    assert_eq!(t.m.snapshot().pending.correction, None, "corrected");
    assert!(!divergence_open(&t), "{:?}", t.m.open_calls());
    assert_eq!(t.m.snapshot().moves.len(), 1);
}
