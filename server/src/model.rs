//! The tournament model: an event has rounds, a round has tables, a table plays one match.
//! Seats (red, black, each side's proxy, referees, spectators) join with secret tokens; only
//! the tokens' hashes are stored, and a token can be revoked.

use std::fmt;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// An event (a tournament), as numbered by the store.
pub type EventId = i64;
/// A table (one match), as numbered by the store; unique across events.
pub type TableId = i64;

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
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A seat's secret: 256 random bits, written as 64 hex digits. Only its hash is stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A fresh random token from the operating system's generator.
    pub fn generate() -> Token {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Token(hex(&bytes))
    }

    /// The token as given by a client (not checked: an unknown token simply matches nothing).
    pub fn from_secret(s: &str) -> Token {
        Token(s.trim().to_string())
    }

    /// The secret itself, to hand to the seat once.
    pub fn secret(&self) -> &str {
        &self.0
    }

    /// The SHA-256 of the secret, hex: what the store keeps and looks up.
    pub fn hash(&self) -> String {
        hex(&Sha256::digest(self.0.as_bytes()))
    }
}

impl fmt::Debug for Token {
    // Never print a secret into a log by accident.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

fn hex(bytes: &[u8]) -> String {
    use fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    /// Its number.
    pub id: EventId,
    /// Its name.
    pub name: String,
    /// Event-wide settings (see [`crate::config::EventSettings`]), JSON.
    pub settings: serde_json::Value,
}

/// A table as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// Its number.
    pub id: TableId,
    /// The event it belongs to.
    pub event: EventId,
    /// The round it is played in (1-based).
    pub round: u32,
    /// A short label, e.g. `視障賽 1`.
    pub name: String,
    /// Red player's name.
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// The match configuration handed to the engine (the arbiter's `MatchConfig`), JSON.
    pub config: serde_json::Value,
}

/// A seat as stored: everything but the secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatRow {
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// The event.
    pub event: EventId,
    /// What the seat may do.
    pub role: Role,
    /// The person's name.
    pub name: String,
    /// The tables the seat belongs to: exactly one for players and proxies; for referees and
    /// spectators, empty means every table of the event.
    pub tables: Vec<TableId>,
    /// A revoked seat can no longer join.
    pub revoked: bool,
}

impl SeatRow {
    /// Whether the seat covers `table` (its event's tables are checked by the caller).
    pub fn covers(&self, table: TableId) -> bool {
        self.tables.is_empty() || self.tables.contains(&table)
    }
}

/// A seat freshly created, with its secret (shown once, never stored).
#[derive(Debug, Clone)]
pub struct IssuedSeat {
    /// The stored part.
    pub seat: SeatRow,
    /// The secret to hand to the person.
    pub token: Token,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_bit_hex_and_distinct() {
        let a = Token::generate();
        let b = Token::generate();
        assert_eq!(a.secret().len(), 64);
        assert!(a.secret().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_ne!(a.hash(), a.secret());
        assert_eq!(a.hash(), Token::from_secret(a.secret()).hash());
    }

    #[test]
    fn roles_round_trip_their_names() {
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert!(!Role::Spectator.may_act());
    }
}
