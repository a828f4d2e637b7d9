//! [`MoveView`]: a legal move in every notation of the grammar, with its marks (附表六
//! 第二部份) and spoken words, so that clients never re-derive notation.

use baoqi_grammar::speech::{self, Lang};
use baoqi_grammar::{Style, Word, marks_of, render, render_marked};
use baoqi_rules::{Color, Move, Position};

use crate::event::{MoveView, Spoken};

fn spoken(v: Vec<speech::Spoken>) -> Vec<Spoken> {
    v.into_iter()
        .map(|s| Spoken {
            display: s.display,
            speak: s.speak,
        })
        .collect()
}

/// The view of a legal move in `pos`; `draw_offer` adds ＝ (附表六 第二部份 3).
pub(crate) fn move_view(pos: &Position, mv: Move, draw_offer: bool) -> MoveView {
    let r = |style| render(pos, mv, style).unwrap_or_else(|_| mv.to_string());
    let mut marks = marks_of(pos, mv);
    marks.draw_offer = draw_offer;
    let mut marked = render_marked(pos, mv, Style::Traditional).unwrap_or_else(|_| r(Style::Iccs));
    if draw_offer {
        marked.push('＝');
    }
    let words = |lang| {
        let mut v = speech::move_words(pos, mv, lang).unwrap_or_default();
        v.extend(speech::marks(marks, lang));
        spoken(v)
    };
    MoveView {
        iccs: mv.to_string(),
        traditional: r(Style::Traditional),
        marked,
        axf: r(Style::Axf),
        wxf: r(Style::Wxf),
        yue: words(Lang::Yue),
        cmn: words(Lang::Cmn),
        capture: marks.capture,
        check: marks.check,
    }
}

/// One word as `color` writes it, shown and spoken in Cantonese.
pub(crate) fn word_view(w: Word, color: Color) -> Spoken {
    word_in(w, color, Lang::Yue)
}

/// One word as `color` writes it, shown and spoken in `lang`.
pub(crate) fn word_in(w: Word, color: Color, lang: Lang) -> Spoken {
    let s = speech::word(w, color, lang);
    Spoken {
        display: s.display,
        speak: s.speak,
    }
}

/// A side as the arbiter's texts name it: `紅方`, `黑方`.
pub(crate) fn side_name(c: Color) -> String {
    format!("{}方", c.chinese())
}
