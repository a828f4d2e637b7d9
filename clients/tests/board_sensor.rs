//! The tactile board's sensing cases: plain moves, captures in either order, slides,
//! half-finished moves, put-backs, both colours on a VI board, illegal moves, press-to-select.

use baoqi_clients::board::{BoardOutput, BoardSensor, SenseMode, SensorEvent, parse_line};
use baoqi_rules::{Move, Position};

/// Feeds board lines 10 ms apart, then lets the board settle; returns every output.
fn run(sensor: &mut BoardSensor, lines: &str) -> Vec<BoardOutput> {
    let mut now = 0;
    let mut out = Vec::new();
    for line in lines.split(';') {
        if let Some(event) = parse_line(line).expect("valid line") {
            now += 10;
            out.extend(sensor.poll(now));
            out.extend(sensor.feed(event, now));
        }
    }
    out.extend(sensor.poll(now + 10_000));
    out
}

fn moved(text: &str, legal: bool) -> BoardOutput {
    BoardOutput::Moved {
        mv: text.parse::<Move>().unwrap(),
        legal,
    }
}

fn touched(p: &str) -> BoardOutput {
    BoardOutput::Touched(p.parse().unwrap())
}

fn start() -> BoardSensor {
    BoardSensor::new(Position::start(), SenseMode::Occupancy)
}

#[test]
fn a33_2_a_plain_move_is_reported_once_the_piece_is_placed() {
    let mut s = start();
    assert_eq!(
        run(&mut s, "L h2;P e2"),
        vec![touched("h2"), moved("h2e2", true)]
    );
    assert_eq!(
        s.position().fen(),
        Position::start().after("h2e2".parse().unwrap()).fen()
    );
}

#[test]
fn a33_2_c_capture_lifting_the_captured_piece_first() {
    let mut s = BoardSensor::new(
        Position::from_fen("4k4/9/9/9/9/9/9/4p4/4R4/3K5 w").unwrap(),
        SenseMode::Occupancy,
    );
    assert_eq!(
        run(&mut s, "L e2;L e1;P e2"),
        vec![touched("e2"), moved("e1e2", true)]
    );
}

#[test]
fn a33_2_c_capture_lifting_the_capturing_piece_first() {
    let mut s = BoardSensor::new(
        Position::from_fen("4k4/9/9/9/9/9/9/4p4/4R4/3K5 w").unwrap(),
        SenseMode::Occupancy,
    );
    assert_eq!(
        run(&mut s, "L e1;L e2;P e2"),
        vec![touched("e1"), moved("e1e2", true)]
    );
}

#[test]
fn a33_3_a_slid_piece_is_reported_at_its_final_point_only() {
    let mut s = start();
    // The rook slides a0 -> a1 -> a2 with the sensors firing on the way.
    assert_eq!(
        run(&mut s, "L a0;P a1;L a1;P a2"),
        vec![touched("a0"), moved("a0a2", true)]
    );
}

#[test]
fn a_half_finished_move_reports_only_the_touch() {
    let mut s = start();
    assert_eq!(run(&mut s, "L b0"), vec![touched("b0")]);
    assert!(
        matches!(s.disturbance(), Some(BoardOutput::Disturbed { ref missing, .. }) if missing.len() == 1)
    );
}

#[test]
fn a32_a_piece_put_back_is_no_move() {
    let mut s = start();
    assert_eq!(
        run(&mut s, "L b0;P b0"),
        vec![touched("b0"), BoardOutput::PutBack("b0".parse().unwrap())]
    );
    assert_eq!(s.position(), &Position::start());
}

#[test]
fn s7p7_4_2_g_vi_board_carries_both_colours() {
    let mut s = start();
    // The VI player plays his red move, then mirrors black's reply on the same board.
    let out = run(&mut s, "L h2;P e2;L h9;P g7");
    assert_eq!(
        out,
        vec![
            touched("h2"),
            moved("h2e2", true),
            touched("h9"),
            moved("h9g7", true)
        ]
    );
}

#[test]
fn s7p6_4_c_illegal_move_is_reported_and_restoring_it_is_seen() {
    let mut s = start();
    let out = run(&mut s, "L h2;P h8");
    assert_eq!(out, vec![touched("h2"), moved("h2h8", false)]);
    // Restoring it is reported too (the server played the illegal move on its board).
    assert_eq!(
        run(&mut s, "L h8;P h2"),
        vec![moved("h8h2", true), BoardOutput::Restored]
    );
    assert_eq!(s.position(), &Position::start());
}

