//! The client's side of the WebSocket protocol: the protocol crate's own messages
//! ([`ClientMsg`], [`ServerMsg`]), typed end to end, the seat client's report about its
//! game recorder, and the server's answer about the player's standing as he hears it.

use baoqi_audio::Ranking;
pub use baoqi_protocol::{
    ClientMsg, DecodeError, ServerMsg, decode_server as decode, encode_client,
};
use baoqi_protocol::{RecorderState, StandingAnswer};

/// What the seat's game recorder is doing, as the client reports it to the server (the
/// referee's monitor shows each side's recorder, and a recording missing after the game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecorderReport {
    /// Recording; whether the table's microphone is recorded too.
    On {
        /// The microphone is part of the recording.
        microphone: bool,
    },
    /// Stopped, the recording uploaded.
    Off,
    /// Recording or its upload failed.
    Failed {
        /// Why, in words.
        reason: String,
    },
}

impl RecorderReport {
    /// The `recording` message of the report.
    pub fn message(&self) -> ClientMsg {
        let (state, microphone, reason) = match self {
            RecorderReport::On { microphone } => (RecorderState::On, *microphone, None),
            RecorderReport::Off => (RecorderState::Off, false, None),
            RecorderReport::Failed { reason } => {
                (RecorderState::Failed, false, Some(reason.clone()))
            }
        };
        ClientMsg::Recording {
            id: None,
            state,
            microphone,
            reason,
        }
    }
}

/// The server's `standing` answer as the player hears it.
pub fn ranking(answer: StandingAnswer) -> Ranking {
    match answer {
        StandingAnswer::Placed(p) => Ranking::Placed {
            after_round: p.after_round,
            place: p.place,
            shared: p.shared,
            halves: p.halves,
            players: p.players,
        },
        StandingAnswer::NoRoundFinished { .. } => Ranking::NoRoundFinished,
        StandingAnswer::NoStandings => Ranking::NoStandings,
        StandingAnswer::NotRegistered => Ranking::NotRegistered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn recorder_reports_are_the_protocols_recording_messages() {
        let text = |r: RecorderReport| {
            serde_json::from_str::<Value>(&encode_client(&r.message())).unwrap()
        };
        assert_eq!(
            text(RecorderReport::On { microphone: true }),
            json!({"v": 2, "type": "recording", "id": null, "state": "on", "microphone": true, "reason": null})
        );
        let failed = text(RecorderReport::Failed {
            reason: "disk full".into(),
        });
        assert_eq!(
            (failed["state"].as_str(), failed["reason"].as_str()),
            (Some("failed"), Some("disk full"))
        );
    }

    #[test]
    fn a_server_message_of_another_version_is_refused() {
        assert!(decode(r#"{"v":1,"type":"pong","id":null,"at":0}"#).is_err());
        assert!(matches!(
            decode(r#"{"v":2,"type":"pong","id":null,"at":3}"#),
            Ok(ServerMsg::Pong { .. })
        ));
    }
}
