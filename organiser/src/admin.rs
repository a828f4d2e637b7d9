//! Organiser actions on a store: create an event from its file, add a table, issue and
//! revoke seats. They work on the database directly, whether or not a server is running on
//! it (a running server picks up new tables within seconds).

use std::fmt::Write as _;

use baoqi_arbiter::{Category, ConfigError, Match, Millis};

use baoqi_store::config::{EventFile, EventFileError, TableSpec, referee_tables};
use baoqi_store::model::{EventId, IssuedSeat, Role, SeatRow, TableId, TableRow, Token};
use baoqi_store::{NewSeat, NewTables, Store, StoreError};

/// Why an organiser action failed; nothing after the failing step was done.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The event file is not usable.
    #[error(transparent)]
    File(#[from] EventFileError),
    /// The event file has a `[tournament]` section and the store keeps no tournaments.
    #[error("this store keeps no tournaments")]
    NoTournaments,
    /// A table's match configuration cannot make a match.
    #[error("table {table}: {source}")]
    Config {
        /// The table's label.
        table: String,
        /// Why.
        source: ConfigError,
    },
}

/// An event just created, with every seat's secret (shown once).
#[derive(Debug, Clone)]
pub struct Created {
    /// The event.
    pub event: EventId,
    /// Its name.
    pub name: String,
    /// Its tables.
    pub tables: Vec<TableRow>,
    /// Every seat issued, with its secret.
    pub seats: Vec<IssuedSeat>,
}

/// Issues a seat: a fresh token, stored hashed.
pub fn issue(
    store: &dyn Store,
    event: EventId,
    role: Role,
    name: &str,
    tables: Vec<TableId>,
) -> Result<IssuedSeat, StoreError> {
    let token = Token::generate();
    let seat = SeatRow {
        token_hash: token.hash(),
        event,
        role,
        name: name.to_string(),
        tables,
        revoked: false,
    };
    store.add_seat(&seat)?;
    Ok(IssuedSeat { seat, token })
}

/// A table of `spec` (not yet numbered) and the seats it needs: red, black, and each
/// proxy named. Its configuration is checked now, not when the server starts it.
fn plan_table(
    event: EventId,
    spec: &TableSpec,
) -> Result<(TableRow, Vec<(Role, String)>), AdminError> {
    let mut config = spec.config.clone().unwrap_or_default();
    // A proxy named for the table is the side's proxy in the match (7.4(2)(d)(ii)).
    for (named, side) in [
        (&spec.red_proxy, &mut config.red),
        (&spec.black_proxy, &mut config.black),
    ] {
        if side.proxy.is_none() {
            side.proxy.clone_from(named);
        }
    }
    // Refuse a configuration the arbiter cannot use now, not when the server starts.
    Match::new(config.clone(), Millis(0)).map_err(|source| AdminError::Config {
        table: spec.name.clone(),
        source,
    })?;
    let row = TableRow {
        id: TableId(0),
        event,
        round: spec.round,
        name: spec.name.clone(),
        red: spec.red.clone(),
        black: spec.black.clone(),
        config,
    };
    let mut seats = vec![
        (Role::Red, spec.red.clone()),
        (Role::Black, spec.black.clone()),
    ];
    if let Some(p) = &spec.red_proxy {
        seats.push((Role::RedProxy, p.clone()));
    }
    if let Some(p) = &spec.black_proxy {
        seats.push((Role::BlackProxy, p.clone()));
    }
    Ok((row, seats))
}

/// Adds one table with its player (and proxy) seats to an existing event. Its names and
/// configuration are held to the event file's bounds (the fields named `table.…`): a table
/// added later is no looser than one of the file.
pub fn add_table(
    store: &dyn Store,
    event: EventId,
    spec: &TableSpec,
) -> Result<(TableRow, Vec<IssuedSeat>), AdminError> {
    spec.check("table")?;
    let (mut row, planned) = plan_table(event, spec)?;
    row.id = store.add_table(&row)?;
    let mut seats = Vec::new();
    for (role, name) in planned {
        seats.push(issue(store, event, role, &name, vec![row.id])?);
    }
    Ok((row, seats))
}

