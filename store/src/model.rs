//! The tournament model: an event has rounds, a round has tables, a table plays one match.
//! Seats (red, black, each side's proxy, referees, spectators) join with secret tokens; only
//! the tokens' hashes are stored, and a token can be revoked.

use std::fmt;

use baoqi_tournament::RoundNumber;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use baoqi_protocol::{EventId, Role, TableId};

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
    /// Event-wide settings.
    pub settings: crate::config::EventSettings,
}

/// A table as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// Its number.
    pub id: TableId,
    /// The event it belongs to.
    pub event: EventId,
    /// The round it is played in (1-based).
    pub round: RoundNumber,
    /// A short label, e.g. `視障賽 1`.
    pub name: String,
    /// Red player's name.
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// The arbiter's match configuration.
    pub config: baoqi_arbiter::MatchConfig,
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
}
