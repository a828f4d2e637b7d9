//! baoqi-audio: what a visually impaired player hears (`docs/product.md` §1; 附表七 6.3,
//! 6.5–6.7, 7.4(2), 7.6–7.7).
//!
//! - [`Utterance`]: what there is to say, pure data with slots; [`phrasebook::phrase`]
//!   turns it into a [`Phrase`] (display, Cantonese, Mandarin) from `phrases/data/phrases.toml`;
//!   times are said naturally by [`spoken_time`].
//! - [`Speaker`]: a voice; [`EspeakSpeaker`] renders with the `espeak-ng` program and plays
//!   through cpal ([`Output`]); [`DispatcherSpeaker`] goes through speech-dispatcher (`tts`).
//! - [`Voice`]: the speech queue in front of a speaker (policy in [`queue`]) and the
//!   spoken-text log ([`SpokenLog`]).
//! - [`Ranking`]: a player's place in the event's standings, said when asked.
//! - [`Earcon`]: short synthesized tones (documented in `docs/audio.md`).
//! - [`from_event`]: what a player hears for each arbiter event.
//! - [`recording`]: a WAV per game of everything played plus the microphone, time-aligned
//!   with the event log, and its upload.

pub mod dispatcher;
pub mod earcon;
pub mod espeak;
pub mod from_event;
mod mixer;
pub mod notice;
pub mod output;
pub mod pcm;
pub mod phrasebook;
pub mod pieces;
pub mod queue;
pub mod ranking;
pub mod rate;
pub mod recording;
mod rulings;
pub mod speaker;
pub mod spoken_time;
pub mod upload;
pub mod utterance;
pub mod voice;

pub use dispatcher::DispatcherSpeaker;
pub use earcon::{Earcon, Tone};
pub use espeak::Espeak;
pub use notice::{HelpPage, Notice, Prompt, Refusal, Sent, Stage, Standing, standing_parts};
pub use output::{Output, OutputError, StreamWriter, TrackId, TrackState};
pub use pcm::Pcm;
pub use phrasebook::{LANGS, Phrase, voice};
pub use pieces::{Along, Form, PieceAt, Pieces, Verbosity};
pub use ranking::Ranking;
pub use rate::{Rate, RateOutOfRange, RateSet};
pub use recording::{Microphone, Recorder, RecordingMeta, Tap};
pub use speaker::{EspeakSpeaker, ScriptedSpeaker, SpeakError, Speaker};
pub use upload::{HttpUploader, UploadError, Uploader};
pub use utterance::{
    Because, Board, Call, CheckOutcome, Declined, EndCause, GameResult, Missing, PauseWhy,
    SideTime, TimeReason, Urgency, Utterance, Violation, Warned,
};
pub use voice::{Entry, Fate, SpokenLog, Voice};