/// Tables and seats planned for one transaction ([`NewTables`]), each seat with its secret
/// (shown once the batch is written).
#[derive(Debug, Default)]
pub struct Batch {
    new: NewTables,
    tokens: Vec<Token>,
}

impl Batch {
    /// Plans a table of `spec` with its player (and proxy) seats; returns its index in the
    /// batch.
    pub fn table(&mut self, spec: &TableSpec) -> Result<usize, AdminError> {
        let (row, seats) = plan_table(EventId(0), spec)?;
        let index = self.new.tables.len();
        self.new.tables.push(row);
        for (role, name) in seats {
            self.seat(role, &name, vec![index]);
        }
        Ok(index)
    }

    /// Plans a seat covering the batch's tables `tables` (indices; none: every table of
    /// the event).
    pub fn seat(&mut self, role: Role, name: &str, tables: Vec<usize>) {
        let token = Token::generate();
        let seat = SeatRow {
            token_hash: token.hash(),
            event: EventId(0),
            role,
            name: name.to_string(),
            tables: Vec::new(),
            revoked: false,
        };
        self.new.seats.push(NewSeat { seat, tables });
        self.tokens.push(token);
    }

    /// What the store writes.
    pub fn tables(&self) -> &NewTables {
        &self.new
    }

    /// The batch as written in `event` (named `name`) with its tables numbered `ids`.
    pub fn created(
        self,
        event: EventId,
        name: &str,
        ids: &[TableId],
    ) -> Result<Created, StoreError> {
        let (tables, seats) = self.new.stored(event, ids)?;
        let seats = seats
            .into_iter()
            .zip(self.tokens)
            .map(|(seat, token)| IssuedSeat { seat, token })
            .collect();
        Ok(Created {
            event,
            name: name.to_string(),
            tables,
            seats,
        })
    }
}

/// Creates a whole event: tables, player seats, referees, spectator seats.
pub fn create_event(store: &dyn Store, file: &EventFile) -> Result<Created, AdminError> {
    file.check()?;
    let event = store.create_event(&file.name, &file.settings)?;
    let mut tables = Vec::new();
    let mut seats = Vec::new();
    for spec in &file.tables {
        let (row, s) = add_table(store, event, spec)?;
        tables.push(row);
        seats.extend(s);
    }
    let ids: Vec<TableId> = tables.iter().map(|t| t.id).collect();
    if file.referees.is_empty() {
        seats.push(issue(store, event, Role::Referee, "referee", Vec::new())?);
    }
    for r in &file.referees {
        let covered = referee_tables(r, &ids)?;
        seats.push(issue(store, event, Role::Referee, &r.name, covered)?);
    }
    for i in 0..file.spectators {
        let name = format!("spectator {}", i + 1);
        seats.push(issue(store, event, Role::Spectator, &name, Vec::new())?);
    }
    Ok(Created {
        event,
        name: file.name.clone(),
        tables,
        seats,
    })
}

/// Creates an event like [`create_event`] that is a tournament with `settings`,
/// in one transaction: the event, its settings, its tables and seats, or nothing. Its
/// rounds' tables are then made by [`crate::rounds::pair`].
pub fn create_tournament(
    store: &dyn Store,
    file: &EventFile,
    settings: &crate::TournamentSettings,
) -> Result<Created, AdminError> {
    let records = store.tournaments().ok_or(AdminError::NoTournaments)?;
    file.check()?;
    let mut batch = Batch::default();
    let mut indices = Vec::new();
    for spec in &file.tables {
        indices.push(batch.table(spec)?);
    }
    if file.referees.is_empty() {
        batch.seat(Role::Referee, "referee", Vec::new());
    }
    for r in &file.referees {
        let covered = referee_tables(r, &indices)?;
        batch.seat(Role::Referee, &r.name, covered);
    }
    for i in 0..file.spectators {
        batch.seat(Role::Spectator, &format!("spectator {}", i + 1), Vec::new());
    }
    let (event, ids) =
        records.create_tournament(&file.name, &file.settings, settings, batch.tables())?;
    Ok(batch.created(event, &file.name, &ids)?)
}

