//! The two players' bots of a round: both seats connected, the script played on from where
//! the store stands, paced within the server's per-seat command rate, and every
//! acknowledged command noted.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baoqi_arbiter::{ClockView, Command, Event, Millis};
use baoqi_protocol::{ClientMsg, ServerMsg, encode_client};
use baoqi_rules::Color;
use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::Message;

use super::CrashError;
use super::fill::BASE_MS;
use super::referee::ANSWER_TIMEOUT;
use crate::bot::{Ws, connect, next_msg};
use baoqi_store::model::Role;

/// One command the server acknowledged.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Acked {
    /// Who sent it.
    pub(super) role: Role,
    /// The command.
    pub(super) command: Command,
    /// The sequence number of its last event, from the acknowledgement.
    pub(super) seq: u64,
}

/// The most a mover waits before pressing to even out the clocks.
const MAX_EVEN_OUT: Duration = Duration::from_secs(1);

/// The last clock a player's socket reported, the server's instant of the report, and when
/// it arrived here: enough to tell both clocks now.
#[derive(Clone, Copy)]
struct LastClock {
    clock: ClockView,
    at: Millis,
    received: Instant,
}

impl LastClock {
    fn remaining(&self, color: Color) -> u64 {
        let now = Millis(self.at.0 + self.received.elapsed().as_millis() as u64);
        self.clock.remaining(color, now)
    }
}

/// Both seats of the table.
struct Players {
    /// Red's and black's sockets.
    seats: [Ws; 2],
    clock: Option<LastClock>,
}

fn index(role: Role) -> usize {
    usize::from(role != Role::Red)
}

fn color(role: Role) -> Color {
    if role == Role::Red {
        Color::Red
    } else {
        Color::Black
    }
}

impl Players {
    fn follow(&mut self, m: &ServerMsg) {
        let (clock, at) = match m {
            ServerMsg::State { snapshot, at, .. } => (snapshot.clock, *at),
            ServerMsg::Event { event, at, .. } => match &**event {
                Event::Started { clock, .. } | Event::Clock { clock } => (*clock, *at),
                _ => return,
            },
            _ => return,
        };
        self.clock = Some(LastClock {
            clock,
            at,
            received: Instant::now(),
        });
    }

    /// The next message on either socket; `None` once the server is gone.
    async fn next(&mut self) -> Option<ServerMsg> {
        let [red, black] = &mut self.seats;
        let m = tokio::select! {
            m = next_msg(red) => m,
            m = next_msg(black) => m,
        };
        if let Some(m) = &m {
            self.follow(m);
        }
        m
    }

    /// 沙漏制 hands the time a mover uses to the opponent: the sum of the clocks stays, and a
    /// mover who presses with as much left as the opponent keeps the sides where they are.
    /// A mover with more left than the opponent (or than half the base time, whichever is
    /// more) waits for the difference before pressing: without this the clocks drift over
    /// the rounds (each restart gives the side to move back up to one timeline mark, and
    /// reconnecting costs it a little) until one side loses on time while playing.
    fn even_out(&self, mover: Role) -> Duration {
        let Some(last) = self.clock else {
            return Duration::ZERO;
        };
        let mine = last.remaining(color(mover));
        let theirs = last.remaining(color(mover).other());
        let keep = theirs.max(BASE_MS / 2);
        Duration::from_millis(mine.saturating_sub(keep)).min(MAX_EVEN_OUT)
    }
}

/// Connects both seats to `base` (`ws://ADDR`) with their tokens (red, black) and plays
/// `steps` from `from` on, one command per `pace` at most, until the script ends or the
/// server goes away; pushes every acknowledged command to `acked`. A refused command is an
/// error: the stored log and the script disagree.
pub(super) async fn play(
    base: String,
    tokens: [String; 2],
    steps: Arc<[(Role, Command)]>,
    from: usize,
    pace: Duration,
    acked: Arc<Mutex<Vec<Acked>>>,
) -> Result<(), CrashError> {
    let url = format!("{base}/ws/seat");
    let (mut seats, mut states) = (Vec::new(), Vec::new());
    for token in &tokens {
        let mut ws = connect(&url, token, &None)
            .await
            .map_err(CrashError::Connection)?;
        loop {
            let m = tokio::time::timeout(ANSWER_TIMEOUT, next_msg(&mut ws))
                .await
                .map_err(|_| CrashError::Timeout("a player's first state".into()))?;
            match m {
                Some(m @ ServerMsg::State { .. }) => {
                    states.push(m);
                    break;
                }
                Some(_) => {}
                None => return Ok(()),
            }
        }
        seats.push(ws);
    }
    let (Some(black), Some(red)) = (seats.pop(), seats.pop()) else {
        return Err(CrashError::Connection("a seat did not join".into()));
    };
    let mut players = Players {
        seats: [red, black],
        clock: None,
    };
    // The clocks as they stand when the seats join: a round often ends before any press
    // reports them again.
    for m in &states {
        players.follow(m);
    }
    let mut tick = tokio::time::interval(pace);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for (k, (role, command)) in steps.iter().enumerate().skip(from) {
        tick.tick().await;
        if *command == Command::PressClock {
            tokio::time::sleep(players.even_out(*role)).await;
        }
        let id = k.to_string();
        let msg = ClientMsg::Command {
            id: Some(id.clone()),
            table: None,
            command: command.clone(),
        };
        let seat = &mut players.seats[index(*role)];
        if seat.send(Message::text(encode_client(&msg))).await.is_err() {
            return Ok(());
        }
        loop {
            let Some(m) = players.next().await else {
                return Ok(());
            };
            match m {
                ServerMsg::Ack {
                    id: Some(a), seq, ..
                } if a == id => {
                    let mut list = acked
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    list.push(Acked {
                        role: *role,
                        command: command.clone(),
                        seq,
                    });
                    break;
                }
                ServerMsg::Rejected {
                    id: Some(ref a), ..
                }
                | ServerMsg::Error {
                    id: Some(ref a), ..
                } if *a == id => {
                    return Err(CrashError::Refused {
                        what: format!("{role} {command:?} (script step {k})"),
                        why: format!("{m:?}"),
                    });
                }
                _ => {}
            }
        }
    }
    Ok(())
}
