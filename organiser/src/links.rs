//! The event's links after it was made: the server address they are made on (remembered
//! from `baoqi event create --url`), a lost link reissued (`baoqi event reissue`: the old
//! token revoked, a new one for the same seat, in one transaction) and spectators added
//! (`baoqi event spectators`). Each change is logged ([`Logged::Seat`]).

use std::fmt::Write as _;

use baoqi_store::amendment::Amendment;
use baoqi_store::config::{EventFileError, check_url};
use baoqi_store::model::{EventId, EventRow, IssuedSeat, Role, SeatRow, TableId, Token};
use baoqi_store::{NewSeat, NewTables, Store, StoreError};

use crate::Logged;
use crate::admin::{self, Created};

/// The address links are made on when neither the command nor the event gives one.
pub const DEFAULT_URL: &str = "http://127.0.0.1:7878";

/// Why the event's links cannot be given; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// There is no such event.
    #[error("there is no event {0}")]
    NoEvent(EventId),
    /// The address given cannot make links.
    #[error(transparent)]
    Url(#[from] EventFileError),
    /// No seat of the event answers the description.
    #[error("event {event} has no seat {wanted} still in use")]
    NoSeat {
        /// The event.
        event: EventId,
        /// The seat asked for, in words.
        wanted: String,
    },
    /// Several seats answer it.
    #[error(
        "event {event} has {count} seats {wanted}: name the table and role instead (--table T --role R)"
    )]
    Several {
        /// The event.
        event: EventId,
        /// The seat asked for, in words.
        wanted: String,
        /// How many.
        count: usize,
    },
    /// The store keeps no change log.
    #[error("this store keeps no change log")]
    Unsupported,
    /// Too many spectators asked for at once.
    #[error("{0} spectators at once is more than the {max} an event file may ask for", max = baoqi_store::config::MAX_WATCHERS)]
    TooMany(usize),
}

/// The event's row.
fn event_row(store: &dyn Store, event: EventId) -> Result<EventRow, LinkError> {
    store
        .events()?
        .into_iter()
        .find(|e| e.id == event)
        .ok_or(LinkError::NoEvent(event))
}

/// The address `event`'s links are made on: `given` (checked) when the command gives one,
/// else the one the event was created with, else [`DEFAULT_URL`].
pub fn base(store: &dyn Store, event: EventId, given: Option<&str>) -> Result<String, LinkError> {
    if let Some(url) = given {
        check_url(url)?;
        return Ok(url.to_string());
    }
    let row = event_row(store, event)?;
    Ok(row.settings.url.unwrap_or_else(|| DEFAULT_URL.to_string()))
}

/// Which seat's link is reissued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Which {
    /// The seat of `role` at table `table` (a player or a proxy).
    At {
        /// The table.
        table: TableId,
        /// The role.
        role: Role,
    },
    /// The one seat of this name (a referee, a spectator, a player).
    Named(String),
}

impl Which {
    fn text(&self) -> String {
        match self {
            Which::At { table, role } => format!("{} at table {table}", role.as_str()),
            Which::Named(name) => format!("named {name:?}"),
        }
    }

    fn fits(&self, s: &SeatRow) -> bool {
        match self {
            Which::At { table, role } => s.role == *role && s.tables == [*table],
            Which::Named(name) => s.name == *name,
        }
    }
}

/// Seats issued after the event was made, with their secrets (shown once).
#[derive(Debug, Clone)]
pub struct Issued {
    /// The seats, as [`admin::describe`] lists them (their tables with them, so a deaf
    /// player's link opens the card page).
    pub created: Created,
    /// Whether they replace lost links (the old ones revoked).
    pub reissued: bool,
}

