//! espeak-ng renders every phrase in both voices: real sound of a plausible length, and no
//! romanised syllable read as English.

use std::process::Command;
use std::time::Duration;

use baoqi_audio::espeak::Espeak;
use baoqi_audio::pcm::loud_spans;
use baoqi_audio::phrasebook::{LANGS, voice};
use baoqi_audio::phrasebook::{echo_phrases, phrase};
use baoqi_audio::{Phrase, TimeReason, Utterance};
use baoqi_grammar::Word;
use baoqi_grammar::speech::Lang;
use baoqi_rules::{Color, Kind, Pattern, WarningKind};

fn samples() -> Vec<Phrase> {
    let mut ps = echo_phrases();
    for u in [
        Utterance::Move {
            side: Color::Red,
            words: vec![
                Word::Piece(Kind::Rook),
                Word::Numeral(9),
                Word::Forward,
                Word::Numeral(1),
            ],
            captured: Some(baoqi_rules::Piece::new(Color::Black, Kind::Horse)),
            check: true,
        },
        Utterance::times(
            TimeReason::Alert,
            Color::Red,
            Duration::from_secs(330),
            Duration::from_secs(1800),
            Color::Red,
        ),
        Utterance::Repetition {
            kind: WarningKind::Mutual {
                first: Color::Black,
                pattern: Pattern::PerpetualChase,
            },
        },
    ] {
        ps.push(phrase(&u));
    }
    ps
}

fn syllables(p: &Phrase) -> usize {
    p.display
        .chars()
        .filter(|c| !c.is_ascii() && c.is_alphanumeric())
        .count()
}

#[test]
fn every_phrase_renders_to_speech_of_plausible_length_in_both_voices() {
    let espeak = Espeak::default();
    assert!(
        espeak.available(),
        "espeak-ng is not installed (scripts/setup.sh run)"
    );
    for p in samples() {
        for lang in LANGS {
            let pcm = espeak.render(p.speak(lang), voice(lang)).unwrap();
            let spans = loud_spans(&pcm.samples, pcm.rate, 0.01);
            assert!(!spans.is_empty(), "{lang:?} {}: silent", p.display);
            let heard = (spans.last().unwrap().1 - spans[0].0) as f64 / f64::from(pcm.rate);
            let n = syllables(&p).max(1) as f64;
            assert!(
                heard >= 0.08 * n && heard <= 0.6 * n + 0.6,
                "{lang:?} {}: {heard:.2} s for {n} syllables",
                p.display
            );
        }
    }
}

#[test]
fn renders_are_cached_and_bad_voices_fail_cleanly() {
    let espeak = Espeak::default();
    let a = espeak.render("炮二平五", voice(Lang::Yue)).unwrap();
    let b = espeak.render("炮二平五", voice(Lang::Yue)).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert!(espeak.render("x", "no-such-voice-xx").is_err());
    assert!(
        Espeak::new("/nonexistent/espeak-ng")
            .render("x", "yue")
            .is_err()
    );
}

/// espeak-ng marks a switch to another language's rules as `(en)` in its phoneme output:
/// a romanised syllable it did not take as Jyutping/pinyin.
#[test]
fn romanised_syllables_are_read_as_jyutping_and_pinyin_not_english() {
    for lang in LANGS {
        for p in samples() {
            let out = Command::new("espeak-ng")
                .args(["-q", "-x", "-v", voice(lang), p.speak(lang)])
                .output()
                .unwrap();
            let phonemes = String::from_utf8_lossy(&out.stdout);
            assert!(
                !phonemes.contains("(en)"),
                "{lang:?} reads {:?} with English rules: {phonemes}",
                p.speak(lang)
            );
        }
    }
}
