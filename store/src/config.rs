//! The organiser's event file (`baoqi event create --config event.toml`, sample in
//! `docs/event.toml`) and the event-wide settings stored with the event.

use baoqi_arbiter::MatchConfig;
use baoqi_arbiter::bounds::{self, OutOfBounds};
use baoqi_tournament::RoundNumber;
use serde::{Deserialize, Serialize};

pub mod tournament;

/// What the server does with clocks after a restart (see `docs/decisions.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ResumePolicy {
    /// Clocks stay paused until the referee restarts them (the default).
    #[default]
    Referee,
    /// The server restarts the clocks by itself after `after_secs` seconds.
    Auto {
        /// Seconds after the restart.
        after_secs: u64,
    },
}

/// Event-wide settings, stored as JSON with the event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSettings {
    /// Clock policy after a server restart.
    #[serde(default)]
    pub resume: ResumePolicy,
    /// The server's public address the event's join links are made on (`https://hall.example`):
    /// given once (`baoqi event create --url`, or here), used by every later command that
    /// prints links unless it is given another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A referee named in the event file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefereeSpec {
    /// The referee's name.
    pub name: String,
    /// Table numbers within the file (1-based, in file order) the referee supervises;
    /// empty: every table of the event.
    #[serde(default)]
    pub tables: Vec<usize>,
}

/// A table named in the event file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The round (default 1).
    #[serde(default = "one")]
    pub round: RoundNumber,
    /// A label, e.g. `視障賽 1`.
    pub name: String,
    /// Red player's name.
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// Red's proxy, when one was named before the game.
    #[serde(default)]
    pub red_proxy: Option<String>,
    /// Black's proxy.
    #[serde(default)]
    pub black_proxy: Option<String>,
    /// The arbiter's match configuration (absent: the default).
    #[serde(default, rename = "match")]
    pub config: Option<MatchConfig>,
}

fn one() -> RoundNumber {
    RoundNumber::first()
}

/// A whole event file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventFile {
    /// The event's name.
    pub name: String,
    /// Event-wide settings.
    #[serde(default)]
    pub settings: EventSettings,
    /// Referees (none listed: one referee for every table is created).
    #[serde(default)]
    pub referees: Vec<RefereeSpec>,
    /// Spectator seats to issue (read-only links), default 1.
    #[serde(default = "one_usize")]
    pub spectators: usize,
    /// The tables.
    #[serde(default)]
    pub tables: Vec<TableSpec>,
}

fn one_usize() -> usize {
    1
}

/// The longest server address an event keeps.
pub const MAX_URL_CHARS: usize = 500;

/// Refuses an address the join links cannot be made on: one that is not `http://` or
/// `https://`, holds a space or a control character, or is longer than [`MAX_URL_CHARS`].
pub fn check_url(url: &str) -> Result<(), EventFileError> {
    bounds::text("settings.url", url, MAX_URL_CHARS)?;
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !url.chars().any(char::is_whitespace) => Ok(()),
        _ => Err(EventFileError::Url(url.to_string())),
    }
}

/// The longest wait before the server resumes clocks by itself: a day.
pub const MAX_RESUME_SECS: u64 = 86_400;

/// The most spectator seats one event file may ask for.
pub const MAX_WATCHERS: usize = 1_000;
/// The most tables one event file may list.
pub const MAX_TABLES: usize = 10_000;

/// Why an event file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EventFileError {
    /// Not TOML, or not an event file.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// A referee names a table the file does not list.
    #[error("referee {referee}: there is no table {n} (the file lists {count})")]
    NoSuchTable {
        /// The referee.
        referee: String,
        /// The table number named.
        n: usize,
        /// How many tables the file lists.
        count: usize,
    },
    /// A value no event can use.
    #[error(transparent)]
    Bounds(#[from] OutOfBounds),
    /// A start position that is no legal position.
    #[error("{field}: not a legal position ({source})")]
    StartFen {
        /// The field.
        field: String,
        /// Why, as the rules read it.
        source: baoqi_rules::FenError,
    },
    /// A match configuration under which no violation loses the game.
    #[error(
        "{field}: every violation limit is 0, so a player could never lose by 70(4); \
         give at least one a limit (127(2): technical 2, recording 4, clock 4)"
    )]
    NoViolationLimit {
        /// The configuration (`tables[1].match`, `tournament.match`).
        field: String,
    },
    /// A server address the join links cannot be made on.
    #[error("settings.url: {0:?} is not a server's address (http://… or https://…, no spaces)")]
    Url(String),
    /// A count beyond its limit.
    #[error("{what} = {found} is more than the limit of {limit}")]
    TooMany {
        /// What is counted.
        what: &'static str,
        /// The number asked for.
        found: usize,
        /// The limit.
        limit: usize,
    },
}

