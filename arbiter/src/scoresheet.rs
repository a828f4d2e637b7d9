//! The scoresheet kept by the referee (裁判人員記譜, 6.2(2), 7.3(2)): the header fields of
//! 附表四 第三部份, every move in 附表六 notation with × ○ ＝ and the clock after it, the result
//! and its reason; and the PGN export through the grammar's writer.

use std::fmt::Write as _;

use baoqi_grammar::pgn::write_pgn;
use baoqi_grammar::{Marks, Style, words_text};
use baoqi_rules::Move;

use crate::article::Article;
use crate::clock::words;
use crate::command::Side;
use crate::state::Match;
use crate::view::{ResultView, SheetMove};

impl Match {
    /// The scoresheet as text: header (附表四 3(1)-(6), (13), (15)), then one line per move
    /// number (3(8)) with each side's move, marks (3(10)-(11), 附表六 第二部份) and clock
    /// (3(12)), then the result and reason (3(13)). Signatures (3(14), (16)) are replaced by
    /// the oral verification (6.8, 7.9).
    pub fn scoresheet(&self) -> String {
        let h = &self.config.header;
        let mut out = String::new();
        let _ = writeln!(out, "比賽名稱：{}", h.event);
        let _ = writeln!(out, "對賽日期：{}", h.date);
        let _ = writeln!(out, "比賽地點：{}", h.venue);
        let _ = writeln!(out, "對賽輪數：{}　對賽枱號：{}", h.round, h.table);
        let _ = writeln!(
            out,
            "紅方：{}　黑方：{}",
            self.config.red.name, self.config.black.name
        );
        if self.start.fen() != baoqi_rules::START_FEN {
            let _ = writeln!(out, "開局：{}", self.start.fen());
        }
        let _ = writeln!(out, "頁數：1");
        let mut number = self.start.fullmoves();
        let mut line: Option<(String, String)> = None;
        let flush = |out: &mut String, n: u32, l: &mut Option<(String, String)>| {
            if let Some((r, b)) = l.take() {
                let _ = writeln!(out, "{n:>3}. {r:<16}{b}");
            }
        };
        for m in &self.core.sheet {
            let cell = format!("{} ({})", marked(m), words(m.clock_ms));
            match m.side {
                Side::Red => {
                    flush(&mut out, number, &mut line);
                    line = Some((cell, String::new()));
                }
                Side::Black => {
                    let l = line.get_or_insert_with(|| ("……".into(), String::new()));
                    l.1 = cell;
                    flush(&mut out, number, &mut line);
                    number += 1;
                }
            }
        }
        flush(&mut out, number, &mut line);
        let _ = writeln!(out, "{}", result_line(self.core.result.as_ref()));
        let _ = writeln!(out, "終局裁判：{}", h.referee);
        if let Some(v) = &self.core.verified {
            let _ = writeln!(out, "結果口頭核實：{v}");
        }
        out
    }

    /// The game as PGN in `style` (tags from the header, result and termination).
    pub fn pgn_in(&self, style: Style) -> String {
        let h = &self.config.header;
        let result = self
            .core
            .result
            .as_ref()
            .map_or("*".to_string(), |r| r.outcome.score().to_string());
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), h.event.clone()),
            ("Site".into(), h.venue.clone()),
            ("Date".into(), h.date.clone()),
            ("Round".into(), h.round.clone()),
            ("Table".into(), h.table.clone()),
            ("Red".into(), self.config.red.name.clone()),
            ("Black".into(), self.config.black.name.clone()),
            ("Result".into(), result.clone()),
        ];
        if let Some(r) = &self.core.result {
            tags.push((
                "Termination".into(),
                format!("{} ({})", r.cause.rule_text(), cited(&r.articles)),
            ));
        }
        let moves: Vec<Move> = self.game.moves().to_vec();
        write_pgn(&tags, &self.start, &moves, style, &result)
            .unwrap_or_else(|e| format!("; cannot write the record: {e}\n"))
    }

    /// The game as PGN with Chinese moves.
    pub fn pgn(&self) -> String {
        self.pgn_in(Style::Traditional)
    }
}

/// The scoresheet's result line (附表四 3(13)): `結果：1-0 紅勝　終局原因：…（第…條）`, or
/// `結果：*` while the game goes on.
pub fn result_line(result: Option<&ResultView>) -> String {
    match result {
        Some(r) => format!(
            "結果：{} {}　終局原因：{}（{}）",
            r.outcome.score(),
            r.outcome.chinese(),
            r.cause.rule_text(),
            cited(&r.articles)
        ),
        None => "結果：*".to_owned(),
    }
}

/// A move as the scoresheet writes it: its words in the mover's characters, then × ○ ＝ as
/// earned (附表六 第二部份).
pub fn marked(m: &SheetMove) -> String {
    let marks = Marks {
        capture: m.mv.captured.is_some(),
        check: m.mv.check,
        draw_offer: m.draw_offer,
    };
    format!("{}{}", words_text(&m.mv.words, m.side), marks.text())
}

/// The articles as the scoresheet cites them: `第69(1)條` or `附表七 7.1(2)`.
pub fn cited(articles: &[Article]) -> String {
    articles
        .iter()
        .map(|a| match a.schedule7_part() {
            Some(_) => format!("附表七 {a}"),
            None => format!("第{a}條"),
        })
        .collect::<Vec<_>>()
        .join("、")
}
