//! The recording status of every seat, live (建議每局對賽設錄音設備): what each side's
//! client reported about its recorder, and what was uploaded. The referee's monitor sees it
//! in every `state` and in a `recording` message at each change.
//!
//! A seat's status is a pure function of three facts ([`status`]): its client's last report,
//! its latest upload, and whether the game is over. Reports live in memory (a restarted
//! server hears them again from reconnecting clients); uploads come from the store.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use baoqi_protocol::{ServerMsg, encode};
use tokio::sync::broadcast;

use super::Side;
use baoqi_store::model::TableId;
use baoqi_store::recordings::RecordingRow;
use baoqi_store::timeline::Millis;

pub use baoqi_protocol::{RecorderState, SeatStatus, TableRecording};

/// A client's last report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// What it said.
    pub state: RecorderState,
    /// Whether a microphone is recorded.
    pub microphone: bool,
    /// Why it failed (for [`RecorderState::Failed`]).
    pub reason: Option<String>,
    /// When the recorder was last turned on (game timeline).
    pub since: Millis,
    /// Order of facts on this server (reports and uploads): later wins.
    pub stamp: u64,
}

/// What the server knows about one seat's recording.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatFacts {
    /// The client's last report.
    pub report: Option<Report>,
    /// Whether the client ever reported recording.
    pub ever_on: bool,
    /// The latest upload, and its stamp (0 for uploads found at start).
    pub upload: Option<(RecordingRow, u64)>,
}

/// A seat's status from its facts: a recording newer than the last upload shows as
/// recording; then an upload; then a reported failure; then, once the game is over, a seat
/// that recorded and stopped without an upload is missing.
pub fn status(facts: &SeatFacts, game_over: bool) -> SeatStatus {
    let upload_stamp = facts.upload.as_ref().map(|(_, s)| *s);
    match (&facts.report, &facts.upload) {
        (Some(r), _)
            if r.state == RecorderState::On && upload_stamp.is_none_or(|u| r.stamp > u) =>
        {
            SeatStatus::Recording {
                since: r.since,
                microphone: r.microphone,
            }
        }
        (_, Some((row, _))) => SeatStatus::Uploaded {
            n: row.n,
            duration_ms: row.upload.duration_ms,
            bytes: row.upload.bytes,
            event_log_offset_ms: row.upload.event_log_offset_ms,
        },
        (Some(r), None) if r.state == RecorderState::Failed => SeatStatus::Failed {
            reason: r.reason.clone().unwrap_or_default(),
        },
        _ if game_over && facts.ever_on => SeatStatus::Missing,
        _ => SeatStatus::Off,
    }
}

#[derive(Default)]
struct Inner {
    seats: HashMap<(TableId, Side), SeatFacts>,
    over: HashSet<TableId>,
    stamp: u64,
}

/// The live recording status of every table, with a feed of changes.
pub struct RecordingBoard {
    inner: Mutex<Inner>,
    feed: broadcast::Sender<Arc<(TableId, String)>>,
}

impl Default for RecordingBoard {
    fn default() -> Self {
        RecordingBoard {
            inner: Mutex::default(),
            feed: broadcast::channel(256).0,
        }
    }
}