impl EventFile {
    /// Reads an event file written in TOML and checks its counts against their limits.
    pub fn from_toml(text: &str) -> Result<EventFile, EventFileError> {
        let file: EventFile = toml::from_str(text)?;
        file.check()?;
        Ok(file)
    }

    /// Reads an event file that may have a `[tournament]` section: the event and
    /// the tournament's settings, checked like [`EventFile::from_toml`].
    pub fn with_tournament(
        text: &str,
    ) -> Result<(EventFile, Option<tournament::TournamentSettings>), EventFileError> {
        let mut table: toml::Table = toml::from_str(text)?;
        let tournament: Option<tournament::TournamentSettings> = table
            .remove("tournament")
            .map(toml::Value::try_into)
            .transpose()?;
        let file: EventFile = toml::Value::Table(table).try_into()?;
        file.check()?;
        if let Some(t) = &tournament {
            t.check()?;
        }
        Ok((file, tournament))
    }

    /// Refuses counts beyond [`MAX_WATCHERS`] and [`MAX_TABLES`], and every value no event
    /// can use, naming the field.
    pub fn check(&self) -> Result<(), EventFileError> {
        let limit = |what, found, limit| {
            if found > limit {
                Err(EventFileError::TooMany { what, found, limit })
            } else {
                Ok(())
            }
        };
        limit("spectators", self.spectators, MAX_WATCHERS)?;
        limit("tables", self.tables.len(), MAX_TABLES)?;
        bounds::name("name", &self.name)?;
        if let Some(url) = &self.settings.url {
            check_url(url)?;
        }
        if let ResumePolicy::Auto { after_secs } = self.settings.resume {
            bounds::at_most("settings.resume.after_secs", after_secs, MAX_RESUME_SECS)?;
        }
        for (i, r) in self.referees.iter().enumerate() {
            bounds::name(&format!("referees[{}].name", i + 1), &r.name)?;
        }
        for (i, t) in self.tables.iter().enumerate() {
            t.check(&format!("tables[{}]", i + 1))?;
        }
        Ok(())
    }
}

impl TableSpec {
    /// Its names and its match configuration (`field` names the table in the file).
    pub fn check(&self, field: &str) -> Result<(), EventFileError> {
        bounds::name(&format!("{field}.name"), &self.name)?;
        bounds::name(&format!("{field}.red"), &self.red)?;
        bounds::name(&format!("{field}.black"), &self.black)?;
        for (proxy, side) in [
            (&self.red_proxy, "red_proxy"),
            (&self.black_proxy, "black_proxy"),
        ] {
            if let Some(p) = proxy {
                bounds::name(&format!("{field}.{side}"), p)?;
            }
        }
        match &self.config {
            Some(c) => check_match(c, &format!("{field}.match")),
            None => Ok(()),
        }
    }
}

/// A match configuration of the event file: its bounds, and at least one violation limit.
pub fn check_match(config: &MatchConfig, field: &str) -> Result<(), EventFileError> {
    config.check().map_err(|e| OutOfBounds {
        field: format!("{field}.{}", e.field),
        why: e.why,
    })?;
    if config.without_violation_limits() {
        return Err(EventFileError::NoViolationLimit {
            field: field.to_string(),
        });
    }
    if let Some(fen) = &config.start_fen {
        baoqi_rules::Position::from_fen(fen).map_err(|source| EventFileError::StartFen {
            field: format!("{field}.start_fen"),
            source,
        })?;
    }
    Ok(())
}

/// Maps table numbers of the file (1-based) to stored table ids (or to whatever `ids` holds
/// for the file's tables, in order: their places in a batch not yet written).
pub fn referee_tables<T: Copy>(spec: &RefereeSpec, ids: &[T]) -> Result<Vec<T>, EventFileError> {
    spec.tables
        .iter()
        .map(|&n| {
            n.checked_sub(1)
                .and_then(|i| ids.get(i).copied())
                .ok_or_else(|| EventFileError::NoSuchTable {
                    referee: spec.name.clone(),
                    n,
                    count: ids.len(),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_event_file_reads() {
        let text = include_str!("../../docs/event.toml");
        let file = EventFile::from_toml(text).unwrap();
        assert!(!file.tables.is_empty());
        assert!(file.tables.iter().all(|t| t.config.is_some()));
        assert_eq!(file.settings.resume, ResumePolicy::Referee);
    }

    #[test]
    fn an_unknown_field_is_refused() {
        assert!(EventFile::from_toml("name = \"x\"\ncolour = 1\n").is_err());
    }

    #[test]
    fn s11_counts_beyond_their_limits_are_refused_with_the_limit() {
        let e =
            EventFile::from_toml("name = \"x\"\nspectators = 9223372036854775807\n").unwrap_err();
        assert!(e.to_string().contains("limit of 1000"), "{e}");
    }
}
