//! The register of an event: `baoqi players import` (a CSV file in UTF-8, UTF-16 or Big5,
//! read by the tournament core), `baoqi players list` (each player with his rating and the
//! settings derived for him, 7.2) and `baoqi players delete` (a line entered by mistake,
//! struck before the player is paired: a clerical correction, not a withdrawal, 89(2)).

use std::fmt::Write as _;

use baoqi_arbiter::{BoardUse, ClockMode};
use baoqi_tournament::{
    DecodeError, EventRules, Player, PlayerId, RegisterError, RoundNumber, SameName, TextEncoding,
    decode_register, read_register_with,
};

use super::spreadsheet::category_name;
use super::{EventError, Logged, Opened, PairingRow, Registered};
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
    /// The file's bytes are not text in an encoding the register reads.
    #[error(transparent)]
    Decode(#[from] DecodeError),
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

/// A register imported from a file.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The players, by number.
    pub players: Vec<Registered>,
    /// The encoding the file was read in.
    pub encoding: TextEncoding,
    /// The columns of the file the register does not read, named back to the organiser.
    pub unread: Vec<String>,
}

/// A player's sex and year of birth, as the prizes ask for them (` 女 2010`), when given.
fn prize_facts(p: &baoqi_tournament::Player) -> String {
    let sex = p.sex.map(|s| match s {
        baoqi_tournament::Sex::Female => " 女",
        baoqi_tournament::Sex::Male => " 男",
    });
    let born = p.born.map(|y| format!(" {y}")).unwrap_or_default();
    format!("{}{born}", sex.unwrap_or_default())
}

/// Imports the register of `event` from a CSV file's bytes (replacing one not yet paired
/// on): UTF-8 or UTF-16 by its byte order mark, else UTF-8, else Big5
/// ([`decode_register`]); `same_name` is the organiser's confirmation that players of one
/// name and club are different people.
pub fn import_file(
    store: &dyn Store,
    event: EventId,
    bytes: &[u8],
    same_name: SameName,
) -> Result<Imported, ImportError> {
    if bytes.len() > baoqi_tournament::MAX_REGISTER_BYTES.saturating_mul(2) {
        // UTF-16 takes up to twice the bytes of the text: larger is too large in any case.
        return Err(RegisterError::TooLarge {
            bytes: bytes.len(),
            max: baoqi_tournament::MAX_REGISTER_BYTES,
        }
        .into());
    }
    let decoded = decode_register(bytes)?;
    let players = import_text(store, event, &decoded.text, same_name)?;
    Ok(Imported {
        players,
        encoding: decoded.encoding,
        unread: baoqi_tournament::unread_columns(&decoded.text),
    })
}

/// Imports the register of `event` from CSV text (replacing one not yet paired on); a
/// second player of one name and club is refused.
pub fn import(
    store: &dyn Store,
    event: EventId,
    csv: &str,
) -> Result<Vec<Registered>, ImportError> {
    import_text(store, event, csv, SameName::Refuse)
}

fn import_text(
    store: &dyn Store,
    event: EventId,
    csv: &str,
    same_name: SameName,
) -> Result<Vec<Registered>, ImportError> {
    let t = Opened::open(store, event)?;
    if let Some(last) = super::last_round(&t.records.pairings(event)?) {
        return Err(ImportError::Started {
            event,
            rounds: last.rounds_through(),
        });
    }
    let players: Vec<Registered> = read_register_with(csv, same_name)?
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

/// Why a register line cannot be struck; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum DeleteError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No player of this number.
    #[error("event {event} has no player {player}")]
    UnknownPlayer {
        /// The event.
        event: EventId,
        /// The number asked for.
        player: PlayerId,
    },
    /// The player has a board: his line is part of the event's record.
    #[error(
        "{player} {name} is paired in round {round}: a player once paired stays in the register; if he leaves the event, withdraw him (89(2), `baoqi players withdraw`)"
    )]
    Paired {
        /// The player.
        player: PlayerId,
        /// His name.
        name: String,
        /// The first round he is paired in.
        round: RoundNumber,
    },
    /// The player has withdrawn: his line stays with the withdrawal (89(2)).
    #[error("player {0} has withdrawn (89(2)): his line stays with the withdrawal")]
    Withdrawn(PlayerId),
    /// The reason holds a control character, a bidi control or a zero-width character
    /// ([`baoqi_arbiter::bounds::hidden_in_sentence`]): the change log would show it.
    #[error("reason: holds U+{0:04X}, a character that hides or reorders the text around it")]
    HiddenInReason(u32),
}

