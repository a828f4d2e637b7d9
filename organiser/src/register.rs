//! The register of an event: `baoqi players import` (a CSV, read by the tournament core) and
//! `baoqi players list` (each player with the settings derived for him, 7.2).

use std::fmt::Write as _;

use baoqi_arbiter::{BoardUse, Category, ClockMode};
use baoqi_tournament::{EventRules, RegisterError, read_register};

use super::{EventError, Logged, Opened, Registered};
use baoqi_store::model::EventId;
use baoqi_store::{Store, StoreError};

/// Why a register cannot be imported; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The CSV is not a register.
    #[error(transparent)]
    Register(#[from] RegisterError),
    /// The register is empty.
    #[error("the register lists no player")]
    Empty,
    /// Rounds have been paired on the register already: a new one would orphan them.
    #[error("event {event} has {rounds} paired round(s): its register can no longer be replaced")]
    Started {
        /// The event.
        event: EventId,
        /// Rounds paired.
        rounds: u32,
    },
}

/// Imports the register of `event` from CSV text (replacing one not yet paired on).
pub fn import(
    store: &dyn Store,
    event: EventId,
    csv: &str,
) -> Result<Vec<Registered>, ImportError> {
    let t = Opened::open(store, event)?;
    let rounds = super::last_round(&t.records.pairings(event)?);
    if rounds > 0 {
        return Err(ImportError::Started { event, rounds });
    }
    let players: Vec<Registered> = read_register(csv)?
        .into_iter()
        .map(|player| Registered {
            player,
            active: true,
        })
        .collect();
    if players.is_empty() {
        return Err(ImportError::Empty);
    }
    t.records.put_players(event, &players)?;
    t.log(Logged::Registered {
        players: players.len() as u32,
    })?;
    Ok(players)
}

/// The register of `event`.
pub fn list(
    store: &dyn Store,
    event: EventId,
) -> Result<(EventRules, Vec<Registered>), EventError> {
    let t = Opened::open(store, event)?;
    Ok((t.settings.rules(&t.event.name), t.records.players(event)?))
}

fn category(c: Category) -> &'static str {
    match c {
        Category::Blind => "全失明",
        Category::PartiallySighted => "部份失明",
        Category::Sighted => "健視",
        Category::Deaf => "聾啞",
        Category::Physical => "肢體傷殘",
    }
}

fn minutes(ms: u64) -> String {
    let (m, s) = (ms / 60_000, ms % 60_000 / 1000);
    if s == 0 {
        format!("{m}′")
    } else {
        format!("{m}′{s:02}″")
    }
}

/// The register as a listing: number, name, club, seed, categories and the settings the
/// event's rules derive for each player (time allowance 7.2, board, cards, announcing).
pub fn list_text(rules: &EventRules, players: &[Registered]) -> String {
    let mut out = String::new();
    for r in players {
        let p = &r.player;
        let s = rules.settings(p);
        let mut cats: Vec<&str> = p.categories.iter().map(|c| category(*c)).collect();
        if cats.is_empty() {
            cats.push("健視");
        }
        if p.blindfold {
            cats.push("眼罩");
        }
        let extra = match s.time.mode {
            ClockMode::Plain | ClockMode::Hourglass => String::new(),
            _ => format!("+{}s", s.time.extra_ms / 1000),
        };
        let board = match s.board {
            BoardUse::Vi => "VI board",
            BoardUse::Regular => "board",
            BoardUse::None => "no board",
        };
        let _ = write!(
            out,
            "{:>3} {}{}{} [{}] time {}{extra}, {board}",
            p.id.0,
            p.name,
            p.club
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default(),
            p.seed.map(|s| format!(" seed {s}")).unwrap_or_default(),
            cats.join("、"),
            minutes(s.time.base_ms),
        );
        if s.cards {
            out.push_str(", cards");
        }
        if s.referee_announces {
            out.push_str(", referee announces first");
        }
        if let Some(proxy) = &p.proxy {
            let _ = write!(out, ", proxy {proxy}");
        }
        if !r.active {
            out.push_str(", withdrawn");
        }
        out.push('\n');
    }
    out
}
