//! Mono PCM in memory: reading WAV bytes (hound), resampling, and the loudness measures the
//! tests use to tell speech from silence.

use std::io::Cursor;

/// Mono samples in -1.0..=1.0 at a sample rate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pcm {
    /// Samples per second.
    pub rate: u32,
    /// The samples.
    pub samples: Vec<f32>,
}

/// Why WAV bytes could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// hound could not read the bytes.
    #[error("bad WAV: {0}")]
    Hound(#[from] hound::Error),
}

impl Pcm {
    /// Reads a WAV (any channel count: channels are averaged to mono; integer or float).
    ///
    /// A WAV streamed to a pipe (`espeak-ng --stdout`) has no final length in its header:
    /// the data chunk's size is patched to the bytes actually present before reading.
    pub fn from_wav_bytes(bytes: &[u8]) -> Result<Pcm, WavError> {
        let fixed = fix_streamed_sizes(bytes);
        let mut reader = hound::WavReader::new(Cursor::new(fixed.as_ref()))?;
        let spec = reader.spec();
        let channels = usize::from(spec.channels.max(1));
        let interleaved: Vec<f32> = match spec.sample_format {
            hound::SampleFormat::Float => reader.samples::<f32>().collect::<Result<_, _>>()?,
            hound::SampleFormat::Int => {
                let scale = 1.0 / (1_i64 << (spec.bits_per_sample - 1)) as f32;
                reader
                    .samples::<i32>()
                    .map(|s| s.map(|v| v as f32 * scale))
                    .collect::<Result<_, _>>()?
            }
        };
        let samples = interleaved
            .chunks(channels)
            .map(|frame| frame.iter().sum::<f32>() / channels as f32)
            .collect();
        Ok(Pcm {
            rate: spec.sample_rate,
            samples,
        })
    }

    /// Reads a WAV file.
    pub fn from_wav_file(path: &std::path::Path) -> Result<Pcm, WavError> {
        let bytes = std::fs::read(path).map_err(hound::Error::IoError)?;
        Pcm::from_wav_bytes(&bytes)
    }

    /// How long it plays.
    pub fn duration(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.samples.len() as f64 / f64::from(self.rate.max(1)))
    }

    /// The same sound at another rate (linear interpolation: plenty for speech and tones).
    #[must_use]
    pub fn resampled(&self, rate: u32) -> Pcm {
        Pcm {
            rate,
            samples: resample(&self.samples, self.rate, rate),
        }
    }

    /// Root mean square of all samples (0 for silence).
    pub fn rms(&self) -> f32 {
        rms(&self.samples)
    }
}

/// `samples` at `from` Hz, resampled to `to` Hz by linear interpolation.
pub fn resample(samples: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to || samples.is_empty() || from == 0 {
        return samples.to_vec();
    }
    let ratio = f64::from(from) / f64::from(to);
    let count = (samples.len() as f64 / ratio).floor() as usize;
    let last = samples.len() - 1;
    (0..count)
        .map(|out| {
            let at = out as f64 * ratio;
            let idx = at as usize;
            let frac = (at - idx as f64) as f32;
            let here = samples[idx.min(last)];
            let next = samples[(idx + 1).min(last)];
            here + (next - here) * frac
        })
        .collect()
}

/// Linear resampling of a stream that arrives in chunks, keeping the phase across them.
#[derive(Clone, Debug)]
pub struct Resampler {
    ratio: f64,
    /// Position of the next output sample, in input samples from the current chunk's start
    /// (-1 means the last sample of the previous chunk).
    pos: f64,
    prev: f32,
}

impl Resampler {
    /// From `from` Hz to `to` Hz.
    pub fn new(from: u32, to: u32) -> Resampler {
        Resampler {
            ratio: f64::from(from.max(1)) / f64::from(to.max(1)),
            pos: 0.0,
            prev: 0.0,
        }
    }

    /// Appends to `out` the output samples that `input` completes.
    pub fn process(&mut self, input: &[f32], out: &mut Vec<f32>) {
        let n = input.len();
        if n == 0 {
            return;
        }
        let get = |i: isize| if i < 0 { self.prev } else { input[i as usize] };
        while self.pos + 1.0 < n as f64 {
            let i = self.pos.floor();
            let frac = (self.pos - i) as f32;
            let (a, b) = (get(i as isize), get(i as isize + 1));
            out.push(a + (b - a) * frac);
            self.pos += self.ratio;
        }
        self.pos -= n as f64;
        self.prev = input[n - 1];
    }
}

