//! Sound out through cpal: one output stream kept open, mixing any number of tracks
//! (speech and earcons), each of which can be stopped at once. Keeping the stream open is
//! what makes a new sound start within one callback period instead of a device open.
//!
//! The mixer also taps what it writes (for the game recording) and notes, per track, the
//! instant its first sample was written: the latency figure of `examples/latency.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};

use crate::pcm::Pcm;
use crate::recording::Tap;

/// A sound handed to [`Output::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrackId(u64);

/// Where a track is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackState {
    /// Handed over, no sample written yet.
    Queued,
    /// Samples being written; the first one at that instant.
    Playing(Instant),
    /// Every sample written (first at `.0`) or stopped.
    Done(Option<Instant>),
    /// Unknown id (finished long ago).
    Unknown,
}

/// Why the output could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// No such device (cpal's id form: `alsa:wavtap`).
    #[error("no audio output device {0:?}")]
    NoDevice(String),
    /// cpal refused.
    #[error("audio output: {0}")]
    Cpal(String),
}

/// A sound still arriving (speech streamed from a synthesizer), at the device rate.
#[derive(Debug, Default)]
struct Growing {
    samples: Vec<f32>,
    complete: bool,
}

enum Samples {
    Fixed(Arc<[f32]>),
    Stream(Arc<Mutex<Growing>>),
}

struct Playing {
    samples: Samples,
    pos: usize,
    first: Option<Instant>,
}

impl Playing {
    /// Adds the next samples into `out`; returns whether the sound is over.
    fn mix_into(&mut self, out: &mut [f32], now: Instant) -> bool {
        let mut add = |src: &[f32], pos: &mut usize, first: &mut Option<Instant>| {
            let n = src.len().saturating_sub(*pos).min(out.len());
            if n > 0 && first.is_none() {
                *first = Some(now);
            }
            for (o, s) in out.iter_mut().zip(&src[*pos..*pos + n]) {
                *o += s;
            }
            *pos += n;
            *pos >= src.len()
        };
        match &self.samples {
            Samples::Fixed(src) => add(src, &mut self.pos, &mut self.first),
            Samples::Stream(g) => {
                let g = g.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                // Not yet arrived is not over: an underrun is silence, not the end.
                add(&g.samples, &mut self.pos, &mut self.first) && g.complete
            }
        }
    }
}

/// Feeds a streamed track ([`Output::play_stream`]); the track ends once every sample
/// pushed has played and the writer is finished or dropped.
pub struct StreamWriter {
    growing: Arc<Mutex<Growing>>,
    resampler: crate::pcm::Resampler,
    device_rate: u32,
    buf: Vec<f32>,
}

impl StreamWriter {
    /// The rate of the samples pushed from now on (before the first push).
    pub fn set_rate(&mut self, rate: u32) {
        self.resampler = crate::pcm::Resampler::new(rate, self.device_rate);
    }

    /// Appends samples.
    pub fn push(&mut self, samples: &[f32]) {
        self.buf.clear();
        self.resampler.process(samples, &mut self.buf);
        let mut g = self
            .growing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        g.samples.extend_from_slice(&self.buf);
    }

    /// No more samples.
    pub fn finish(self) {}
}

impl Drop for StreamWriter {
    fn drop(&mut self) {
        self.growing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .complete = true;
    }
}

#[derive(Default)]
struct Mixer {
    playing: HashMap<u64, Playing>,
    /// Finished tracks: first-sample instant, kept for [`Output::state`].
    done: HashMap<u64, Option<Instant>>,
    next: u64,
    tap: Option<Tap>,
    /// Whether the previous callback's samples went to the tap.
    tapped: bool,
    /// The device rate (for the tap).
    rate: u32,
}

impl Mixer {
    /// Mixes the next mono samples into `out` (and the tap); returns whether any sound
    /// was playing.
    fn mix(&mut self, out: &mut [f32], now: Instant) -> bool {
        out.fill(0.0);
        let active = !self.playing.is_empty();
        let mut finished = Vec::new();
        for (&id, t) in &mut self.playing {
            if t.mix_into(out, now) {
                finished.push(id);
            }
        }
        for id in finished {
            if let Some(t) = self.playing.remove(&id) {
                self.done.insert(id, t.first.or(Some(now)));
            }
        }
        for o in out.iter_mut() {
            *o = o.clamp(-1.0, 1.0);
        }
        // While sounds play, every callback goes to the tap (their silences included);
        // between sounds nothing does, and the next sound is placed by its time.
        if let Some(tap) = &self.tap {
            if active {
                tap.push(now, self.rate, out, self.tapped);
            }
            self.tapped = active;
        }
        active
    }
}

