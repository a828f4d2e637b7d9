//! Game recording (建議每局對賽設錄音設備, 附表七 6.1(4), 7.1(1)(c)): one mono WAV per game of
//! everything the table's [`crate::Output`] played (speech and earcons) mixed with the
//! microphone where there is one, time-aligned with the game's event log.
//!
//! Alignment: the recorder is started with the event-log time of its first sample
//! ([`RecordingMeta::event_log_offset_ms`]); a sound written at instant `t` lands at sample
//! `(t - start) × rate`. The metadata is written beside the WAV as `<file>.json`.
//! Sources push chunks through a [`Tap`] without blocking (a real-time audio callback must
//! never wait); a chunk that finds the queue full is counted in
//! [`RecordingMeta::dropped_chunks`], never lost silently.
//!
//! The microphone ([`Microphone`], cpal input) is absent on a machine without a sound card:
//! opening fails with a message and the recording goes on without it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};

use crate::mixer::{Chunk, Written, write_loop};

/// The sample rate of recordings (espeak-ng's own rate: speech is not resampled twice).
pub const RATE: u32 = 22_050;

/// How many chunks may wait for the writer before new ones are counted as dropped.
const QUEUE: usize = 1024;

/// A handle that feeds a recording; cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct Tap {
    source: u32,
    tx: mpsc::SyncSender<Chunk>,
    dropped: Arc<AtomicU64>,
}

