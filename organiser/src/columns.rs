//! Text tables whose columns line up when names are Chinese: a cell is padded to its
//! column's display width, not its count of characters, since a Chinese character takes two
//! columns of a terminal or a monospaced printout (`unicode-width`, Unicode's East Asian
//! Width).

use unicode_width::UnicodeWidthStr;

/// How a column's cells sit in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    /// Numbers: against the right edge.
    Right,
    /// Text: against the left edge.
    Left,
}

/// The columns a cell takes on a terminal.
pub(crate) fn width(cell: &str) -> usize {
    UnicodeWidthStr::width(cell)
}

/// `cell` padded with spaces to `columns` display columns.
fn pad(cell: &str, columns: usize, align: Align) -> String {
    let fill = " ".repeat(columns.saturating_sub(width(cell)));
    match align {
        Align::Right => format!("{fill}{cell}"),
        Align::Left => format!("{cell}{fill}"),
    }
}

/// The rows as lines, each column as wide as its widest cell, two spaces between columns;
/// a column without an alignment is left-aligned, and no line ends in spaces.
pub(crate) fn table(rows: &[Vec<String>], align: &[Align]) -> String {
    let count = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..count)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                pad(
                    cell,
                    widths[c],
                    align.get(c).copied().unwrap_or(Align::Left),
                )
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_name_takes_two_columns_a_character() {
        let rows = vec![
            vec!["1".to_string(), "陳大文".into(), "3".into()],
            vec!["10".to_string(), "Amy".into(), "2½".into()],
        ];
        let text = table(&rows, &[Align::Right, Align::Left, Align::Right]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines, [" 1  陳大文   3", "10  Amy     2½"]);
        assert_eq!(width(lines[0]), width(lines[1]));
    }
}