/// An open output stream and its mixer.
pub struct Output {
    mixer: Arc<Mutex<Mixer>>,
    rate: u32,
    device: String,
    _stream: cpal::Stream,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Output({} at {} Hz)", self.device, self.rate)
    }
}

fn lock(m: &Mutex<Mixer>) -> MutexGuard<'_, Mixer> {
    // A panicking callback must not silence the table: take the mixer as it is.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Output {
    /// Opens `device` (cpal's `host:name` form, e.g. `alsa:wavtap`), or the default output.
    pub fn open(device: Option<&str>) -> Result<Output, OutputError> {
        let host = cpal::default_host();
        let dev = match device {
            Some(name) => {
                let id = name
                    .parse()
                    .map_err(|e: cpal::Error| OutputError::Cpal(e.to_string()))?;
                host.device_by_id(&id)
                    .ok_or_else(|| OutputError::NoDevice(name.to_owned()))?
            }
            None => host
                .default_output_device()
                .ok_or_else(|| OutputError::NoDevice("default".to_owned()))?,
        };
        let supported = dev
            .default_output_config()
            .map_err(|e| OutputError::Cpal(e.to_string()))?;
        let format = supported.sample_format();
        let mut config = supported.config();
        // About 10 ms per callback where the device lets us choose: a new sound waits at
        // most one callback (the device's default can be 100 ms or more).
        if let cpal::SupportedBufferSize::Range { min, max } = *supported.buffer_size() {
            config.buffer_size =
                cpal::BufferSize::Fixed((config.sample_rate / 100).clamp(min, max));
        }
        let mixer = Arc::new(Mutex::new(Mixer {
            rate: config.sample_rate,
            ..Mixer::default()
        }));
        let open = |config: &cpal::StreamConfig| match format {
            SampleFormat::F32 => build::<f32>(&dev, config, mixer.clone()),
            SampleFormat::I16 => build::<i16>(&dev, config, mixer.clone()),
            SampleFormat::I32 => build::<i32>(&dev, config, mixer.clone()),
            SampleFormat::U16 => build::<u16>(&dev, config, mixer.clone()),
            SampleFormat::U8 => build::<u8>(&dev, config, mixer.clone()),
            other => Err(OutputError::Cpal(format!(
                "sample format {other} not handled"
            ))),
        };
        // A device that lists a range but refuses the size gets its own default.
        let stream = open(&config).or_else(|_| {
            config.buffer_size = cpal::BufferSize::Default;
            open(&config)
        })?;
        stream
            .play()
            .map_err(|e| OutputError::Cpal(e.to_string()))?;
        Ok(Output {
            mixer,
            rate: config.sample_rate,
            device: device.unwrap_or("default").to_owned(),
            _stream: stream,
        })
    }

    /// The device's sample rate.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Starts a sound now (mixed with whatever plays); resampled to the device rate.
    pub fn play(&self, pcm: &Pcm) -> TrackId {
        let samples: Arc<[f32]> = pcm.resampled(self.rate).samples.into();
        self.add(Samples::Fixed(samples))
    }

    /// Starts a sound whose samples (at `rate` Hz) are still to come: it plays as they
    /// arrive, so speech is heard while the synthesizer is still working.
    pub fn play_stream(&self, rate: u32) -> (TrackId, StreamWriter) {
        let growing = Arc::new(Mutex::new(Growing::default()));
        let id = self.add(Samples::Stream(growing.clone()));
        let writer = StreamWriter {
            growing,
            resampler: crate::pcm::Resampler::new(rate, self.rate),
            device_rate: self.rate,
            buf: Vec::new(),
        };
        (id, writer)
    }

    fn add(&self, samples: Samples) -> TrackId {
        let mut m = lock(&self.mixer);
        m.next += 1;
        let id = m.next;
        m.playing.insert(
            id,
            Playing {
                samples,
                pos: 0,
                first: None,
            },
        );
        TrackId(id)
    }

    /// Stops a sound at once (no-op when it is over).
    pub fn stop(&self, id: TrackId) {
        let mut m = lock(&self.mixer);
        if let Some(t) = m.playing.remove(&id.0) {
            m.done.insert(id.0, t.first);
        }
    }

    /// Where a sound is.
    pub fn state(&self, id: TrackId) -> TrackState {
        let m = lock(&self.mixer);
        if let Some(t) = m.playing.get(&id.0) {
            t.first.map_or(TrackState::Queued, TrackState::Playing)
        } else if let Some(first) = m.done.get(&id.0) {
            TrackState::Done(*first)
        } else {
            TrackState::Unknown
        }
    }

    /// Whether a sound still has samples to write.
    pub fn is_active(&self, id: TrackId) -> bool {
        matches!(self.state(id), TrackState::Queued | TrackState::Playing(_))
    }

    /// Sends everything written from now on (mono, device rate) to `tap` as well.
    pub fn set_tap(&self, tap: Option<Tap>) {
        lock(&self.mixer).tap = tap;
    }
}