impl DeleteError {
    /// A short name of the refusal, for a page to say it in its own language.
    pub fn code(&self) -> &'static str {
        match self {
            DeleteError::Event(EventError::NoEvent(_)) => "no_event",
            DeleteError::Event(EventError::NotATournament(_)) => "not_a_tournament",
            DeleteError::Event(_) | DeleteError::Store(_) => "internal",
            DeleteError::UnknownPlayer { .. } => "unknown_player",
            DeleteError::Paired { .. } => "paired",
            DeleteError::Withdrawn(_) => "already_withdrawn",
            DeleteError::HiddenInReason(_) => "bad_text",
        }
    }
}

/// The first round that pairs `player` (a bye included), if any.
fn first_round(rows: &[PairingRow], player: PlayerId) -> Option<RoundNumber> {
    rows.iter()
        .filter(|r| r.red == player || r.black == Some(player))
        .map(|r| r.round)
        .min()
}

/// Strikes `player`'s line from the register of `event`: a line entered by mistake, struck
/// before the player is paired in any round (a clerical correction, not a withdrawal: 89(2)
/// is for a player who leaves the event). Logged with `reason`; the other players keep
/// their numbers. Returns the line struck.
pub fn delete(
    store: &dyn Store,
    event: EventId,
    player: PlayerId,
    reason: Option<&str>,
) -> Result<Player, DeleteError> {
    if let Some(c) = reason.and_then(baoqi_arbiter::bounds::hidden_in_sentence) {
        return Err(DeleteError::HiddenInReason(u32::from(c)));
    }
    let t = Opened::open(store, event)?;
    let registered = t.records.players(event)?;
    let line = registered
        .iter()
        .find(|r| r.player.id == player)
        .ok_or(DeleteError::UnknownPlayer { event, player })?;
    if !line.active {
        return Err(DeleteError::Withdrawn(player));
    }
    if let Some(round) = first_round(&t.records.pairings(event)?, player) {
        return Err(DeleteError::Paired {
            player,
            name: line.player.name.clone(),
            round,
        });
    }
    let struck = line.player.clone();
    let rest: Vec<Registered> = registered
        .iter()
        .filter(|r| r.player.id != player)
        .cloned()
        .collect();
    t.records.put_players(event, &rest)?;
    t.log(Logged::Deleted {
        player: struck.clone(),
        reason: reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
    })?;
    Ok(struck)
}

/// The register of `event`.
pub fn list(
    store: &dyn Store,
    event: EventId,
) -> Result<(EventRules, Vec<Registered>), EventError> {
    let t = Opened::open(store, event)?;
    Ok((t.settings.rules(&t.event.name), t.records.players(event)?))
}

fn minutes(ms: u64) -> String {
    let (m, s) = (ms / 60_000, ms % 60_000 / 1000);
    if s == 0 {
        format!("{m}′")
    } else {
        format!("{m}′{s:02}″")
    }
}

/// The register as a listing: number, name, club, seed, rating, categories and the settings the
/// event's rules derive for each player (time allowance 7.2, board, cards, announcing).
pub fn list_text(rules: &EventRules, players: &[Registered]) -> String {
    let mut out = String::new();
    for r in players {
        let p = &r.player;
        let s = rules.settings(p);
        let mut cats: Vec<&str> = p.categories.iter().map(|c| category_name(*c)).collect();
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
            "{:>3} {}{}{}{} [{}]{} time {}{extra}, {board}",
            p.id.0,
            p.name,
            p.club
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default(),
            p.seed.map(|s| format!(" seed {s}")).unwrap_or_default(),
            p.rating.map(|r| format!(" rating {r}")).unwrap_or_default(),
            cats.join("、"),
            prize_facts(p),
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
