//! Writing a game: PGN (tags, `[Format]`, `[FEN]` when not the standard start, numbered
//! moves, black-first games as `1. ...`, `{}` comments after moves) and a plain scoresheet
//! text with the marks of 附表六 第二部份.

use std::fmt::Write as _;

use baoqi_rules::{Color, Move, Position, START_FEN};

use crate::render::{self, RenderError, Style};

/// The `[Format]` tag value for a style.
pub const fn format_tag(style: Style) -> &'static str {
    match style {
        Style::Traditional => "Chinese",
        Style::Axf => "AXF",
        Style::Wxf => "WXF",
        Style::Iccs => "ICCS",
    }
}

/// One scoresheet line: the move number, red's move and black's move.
pub type Row = (u32, Option<String>, Option<String>);

/// The moves of a game rendered in `style`, numbered as a scoresheet numbers them:
/// one entry per move number, `(number, red, black)`; a black-first game has no red move in
/// its first entry.
pub fn numbered(
    start: &Position,
    moves: &[Move],
    style: Style,
    marked: bool,
) -> Result<Vec<Row>, RenderError> {
    let mut pos = start.clone();
    let mut rows: Vec<Row> = Vec::new();
    for &mv in moves {
        let text = if marked {
            render::render_marked(&pos, mv, style)?
        } else {
            render::render(&pos, mv, style)?
        };
        let number = pos.fullmoves();
        match pos.turn() {
            Color::Red => rows.push((number, Some(text), None)),
            Color::Black => match rows.last_mut() {
                Some(row) if row.0 == number && row.2.is_none() => row.2 = Some(text),
                _ => rows.push((number, None, Some(text))),
            },
        }
        pos.make(mv);
    }
    Ok(rows)
}

/// Writes a PGN record. `tags` come first (without `Format`/`FEN`, which are added).
pub fn write_pgn(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    style: Style,
    result: &str,
) -> Result<String, RenderError> {
    write_pgn_commented(tags, start, moves, &[], style, result)
}

/// A tag's value as a PGN string token: `\\` and `"` escaped, and no control character (a
/// line break from a player's name would end the tag inside its value).
fn tag_value(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Writes a PGN record with a `{}` comment after moves: `comments[i]` follows the `i`-th
/// move (an empty or missing one, none). A black move after a comment carries its number
/// (`1... 馬８進７`), as PGN's export format asks.
pub fn write_pgn_commented(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    comments: &[String],
    style: Style,
    result: &str,
) -> Result<String, RenderError> {
    let mut out = String::new();
    for (k, v) in tags
        .iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case("Format") && !k.eq_ignore_ascii_case("FEN"))
    {
        let _ = writeln!(out, "[{k} \"{}\"]", tag_value(v));
    }
    let _ = writeln!(out, "[Format \"{}\"]", format_tag(style));
    let fen = start.fen();
    if fen != START_FEN {
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    out.push('\n');
    let mut ply = 0;
    for (n, red, black) in numbered(start, moves, style, false)? {
        let _ = write!(out, "{n}.");
        // Black's move repeats the number after a comment; a black-first row says `...`.
        let mut black_prefix = " ...".to_string();
        if let Some(r) = red {
            let c = comment(comments, ply);
            black_prefix = if c.is_empty() {
                String::new()
            } else {
                format!(" {n}...")
            };
            let _ = write!(out, " {r}{c}");
            ply += 1;
        }
        if let Some(b) = black {
            let _ = write!(out, "{black_prefix} {b}{}", comment(comments, ply));
            ply += 1;
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{result}");
    Ok(out)
}

/// The comment after the `ply`-th move, with its leading space: ` {…}`, or nothing. A `}`
/// inside would end the comment early (PGN comments neither nest nor escape): it becomes `)`.
fn comment(comments: &[String], ply: usize) -> String {
    comments
        .get(ply)
        .filter(|c| !c.is_empty())
        .map(|c| format!(" {{{}}}", c.replace('}', ")")))
        .unwrap_or_default()
}

/// Writes a plain scoresheet: a heading, then one line per move number with red's and
/// black's moves in traditional notation followed by their marks (× ○).
pub fn write_scoresheet(
    red: &str,
    black: &str,
    start: &Position,
    moves: &[Move],
) -> Result<String, RenderError> {
    let mut out = format!("紅方：{red}\n黑方：{black}\n");
    if start.fen() != START_FEN {
        let _ = writeln!(out, "開局：{}", start.fen());
    }
    for (n, r, b) in numbered(start, moves, Style::Traditional, true)? {
        let r = r.unwrap_or_else(|| "……".to_string());
        let _ = writeln!(out, "{n:>3}. {r:<6}\t{}", b.unwrap_or_default());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{read_game, replay};
    use crate::resolve::Mode;

    #[test]
    fn a_written_black_first_game_reads_back() {
        let start =
            Position::from_fen("2bak4/9/3ab4/4p3n/9/2B5P/4r4/9/1R2A4/3AKC3 b - - 0 1").unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for _ in 0..6 {
            let mv = pos.legal_moves()[0];
            pos.make(mv);
            moves.push(mv);
        }
        for style in [Style::Traditional, Style::Wxf, Style::Axf, Style::Iccs] {
            let text =
                write_pgn(&[("Event".into(), "t".into())], &start, &moves, style, "*").unwrap();
            let game = read_game(&text).unwrap();
            assert_eq!(replay(&game, Mode::Strict).unwrap().moves, moves, "{text}");
        }
        let sheet = write_scoresheet("甲", "乙", &start, &moves).unwrap();
        assert!(sheet.contains("  1. ……"), "{sheet}");
    }

    #[test]
    fn comments_after_moves_are_skipped_on_reading() {
        let start = Position::start();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let comments = ["＝ [%clk 0:09:50]", "", "a } b"].map(String::from);
        let text =
            write_pgn_commented(&[], &start, &moves, &comments, Style::Traditional, "0-0").unwrap();
        assert!(
            text.contains(
                "1. 炮二平五 {＝ [%clk 0:09:50]} 1... 馬８進７\n2. 傌二進三 {a ) b}\n0-0"
            ),
            "{text}"
        );
        let game = read_game(&text).unwrap();
        assert_eq!(game.result.as_deref(), Some("0-0"));
        assert_eq!(replay(&game, Mode::Strict).unwrap().moves, moves, "{text}");
    }
}