impl RecordingBoard {
    /// A board that knows the uploads already stored (`rows` in upload order).
    pub fn with_uploads(rows: Vec<RecordingRow>) -> RecordingBoard {
        let board = RecordingBoard::default();
        {
            let mut inner = board.lock();
            for row in rows {
                let facts = inner
                    .seats
                    .entry((row.upload.table, row.upload.side))
                    .or_default();
                facts.upload = Some((row, 0));
            }
        }
        board
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn view_of(inner: &Inner, table: TableId) -> TableRecording {
        let over = inner.over.contains(&table);
        let seat = |side| {
            inner
                .seats
                .get(&(table, side))
                .map_or(SeatStatus::Off, |f| status(f, over))
        };
        TableRecording {
            red: seat(Side::Red),
            black: seat(Side::Black),
        }
    }

    /// The status of a table's seats now.
    pub fn view(&self, table: TableId) -> TableRecording {
        Self::view_of(&self.lock(), table)
    }

    /// Changes a table's facts and publishes the new status when it differs; returns the
    /// status and whether it changed.
    fn change(&self, table: TableId, f: impl FnOnce(&mut Inner, u64)) -> (TableRecording, bool) {
        let mut inner = self.lock();
        let before = Self::view_of(&inner, table);
        inner.stamp += 1;
        let stamp = inner.stamp;
        f(&mut inner, stamp);
        let after = Self::view_of(&inner, table);
        drop(inner);
        let changed = after != before;
        if changed {
            let msg = encode(&ServerMsg::Recording {
                table,
                seats: after.clone(),
            });
            // No subscriber is not an error.
            let _ = self.feed.send(Arc::new((table, msg)));
        }
        (after, changed)
    }

    /// A client's report about its recorder, at `now` on the game timeline: the table's
    /// status and whether it changed (and was published).
    pub fn report(
        &self,
        table: TableId,
        side: Side,
        state: RecorderState,
        microphone: bool,
        reason: Option<String>,
        now: Millis,
    ) -> (TableRecording, bool) {
        self.change(table, |inner, stamp| {
            let facts = inner.seats.entry((table, side)).or_default();
            let was_on = facts
                .report
                .as_ref()
                .filter(|r| r.state == RecorderState::On)
                .map(|r| r.since);
            let since = match (state, was_on) {
                (RecorderState::On, Some(s)) => s,
                _ => now,
            };
            facts.ever_on |= state == RecorderState::On;
            facts.report = Some(Report {
                state,
                microphone,
                reason,
                since,
                stamp,
            });
        })
    }

    /// A recording was stored.
    pub fn uploaded(&self, row: &RecordingRow) -> TableRecording {
        self.change(row.upload.table, |inner, stamp| {
            let facts = inner
                .seats
                .entry((row.upload.table, row.upload.side))
                .or_default();
            facts.upload = Some((row.clone(), stamp));
        })
        .0
    }

    /// The table's game is over (seats that stopped without uploading become missing).
    pub fn game_over(&self, table: TableId) {
        self.change(table, |inner, _| {
            inner.over.insert(table);
        });
    }

    /// The feed of changes: `(table, encoded recording message)`.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<(TableId, String)>> {
        self.feed.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_store::model::Role;

    fn row(n: u64) -> RecordingRow {
        RecordingRow {
            n,
            upload: baoqi_store::recordings::Upload {
                table: TableId(1),
                side: Side::Red,
                role: Role::Red,
                game: "g".into(),
                event_log_offset_ms: 10,
                started_unix_ms: 0,
                sample_rate: 22_050,
                channels: 1,
                duration_ms: 1_000,
                bytes: 44_144,
                received_unix_ms: 0,
            },
            current: true,
        }
    }

    #[test]
    fn s7p6_a_seat_goes_from_off_to_recording_to_uploaded() {
        let board = RecordingBoard::default();
        let mut feed = board.subscribe();
        assert_eq!(board.view(TableId(1)).red, SeatStatus::Off);
        let (v, changed) = board.report(
            TableId(1),
            Side::Red,
            RecorderState::On,
            true,
            None,
            Millis(500),
        );
        assert!(changed);
        assert_eq!(
            v.red,
            SeatStatus::Recording {
                since: Millis(500),
                microphone: true
            }
        );
        assert_eq!(v.black, SeatStatus::Off);
        // A repeated report keeps the start and publishes nothing new.
        let (v, changed) = board.report(
            TableId(1),
            Side::Red,
            RecorderState::On,
            true,
            None,
            Millis(900),
        );
        assert!(!changed);
        assert_eq!(
            v.red,
            SeatStatus::Recording {
                since: Millis(500),
                microphone: true
            }
        );
        let v = board.uploaded(&row(1));
        assert!(matches!(
            v.red,
            SeatStatus::Uploaded {
                n: 1,
                bytes: 44_144,
                ..
            }
        ));
        let sent: Vec<_> = std::iter::from_fn(|| feed.try_recv().ok()).collect();
        assert_eq!(sent.len(), 2);
        assert!(sent[1].1.contains("\"uploaded\""), "{}", sent[1].1);
    }

    #[test]
    fn s7p6_a_stopped_recorder_without_upload_is_missing_at_game_end() {
        let board = RecordingBoard::default();
        board.report(
            TableId(1),
            Side::Black,
            RecorderState::On,
            false,
            None,
            Millis(1),
        );
        board.report(
            TableId(1),
            Side::Black,
            RecorderState::Off,
            false,
            None,
            Millis(2),
        );
        assert_eq!(board.view(TableId(1)).black, SeatStatus::Off);
        board.game_over(TableId(1));
        assert_eq!(board.view(TableId(1)).black, SeatStatus::Missing);
        // A seat that never recorded is simply off.
        assert_eq!(board.view(TableId(1)).red, SeatStatus::Off);
    }

    #[test]
    fn s7p6_a_failure_shows_until_a_recording_arrives() {
        let facts = SeatFacts {
            report: Some(Report {
                state: RecorderState::Failed,
                microphone: false,
                reason: Some("server unreachable".into()),
                since: Millis(0),
                stamp: 3,
            }),
            ever_on: true,
            upload: None,
        };
        assert_eq!(
            status(&facts, true),
            SeatStatus::Failed {
                reason: "server unreachable".into()
            }
        );
        let uploaded = SeatFacts {
            upload: Some((row(2), 4)),
            ..facts
        };
        assert!(matches!(
            status(&uploaded, true),
            SeatStatus::Uploaded { n: 2, .. }
        ));
    }

    #[test]
    fn uploads_found_at_start_show_until_a_new_recording_begins() {
        let board = RecordingBoard::with_uploads(vec![row(1), row(2)]);
        assert!(matches!(
            board.view(TableId(1)).red,
            SeatStatus::Uploaded { n: 2, .. }
        ));
        let (v, _) = board.report(
            TableId(1),
            Side::Red,
            RecorderState::On,
            false,
            None,
            Millis(7),
        );
        assert_eq!(
            v.red,
            SeatStatus::Recording {
                since: Millis(7),
                microphone: false
            }
        );
    }
}