/// Reissues the link of the seat `which` of `event`: a new token for the same role, name
/// and tables, the old token revoked (its link stops working and its connections close),
/// in one transaction, logged.
pub fn reissue(store: &dyn Store, event: EventId, which: &Which) -> Result<Issued, LinkError> {
    let row = event_row(store, event)?;
    let found: Vec<SeatRow> = store
        .seats(event)?
        .into_iter()
        .filter(|s| !s.revoked && which.fits(s))
        .collect();
    let old = match found.as_slice() {
        [one] => one.clone(),
        [] => {
            return Err(LinkError::NoSeat {
                event,
                wanted: which.text(),
            });
        }
        many => {
            return Err(LinkError::Several {
                event,
                wanted: which.text(),
                count: many.len(),
            });
        }
    };
    let token = Token::generate();
    let seat = SeatRow {
        token_hash: token.hash(),
        revoked: false,
        ..old.clone()
    };
    let amendment = Amendment {
        tables: NewTables {
            tables: Vec::new(),
            seats: vec![NewSeat {
                seat: seat.clone(),
                tables: Vec::new(),
            }],
        },
        revoke: vec![old.token_hash.clone()],
        log: vec![Logged::Seat {
            role: old.role,
            name: old.name.clone(),
            tables: old.tables.clone(),
            reissued: true,
        }],
        at: baoqi_store::wallclock::now(),
        ..Amendment::default()
    };
    store
        .tournaments()
        .ok_or(LinkError::Unsupported)?
        .amend(event, &amendment)?;
    let tables = store
        .tables(Some(event))?
        .into_iter()
        .filter(|t| seat.tables.contains(&t.id))
        .collect();
    Ok(Issued {
        created: Created {
            event,
            name: row.name,
            tables,
            seats: vec![IssuedSeat { seat, token }],
        },
        reissued: true,
    })
}

/// Adds `count` spectator seats (read-only links to every table) to `event`, numbered
/// after those it has, in one transaction, logged.
pub fn add_spectators(
    store: &dyn Store,
    event: EventId,
    count: usize,
) -> Result<Issued, LinkError> {
    if count > baoqi_store::config::MAX_WATCHERS {
        return Err(LinkError::TooMany(count));
    }
    let row = event_row(store, event)?;
    let had = store
        .seats(event)?
        .iter()
        .filter(|s| s.role == Role::Spectator)
        .count();
    let mut seats = Vec::new();
    let mut issued = Vec::new();
    let mut log = Vec::new();
    for n in had + 1..=had + count {
        let token = Token::generate();
        let seat = SeatRow {
            token_hash: token.hash(),
            event,
            role: Role::Spectator,
            name: format!("spectator {n}"),
            tables: Vec::new(),
            revoked: false,
        };
        seats.push(NewSeat {
            seat: seat.clone(),
            tables: Vec::new(),
        });
        log.push(Logged::Seat {
            role: Role::Spectator,
            name: seat.name.clone(),
            tables: Vec::new(),
            reissued: false,
        });
        issued.push(IssuedSeat { seat, token });
    }
    let amendment = Amendment {
        tables: NewTables {
            tables: Vec::new(),
            seats,
        },
        log,
        at: baoqi_store::wallclock::now(),
        ..Amendment::default()
    };
    store
        .tournaments()
        .ok_or(LinkError::Unsupported)?
        .amend(event, &amendment)?;
    Ok(Issued {
        created: Created {
            event,
            name: row.name,
            tables: Vec::new(),
            seats: issued,
        },
        reissued: false,
    })
}

/// The seats issued, as the command line prints them: each seat's role, name, tables, link
/// and token, and for a reissued link that the old one no longer works.
pub fn describe(issued: &Issued, base: &str) -> String {
    let mut out = String::new();
    for s in &issued.created.seats {
        let link = admin::link_of(&issued.created, s, base);
        let tables: Vec<String> = s.seat.tables.iter().map(ToString::to_string).collect();
        let at = if tables.is_empty() {
            "all tables".to_string()
        } else {
            format!("table {}", tables.join(","))
        };
        let what = if issued.reissued {
            "new link (the old one no longer works)"
        } else {
            "link"
        };
        // A spectator's seat is named by its role already (`spectator 2`).
        let (role, name) = (s.seat.role.as_str(), &s.seat.name);
        let who = if name.starts_with(role) {
            name.clone()
        } else {
            format!("{role} {name}")
        };
        let _ = writeln!(
            out,
            "{who} ({at}): {what}: {link}\n  token {}",
            s.token.secret()
        );
    }
    out
}
