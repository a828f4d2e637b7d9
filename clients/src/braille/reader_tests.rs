use super::*;

/// Text (capital letters) as a stand-in braille: every letter two cells, all six dots then
/// the letter's low six bits, so that a window can be read back as the letters it shows.
fn cells(text: &str) -> Cells {
    let mut c = Cells::default();
    for ch in text.chars() {
        c.dots.extend([0x3f, (ch as u32 & 0x3f) as u8]);
        c.starts.extend([true, false]);
    }
    c
}

/// The characters a window shows (the marks of the last cell left out).
fn shown(r: &Reader) -> String {
    let w = r.window();
    let mut out = String::new();
    for pair in w.chunks(2) {
        if pair.len() == 2 && pair[0] & 0x3f == 0x3f {
            out.push(char::from(0x40 | (pair[1] & 0x3f)));
        }
    }
    out
}

fn marks(r: &Reader) -> u8 {
    r.window().last().copied().unwrap_or(0) & (MORE_TEXT | MORE_MESSAGES)
}

fn news(r: &mut Reader, text: &str) {
    r.arrive(Incoming::News(cells(text)));
}

#[test]
fn news_is_shown_at_once_when_nothing_waits() {
    let mut r = Reader::new(40);
    news(&mut r, "A");
    assert_eq!(shown(&r), "A");
    assert_eq!(marks(&r), 0);
}

#[test]
fn news_arriving_before_the_last_is_read_waits_its_turn_and_is_marked() {
    // The opponent's move, then at once the time alert: the move stays until read.
    let mut r = Reader::new(40);
    news(&mut r, "MOVE");
    news(&mut r, "TIME");
    assert_eq!(shown(&r), "MOVE");
    assert_eq!(marks(&r), MORE_MESSAGES, "dot 8: a message waits");
    r.go(Move::PanRight);
    assert_eq!(shown(&r), "TIME");
    assert_eq!(marks(&r), 0);
    assert_eq!(
        r.unread(),
        1,
        "the alert counts as read only once panned past"
    );
    r.go(Move::PanRight);
    assert_eq!(r.unread(), 0);
    news(&mut r, "NEXT");
    assert_eq!(
        shown(&r),
        "NEXT",
        "all read: the next news is shown at once"
    );
}

#[test]
fn a_long_message_pans_in_windows_that_never_split_a_character() {
    // 25 characters of two cells: 50 cells on a 9-cell display → windows of 4 characters.
    let mut r = Reader::new(9);
    news(&mut r, "ABCDEFGHIJKLMNOPQRSTUVWXY");
    assert_eq!(shown(&r), "ABCD");
    assert_eq!(marks(&r), MORE_TEXT, "dot 7: the message goes on");
    r.go(Move::PanRight);
    assert_eq!(shown(&r), "EFGH");
    r.go(Move::PanLeft);
    assert_eq!(shown(&r), "ABCD");
    for _ in 0..6 {
        r.go(Move::PanRight);
    }
    assert_eq!(shown(&r), "Y");
    assert_eq!(marks(&r), 0);
}

#[test]
fn panning_left_from_a_message_start_reads_the_end_of_the_one_before() {
    let mut r = Reader::new(9);
    news(&mut r, "ABCDEF");
    r.go(Move::PanRight);
    r.go(Move::PanRight);
    news(&mut r, "Z");
    assert_eq!(shown(&r), "Z");
    r.go(Move::PanLeft);
    assert_eq!(shown(&r), "EF");
}

#[test]
fn the_words_typed_are_shown_and_news_meanwhile_waits() {
    let mut r = Reader::new(40);
    news(&mut r, "TURN");
    r.typing();
    r.arrive(Incoming::Word(cells("P")));
    r.arrive(Incoming::Prompt(cells("Q")));
    assert_eq!(shown(&r), "PQ");
    r.arrive(Incoming::Word(cells("T")));
    assert_eq!(shown(&r), "PT", "the prompt gives way to the word");
    news(&mut r, "ALERT");
    assert_eq!(shown(&r), "PT", "the words typed stay while he types");
    assert_eq!(marks(&r), MORE_MESSAGES);
    // The announcement read back is the answer to his key: shown at once.
    r.arrive(Incoming::Answer(cells("PTPF")));
    assert_eq!(shown(&r), "PTPF");
    r.go(Move::PanRight);
    assert_eq!(shown(&r), "ALERT", "then what waited, in order");
}

#[test]
fn the_touched_piece_is_shown_and_the_words_typed_go_on() {
    let mut r = Reader::new(40);
    r.arrive(Incoming::Word(cells("P")));
    r.arrive(Incoming::Word(cells("T")));
    r.arrive(Incoming::Aside(cells("TOUCHED")));
    assert_eq!(shown(&r), "TOUCHED");
    r.arrive(Incoming::Word(cells("F")));
    assert_eq!(shown(&r), "PTF");
    assert_eq!(r.kept(), 1);
}

#[test]
fn a_command_s_second_key_takes_its_prompt_away_and_what_follows_is_shown() {
    // `/` then `0`: the prompt 指令, then the command; the game's end is shown at once.
    let mut r = Reader::new(40);
    news(&mut r, "MOVE");
    r.typing();
    r.arrive(Incoming::Prompt(cells("CMD")));
    assert_eq!(shown(&r), "CMD");
    r.typing();
    assert_eq!(shown(&r), "MOVE");
    news(&mut r, "END");
    assert_eq!(shown(&r), "END");
}

#[test]
fn typing_while_a_message_is_shown_counts_it_as_read() {
    let mut r = Reader::new(40);
    news(&mut r, "MOVE");
    r.typing();
    assert_eq!(r.unread(), 0);
}

#[test]
fn previous_next_first_and_newest_move_by_whole_messages() {
    let mut r = Reader::new(40);
    for t in ["A", "B", "C"] {
        news(&mut r, t);
    }
    assert_eq!(shown(&r), "A");
    r.go(Move::Next);
    assert_eq!(shown(&r), "B");
    r.go(Move::Previous);
    assert_eq!(shown(&r), "A");
    r.go(Move::Newest);
    assert_eq!(shown(&r), "C");
    assert_eq!(
        r.unread(),
        0,
        "the newest: everything before counts as read"
    );
    r.go(Move::First);
    assert_eq!(shown(&r), "A");
    assert_eq!(r.kept(), 3, "nothing is dropped");
}

#[test]
fn an_empty_display_ignores_its_keys() {
    let mut r = Reader::new(40);
    r.go(Move::PanRight);
    r.go(Move::Previous);
    assert_eq!(r.window(), vec![0; 40]);
}
