//! Samples of every client and server message.

use baoqi_arbiter::{Command, Event, Millis, Side};
use baoqi_tournament::RoundNumber;

use super::rejections;
use crate::envelope::{ClientMsg, ErrorCode, ServerMsg};
use crate::recording::{RecorderState, SeatStatus, TableRecording};
use crate::seat::{EventId, Role, TableId};
use crate::standing::{Place, StandingAnswer};

/// Every client message.
pub fn client_messages() -> Vec<ClientMsg> {
    vec![
        ClientMsg::Hello {
            token: "0f3a…".into(),
            since: Some(41),
        },
        ClientMsg::Command {
            id: Some("c7".into()),
            table: Some(TableId(1)),
            command: Command::Word { text: "炮".into() },
        },
        ClientMsg::Sync {
            table: Some(TableId(1)),
            since: Some(41),
        },
        ClientMsg::Recording {
            id: None,
            state: RecorderState::On,
            microphone: true,
            reason: None,
        },
        ClientMsg::QueryStanding {
            id: Some("s1".into()),
        },
        ClientMsg::Ping {
            id: Some("p1".into()),
        },
    ]
}

pub(super) fn client_index(m: &ClientMsg) -> usize {
    match m {
        ClientMsg::Hello { .. } => 0,
        ClientMsg::Command { .. } => 1,
        ClientMsg::Sync { .. } => 2,
        ClientMsg::Recording { .. } => 3,
        ClientMsg::Ping { .. } => 4,
        ClientMsg::QueryStanding { .. } => 5,
    }
}

/// Every server message (the snapshot of a new part 6 match in `state`).
pub fn server_messages() -> Vec<ServerMsg> {
    let config = baoqi_arbiter::MatchConfig {
        kind: baoqi_arbiter::EventKind::Part6,
        ..baoqi_arbiter::MatchConfig::default()
    };
    let view = baoqi_arbiter::Match::new(config, Millis(0))
        .expect("the default configuration makes a match")
        .snapshot();
    let recording = TableRecording {
        red: SeatStatus::Recording {
            since: Millis(10),
            microphone: true,
        },
        black: SeatStatus::Missing,
    };
    let mut all = vec![
        ServerMsg::Welcome {
            role: Role::Red,
            name: "陳大文".into(),
            event: EventId(1),
            tables: vec![TableId(1)],
        },
        ServerMsg::Tables {
            event: EventId(1),
            tables: vec![TableId(1), TableId(3), TableId(4)],
            set_aside: vec![TableId(2)],
        },
        ServerMsg::Recorded {
            event: EventId(1),
            results: vec![crate::envelope::RecordedResult {
                table: TableId(3),
                result: crate::envelope::GameResult::BlackAbsent,
            }],
        },
        ServerMsg::State {
            table: TableId(1),
            seq: 0,
            at: Millis(0),
            snapshot: Box::new(view),
            recording: Some(Box::new(recording.clone())),
        },
        ServerMsg::Event {
            table: TableId(1),
            seq: 1,
            at: Millis(0),
            event: Box::new(Event::Turn {
                side: Side::Red,
                ply: 1,
            }),
        },
        ServerMsg::Ack {
            id: Some("c7".into()),
            table: TableId(1),
            seq: 3,
        },
        ServerMsg::Recording {
            table: TableId(1),
            seats: recording,
        },
        ServerMsg::Pong {
            id: Some("p1".into()),
            at: Millis(1_000),
        },
    ];
    all.extend(
        standing_answers()
            .into_iter()
            .map(|standing| ServerMsg::Standing {
                id: Some("s1".into()),
                standing,
            }),
    );
    all.extend(
        rejections()
            .into_iter()
            .map(|rejection| ServerMsg::Rejected {
                id: Some("c8".into()),
                table: TableId(1),
                rejection,
            }),
    );
    for code in crate::variants::names::<ErrorCode>() {
        let code: ErrorCode =
            serde_json::from_value(serde_json::Value::from(*code)).expect("an error code");
        all.push(ServerMsg::Error {
            id: None,
            code,
            message: "details".into(),
        });
    }
    all
}

pub(super) fn server_index(m: &ServerMsg) -> usize {
    match m {
        ServerMsg::Welcome { .. } => 0,
        ServerMsg::State { .. } => 1,
        ServerMsg::Event { .. } => 2,
        ServerMsg::Ack { .. } => 3,
        ServerMsg::Rejected { .. } => 4,
        ServerMsg::Error { .. } => 5,
        ServerMsg::Recording { .. } => 6,
        ServerMsg::Pong { .. } => 7,
        ServerMsg::Standing { .. } => 8,
        ServerMsg::Tables { .. } => 9,
        ServerMsg::Recorded { .. } => 10,
    }
}

/// Every answer to `query_standing`: a shared place after round 3 of 7 (4½ points of 8
/// players), and each reason there is none.
pub fn standing_answers() -> Vec<StandingAnswer> {
    vec![
        StandingAnswer::Placed(Place {
            after_round: RoundNumber(3),
            rounds_total: Some(7),
            place: 3,
            shared: true,
            halves: 9,
            players: 8,
        }),
        StandingAnswer::NoRoundFinished {
            rounds_total: Some(7),
        },
        StandingAnswer::NoStandings,
        StandingAnswer::NotRegistered,
    ]
}

pub(super) fn standing_answer_index(a: &StandingAnswer) -> usize {
    match a {
        StandingAnswer::Placed(_) => 0,
        StandingAnswer::NoRoundFinished { .. } => 1,
        StandingAnswer::NoStandings => 2,
        StandingAnswer::NotRegistered => 3,
    }
}
