//! The [`Speaker`] trait — something that says a [`Phrase`] in a language and can be asked,
//! without blocking, whether it is still speaking — and two speakers: [`EspeakSpeaker`]
//! (espeak-ng subprocess + cpal) and [`ScriptedSpeaker`] (no sound; timing only, for tests
//! of the queue and of clients). The speech-dispatcher speaker is in [`crate::dispatcher`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use baoqi_grammar::speech::Lang;

use crate::espeak::{Espeak, EspeakError};
use crate::output::{Output, TrackId, TrackState};
use crate::phrasebook::{Phrase, voice};
use crate::rate::Rate;

/// Why a speaker could not say something.
#[derive(Debug, thiserror::Error)]
pub enum SpeakError {
    /// espeak-ng gave no sound.
    #[error(transparent)]
    Espeak(#[from] EspeakError),
    /// speech-dispatcher refused or is absent.
    #[error("speech-dispatcher: {0}")]
    Dispatcher(String),
}

/// A voice. Methods return promptly: `start` may take as long as a bounded render, `busy`
/// and `stop` never wait. A speaker lives on the thread that made it (the `tts` handle is
/// not `Send`), see [`crate::Voice::spawn`].
pub trait Speaker {
    /// A name for logs (`espeak-ng+cpal`, `speech-dispatcher`).
    fn name(&self) -> String;

    /// Begins saying `phrase` in `lang`, cutting anything this speaker was saying.
    fn start(&mut self, phrase: &Phrase, lang: Lang) -> Result<(), SpeakError>;

    /// Stops at once.
    fn stop(&mut self);

    /// Whether the last `start` is still being said.
    fn busy(&mut self) -> bool;

    /// Speaks at `rate` from the next `start` on.
    fn set_rate(&mut self, rate: Rate) -> Result<(), SpeakError>;

    /// When the first sample of the last `start` was written, if the speaker can tell.
    fn first_sample(&mut self) -> Option<Instant> {
        None
    }

    /// How long `phrase` may take at most before the voice gives up waiting for it (a hung
    /// speech server must not silence the table).
    fn max_duration(&self, phrase: &Phrase, lang: Lang) -> Duration {
        let syllables = phrase.speak(lang).chars().count() as u32;
        Duration::from_secs(3) + Duration::from_millis(400) * syllables
    }
}

/// espeak-ng rendered to PCM by subprocess, played through a shared cpal [`Output`].
#[derive(Debug)]
pub struct EspeakSpeaker {
    espeak: Arc<Espeak>,
    output: Arc<Output>,
    track: Option<TrackId>,
}

impl EspeakSpeaker {
    /// A speaker over `espeak` (shared render cache) playing on `output`.
    pub fn new(espeak: Arc<Espeak>, output: Arc<Output>) -> EspeakSpeaker {
        EspeakSpeaker {
            espeak,
            output,
            track: None,
        }
    }

    /// Renders every word echo and fixed phrase of the phrasebook into the cache for both
    /// languages; returns how many renders failed.
    pub fn warm_phrasebook(&self) -> usize {
        let phrases = crate::phrasebook::echo_phrases();
        let texts: Vec<(String, &str)> = phrases
            .iter()
            .flat_map(|p| crate::phrasebook::LANGS.map(|l| (p.speak(l).to_owned(), voice(l))))
            .collect();
        self.espeak
            .warm(texts.iter().map(|(t, v)| (t.as_str(), *v)))
    }
}

impl Speaker for EspeakSpeaker {
    fn name(&self) -> String {
        "espeak-ng+cpal".to_owned()
    }

    fn start(&mut self, phrase: &Phrase, lang: Lang) -> Result<(), SpeakError> {
        self.stop();
        // espeak-ng writes 22 050 Hz; the writer is told again by the WAV header.
        let (track, writer) = self.output.play_stream(22_050);
        if let Err(e) = self.espeak.stream(phrase.speak(lang), voice(lang), writer) {
            self.output.stop(track);
            return Err(e.into());
        }
        self.track = Some(track);
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(t) = self.track.take() {
            self.output.stop(t);
        }
    }

    fn busy(&mut self) -> bool {
        self.track.is_some_and(|t| self.output.is_active(t))
    }

    fn set_rate(&mut self, rate: Rate) -> Result<(), SpeakError> {
        self.espeak.set_rate(rate);
        Ok(())
    }

    fn first_sample(&mut self) -> Option<Instant> {
        match self.output.state(self.track?) {
            TrackState::Playing(at) | TrackState::Done(Some(at)) => Some(at),
            _ => None,
        }
    }
}

/// A speaker without sound: each phrase "lasts" `per_char` per character of its spoken
/// text at the default rate (less when faster). For tests of the queue and for clients run
/// without audio.
#[derive(Clone, Debug)]
pub struct ScriptedSpeaker {
    per_char: Duration,
    rate: Rate,
    until: Option<Instant>,
    started: Option<Instant>,
}

impl ScriptedSpeaker {
    /// A speaker taking `per_char` per character.
    pub fn new(per_char: Duration) -> ScriptedSpeaker {
        ScriptedSpeaker {
            per_char,
            rate: Rate::DEFAULT,
            until: None,
            started: None,
        }
    }
}

impl Speaker for ScriptedSpeaker {
    fn name(&self) -> String {
        "scripted".to_owned()
    }

    fn start(&mut self, phrase: &Phrase, lang: Lang) -> Result<(), SpeakError> {
        let now = Instant::now();
        self.started = Some(now);
        let chars = phrase.speak(lang).chars().count() as u32;
        self.until = Some(now + (self.per_char * chars).div_f32(self.rate.ratio()));
        Ok(())
    }

    fn stop(&mut self) {
        self.until = None;
    }

    fn busy(&mut self) -> bool {
        self.until.is_some_and(|u| Instant::now() < u)
    }

    fn set_rate(&mut self, rate: Rate) -> Result<(), SpeakError> {
        self.rate = rate;
        Ok(())
    }

    fn first_sample(&mut self) -> Option<Instant> {
        self.started
    }
}
