//! The scoresheet text (裁判人員記譜): the 附表四 第三部份 header as the server knows it
//! ([`super::Known`]), every move in 附表六 notation with × ○ ＝ and the clock face after it
//! (3(8)-(12)), the result and its reason (3(13)), the referee (3(15)) and the oral
//! verification that replaces the signatures (3(14), (16); 6.8, 7.9).

use std::fmt::Write as _;

use baoqi_arbiter::{SheetMove, Side, View, marked, result_line};
use baoqi_rules::{Position, START_FEN};

use super::{ExportError, Known};

/// Whole seconds on a clock face showing `ms` left: rounded up. A face counts down to
/// 0:00 and shows 0:00 only when the time is up (83(1)(c)), so 9:49.6 left reads 9:50;
/// the web pages show clocks the same way.
pub const fn face_seconds(ms: u64) -> u64 {
    ms.div_ceil(1000)
}

/// A clock face as the scoresheet and the web pages write it: `9:50`, `45:00`, `90:00`.
pub fn face(ms: u64) -> String {
    let s = face_seconds(ms);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The scoresheet of a table.
pub fn scoresheet(known: &Known, view: &View) -> Result<String, ExportError> {
    let start = Position::from_fen(&view.start_fen)?;
    let mut out = header(known, &view.start_fen);
    moves(&mut out, start.fullmoves(), &view.moves);
    ending(&mut out, known, view);
    Ok(out)
}

/// 附表四 3(1)-(7).
fn header(known: &Known, start_fen: &str) -> String {
    let h = known.header();
    let mut out = String::new();
    let _ = writeln!(out, "比賽名稱：{}", h.event);
    let _ = writeln!(out, "對賽日期：{}", h.date);
    let _ = writeln!(out, "比賽地點：{}", h.venue);
    let _ = writeln!(
        out,
        "對賽輪數：{}　對賽枱號：{}（{}）",
        h.round, h.table, h.label
    );
    let t = &known.table;
    let _ = writeln!(out, "紅方：{}　黑方：{}", t.red, t.black);
    let carried = &t.config.carried;
    if !carried.is_clear() {
        // Violations the game began with (a replay under 108(1)): part of its record.
        let side = |v: &baoqi_arbiter::TallyView| {
            format!(
                "技術犯規 {} 次、違反記錄規則 {} 次、違反按棋鐘規則 {} 次",
                v.technical, v.recording, v.clock
            )
        };
        let _ = writeln!(
            out,
            "開局前已記（第108(1)條重賽）：紅方 {}；黑方 {}",
            side(&carried.red),
            side(&carried.black)
        );
    }
    if start_fen != START_FEN {
        let _ = writeln!(out, "開局：{start_fen}");
    }
    let _ = writeln!(out, "頁數：1");
    out
}

/// One line per move number (3(8)): each side's move with its marks and clock face.
fn moves(out: &mut String, first: u32, moves: &[SheetMove]) {
    let mut number = first;
    let mut red: Option<String> = None;
    for m in moves {
        let cell = format!("{} ({})", marked(m), face(m.clock_ms));
        match m.side {
            Side::Red => {
                if let Some(r) = red.replace(cell) {
                    let _ = writeln!(out, "{number:>3}. {r}");
                    number += 1;
                }
            }
            Side::Black => {
                let r = red.take().unwrap_or_else(|| "……".into());
                let _ = writeln!(out, "{number:>3}. {r:<16}{cell}");
                number += 1;
            }
        }
    }
    if let Some(r) = red {
        let _ = writeln!(out, "{number:>3}. {r}");
    }
}

/// 附表四 3(13), (15), and the oral verification.
fn ending(out: &mut String, known: &Known, view: &View) {
    match known.recorded {
        // The organiser's result stands over the game's (87, 7.9): the record says which.
        Some(_) => {
            let game = result_line(view.result.as_ref());
            let game = game.strip_prefix("結果：").unwrap_or(&game);
            let entered = baoqi_organiser::standings::result_text(known.recorded);
            let _ = writeln!(out, "結果：{entered}（裁判長登記）　對局：{game}");
        }
        None => {
            let _ = writeln!(out, "{}", result_line(view.result.as_ref()));
        }
    }
    let _ = writeln!(out, "終局裁判：{}", known.header().referee);
    if let Some(v) = &view.verified {
        let _ = writeln!(out, "結果口頭核實：{v}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s4p3_12_a_clock_face_rounds_the_milliseconds_up() {
        assert_eq!(face(589_600), "9:50");
        assert_eq!(face(590_000), "9:50");
        assert_eq!(face(589_000), "9:49");
        assert_eq!(face(2_700_000), "45:00");
        assert_eq!(face(5_400_000), "90:00");
        assert_eq!((face(1), face(0)), ("0:01".into(), "0:00".into()));
    }
}