/// 6.4(a): the board showed another legal move than the one announced; the player undoes it
/// and makes the announced move. The undo is a take-back, not an illegal move, and the
/// announced move is recognised from the board as it really stands.
#[test]
fn s7p6_4_a_a_wrong_move_undone_then_the_announced_move_is_seen() {
    let mut s = start();
    assert_eq!(
        run(&mut s, "L h2;P e2"),
        vec![touched("h2"), moved("h2e2", true)]
    );
    let back = run(&mut s, "L e2;P h2");
    assert!(back.contains(&moved("e2h2", true)), "{back:?}");
    assert!(back.contains(&BoardOutput::Restored), "{back:?}");
    assert_eq!(s.position(), &Position::start());
    assert!(run(&mut s, "L h2;P h6").contains(&moved("h2h6", true)));
    assert_eq!(s.disturbance(), None);
}

/// A table's state arriving between the wrong move and its undo (a resynchronisation) tells
/// the sensor what it shows already: the undo is still a take-back, never called illegal
/// (a player heard 「棋盤上的着法不合法」 for his own undo when one came just then).
#[test]
fn s7p6_4_a_a_state_that_says_what_the_board_shows_keeps_the_undo_a_take_back() {
    let mut s = start();
    run(&mut s, "L h2;P e2");
    let shown = s.position().clone();
    s.set_position(shown);
    let back = run(&mut s, "L e2;P h2");
    assert!(back.contains(&moved("e2h2", true)), "{back:?}");
    assert!(back.contains(&BoardOutput::Restored), "{back:?}");
}

/// A capture undone: the captured piece goes back too, and the take-back is seen.
#[test]
fn a_capture_taken_back_with_the_captured_piece_put_back_is_seen() {
    let mut s = start();
    run(&mut s, "L h2;L h9;P h9");
    let back = run(&mut s, "L h9;P h2;P h9");
    assert!(back.contains(&moved("h9h2", true)), "{back:?}");
    assert_eq!(s.position(), &Position::start());
}

/// Once the game has taken a move, its reverse is a move like any other.
#[test]
fn a_move_the_game_took_is_not_taken_back() {
    let mut s = start();
    run(&mut s, "L h2;P e2");
    s.forget_last();
    let out = run(&mut s, "L e2;P h2");
    assert_eq!(out, vec![touched("e2"), moved("e2h2", false)]);
}

#[test]
fn s7p6_3_3_clock_press_ends_the_move_at_once() {
    let mut s = start();
    let mut out = s.feed(SensorEvent::Lift("h2".parse().unwrap()), 0);
    out.extend(s.feed(SensorEvent::Place("e2".parse().unwrap()), 10));
    out.extend(s.feed(SensorEvent::Clock, 20));
    assert_eq!(
        out,
        vec![touched("h2"), moved("h2e2", true), BoardOutput::Clock]
    );
}

#[test]
fn press_to_select_names_origin_then_destination() {
    let mut s = BoardSensor::new(Position::start(), SenseMode::PressToSelect);
    assert_eq!(
        run(&mut s, "S h2;S e2"),
        vec![touched("h2"), moved("h2e2", true)]
    );
    assert_eq!(
        run(&mut s, "S h9;S h9"),
        vec![touched("h9"), BoardOutput::PutBack("h9".parse().unwrap())]
    );
    let out = run(&mut s, "S b9;S b5");
    assert_eq!(
        out,
        vec![touched("b9"), moved("b9b5", false), BoardOutput::Restored]
    );
}

#[test]
fn a_full_occupancy_scan_resyncs_the_sensor() {
    let mut s = start();
    run(&mut s, "L b0");
    let full = Position::start();
    let bits = full
        .points_of(baoqi_rules::Color::Red)
        .chain(full.points_of(baoqi_rules::Color::Black))
        .fold(0u128, |a, p| a | 1 << p.index());
    assert_eq!(
        s.feed(SensorEvent::Occupancy(bits), 100),
        vec![BoardOutput::PutBack("b0".parse().unwrap())]
    );
    assert_eq!(s.disturbance(), None);
}