/// Root mean square of `samples`.
pub fn rms(samples: &[f32]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}

/// The spans of `samples` louder than `threshold` RMS over 10 ms windows, as (start, end)
/// sample indices: where something was heard.
pub fn loud_spans(samples: &[f32], rate: u32, threshold: f32) -> Vec<(usize, usize)> {
    let window = (rate / 100).max(1) as usize;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (i, chunk) in samples.chunks(window).enumerate() {
        if rms(chunk) > threshold {
            let (start, end) = (i * window, i * window + chunk.len());
            match spans.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => spans.push((start, end)),
            }
        }
    }
    spans
}

/// Patches the RIFF and `data` sizes of a streamed WAV (written as 0 or 0xFFFFFFFF) to the
/// bytes present; other WAVs are returned unchanged.
fn fix_streamed_sizes(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let Some(data_at) = bytes.windows(4).position(|w| w == b"data") else {
        return bytes.into();
    };
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || data_at + 8 > bytes.len() {
        return bytes.into();
    }
    let declared = u32::from_le_bytes(bytes[data_at + 4..data_at + 8].try_into().unwrap_or([0; 4]));
    let present = (bytes.len() - data_at - 8) as u32;
    let present = present - present % 2;
    if declared == present {
        return bytes.into();
    }
    let mut fixed = bytes[..data_at + 8 + present as usize].to_vec();
    let riff = fixed.len() as u32 - 8;
    fixed[4..8].copy_from_slice(&riff.to_le_bytes());
    fixed[data_at + 4..data_at + 8].copy_from_slice(&present.to_le_bytes());
    fixed.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(samples: &[i16], rate: u32, streamed: bool) -> Vec<u8> {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut buf = Cursor::new(Vec::new());
        let mut w = hound::WavWriter::new(&mut buf, spec).unwrap();
        for &s in samples {
            w.write_sample(s).unwrap();
        }
        w.finalize().unwrap();
        let mut bytes = buf.into_inner();
        if streamed {
            let at = bytes.windows(4).position(|w| w == b"data").unwrap();
            bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
            bytes[at + 4..at + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn reads_a_wav_and_a_streamed_wav_alike() {
        let samples: Vec<i16> = (0..1000).map(|i| (i * 30) as i16).collect();
        let a = Pcm::from_wav_bytes(&wav(&samples, 22050, false)).unwrap();
        let b = Pcm::from_wav_bytes(&wav(&samples, 22050, true)).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.rate, a.samples.len()), (22050, 1000));
        assert!((a.samples[999] - 29970.0 / 32768.0).abs() < 1e-6);
    }

    #[test]
    fn resampling_keeps_the_duration() {
        let p = Pcm {
            rate: 22050,
            samples: vec![0.5; 22050],
        };
        let q = p.resampled(48000);
        assert_eq!(q.samples.len(), 48000);
        assert!((q.rms() - 0.5).abs() < 1e-6);
    }

    #[test]
    fn chunked_resampling_equals_resampling_at_once() {
        let input: Vec<f32> = (0..1000).map(|i| (i as f32 * 0.05).sin()).collect();
        let whole = resample(&input, 22050, 48000);
        let mut r = Resampler::new(22050, 48000);
        let mut chunked = Vec::new();
        for c in input.chunks(37) {
            r.process(c, &mut chunked);
        }
        assert!(
            whole.len().abs_diff(chunked.len()) <= 2,
            "{} {}",
            whole.len(),
            chunked.len()
        );
        for (a, b) in whole.iter().zip(&chunked) {
            assert!((a - b).abs() < 1e-4);
        }
    }

    #[test]
    fn loud_spans_find_the_sound() {
        let mut s = vec![0.0; 1000];
        s.extend(vec![0.3; 500]);
        s.extend(vec![0.0; 1000]);
        assert_eq!(loud_spans(&s, 10_000, 0.01), vec![(1000, 1500)]);
    }
}
