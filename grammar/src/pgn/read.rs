//! Reading PGN game records as Xiangqi software writes them: tag pairs, then move text in
//! Chinese, ICCS or WXF (`[Format]`), with move numbers glued or apart, ASCII or full-width
//! (`1.炮二平五`, `１．炮二平五`), black-first games (`1. ... 車２平７` or just `1. 車２平７`),
//! `{}` comments, `;` comments, `$` glyphs and `()` variations skipped.

use std::borrow::Cow;

use encoding_rs::{BIG5, Encoding, GBK, UTF_8};

/// One game of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The move texts of the main line, in order, as written (numbers and comments removed).
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `0-0`, `*`), if any.
    pub result: Option<String>,
}

impl Game {
    /// The value of a tag (names compare case-insensitively).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The start position's FEN: the `[FEN]` tag, or the standard start.
    pub fn fen(&self) -> &str {
        self.tag("FEN")
            .filter(|f| !f.trim().is_empty())
            .unwrap_or(baoqi_rules::START_FEN)
    }
}

/// Why a text holds no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// No tag and no move.
    #[error("no game in the record")]
    Empty,
    /// A tag pair that does not close.
    #[error("line {line}: tag pair not closed: {text:?}")]
    BadTag {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

/// Decodes a record's bytes: UTF-8 (with or without BOM), else Big5 or GBK, whichever reads
/// more notation characters. Returns the text and the encoding's name.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, &'static str) {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        return (text, enc.name());
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), UTF_8.name());
    }
    // Every record of moves in Chinese holds 進, 退 or 平: a decoding that shows none of them
    // (nor 进) is the wrong one. Big5 first: it is what most Xiangqi software writes.
    let has_moves = |t: &str| t.contains(['進', '退', '平', '进']);
    let big5 = match BIG5.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(b) if has_moves(&b) => return (Cow::Owned(b.into_owned()), BIG5.name()),
        other => other,
    };
    let gbk = GBK.decode_without_bom_handling_and_without_replacement(bytes);
    match (big5, gbk) {
        (_, Some(g)) if has_moves(&g) => (Cow::Owned(g.into_owned()), GBK.name()),
        (Some(b), _) => (Cow::Owned(b.into_owned()), BIG5.name()),
        (None, Some(g)) => (Cow::Owned(g.into_owned()), GBK.name()),
        (None, None) => {
            let (t, _) = BIG5.decode_without_bom_handling(bytes);
            (Cow::Owned(t.into_owned()), BIG5.name())
        }
    }
}

/// Reads every game of a record text.
pub fn read_games(text: &str) -> Result<Vec<Game>, PgnError> {
    let mut games = Vec::new();
    let mut game = Game::default();
    let mut in_moves = false;
    let mut depth = 0usize;
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if !in_comment && depth == 0 && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            let tag = parse_tag(trimmed).ok_or_else(|| PgnError::BadTag {
                line: n + 1,
                text: trimmed.into(),
            })?;
            game.tags.push(tag);
            continue;
        }
        // Tokens are slices of the line: a move costs one allocation, its own String.
        let mut start: Option<usize> = None;
        for (i, c) in line.char_indices() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            let ends_token = match c {
                '{' => {
                    in_comment = true;
                    true
                }
                '(' => {
                    depth += 1;
                    true
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    true
                }
                ';' if depth == 0 => {
                    in_moves |= take_token(&line[start.take().unwrap_or(i)..i], &mut game);
                    break;
                }
                _ if depth > 0 => false,
                c => c.is_whitespace(),
            };
            if ends_token {
                in_moves |= take_token(&line[start.take().unwrap_or(i)..i], &mut game);
            } else if depth == 0 && start.is_none() {
                start = Some(i);
            }
        }
        if let Some(st) = start {
            in_moves |= take_token(&line[st..], &mut game);
        }
    }
    if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
        games.push(game);
    }
    if games.is_empty() {
        return Err(PgnError::Empty);
    }
    Ok(games)
}

/// Reads the first game of a record text.
pub fn read_game(text: &str) -> Result<Game, PgnError> {
    read_games(text)?.into_iter().next().ok_or(PgnError::Empty)
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    let rest = rest.trim();
    let value = rest.strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Result tokens; `0-0` is 雙負 (both lose), which baoqi writes.
const RESULTS: [&str; 6] = ["1-0", "0-1", "1/2-1/2", "½-½", "0-0", "*"];

/// Files a finished token as a move or a result; returns whether it was move text.
fn take_token(token: &str, game: &mut Game) -> bool {
    if token.is_empty() {
        return false;
    }
    let rest = strip_number(token);
    if !(rest.is_empty() || rest.starts_with('$')) {
        if RESULTS.contains(&rest) {
            game.result = Some(rest.to_string());
        } else {
            game.moves.push(rest.to_string());
        }
    }
    true
}

/// Strips a move number (`12.`, `１２．`, `3...`, `3…`) glued to the front of a token, and
/// lone dots.
fn strip_number(t: &str) -> &str {
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || ('０'..='９').contains(&c)))
        .unwrap_or(t.len());
    let after = &t[digits..];
    let dots = after.trim_start_matches(['.', '．', '。', '…', '、']);
    // A bare number (no dot) is a move number too; results such as `1-0` keep their digits.
    if dots.len() < after.len() || digits == t.len() {
        dots
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glued_and_full_width_numbers_comments_and_variations() {
        let text = "[FEN \"x\"]\n1.炮二平五 {中炮} 馬８進７ (2...馬２進３) ２．馬二進三 ; comment\n3. ... 車９平８ $1 1-0\n";
        let g = read_game(text).unwrap();
        assert_eq!(g.moves, ["炮二平五", "馬８進７", "馬二進三", "車９平８"]);
        assert_eq!(g.result.as_deref(), Some("1-0"));
        assert_eq!(g.fen(), "x");
    }

    #[test]
    fn wxf_moves_that_begin_with_a_digit_survive() {
        let g = read_game("1. C2.5 H8+7 2. 2P+1").unwrap();
        assert_eq!(g.moves, ["C2.5", "H8+7", "2P+1"]);
    }
}
