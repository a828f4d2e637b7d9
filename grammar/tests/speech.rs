//! Spoken words for every legal move (STYLE: Jyutping/pinyin where espeak-ng misreads, no
//! Latin letters such as ICCS or English piece letters in a Chinese phrase).

use crate::common;

use baoqi_grammar::speech::{self, Lang};

#[test]
fn s7p6_3_every_move_has_four_display_and_speakable_words() {
    for seed in 0..300 {
        let pos =
            common::setup(seed).unwrap_or_else(|| common::playout(seed, (seed % 120) as usize));
        for &mv in pos.legal_moves().iter() {
            let display =
                baoqi_grammar::render(&pos, mv, baoqi_grammar::Style::Traditional).unwrap();
            for lang in [Lang::Yue, Lang::Cmn] {
                let words = speech::move_words(&pos, mv, lang).unwrap();
                assert_eq!(words.len(), 4);
                assert_eq!(
                    words.iter().map(|w| w.display.as_str()).collect::<String>(),
                    display
                );
                for w in &words {
                    assert!(!w.speak.is_empty());
                    let latin = w.speak.chars().filter(char::is_ascii_alphabetic).count();
                    match lang {
                        // Mandarin is all pinyin with a tone number per syllable.
                        Lang::Cmn => assert!(
                            w.speak.is_ascii() && w.speak.ends_with(|c: char| c.is_ascii_digit()),
                            "{w:?}"
                        ),
                        // Cantonese: the character itself, or Jyutping with its tone number.
                        Lang::Yue => assert!(
                            latin == 0 || w.speak.ends_with(|c: char| c.is_ascii_digit()),
                            "{w:?}"
                        ),
                    }
                    // No ICCS coordinates nor English piece letters in either language.
                    assert!(!w.speak.contains(char::is_uppercase), "{w:?}");
                }
            }
        }
    }
}

#[test]
fn s7p6_3_marks_are_spoken_as_words() {
    let m = baoqi_grammar::Marks {
        capture: true,
        check: true,
        draw_offer: false,
    };
    let yue: Vec<String> = speech::marks(m, Lang::Yue)
        .into_iter()
        .map(|s| s.display)
        .collect();
    assert_eq!(yue, ["吃", "將軍"]);
    let cmn: Vec<String> = speech::marks(m, Lang::Cmn)
        .into_iter()
        .map(|s| s.speak)
        .collect();
    assert_eq!(cmn, ["chi1", "jiang1 jun1"]);
    assert_eq!(Lang::Yue.voice(), "yue-Latn-jyutping");
    assert_eq!(Lang::Cmn.voice(), "cmn-latn-pinyin");
}
