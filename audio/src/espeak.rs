//! espeak-ng as a subprocess (`espeak-ng -v VOICE --stdout`): text in, WAV out, parsed
//! with hound. Running the program keeps baoqi free of libespeak-ng's GPL (STYLE.md).
//!
//! Every render has a deadline (the child is killed past it), and renders are cached by
//! (voice, rate, text): the few dozen word echoes are rendered once, at warm-up, so that a key
//! press is heard without waiting for a process.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::Duration;

use crate::pcm::{Pcm, WavError};
use crate::phrasebook::pace_percent;
use crate::rate::Rate;

/// Why espeak-ng gave no sound.
#[derive(Debug, thiserror::Error)]
pub enum EspeakError {
    /// The program could not be run (not installed?).
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// It ran past the deadline and was killed.
    #[error("espeak-ng took longer than {0:?}")]
    Timeout(Duration),
    /// It failed.
    #[error("espeak-ng failed: {0}")]
    Failed(String),
    /// The voice is not installed (espeak-ng would fall back to English without a word).
    #[error("espeak-ng has no voice {0:?}")]
    NoVoice(String),
    /// Its output was no WAV.
    #[error(transparent)]
    Wav(#[from] WavError),
}

/// Reads espeak-ng's streamed WAV (44-byte header, 16-bit mono) from `r` into `writer`
/// chunk by chunk, keeping a copy in `all`; returns the sample rate if the header was good.
fn read_stream(
    r: &mut impl Read,
    writer: &mut crate::output::StreamWriter,
    all: &mut Vec<f32>,
) -> Option<u32> {
    let mut header = [0u8; 44];
    r.read_exact(&mut header).ok()?;
    let channels = u16::from_le_bytes([header[22], header[23]]);
    let rate = u32::from_le_bytes([header[24], header[25], header[26], header[27]]);
    let bits = u16::from_le_bytes([header[34], header[35]]);
    if &header[..4] != b"RIFF" || &header[36..40] != b"data" || channels != 1 || bits != 16 {
        return None;
    }
    writer.set_rate(rate);
    let mut buf = [0u8; 2048];
    let mut odd: Option<u8> = None;
    let mut chunk = Vec::with_capacity(buf.len() / 2);
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        chunk.clear();
        let mut bytes = odd.take().into_iter().chain(buf[..n].iter().copied());
        while let Some(lo) = bytes.next() {
            match bytes.next() {
                Some(hi) => chunk.push(f32::from(i16::from_le_bytes([lo, hi])) / 32768.0),
                None => odd = Some(lo),
            }
        }
        writer.push(&chunk);
        all.extend_from_slice(&chunk);
    }
    Some(rate)
}

/// The espeak-ng program and a cache of what it rendered.
#[derive(Debug)]
pub struct Espeak {
    program: String,
    deadline: Duration,
    cache: Mutex<HashMap<CacheKey, Arc<Pcm>>>,
    voices: OnceLock<HashSet<String>>,
    /// Words per minute (`-s`), shared by every speaker over this renderer.
    rate: AtomicU16,
}

/// A rendering: voice, rate (words per minute) and text.
type CacheKey = (String, u16, String);

impl Default for Espeak {
    fn default() -> Espeak {
        Espeak::new("espeak-ng")
    }
}

impl Espeak {
    /// The program `program` (a name on `PATH` or a path), 10 s deadline per render.
    pub fn new(program: &str) -> Espeak {
        Espeak {
            program: program.to_owned(),
            deadline: Duration::from_secs(10),
            cache: Mutex::new(HashMap::new()),
            voices: OnceLock::new(),
            rate: AtomicU16::new(Rate::DEFAULT.wpm()),
        }
    }

    /// Speaks at `rate` from the next rendering on (renderings at other rates stay cached).
    pub fn set_rate(&self, rate: Rate) {
        self.rate.store(rate.wpm(), Ordering::Relaxed);
    }

    /// The rate renderings are made at.
    pub fn rate(&self) -> Rate {
        Rate::new(self.rate.load(Ordering::Relaxed)).unwrap_or_default()
    }

    fn key(&self, text: &str, voice: &str) -> CacheKey {
        (voice.to_owned(), self.wpm(voice), text.to_owned())
    }

    /// espeak-ng's `-s` for `voice`: the rate at the voice's pace, within espeak-ng's bounds.
    fn wpm(&self, voice: &str) -> u16 {
        let paced = u32::from(self.rate().wpm()) * u32::from(pace_percent(voice)) / 100;
        u16::try_from(paced).map_or(Rate::MAX.wpm(), |w| w.min(Rate::MAX.wpm()))
    }

