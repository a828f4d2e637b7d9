//! Text from a file or a record made safe to print on a terminal: a game record's move text
//! or a file's name may hold ESC sequences (ESC[2J clears the organiser's screen), BEL, a
//! bidi override that reverses the rest of the line, or a tab that would shift a TSV
//! column. Each is printed as its escape (`\u{1b}`), so the line shows what the file holds
//! and does nothing to the terminal.

use std::borrow::Cow;

/// Whether `c` may act on a terminal or a line rather than show: a control character (C0,
/// DEL, C1; the tab included), a bidi control or a zero-width character.
fn acts(c: char) -> bool {
    c.is_control() || baoqi_arbiter::bounds::is_invisible_format(c)
}

/// `text` with every character that [`acts`] written as its escape, `\u{1b}`.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if acts(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn terminal_controls_are_shown_as_escapes_and_other_text_as_it_is() {
        assert_eq!(shown("炮二平五 h2e2"), "炮二平五 h2e2");
        assert_eq!(shown("a\u{1b}[2J\u{7}"), "a\\u{1b}[2J\\u{7}");
        assert_eq!(shown("\u{202E}x\ty\u{9b}"), "\\u{202e}x\\u{9}y\\u{9b}");
    }
}
