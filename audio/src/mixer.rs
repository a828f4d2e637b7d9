//! The recording's writer thread: chunks of every source (speech, earcons, the microphone)
//! placed on one timeline and mixed into a window that trails the newest one; what falls
//! behind the window is written to the WAV.
//!
//! A continuous source (callback after callback) keeps its own clock: its sample count
//! places it, whatever the jitter or burstiness of its callbacks, and one resampler per
//! source keeps the phase across chunks (no click at every callback). Only a real gap (an
//! overrun, 50 ms or more late) moves it forward; a source that runs ahead of the wall
//! clock (a device without a clock of its own) is cut, not allowed to stretch the game.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Instant;

use crate::pcm::Resampler;
use crate::recording::{RATE, RecordError};

/// How far behind the newest chunk samples are kept open for mixing before being written.
const MIX_WINDOW: u64 = RATE as u64 * 2;

/// How far (in samples) a continuous source may run ahead of the wall clock.
const AHEAD_LIMIT: u64 = RATE as u64 / 2;

/// How late (in samples) a continuous source's chunk must come to count as a gap.
const GAP: u64 = RATE as u64 / 20;

/// Samples of one source, stamped with the instant they were captured or played.
pub(crate) struct Chunk {
    /// Which source (the end marker is `u32::MAX`).
    pub(crate) source: u32,
    /// Whether it follows the source's previous chunk without a break.
    pub(crate) continues: bool,
    /// When its first sample was heard.
    pub(crate) at: Instant,
    /// Its sample rate.
    pub(crate) rate: u32,
    /// Mono samples.
    pub(crate) samples: Vec<f32>,
}

/// What the writer wrote: samples, and samples dropped for running ahead of the clock.
pub(crate) struct Written {
    /// Samples in the WAV.
    pub(crate) samples: u64,
    /// Samples of a source cut for running ahead of the wall clock.
    pub(crate) ahead_dropped: u64,
}

type Writer = hound::WavWriter<std::io::BufWriter<std::fs::File>>;

/// Where a source's next sample goes, and its resampler.
struct Source {
    next: u64,
    rate: u32,
    resampler: Resampler,
}

/// The timeline of every source and the window still open for mixing.
struct Mix {
    started: Instant,
    written: u64,
    window: Vec<f32>,
    sources: HashMap<u32, Source>,
    ahead_dropped: u64,
}

impl Mix {
    /// The sample of the recording at an instant.
    fn position(&self, at: Instant) -> u64 {
        (at.saturating_duration_since(self.started).as_secs_f64() * f64::from(RATE)) as u64
    }

    /// Where the chunk goes and its samples at [`RATE`], or `None` when it is cut.
    fn place(&mut self, chunk: &Chunk) -> Option<(u64, Vec<f32>)> {
        let wall = self.position(chunk.at);
        let known = self
            .sources
            .get(&chunk.source)
            .filter(|s| chunk.continues && s.rate == chunk.rate && wall < s.next + GAP);
        let (at, mut resampler) = match known {
            Some(s) => (s.next, s.resampler.clone()),
            None => (wall, Resampler::new(chunk.rate, RATE)),
        };
        let mut samples = Vec::with_capacity(chunk.samples.len() * RATE as usize / 8_000 + 1);
        resampler.process(&chunk.samples, &mut samples);
        if at > wall + AHEAD_LIMIT {
            self.ahead_dropped += samples.len() as u64;
            return None;
        }
        self.sources.insert(
            chunk.source,
            Source {
                next: at + samples.len() as u64,
                rate: chunk.rate,
                resampler,
            },
        );
        Some((at, samples))
    }

    /// Adds samples at `at` (those already written are too late and left out).
    fn add(&mut self, at: u64, samples: &[f32]) {
        self.extend_to(at + samples.len() as u64);
        let skip = self.written.saturating_sub(at) as usize;
        for (i, s) in samples.iter().enumerate().skip(skip) {
            self.window[(at + i as u64 - self.written) as usize] += s;
        }
    }

    fn extend_to(&mut self, end: u64) {
        if end > self.written + self.window.len() as u64 {
            self.window.resize((end - self.written) as usize, 0.0);
        }
    }

    /// Writes out what fell behind the mixing window.
    fn spill(&mut self, writer: &mut Writer) -> Result<(), hound::Error> {
        if self.window.len() as u64 > MIX_WINDOW {
            let n = self.window.len() - MIX_WINDOW as usize;
            flush(writer, &self.window[..n])?;
            self.window.drain(..n);
            self.written += n as u64;
        }
        Ok(())
    }
}

