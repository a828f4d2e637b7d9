//! The large-font status line for low-vision players (`--status`): whose turn, both clocks,
//! the last move and the words being announced, in double-height, double-width letters
//! (DEC line attributes `ESC # 3` / `ESC # 4`: the same text on two rows, top and bottom
//! halves) with high contrast (bold bright yellow on black). [`render`] is pure.

use baoqi_arbiter::Phase;
use baoqi_grammar::words_text;
use baoqi_rules::Color;

use super::machine::Session;

/// What the status line shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusInfo {
    /// The player's side, once known.
    pub me: Option<Color>,
    /// Whether this seat is a proxy.
    pub proxy: bool,
    /// The side to act while the game runs.
    pub to_move: Option<Color>,
    /// Red's and black's time left, ms.
    pub clocks: [u64; 2],
    /// The last move, as written (`炮二平五`), and by whom.
    pub last_move: Option<(Color, String)>,
    /// The words of the announcement being given.
    pub words: String,
    /// The result, when the game is over.
    pub result: Option<String>,
    /// Whether the connection is up.
    pub connected: bool,
}

impl StatusInfo {
    /// What the session knows at local instant `now_ms`.
    pub fn of(s: &Session, now_ms: u64) -> StatusInfo {
        let Some(t) = s.table() else {
            // Not joined yet: shown as not connected.
            return StatusInfo {
                me: s.side(),
                proxy: s.is_proxy(),
                ..StatusInfo::default()
            };
        };
        StatusInfo {
            me: s.side(),
            proxy: s.is_proxy(),
            to_move: (t.phase == Phase::Playing).then_some(t.to_move),
            clocks: [
                t.remaining(Color::Red, now_ms),
                t.remaining(Color::Black, now_ms),
            ],
            last_move: t
                .moves
                .last()
                .map(|m| (m.side, words_text(&m.mv.words, m.side))),
            words: words_text(&t.attempt.1, t.attempt.0),
            result: t.result.as_ref().map(|r| r.cause.rule_text()),
            connected: s.is_connected(),
        }
    }
}

/// Bold bright yellow on black.
const STYLE: &str = "\x1b[1;93;40m";
const RESET: &str = "\x1b[0m";

/// `m:ss`, or `h:mm:ss` from an hour; rounded down like the spoken time.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Terminal columns a character takes at normal width (CJK: 2).
fn cells(c: char) -> usize {
    if c.is_ascii() { 1 } else { 2 }
}

/// Cuts `text` to `max` cells.
fn fit(text: &str, max: usize) -> String {
    let mut used = 0;
    text.chars()
        .take_while(|&c| {
            used += cells(c);
            used <= max
        })
        .collect()
}

/// The two lines of text, before the large-font attributes.
pub fn lines(info: &StatusInfo) -> [String; 2] {
    if !info.connected {
        return ["未連線".to_owned(), String::new()];
    }
    let clock = |c: Color| {
        let mark = if info.to_move == Some(c) { "▶" } else { " " };
        let i = usize::from(c == Color::Black);
        format!("{mark}{}{}", c.chinese(), clock_text(info.clocks[i]))
    };
    let first = if let Some(r) = &info.result {
        format!("完 {r}")
    } else {
        let yours = info.to_move.is_some() && info.to_move == info.me;
        format!(
            "{} {}{}",
            clock(Color::Red),
            clock(Color::Black),
            if yours { " 到你" } else { "" }
        )
    };
    let mut second = info
        .last_move
        .as_ref()
        .map(|(c, mv)| format!("{}{mv}", c.chinese()))
        .unwrap_or_default();
    if !info.words.is_empty() {
        second = format!("{second} 報{}", info.words);
    }
    if info.proxy {
        second = format!("代理 {second}");
    }
    [first, second]
}

/// The status as terminal output for a terminal `columns` wide: each line twice, as the top
/// and bottom halves of double-height, double-width text (so half as many characters fit),
/// high contrast, each row cleared to its end.
pub fn render(info: &StatusInfo, columns: usize) -> String {
    let width = columns / 2;
    let mut out = String::new();
    for l in lines(info) {
        let text = fit(l.trim(), width);
        for half in ["\x1b#3", "\x1b#4"] {
            out.push_str(half);
            out.push_str(STYLE);
            out.push_str(&text);
            out.push_str("\x1b[K");
            out.push_str(RESET);
            out.push_str("\r\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn playing() -> StatusInfo {
        StatusInfo {
            me: Some(Color::Red),
            proxy: false,
            to_move: Some(Color::Red),
            clocks: [62_000, 3_725_000],
            last_move: Some((Color::Black, "馬８進７".into())),
            words: "炮二".into(),
            result: None,
            connected: true,
        }
    }

    #[test]
    fn clocks_read_like_a_chess_clock() {
        assert_eq!(clock_text(62_999), "1:02");
        assert_eq!(clock_text(3_725_000), "1:02:05");
        assert_eq!(clock_text(0), "0:00");
    }

    #[test]
    fn the_lines_say_turn_clocks_last_move_and_words() {
        let [a, b] = lines(&playing());
        assert_eq!(a, "▶紅1:02  黑1:02:05 到你");
        assert_eq!(b, "黑馬８進７ 報炮二");
        let mut over = playing();
        over.result = Some("紅方認負".into());
        assert_eq!(lines(&over)[0], "完 紅方認負");
        over.connected = false;
        assert_eq!(lines(&over)[0], "未連線");
    }

    #[test]
    fn each_line_is_double_height_double_width_and_high_contrast() {
        let out = render(&playing(), 80);
        let rows: Vec<&str> = out.split("\r\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(rows.len(), 4);
        assert!(rows[0].starts_with("\x1b#3\x1b[1;93;40m▶紅1:02"));
        assert!(rows[1].starts_with("\x1b#4\x1b[1;93;40m▶紅1:02"));
        assert!(rows[2].starts_with("\x1b#3") && rows[3].starts_with("\x1b#4"));
        assert!(rows.iter().all(|r| r.ends_with("\x1b[K\x1b[0m")));
    }

    #[test]
    fn a_narrow_terminal_cuts_the_text_to_half_its_width() {
        let out = render(&playing(), 16);
        let first = out.split("\r\n").next().unwrap();
        let text = first
            .trim_start_matches("\x1b#3\x1b[1;93;40m")
            .trim_end_matches("\x1b[K\x1b[0m");
        assert_eq!(text, "▶紅1:02");
        assert!(text.chars().map(cells).sum::<usize>() <= 8);
    }
}
