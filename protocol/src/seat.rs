//! Who is at the table: [`Role`]s, and who may see an event ([`Audience`]).

use std::fmt;

use baoqi_arbiter::{Seat, Side};
use serde::{Deserialize, Serialize};

/// Defines a store-numbered id: a newtype over `i64`, the same number on the wire (JSON), in
/// the links and on the command line, so that an event's number can never be passed where a
/// table's is expected.
macro_rules! store_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }
    };
}

store_id!(
    /// An event (a tournament), as numbered by the store.
    EventId
);
store_id!(
    /// A table (one match), as numbered by the store; unique across events.
    TableId
);

/// What a seat may do. Players and proxies act for their own side of one table; a referee
/// acts on the tables it supervises (all of the event's when it lists none); a spectator
/// only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The red player.
    Red,
    /// The black player.
    Black,
    /// Red's proxy (operates boards and clock for a VI player, announces for a deaf one).
    RedProxy,
    /// Black's proxy.
    BlackProxy,
    /// A supervising referee (監局裁判).
    Referee,
    /// A read-only spectator.
    Spectator,
}

impl Role {
    /// Every role, in display order.
    pub const ALL: [Role; 6] = [
        Role::Red,
        Role::Black,
        Role::RedProxy,
        Role::BlackProxy,
        Role::Referee,
        Role::Spectator,
    ];

    /// The wire and storage name (`red`, `red_proxy`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Red => "red",
            Role::Black => "black",
            Role::RedProxy => "red_proxy",
            Role::BlackProxy => "black_proxy",
            Role::Referee => "referee",
            Role::Spectator => "spectator",
        }
    }

    /// Reads a wire or storage name.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether this role may send commands at all.
    pub fn may_act(self) -> bool {
        self != Role::Spectator
    }

    /// The arbiter's seat of this role; `None` for a spectator, who acts on nothing.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Role::Red => Some(Seat::Red),
            Role::Black => Some(Seat::Black),
            Role::RedProxy => Some(Seat::RedProxy),
            Role::BlackProxy => Some(Seat::BlackProxy),
            Role::Referee => Some(Seat::Referee),
            Role::Spectator => None,
        }
    }

    /// The side a player or proxy plays for.
    pub fn side(self) -> Option<Side> {
        self.seat().and_then(Seat::side)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who may see an event. The referee sees every event; spectators only [`Audience::All`].
/// It is a function of the event alone ([`Audience::of`]), so a stored event routes the
/// same way as a live one, and an event that cannot be read is never routed at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone at the table and the spectators.
    All,
    /// Red's player and proxy, and the referee.
    Red,
    /// Black's player and proxy, and the referee.
    Black,
    /// The referee only.
    Referee,
}

impl Audience {
    /// The audience of an arbiter event.
    pub fn of(event: &baoqi_arbiter::Event) -> Audience {
        match event.audience() {
            baoqi_arbiter::Audience::All => Audience::All,
            baoqi_arbiter::Audience::Side(Side::Red) => Audience::Red,
            baoqi_arbiter::Audience::Side(Side::Black) => Audience::Black,
            baoqi_arbiter::Audience::Referee => Audience::Referee,
        }
    }

    /// Whether a seat of `role` receives an event meant for this audience.
    pub fn includes(self, role: Role) -> bool {
        match self {
            Audience::All => true,
            Audience::Red => matches!(role, Role::Red | Role::RedProxy | Role::Referee),
            Audience::Black => matches!(role, Role::Black | Role::BlackProxy | Role::Referee),
            Audience::Referee => role == Role::Referee,
        }
    }
}