/// Mixes chunks until the end marker (or every sender is gone), then writes the rest.
pub(crate) fn write_loop(
    rx: &mpsc::Receiver<Chunk>,
    mut writer: Writer,
    started: Instant,
) -> Result<Written, RecordError> {
    let mut mix = Mix {
        started,
        written: 0,
        window: Vec::new(),
        sources: HashMap::new(),
        ahead_dropped: 0,
    };
    while let Ok(chunk) = rx.recv() {
        if chunk.source == u32::MAX {
            // The end: the WAV lasts until the moment the recording was finished.
            mix.extend_to(mix.position(chunk.at));
            break;
        }
        if let Some((at, samples)) = mix.place(&chunk) {
            mix.add(at, &samples);
            mix.spill(&mut writer)?;
        }
    }
    flush(&mut writer, &mix.window)?;
    writer.finalize()?;
    Ok(Written {
        samples: mix.written + mix.window.len() as u64,
        ahead_dropped: mix.ahead_dropped,
    })
}

fn flush(writer: &mut Writer, samples: &[f32]) -> Result<(), hound::Error> {
    for s in samples {
        writer.write_sample((s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Mixes `chunks` (instant offset in ms, samples at 48 kHz) of one continuous source.
    fn mixed(chunks: &[(u64, Vec<f32>)]) -> (Vec<f32>, Written) {
        let path = std::env::temp_dir().join(format!(
            "baoqi-mixer-{}-{}.wav",
            std::process::id(),
            chunks.len()
        ));
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let writer = hound::WavWriter::create(&path, spec).unwrap();
        let started = Instant::now();
        let (tx, rx) = mpsc::channel();
        for (i, (ms, samples)) in chunks.iter().enumerate() {
            tx.send(Chunk {
                source: 1,
                continues: i > 0,
                at: started + Duration::from_millis(*ms),
                rate: 48_000,
                samples: samples.clone(),
            })
            .unwrap();
        }
        drop(tx);
        let written = write_loop(&rx, writer, started).unwrap();
        let samples = hound::WavReader::open(&path)
            .unwrap()
            .samples::<i16>()
            .map(|s| f32::from(s.unwrap()) / f32::from(i16::MAX))
            .collect();
        std::fs::remove_file(&path).unwrap();
        (samples, written)
    }

    fn sine(from: usize, n: usize) -> Vec<f32> {
        (from..from + n)
            .map(|i| 0.5 * (i as f32 * 440.0 * std::f32::consts::TAU / 48_000.0).sin())
            .collect()
    }

    #[test]
    fn a_jittery_microphone_stays_one_smooth_tone() {
        // 1024-sample callbacks whose stamps wobble by ±15 ms: placed by their own count,
        // resampled with the phase kept, the tone has no step anywhere.
        let chunks: Vec<(u64, Vec<f32>)> = (0..40)
            .map(|k| {
                let ms = (k * 1024 * 1000 / 48_000) as u64 + [0, 15, 3, 11][k % 4];
                (ms, sine(k * 1024, 1024))
            })
            .collect();
        let (out, written) = mixed(&chunks);
        let steepest = 0.5 * 440.0 * std::f32::consts::TAU / RATE as f32;
        let worst = out
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        assert!(
            worst < steepest * 1.1,
            "a step of {worst} (a sine's steepest {steepest})"
        );
        assert_eq!(written.ahead_dropped, 0);
        let expected = 40 * 1024 * RATE as usize / 48_000;
        assert!(
            out.len().abs_diff(expected) < 5,
            "{} vs {expected}",
            out.len()
        );
    }

    #[test]
    fn a_source_faster_than_the_clock_is_cut_not_stretched() {
        // Five seconds of samples delivered within 100 ms: half a second is kept ahead of
        // the clock, the rest is counted as dropped.
        let chunks: Vec<(u64, Vec<f32>)> = (0..235)
            .map(|k| ((k as u64 * 100) / 235, sine(k * 1024, 1024)))
            .collect();
        let (out, written) = mixed(&chunks);
        let secs = out.len() as f64 / f64::from(RATE);
        assert!(secs < 0.75, "{secs:.2} s written");
        assert!(
            written.ahead_dropped > u64::from(RATE) * 4,
            "{}",
            written.ahead_dropped
        );
    }
}