fn build<T>(
    dev: &cpal::Device,
    config: &cpal::StreamConfig,
    mixer: Arc<Mutex<Mixer>>,
) -> Result<cpal::Stream, OutputError>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels.max(1));
    let rate = config.sample_rate;
    let mut mono: Vec<f32> = Vec::new();
    let mut pace = Pace::new(rate);
    dev.build_output_stream(
        *config,
        move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
            pace.wait(data.len() / channels);
            let now = Instant::now();
            mono.resize(data.len() / channels, 0.0);
            lock(&mixer).mix(&mut mono, now);
            for (frame, s) in data.chunks_mut(channels).zip(&mono) {
                frame.fill(T::from_sample(*s));
            }
        },
        |e| eprintln!("baoqi-audio: output stream error: {e}"),
        None,
    )
    .map_err(|e| OutputError::Cpal(e.to_string()))
}

/// Keeps a device that takes samples faster than it could play them (ALSA's `null`, under
/// the `wavtap` file PCM of the tests) to real time, by sleeping in the callback once it is
/// more than [`Pace::AHEAD`] ahead of the wall clock. A real device takes samples at its
/// own clock, stays within its buffer of the wall clock and never waits here.
struct Pace {
    rate: u32,
    start: Option<Instant>,
    frames: u64,
}

impl Pace {
    /// How far ahead of real time a device may run before the callback waits.
    const AHEAD: Duration = Duration::from_millis(30);
    /// Where the wait brings it back to.
    const LEAD: Duration = Duration::from_millis(20);

    fn new(rate: u32) -> Pace {
        Pace {
            rate,
            start: None,
            frames: 0,
        }
    }

    /// Before writing `frames` more: waits while the samples written so far are more than
    /// [`Pace::AHEAD`] ahead of the time since the first callback.
    fn wait(&mut self, frames: usize) {
        let start = *self.start.get_or_insert_with(Instant::now);
        let written = Duration::from_secs_f64(self.frames as f64 / f64::from(self.rate.max(1)));
        let elapsed = start.elapsed();
        if written > elapsed + Self::AHEAD {
            std::thread::sleep(written.saturating_sub(elapsed + Self::LEAD));
        }
        self.frames += frames as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mixer_adds_tracks_and_notes_first_samples() {
        let mut m = Mixer::default();
        for (id, v) in [(1, 0.25_f32), (2, 0.5)] {
            m.playing.insert(
                id,
                Playing {
                    samples: Samples::Fixed(vec![v; 3].into()),
                    pos: 0,
                    first: None,
                },
            );
        }
        let mut out = vec![9.0; 4];
        let t = Instant::now();
        assert!(m.mix(&mut out, t));
        assert_eq!(out, vec![0.75, 0.75, 0.75, 0.0]);
        assert!(m.playing.is_empty());
        assert_eq!(m.done.get(&1), Some(&Some(t)));
        assert!(!m.mix(&mut out, t));
    }

    #[test]
    fn a_stream_underrun_is_silence_and_the_track_ends_when_finished() {
        let mut m = Mixer::default();
        let g = Arc::new(Mutex::new(Growing::default()));
        m.playing.insert(
            1,
            Playing {
                samples: Samples::Stream(g.clone()),
                pos: 0,
                first: None,
            },
        );
        let mut out = vec![0.0; 4];
        let t = Instant::now();
        assert!(m.mix(&mut out, t));
        assert_eq!(out, [0.0; 4]);
        assert!(
            m.playing.contains_key(&1),
            "waiting for samples is not the end"
        );
        g.lock().unwrap().samples.extend([0.5, 0.5]);
        assert!(m.mix(&mut out, t));
        assert_eq!(out, [0.5, 0.5, 0.0, 0.0]);
        assert!(m.playing.contains_key(&1));
        g.lock().unwrap().complete = true;
        m.mix(&mut out, t);
        assert!(!m.playing.contains_key(&1));
    }
}