impl Tap {
    /// Adds `samples` (mono, `rate` Hz) whose first sample sounded at `at`. `continues`:
    /// they follow this source's previous chunk without a break (callback after callback),
    /// so they are placed right after it, whatever the jitter of `at`; otherwise `at` alone
    /// places them.
    pub fn push(&self, at: Instant, rate: u32, samples: &[f32], continues: bool) {
        let chunk = Chunk {
            source: self.source,
            continues,
            at,
            rate,
            samples: samples.to_vec(),
        };
        if self.tx.try_send(chunk).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The same recording, as a separate source (its chunks are kept contiguous apart).
    #[must_use]
    pub fn source(&self, source: u32) -> Tap {
        Tap {
            source,
            ..self.clone()
        }
    }
}

/// What a finished recording is and how it lines up with the event log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingMeta {
    /// The game.
    pub game: String,
    /// The WAV file.
    pub wav: PathBuf,
    /// Its sample rate.
    pub rate: u32,
    /// Its length in samples.
    pub samples: u64,
    /// Wall-clock time of sample 0, milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// Event-log time (ms since the game's log began) of sample 0: an event logged at `T`
    /// is heard at `T - event_log_offset_ms` into the WAV.
    pub event_log_offset_ms: u64,
    /// The microphone recorded, if one was opened.
    pub microphone: Option<String>,
    /// Why no microphone was recorded, when one was asked for.
    pub microphone_error: Option<String>,
    /// Chunks lost because the writer fell behind (should be 0).
    pub dropped_chunks: u64,
    /// Samples of a source that delivered faster than real time, dropped rather than let
    /// it stretch the recording (a misbehaving device; should be 0).
    #[serde(default)]
    pub ahead_dropped_samples: u64,
}

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Writing the WAV failed.
    #[error("recording WAV: {0}")]
    Wav(#[from] hound::Error),
    /// Writing the metadata failed.
    #[error("recording metadata: {0}")]
    Io(#[from] std::io::Error),
    /// The writer thread died.
    #[error("recording writer stopped")]
    Writer,
}

/// A recording in progress.
pub struct Recorder {
    tap: Tap,
    started: Instant,
    writer: Option<JoinHandle<Result<Written, RecordError>>>,
    meta: RecordingMeta,
    /// Kept open while recording; dropped (closed) by [`Recorder::finish`].
    mic: Option<Microphone>,
}

impl Recorder {
    /// Starts recording game `game` to `wav`; `event_log_time` is the event log's time now.
    /// `microphone`: `None` for none, `Some(None)` for the default input, `Some(Some(id))`
    /// for a cpal device id. A microphone that cannot be opened is noted in the metadata
    /// and the recording goes on without it.
    pub fn start(
        wav: &Path,
        game: &str,
        event_log_time: Duration,
        microphone: Option<Option<&str>>,
    ) -> Result<Recorder, RecordError> {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let writer = hound::WavWriter::create(wav, spec)?;
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let started = Instant::now();
        let tap = Tap {
            source: 0,
            tx,
            dropped: Arc::new(AtomicU64::new(0)),
        };
        let handle = std::thread::Builder::new()
            .name("baoqi-recorder".into())
            .spawn(move || write_loop(&rx, writer, started))?;
        let (mic, microphone_error) = match microphone {
            None => (None, None),
            Some(dev) => match Microphone::open(dev, tap.source(1)) {
                Ok(m) => (Some(m), None),
                Err(e) => (None, Some(e.to_string())),
            },
        };
        let started_unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let meta = RecordingMeta {
            game: game.to_owned(),
            wav: wav.to_owned(),
            rate: RATE,
            samples: 0,
            started_unix_ms,
            event_log_offset_ms: event_log_time.as_millis() as u64,
            microphone: mic.as_ref().map(|m| m.name().to_owned()),
            microphone_error,
            dropped_chunks: 0,
            ahead_dropped_samples: 0,
        };
        Ok(Recorder {
            tap,
            started,
            writer: Some(handle),
            meta,
            mic,
        })
    }

    /// A tap for a sound source (give it to [`crate::Output::set_tap`]).
    pub fn tap(&self) -> Tap {
        self.tap.source(2)
    }

    /// Where in the WAV an instant falls.
    pub fn offset_of(&self, at: Instant) -> Duration {
        at.saturating_duration_since(self.started)
    }

    /// The metadata as known so far (samples and drops are filled by [`Recorder::finish`]).
    pub fn meta(&self) -> &RecordingMeta {
        &self.meta
    }

    /// Stops the microphone, writes out everything and the metadata file `<wav>.json`.
    /// Taps still held elsewhere stop counting once this returns.
    pub fn finish(mut self) -> Result<RecordingMeta, RecordError> {
        self.mic = None;
        let handle = self.writer.take().ok_or(RecordError::Writer)?;
        // The writer ends when every sender is gone; ours goes here, the Output's when its
        // tap is replaced. Until then it is told to finish by an empty chunk of source MAX.
        let _ = self.tap.tx.send(Chunk {
            source: u32::MAX,
            continues: false,
            at: Instant::now(),
            rate: RATE,
            samples: Vec::new(),
        });
        let written = handle.join().map_err(|_| RecordError::Writer)??;
        let mut meta = self.meta.clone();
        meta.samples = written.samples;
        meta.ahead_dropped_samples = written.ahead_dropped;
        meta.dropped_chunks = self.tap.dropped.load(Ordering::Relaxed);
        let json = serde_json::to_string_pretty(&meta).map_err(std::io::Error::other)?;
        std::fs::write(meta_path(&meta.wav), json)?;
        Ok(meta)
    }
}

/// The metadata file of a recording: `<wav>.json`.
pub fn meta_path(wav: &Path) -> PathBuf {
    let mut p = wav.as_os_str().to_owned();
    p.push(".json");
    PathBuf::from(p)
}

/// An open microphone stream writing into a recording.
pub struct Microphone {
    name: String,
    _stream: cpal::Stream,
}

/// Why no microphone could be opened.
#[derive(Debug, thiserror::Error)]
pub enum MicError {
    /// No input device (the normal case on a headless machine).
    #[error("no microphone {0:?}")]
    NoDevice(String),
    /// cpal refused the device.
    #[error("microphone: {0}")]
    Cpal(String),
}

impl Microphone {
    /// Opens `device` (cpal id, e.g. `alsa:hw:CARD=0,DEV=0`) or the default input, feeding
    /// `tap` with mono samples.
    pub fn open(device: Option<&str>, tap: Tap) -> Result<Microphone, MicError> {
        let host = cpal::default_host();
        let name = device.unwrap_or("default").to_owned();
        let dev = match device {
            Some(id) => {
                let id = id
                    .parse()
                    .map_err(|e: cpal::Error| MicError::Cpal(e.to_string()))?;
                host.device_by_id(&id)
            }
            None => host.default_input_device(),
        }
        .ok_or_else(|| MicError::NoDevice(name.clone()))?;
        let supported = dev
            .default_input_config()
            .map_err(|e| MicError::Cpal(e.to_string()))?;
        let format = supported.sample_format();
        let config: cpal::StreamConfig = supported.into();
        let stream = match format {
            SampleFormat::F32 => build::<f32>(&dev, &config, tap),
            SampleFormat::I16 => build::<i16>(&dev, &config, tap),
            SampleFormat::I32 => build::<i32>(&dev, &config, tap),
            SampleFormat::U16 => build::<u16>(&dev, &config, tap),
            other => return Err(MicError::Cpal(format!("sample format {other} not handled"))),
        }?;
        stream.play().map_err(|e| MicError::Cpal(e.to_string()))?;
        Ok(Microphone {
            name,
            _stream: stream,
        })
    }

    /// The device recorded.
    pub fn name(&self) -> &str {
        &self.name
    }
}

fn build<T>(
    dev: &cpal::Device,
    config: &cpal::StreamConfig,
    tap: Tap,
) -> Result<cpal::Stream, MicError>
where
    T: SizedSample,
    f32: FromSample<T>,
{
    let channels = usize::from(config.channels.max(1));
    let rate = config.sample_rate;
    let mut mono = Vec::new();
    let mut continues = false;
    dev.build_input_stream(
        *config,
        move |data: &[T], _: &cpal::InputCallbackInfo| {
            let at = Instant::now();
            mono.clear();
            mono.extend(data.chunks(channels).map(|frame| {
                frame.iter().map(|s| s.to_sample::<f32>()).sum::<f32>() / channels as f32
            }));
            tap.push(at, rate, &mono, continues);
            continues = true;
        },
        |e| eprintln!("baoqi-audio: microphone error: {e}"),
        None,
    )
    .map_err(|e| MicError::Cpal(e.to_string()))
}
