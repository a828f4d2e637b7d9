//! Organiser actions on a store: create an event from its file, add a table, issue and
//! revoke seats. They work on the database directly, whether or not a server is running on
//! it (a running server picks up new tables within [`crate::hub::TABLE_SCAN`]).

use std::fmt::Write as _;

use crate::config::{EventFile, TableSpec, referee_tables};
use crate::engine::EngineFactory;
use crate::model::{EventId, IssuedSeat, Role, SeatRow, TableId, TableRow, Token};
use crate::store::Store;

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
) -> Result<IssuedSeat, String> {
    let token = Token::generate();
    let seat = SeatRow {
        token_hash: token.hash(),
        event,
        role,
        name: name.to_string(),
        tables,
        revoked: false,
    };
    store.add_seat(&seat).map_err(|e| e.to_string())?;
    Ok(IssuedSeat { seat, token })
}

/// Adds one table with its player (and proxy) seats to an existing event.
pub fn add_table(
    store: &dyn Store,
    factory: &dyn EngineFactory,
    event: EventId,
    spec: &TableSpec,
) -> Result<(TableRow, Vec<IssuedSeat>), String> {
    let config = spec
        .config
        .clone()
        .unwrap_or_else(|| factory.default_config());
    // Refuse a configuration the engine cannot use now, not when the server starts.
    factory.create(&config, 0)?;
    let mut row = TableRow {
        id: 0,
        event,
        round: spec.round,
        name: spec.name.clone(),
        red: spec.red.clone(),
        black: spec.black.clone(),
        config,
    };
    row.id = store.add_table(&row).map_err(|e| e.to_string())?;
    let mut seats = vec![
        issue(store, event, Role::Red, &spec.red, vec![row.id])?,
        issue(store, event, Role::Black, &spec.black, vec![row.id])?,
    ];
    if let Some(p) = &spec.red_proxy {
        seats.push(issue(store, event, Role::RedProxy, p, vec![row.id])?);
    }
    if let Some(p) = &spec.black_proxy {
        seats.push(issue(store, event, Role::BlackProxy, p, vec![row.id])?);
    }
    Ok((row, seats))
}

/// Creates a whole event: tables, player seats, referees, spectator seats.
pub fn create_event(
    store: &dyn Store,
    factory: &dyn EngineFactory,
    file: &EventFile,
) -> Result<Created, String> {
    let settings = serde_json::to_value(&file.settings).map_err(|e| e.to_string())?;
    let event = store
        .create_event(&file.name, &settings)
        .map_err(|e| e.to_string())?;
    let mut tables = Vec::new();
    let mut seats = Vec::new();
    for spec in &file.tables {
        let (row, s) = add_table(store, factory, event, spec)?;
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
    let side = match seat.role {
        Role::Red => "red",
        Role::Black => "black",
        _ => return false,
    };
    created
        .tables
        .iter()
        .filter(|t| seat.tables.contains(&t.id))
        .any(|t| {
            t.config[side]["categories"]
                .as_array()
                .is_some_and(|c| c.iter().any(|x| x == "deaf" || x == "聾啞"))
        })
}

/// Revokes the seat holding `token`; false when no seat has it.
pub fn revoke(store: &dyn Store, token: &str) -> Result<bool, String> {
    store
        .revoke(&Token::from_secret(token).hash())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issued(role: Role) -> IssuedSeat {
        let token = Token::generate();
        IssuedSeat {
            seat: SeatRow {
                token_hash: token.hash(),
                event: 1,
                role,
                name: "甲".into(),
                tables: vec![1],
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