/// The page a seat opens: `/seat` (keypad and voice), `/card` (the card UI of a deaf
/// player), `/proxy` (a proxy announcing for his player, 7.4(2)(d)(ii)), `/monitor` or
/// `/watch`, the token in the fragment (never sent to the server in a request line, so never
/// in an access log).
pub fn join_link(base: &str, seat: &IssuedSeat, deaf: bool) -> String {
    let page = match seat.seat.role {
        Role::Referee => "monitor",
        Role::Spectator => "watch",
        Role::Red | Role::Black if deaf => "card",
        Role::RedProxy | Role::BlackProxy => "proxy",
        _ => "seat",
    };
    format!(
        "{}/{page}#token={}",
        base.trim_end_matches('/'),
        seat.token.secret()
    )
}

/// The link a seat of `created` opens ([`join_link`]; a deaf player's opens the card UI).
pub fn link_of(created: &Created, seat: &IssuedSeat, base: &str) -> String {
    join_link(base, seat, is_deaf(created, &seat.seat))
}

/// A printable list of the seats: table, role, name, link, token.
pub fn describe(created: &Created, base: &str) -> String {
    let mut out = format!("event {} «{}»\n", created.event, created.name);
    for t in &created.tables {
        let _ = writeln!(
            out,
            "  table {} (round {}) {}: {} vs {}",
            t.id, t.round, t.name, t.red, t.black
        );
    }
    for s in &created.seats {
        let deaf = is_deaf(created, &s.seat);
        let where_ = match s.seat.tables.as_slice() {
            [] => "all tables".to_string(),
            ts => format!(
                "table {}",
                ts.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        };
        let _ = writeln!(
            out,
            "  {:<11} {:<12} {where_:<10} {}\n              token {}",
            s.seat.role.as_str(),
            s.seat.name,
            join_link(base, s, deaf),
            s.token.secret()
        );
    }
    for s in created
        .seats
        .iter()
        .filter(|s| s.seat.role == Role::Referee)
    {
        let link = join_link(base, s, false);
        let _ = writeln!(out, "referee monitor ({}): {link}", s.seat.name);
    }
    out
}

/// Whether a player seat belongs to a side the match configuration lists as deaf (聾啞).
fn is_deaf(created: &Created, seat: &SeatRow) -> bool {
    let (Role::Red | Role::Black, Some(side)) = (seat.role, seat.role.side()) else {
        return false;
    };
    created
        .tables
        .iter()
        .filter(|t| seat.tables.contains(&t.id))
        .any(|t| t.config.side(side).categories.contains(&Category::Deaf))
}

/// Revokes the seat holding `token`; false when no seat has it.
pub fn revoke(store: &dyn Store, token: &str) -> Result<bool, StoreError> {
    store.revoke(&Token::from_secret(token).hash())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issued(role: Role) -> IssuedSeat {
        let token = Token::generate();
        IssuedSeat {
            seat: SeatRow {
                token_hash: token.hash(),
                event: EventId(1),
                role,
                name: "甲".into(),
                tables: vec![TableId(1)],
                revoked: false,
            },
            token,
        }
    }

    #[test]
    fn s7p7_4_2_d_ii_a_proxy_seat_opens_the_announcing_page() {
        let seat = issued(Role::BlackProxy);
        let link = join_link("http://h/", &seat, false);
        assert_eq!(
            link,
            format!("http://h/proxy#token={}", seat.token.secret())
        );
    }

    #[test]
    fn s7p7_1_2_a_deaf_player_opens_the_card_ui_and_others_their_pages() {
        assert!(join_link("http://h", &issued(Role::Black), true).starts_with("http://h/card#"));
        assert!(join_link("http://h", &issued(Role::Red), false).starts_with("http://h/seat#"));
        assert!(
            join_link("http://h", &issued(Role::Referee), false).starts_with("http://h/monitor#")
        );
        assert!(
            join_link("http://h", &issued(Role::Spectator), false).starts_with("http://h/watch#")
        );
    }
}
