//! Earcons: short synthesized tones that say what happened before (or instead of) words.
//! Each is a sequence of [`Tone`]s; the table is documented in `docs/audio.md`, which a test
//! keeps in step with [`Earcon::tones`].
//!
//! They are told apart by pitch *and* rhythm, so that a player with a hearing loss in one
//! range still tells them apart: one high tick, a rising pair, a falling triple, a low buzz,
//! three fast high beeps.

use crate::pcm::Pcm;

/// One tone of an earcon: a sine (plus odd harmonics for a buzz) with 5 ms fades.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tone {
    /// Pitch in Hz.
    pub freq: f32,
    /// Length in milliseconds.
    pub ms: u32,
    /// Silence after it, in milliseconds.
    pub gap_ms: u32,
    /// Odd harmonics added (0: pure sine; 3: a buzz).
    pub harmonics: u32,
}

const fn tone(freq: f32, ms: u32, gap_ms: u32) -> Tone {
    Tone {
        freq,
        ms,
        gap_ms,
        harmonics: 0,
    }
}

const CLOCK_PRESS: &[Tone] = &[tone(1000.0, 40, 0)];
const KEY: &[Tone] = &[tone(1760.0, 15, 0)];
const TOUCHED: &[Tone] = &[tone(523.25, 90, 0)];
const OPPONENT_MOVED: &[Tone] = &[tone(659.25, 70, 30), tone(880.0, 70, 0)];
const ERROR: &[Tone] = &[Tone {
    freq: 220.0,
    ms: 250,
    gap_ms: 0,
    harmonics: 3,
}];
const ALERT: &[Tone] = &[
    tone(1318.5, 80, 60),
    tone(1318.5, 80, 60),
    tone(1318.5, 80, 0),
];
const CARD: &[Tone] = &[tone(587.33, 200, 0)];
const GAME_END: &[Tone] = &[
    tone(783.99, 150, 20),
    tone(523.25, 150, 20),
    tone(392.0, 300, 0),
];

/// What an earcon means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Earcon {
    /// A clock was pressed (one's own or the opponent's).
    ClockPress,
    /// The key was taken (a word accepted), before its echo.
    Key,
    /// The first two words touched a piece.
    Touched,
    /// The opponent's move is complete (the reading follows).
    OpponentMoved,
    /// Error: impossible word, rejected command, violation.
    Error,
    /// Time alert (a threshold of 6.6 / 7.7 crossed), before the times are read.
    Alert,
    /// A draw offer or another card of the opponent.
    Card,
    /// The game is over.
    GameEnd,
}

impl Earcon {
    /// Every earcon.
    pub const ALL: [Earcon; 8] = [
        Earcon::ClockPress,
        Earcon::Key,
        Earcon::Touched,
        Earcon::OpponentMoved,
        Earcon::Error,
        Earcon::Alert,
        Earcon::Card,
        Earcon::GameEnd,
    ];

    /// Its tones.
    pub const fn tones(self) -> &'static [Tone] {
        match self {
            Earcon::ClockPress => CLOCK_PRESS,
            Earcon::Key => KEY,
            Earcon::Touched => TOUCHED,
            Earcon::OpponentMoved => OPPONENT_MOVED,
            Earcon::Error => ERROR,
            Earcon::Alert => ALERT,
            Earcon::Card => CARD,
            Earcon::GameEnd => GAME_END,
        }
    }

    /// Its meaning, as in `docs/audio.md`.
    pub const fn meaning(self) -> &'static str {
        match self {
            Earcon::ClockPress => "clock pressed",
            Earcon::Key => "key taken",
            Earcon::Touched => "piece touched",
            Earcon::OpponentMoved => "opponent moved",
            Earcon::Error => "error / impossible / violation",
            Earcon::Alert => "time alert",
            Earcon::Card => "card of the opponent (draw offer, resignation)",
            Earcon::GameEnd => "game over",
        }
    }

    /// Its length in milliseconds, gaps included.
    pub fn ms(self) -> u32 {
        self.tones().iter().map(|t| t.ms + t.gap_ms).sum()
    }

    /// Its sound at `rate` Hz, peak amplitude 0.4.
    pub fn pcm(self, rate: u32) -> Pcm {
        let mut samples = Vec::new();
        for t in self.tones() {
            samples.extend(synth(t, rate));
            samples.extend(std::iter::repeat_n(0.0, (t.gap_ms * rate / 1000) as usize));
        }
        Pcm { rate, samples }
    }
}

fn synth(t: &Tone, rate: u32) -> Vec<f32> {
    let n = (t.ms * rate / 1000) as usize;
    let fade = ((rate / 200) as usize).min(n / 2).max(1);
    let norm: f32 = (0..=t.harmonics).map(|h| 1.0 / (2 * h + 1) as f32).sum();
    (0..n)
        .map(|i| {
            let x = i as f32 / rate as f32 * t.freq * std::f32::consts::TAU;
            let v: f32 = (0..=t.harmonics)
                .map(|h| {
                    let k = (2 * h + 1) as f32;
                    (x * k).sin() / k
                })
                .sum::<f32>()
                / norm;
            let env = (i.min(n - 1 - i) as f32 / fade as f32).min(1.0);
            0.4 * v * env
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcm::loud_spans;

    /// Pitch by zero crossings of the loudest span.
    fn pitch(samples: &[f32], rate: u32) -> f32 {
        let crossings = samples
            .windows(2)
            .filter(|w| w[0] < 0.0 && w[1] >= 0.0)
            .count();
        crossings as f32 * rate as f32 / samples.len() as f32
    }

    #[test]
    fn each_earcon_has_its_documented_length_pitch_and_rhythm() {
        let rate = 48_000;
        for e in Earcon::ALL {
            let p = e.pcm(rate);
            let ms = p.samples.len() as u32 * 1000 / rate;
            assert!(ms.abs_diff(e.ms()) <= 1, "{e:?}: {ms} ms");
            let spans = loud_spans(&p.samples, rate, 0.02);
            assert_eq!(spans.len(), e.tones().len(), "{e:?}: {spans:?}");
            for ((a, b), t) in spans.iter().zip(e.tones()) {
                let f = pitch(&p.samples[*a..*b], rate);
                if t.harmonics == 0 {
                    assert!((f - t.freq).abs() / t.freq < 0.1, "{e:?}: {f} Hz");
                }
            }
        }
    }

    #[test]
    fn earcons_are_distinct_and_short() {
        for (i, a) in Earcon::ALL.iter().enumerate() {
            assert!(a.ms() <= 700, "{a:?} too long for an earcon");
            for b in &Earcon::ALL[i + 1..] {
                assert_ne!(a.tones(), b.tones(), "{a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn docs_audio_md_lists_every_earcon_as_built() {
        let doc = include_str!("../../docs/audio.md");
        for e in Earcon::ALL {
            let row = format!("| `{e:?}` |");
            let line = doc
                .lines()
                .find(|l| l.starts_with(&row))
                .unwrap_or_else(|| panic!("docs/audio.md has no row for {e:?}"));
            for t in e.tones() {
                assert!(
                    line.contains(&format!("{}", t.freq.round())),
                    "{e:?} {line}"
                );
            }
            assert!(line.contains(&format!("{} ms", e.ms())), "{e:?}: {line}");
        }
    }
}