    /// Whether the program runs at all.
    pub fn available(&self) -> bool {
        Command::new(&self.program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Whether `voice` is installed: a language name (`yue`) or a voice file name
    /// (`yue-Latn-jyutping`) of `espeak-ng --voices`, compared without case.
    pub fn has_voice(&self, voice: &str) -> bool {
        self.voices
            .get_or_init(|| {
                let out = Command::new(&self.program).arg("--voices").output();
                let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
                let mut set = HashSet::new();
                for line in text.unwrap_or_default().lines().skip(1) {
                    let cols: Vec<&str> = line.split_whitespace().collect();
                    if let [_, lang, _, _, file, ..] = cols[..] {
                        set.insert(lang.to_lowercase());
                        set.insert(file.rsplit('/').next().unwrap_or(file).to_lowercase());
                    }
                }
                set
            })
            .contains(&voice.to_lowercase())
    }

    /// `text` spoken by `voice`, from the cache or rendered now.
    pub fn render(&self, text: &str, voice: &str) -> Result<Arc<Pcm>, EspeakError> {
        let key = self.key(text, voice);
        if let Some(p) = self.lock().get(&key) {
            return Ok(p.clone());
        }
        let pcm = Arc::new(self.render_uncached(text, voice)?);
        self.lock().insert(key, pcm.clone());
        Ok(pcm)
    }

    /// Renders `texts` into the cache ahead of need; returns how many failed.
    pub fn warm<'a>(&self, texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> usize {
        texts
            .into_iter()
            .filter(|(text, voice)| self.render(text, voice).is_err())
            .count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<CacheKey, Arc<Pcm>>> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Renders `text` with `voice` into a streamed track as espeak-ng writes it, so that the
    /// first words play while the rest is being synthesized; the whole sound then goes into
    /// the cache. A cached text is pushed at once. Fails at once if the program or the voice
    /// is missing; a failure later just ends the track early (the reader thread waits on
    /// espeak-ng, never the caller).
    pub fn stream(
        self: &Arc<Self>,
        text: &str,
        voice: &str,
        mut writer: crate::output::StreamWriter,
    ) -> Result<(), EspeakError> {
        let key = self.key(text, voice);
        if let Some(p) = self.lock().get(&key).cloned() {
            writer.set_rate(p.rate);
            writer.push(&p.samples);
            return Ok(());
        }
        if !self.has_voice(voice) {
            return Err(EspeakError::NoVoice(voice.to_owned()));
        }
        let mut child = self.spawn(voice)?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or(EspeakError::Failed("no stdin".into()))?;
        let mut stdout = child
            .stdout
            .take()
            .ok_or(EspeakError::Failed("no stdout".into()))?;
        let text = text.to_owned();
        let me = self.clone();
        std::thread::Builder::new()
            .name("baoqi-espeak".into())
            .spawn(move || {
                let _ = stdin.write_all(text.as_bytes());
                drop(stdin);
                let mut all = Vec::new();
                let rate = read_stream(&mut stdout, &mut writer, &mut all);
                drop(writer);
                let ok = child.wait().is_ok_and(|s| s.success());
                if let (true, Some(rate)) = (ok, rate) {
                    me.lock().insert(key, Arc::new(Pcm { rate, samples: all }));
                }
            })
            .map_err(|e| EspeakError::Failed(e.to_string()))?;
        Ok(())
    }

    fn spawn(&self, voice: &str) -> Result<std::process::Child, EspeakError> {
        Command::new(&self.program)
            .args(["-b", "1", "-v", voice, "--stdout", "-s"])
            .arg(self.wpm(voice).to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EspeakError::Spawn {
                program: self.program.clone(),
                source,
            })
    }

    /// Runs espeak-ng once: the text goes on standard input (UTF-8, `-b 1`), so that no
    /// text is ever taken for an option.
    pub fn render_uncached(&self, text: &str, voice: &str) -> Result<Pcm, EspeakError> {
        if !self.has_voice(voice) {
            return Err(if self.available() {
                EspeakError::NoVoice(voice.to_owned())
            } else {
                EspeakError::Spawn {
                    program: self.program.clone(),
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, "not runnable"),
                }
            });
        }
        let mut child = self.spawn(voice)?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or(EspeakError::Failed("no stdin".into()))?;
        let mut stdout = child
            .stdout
            .take()
            .ok_or(EspeakError::Failed("no stdout".into()))?;
        let (tx, rx) = mpsc::channel();
        let text = text.to_owned();
        std::thread::spawn(move || {
            // Written from here: a huge text must not block us on a full pipe.
            let _ = stdin.write_all(text.as_bytes());
            drop(stdin);
            let mut out = Vec::new();
            let r = stdout.read_to_end(&mut out);
            let _ = tx.send(r.map(|_| out));
        });
        let Ok(read) = rx.recv_timeout(self.deadline) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EspeakError::Timeout(self.deadline));
        };
        let status = child
            .wait()
            .map_err(|e| EspeakError::Failed(e.to_string()))?;
        let bytes = read.map_err(|e| EspeakError::Failed(e.to_string()))?;
        if !status.success() || bytes.is_empty() {
            return Err(EspeakError::Failed(status.to_string()));
        }
        Ok(Pcm::from_wav_bytes(&bytes)?)
    }
}
