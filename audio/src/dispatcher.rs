//! The platform voice through the `tts` crate: speech-dispatcher on Linux (its espeak-ng
//! module), the system voice elsewhere.
//!
//! `tts`'s own `is_speaking` turns true only when speech-dispatcher reports the start, so
//! right after `speak` it still says false; this speaker tracks its own utterance through
//! the begin/end/stop callbacks instead, and treats an utterance that has not begun within
//! [`DispatcherSpeaker::START_TIMEOUT`] as lost (a daemon without audio hangs: STYLE.md).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use baoqi_grammar::speech::Lang;
use tts::{Tts, UtteranceId};

use crate::phrasebook::Phrase;
use crate::rate::Rate;
use crate::speaker::{SpeakError, Speaker};

/// What the callbacks reported, kept for the utterances of the last few seconds: a report
/// may arrive before `speak` has returned the utterance's id.
#[derive(Debug, Default)]
struct Shared {
    begun: HashMap<UtteranceId, Instant>,
    ended: HashSet<UtteranceId>,
}

/// The utterance last asked for.
#[derive(Clone, Copy, Debug)]
struct Asked {
    id: Option<UtteranceId>,
    at: Instant,
}

/// A speaker over speech-dispatcher (`tts`).
pub struct DispatcherSpeaker {
    tts: Tts,
    shared: Arc<Mutex<Shared>>,
    asked: Option<Asked>,
    voice_set: Option<Lang>,
}

impl std::fmt::Debug for DispatcherSpeaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DispatcherSpeaker({:?})", self.voice_set)
    }
}

fn err(e: impl std::fmt::Display) -> SpeakError {
    SpeakError::Dispatcher(e.to_string())
}

impl DispatcherSpeaker {
    /// How long an utterance may take to begin before it counts as lost.
    pub const START_TIMEOUT: Duration = Duration::from_secs(3);

    /// Connects to speech-dispatcher (which it starts if needed, with the user's
    /// `XDG_CONFIG_HOME/speech-dispatcher/speechd.conf`) and selects the voice of `lang`.
    ///
    /// Slow (seconds): the `tts` crate can only choose a voice from the full list, and
    /// speech-dispatcher's espeak-ng module lists every voice with every variant. Done once
    /// here, never per utterance.
    pub fn connect(lang: Lang) -> Result<DispatcherSpeaker, SpeakError> {
        let tts = Tts::default().map_err(err)?;
        let shared = Arc::new(Mutex::new(Shared::default()));
        let on = |shared: &Arc<Mutex<Shared>>, begin: bool| {
            let shared = shared.clone();
            Some(Box::new(move |id: UtteranceId| {
                let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
                if begin {
                    s.begun.insert(id, Instant::now());
                } else {
                    s.ended.insert(id);
                }
            }) as Box<dyn FnMut(UtteranceId)>)
        };
        tts.on_utterance_begin(on(&shared, true)).map_err(err)?;
        tts.on_utterance_end(on(&shared, false)).map_err(err)?;
        tts.on_utterance_stop(on(&shared, false)).map_err(err)?;
        let mut speaker = DispatcherSpeaker {
            tts,
            shared,
            asked: None,
            voice_set: None,
        };
        speaker.select_voice(lang)?;
        Ok(speaker)
    }

    /// Picks speech-dispatcher's espeak-ng voice for `lang`: the Jyutping or pinyin
    /// variant (see [`crate::phrasebook::voice`]).
    fn select_voice(&mut self, lang: Lang) -> Result<(), SpeakError> {
        if self.voice_set == Some(lang) {
            return Ok(());
        }
        let want = match lang {
            Lang::Yue => "jyutping",
            Lang::Cmn => "pinyin",
        };
        let voices = self.tts.voices().map_err(err)?;
        let v = voices
            .iter()
            .find(|v| v.name().to_lowercase().contains(want))
            .ok_or_else(|| err(format!("no {want} voice among {} voices", voices.len())))?;
        self.tts.set_voice(v).map_err(err)?;
        self.voice_set = Some(lang);
        Ok(())
    }

    fn shared(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Speaker for DispatcherSpeaker {
    fn name(&self) -> String {
        "speech-dispatcher".to_owned()
    }

    fn start(&mut self, phrase: &Phrase, lang: Lang) -> Result<(), SpeakError> {
        self.select_voice(lang)?;
        {
            // Reports of utterances long over are of no more use.
            let mut s = self.shared();
            s.begun.clear();
            s.ended.clear();
        }
        let at = Instant::now();
        let id = self.tts.speak(phrase.speak(lang), true).map_err(err)?;
        self.asked = Some(Asked { id, at });
        Ok(())
    }

    fn stop(&mut self) {
        let _ = self.tts.stop();
        self.asked = None;
    }

    fn busy(&mut self) -> bool {
        let Some(asked) = self.asked else {
            return false;
        };
        let Some(id) = asked.id else {
            // No id to follow: a short fixed wait is all that can be done.
            return asked.at.elapsed() < Self::START_TIMEOUT;
        };
        let s = self.shared();
        if s.ended.contains(&id) {
            false
        } else if s.begun.contains_key(&id) {
            true
        } else {
            asked.at.elapsed() < Self::START_TIMEOUT
        }
    }

    fn set_rate(&mut self, rate: Rate) -> Result<(), SpeakError> {
        let t = &self.tts;
        let wanted = rate.on_scale(t.min_rate(), t.normal_rate(), t.max_rate());
        self.tts.set_rate(wanted).map_err(err)?;
        Ok(())
    }

    fn first_sample(&mut self) -> Option<Instant> {
        // The begin report is the closest speech-dispatcher tells of the first sample.
        let id = self.asked?.id?;
        self.shared().begun.get(&id).copied()
    }
}
