//! The keypad and board clients' [`Frontend`]: speech through the audio crate's queue and a
//! chosen speaker, earcons, the spoken-text log (one line per utterance and per fate, also
//! for braille displays), a braille display (`--braille`), the large-font status line, and the game's recording with its
//! upload at the end of the game.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_audio::from_event::Heard;
use baoqi_audio::phrasebook;
use baoqi_audio::upload::Uploader;
use baoqi_audio::{
    DispatcherSpeaker, Espeak, EspeakSpeaker, HttpUploader, Output, Recorder, ScriptedSpeaker,
    SpeakError, Speaker, Voice,
};
use baoqi_grammar::speech::Lang;
use baoqi_protocol::TableId;

use super::machine::Session;
use super::net::Frontend;
use super::status::{StatusInfo, render};
use super::wire::RecorderReport;
use crate::braille::display::BrailleDisplay;

/// Which voice speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeakerKind {
    /// espeak-ng (subprocess) played through cpal.
    Espeak,
    /// speech-dispatcher (the `tts` crate).
    Dispatcher,
    /// No sound: what would be said is printed (and logged).
    Text,
}

/// How the frontend is set up.
#[derive(Clone, Debug)]
pub struct FrontendOptions {
    /// The language spoken.
    pub lang: Lang,
    /// The voice.
    pub speaker: SpeakerKind,
    /// The cpal output device (`alsa:wavtap`), default when `None`.
    pub device: Option<String>,
    /// The spoken-text log file.
    pub spoken_log: Option<PathBuf>,
    /// Record each game into this folder: what the espeak-ng speaker plays (its sound is
    /// ours; speech-dispatcher's is not) and the microphone, when one is given.
    pub record_dir: Option<PathBuf>,
    /// Record the table's sound too: `Some(None)` the default input, `Some(Some(id))` a cpal
    /// device id (`alsa:hw:CARD=1`).
    pub microphone: Option<Option<String>>,
    /// The server's HTTP address (`http://host:port`), for the recording's upload.
    pub server: String,
    /// Upload to this URL instead of `{server}/api/tables/{table}/recording`.
    pub upload_url: Option<String>,
    /// The hall's own certificate authority (PEM) trusted over https; the public ones
    /// without it.
    pub ca: Option<PathBuf>,
    /// The seat's token (the upload's bearer token).
    pub token: String,
    /// Draw the large-font status line, for a terminal this many columns wide.
    pub status_columns: Option<usize>,
    /// The speech rate at start.
    pub rate: baoqi_audio::Rate,
    /// Show everything said on a braille display too (`--braille`).
    pub braille: Option<crate::braille::BrailleOptions>,
}

/// Why the frontend could not start.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// The voice could not be made.
    #[error("speech: {0}")]
    Speech(#[from] SpeakError),
    /// The sound device could not be opened.
    #[error("sound output: {0}")]
    Output(#[from] baoqi_audio::OutputError),
    /// The spoken-text log could not be written.
    #[error("spoken-text log: {0}")]
    Log(#[from] std::io::Error),
}

/// Speech, earcons, log, status and recording.
pub struct AudioFrontend {
    opts: FrontendOptions,
    voice: Voice,
    output: Option<Arc<Output>>,
    log: Option<File>,
    logged: usize,
    last_status: String,
    recording: Option<(Recorder, TableId)>,
    braille: Option<BrailleDisplay>,
}

impl std::fmt::Debug for AudioFrontend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AudioFrontend({:?})", self.opts.speaker)
    }
}

fn boxed<S: Speaker + 'static>(s: S) -> Box<dyn Speaker> {
    Box::new(s)
}

impl AudioFrontend {
    /// Opens the voice (and the sound output for espeak-ng and earcons) and the log.
    pub fn open(opts: FrontendOptions) -> Result<AudioFrontend, FrontendError> {
        let lang = opts.lang;
        let (voice, output) = match opts.speaker {
            SpeakerKind::Espeak => {
                let output = Arc::new(Output::open(opts.device.as_deref())?);
                let espeak = Arc::new(Espeak::default());
                // Warmed at the rate the player will hear.
                espeak.set_rate(opts.rate);
                warm(&espeak, lang);
                let (e, o) = (espeak.clone(), output.clone());
                let voice = Voice::spawn(lang, move || Ok(boxed(EspeakSpeaker::new(e, o))))?;
                (voice, Some(output))
            }
            SpeakerKind::Dispatcher => {
                let voice =
                    Voice::spawn(lang, move || DispatcherSpeaker::connect(lang).map(boxed))?;
                // Earcons need a sound device of our own; without one they are left out.
                (
                    voice,
                    Output::open(opts.device.as_deref()).ok().map(Arc::new),
                )
            }
            SpeakerKind::Text => {
                let voice = Voice::spawn(lang, || Ok(boxed(ScriptedSpeaker::new(Duration::ZERO))))?;
                (voice, None)
            }
        };
        voice.set_rate(opts.rate);
        let log = opts.spoken_log.as_ref().map(File::create).transpose()?;
        Ok(AudioFrontend {
            opts,
            voice,
            output,
            log,
            logged: 0,
            last_status: String::new(),
            recording: None,
            braille: None,
        })
    }

    /// From now on, everything said is shown on `display` too.
    pub fn attach_braille(&mut self, display: BrailleDisplay) {
        self.braille = Some(display);
    }

    /// Writes the log entries not yet written (and prints them in text mode).
    fn flush_log(&mut self) {
        let entries = self.voice.log().entries_after(self.logged);
        for e in &entries {
            // The time from the cause (key, event) to the first sample, where the speaker
            // tells it; on a request, how many items were to be said before it.
            let latency = e
                .latency
                .map(|l| format!(" ({} ms)", l.as_millis()))
                .or_else(|| e.ahead.map(|n| format!(" [{n} ahead]")))
                .unwrap_or_default();
            let line = format!(
                "{:.3}s #{} {:?} {:?} {}{latency}",
                e.at.as_secs_f64(),
                e.id,
                e.urgency,
                e.fate,
                e.display
            );
            if let Some(f) = self.log.as_mut() {
                let _ = writeln!(f, "{line}");
            }
            if self.opts.speaker == SpeakerKind::Text && e.fate == baoqi_audio::Fate::Requested {
                println!("{}", e.display);
            }
        }
        self.logged += entries.len();
        if let Some(f) = self.log.as_mut() {
            let _ = f.flush();
        }
    }

    fn upload(&self, meta: &baoqi_audio::RecordingMeta, table: TableId) -> Result<(), String> {
        let url = self.opts.upload_url.clone().unwrap_or_else(|| {
            format!(
                "{}/api/tables/{table}/recording",
                self.opts.server.trim_end_matches('/')
            )
        });
        let mut up = HttpUploader::new(&url, Some(&self.opts.token)).map_err(|e| e.to_string())?;
        if let Some(ca) = &self.opts.ca {
            up = up.trusting(ca).map_err(|e| e.to_string())?;
        }
        up.upload(meta).map_err(|e| e.to_string())
    }
}

/// Renders every word echo of `lang` ahead of need, on a thread of its own.
fn warm(espeak: &Arc<Espeak>, lang: Lang) {
    let espeak = espeak.clone();
    let voice = phrasebook::voice(lang);
    std::thread::spawn(move || {
        let texts: Vec<String> = phrasebook::echo_phrases()
            .iter()
            .map(|p| p.speak(lang).to_owned())
            .collect();
        espeak.warm(texts.iter().map(|t| (t.as_str(), voice)));
    });
}

impl Frontend for AudioFrontend {
    fn hear(&mut self, heard: &Heard, cause: Instant) {
        if let (Some(e), Some(out)) = (heard.earcon, self.output.as_ref()) {
            out.play(&e.pcm(out.rate()));
        }
        for u in &heard.say {
            if let Some(b) = &self.braille {
                b.show(u);
            }
            self.voice.say_at(u, cause);
        }
    }

    fn stop_speech(&mut self) {
        self.voice.stop();
    }

    fn set_rate(&mut self, rate: baoqi_audio::Rate) {
        self.voice.set_rate(rate);
    }

    fn refresh(&mut self, session: &Session, now_ms: u64) {
        self.flush_log();
        if let Some(columns) = self.opts.status_columns {
            let text = render(&StatusInfo::of(session, now_ms), columns);
            if text != self.last_status {
                // Save the cursor, draw at the top of the screen, restore.
                print!("\x1b7\x1b[H{text}\x1b8");
                let _ = std::io::stdout().flush();
                self.last_status = text;
            }
        }
    }

    fn game_started(&mut self, table: TableId, at: u64) -> Option<RecorderReport> {
        let dir = self.opts.record_dir.clone()?;
        if self.output.is_none() && self.opts.microphone.is_none() {
            let reason = "nothing to record: no sound output of ours and no microphone";
            eprintln!("baoqi: recording not started: {reason}");
            return Some(RecorderReport::Failed {
                reason: reason.into(),
            });
        }
        let _ = std::fs::create_dir_all(&dir);
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let wav = dir.join(format!("table-{table}-{stamp}.wav"));
        let mic = self.opts.microphone.as_ref().map(Option::as_deref);
        match Recorder::start(
            &wav,
            &format!("table {table}"),
            Duration::from_millis(at),
            mic,
        ) {
            Ok(r) => {
                if let Some(e) = &r.meta().microphone_error {
                    eprintln!("baoqi: recording without the microphone: {e}");
                }
                let microphone = r.meta().microphone.is_some();
                if let Some(output) = &self.output {
                    output.set_tap(Some(r.tap()));
                }
                self.recording = Some((r, table));
                Some(RecorderReport::On { microphone })
            }
            Err(e) => {
                eprintln!("baoqi: recording not started: {e}");
                Some(RecorderReport::Failed {
                    reason: e.to_string(),
                })
            }
        }
    }

    fn game_over(&mut self, _table: TableId) -> Option<RecorderReport> {
        let (recorder, table) = self.recording.take()?;
        // The end of the game is said before the recording closes.
        self.voice.wait_idle(Duration::from_secs(20));
        if let Some(o) = &self.output {
            o.set_tap(None);
        }
        let result = recorder
            .finish()
            .map_err(|e| format!("recording failed: {e}"))
            .and_then(|meta| {
                self.upload(&meta, table)
                    .map(|()| meta.wav.clone())
                    .map_err(|e| {
                        format!("recording {} kept, not uploaded: {e}", meta.wav.display())
                    })
            });
        Some(match result {
            Ok(wav) => {
                eprintln!("baoqi: recording {} uploaded", wav.display());
                RecorderReport::Off
            }
            Err(reason) => {
                eprintln!("baoqi: {reason}");
                RecorderReport::Failed { reason }
            }
        })
    }

    fn finish(&mut self) {
        self.voice.wait_idle(Duration::from_secs(20));
        self.flush_log();
    }
}
