//! The tournament tables of the `SQLite` store: `tournaments` (the settings of an
//! event), `players` (the register), `pairings` (each round's boards with their tables and
//! the organiser's results) and `changes` (the change log), in the first numbered migration
//! ([`super::schema`]): a database written before tournaments existed gains them when next
//! opened and its events simply have none.

use rusqlite::{Connection, OptionalExtension, params};

use super::batch::{NewRound, NewTables};
use super::sqlite::{insert_event, insert_seat, insert_table};
use super::{SqliteStore, StoreError};
use crate::amendment::Amendment;
use crate::config::EventSettings;
use crate::config::tournament::TournamentSettings;
use crate::model::{EventId, TableId, TableRow};
use crate::records::{ChangeLine, PairingRow, Registered};
use baoqi_tournament::{GameResult, PlayerId, RoundNumber};

/// What the organiser's side keeps per event. Every method is blocking.
pub trait TournamentStore: Send + Sync {
    /// Creates an event that is a tournament (its settings, the event file's tables and
    /// seats) in one transaction: all or nothing. Returns the event's number and its tables'
    /// numbers, in order. A backend without transactions refuses.
    fn create_tournament(
        &self,
        name: &str,
        settings: &EventSettings,
        tournament: &TournamentSettings,
        tables: &NewTables,
    ) -> Result<(EventId, Vec<TableId>), StoreError> {
        let _ = (name, settings, tournament, tables);
        Err(StoreError::Unsupported("create a tournament"))
    }
    /// Writes a round (its tables, seats, boards and log line) in one transaction: all or
    /// nothing. Returns its tables' numbers, in order. A backend without transactions
    /// refuses.
    fn add_round(&self, event: EventId, round: &NewRound) -> Result<Vec<TableId>, StoreError> {
        let _ = (event, round);
        Err(StoreError::Unsupported("write a round"))
    }
    /// Writes an organiser's change (its new tables and seats, the seats it revokes, the
    /// boards it removes or writes, its register lines and log lines) in one transaction:
    /// all or nothing. Returns the new tables' numbers, in order. A backend without
    /// transactions refuses.
    fn amend(&self, event: EventId, amendment: &Amendment) -> Result<Vec<TableId>, StoreError> {
        let _ = (event, amendment);
        Err(StoreError::Unsupported("write an organiser's change"))
    }
    /// Stores (or replaces) the event's tournament settings.
    fn set_tournament(
        &self,
        event: EventId,
        settings: &TournamentSettings,
    ) -> Result<(), StoreError>;
    /// The event's tournament settings, if it is a tournament.
    fn tournament(&self, event: EventId) -> Result<Option<TournamentSettings>, StoreError>;
    /// Replaces the event's register.
    fn put_players(&self, event: EventId, players: &[Registered]) -> Result<(), StoreError>;
    /// The event's register, by number.
    fn players(&self, event: EventId) -> Result<Vec<Registered>, StoreError>;
    /// Adds a round's boards, all or nothing.
    fn add_pairings(&self, event: EventId, rows: &[PairingRow]) -> Result<(), StoreError>;
    /// Every board of every round of the event, by round and board.
    fn pairings(&self, event: EventId) -> Result<Vec<PairingRow>, StoreError>;
    /// Records the organiser's result of a board (`None` clears it); false when there is no
    /// such board.
    fn set_result(
        &self,
        event: EventId,
        round: RoundNumber,
        board: u32,
        result: Option<GameResult>,
    ) -> Result<bool, StoreError>;
    /// Appends to the change log.
    fn log_change(&self, event: EventId, line: &ChangeLine) -> Result<(), StoreError>;
    /// The change log, oldest first.
    fn changes(&self, event: EventId) -> Result<Vec<ChangeLine>, StoreError>;
    /// How many lines the change log holds: the log is only ever appended to, so the count
    /// changes with every organiser's change (a page that follows the event polls it). A
    /// backend that can count without reading the lines says so.
    fn change_count(&self, event: EventId) -> Result<u64, StoreError> {
        Ok(self.changes(event)?.len() as u64)
    }
    /// Adds a player to the register, or replaces his line (same number).
    fn put_player(&self, event: EventId, player: &Registered) -> Result<(), StoreError>;
    /// Adds a board, or replaces the board of the same round and number.
    fn put_pairing(&self, event: EventId, row: &PairingRow) -> Result<(), StoreError>;
}

fn json<T: serde::Serialize>(v: &T, what: &'static str) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|source| StoreError::Encode { what, source })
}

fn read<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &'static str,
    id: i64,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::BadRow { what, id, source })
}

/// Inserts tables and their seats within a transaction; returns the tables' numbers.
fn insert_tables(
    c: &Connection,
    event: EventId,
    batch: &NewTables,
) -> Result<Vec<TableId>, StoreError> {
    let mut ids = Vec::with_capacity(batch.tables.len());
    for t in &batch.tables {
        ids.push(insert_table(c, &TableRow { event, ..t.clone() })?);
    }
    let (_, seats) = batch.stored(event, &ids)?;
    for s in &seats {
        insert_seat(c, s)?;
    }
    Ok(ids)
}

fn insert_pairings(c: &Connection, event: EventId, rows: &[PairingRow]) -> Result<(), StoreError> {
    let mut st = c.prepare_cached(
        "INSERT INTO pairings (event, round, board, red, black, tbl, result)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for p in rows {
        let result = p.result.map(|r| json(&r, "a result")).transpose()?;
        st.execute(params![
            event.0,
            p.round.0,
            p.board,
            p.red.0,
            p.black.map(|b| b.0),
            p.table.map(|t| t.0),
            result
        ])?;
    }
    Ok(())
}

/// Adds a board, or replaces the board of the same round and number.
fn upsert_pairing(c: &Connection, event: EventId, p: &PairingRow) -> Result<(), StoreError> {
    let result = p.result.map(|r| json(&r, "a result")).transpose()?;
    c.execute(
        "INSERT INTO pairings (event, round, board, red, black, tbl, result)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(event, round, board) DO UPDATE SET red = excluded.red,
         black = excluded.black, tbl = excluded.tbl, result = excluded.result",
        params![
            event.0,
            p.round.0,
            p.board,
            p.red.0,
            p.black.map(|b| b.0),
            p.table.map(|t| t.0),
            result
        ],
    )?;
    Ok(())
}

/// Adds a player to the register, or replaces his line.
fn upsert_player(c: &Connection, event: EventId, p: &Registered) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO players (event, id, player, active) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(event, id) DO UPDATE SET player = excluded.player,
         active = excluded.active",
        params![
            event.0,
            p.player.id.0,
            json(&p.player, "a player")?,
            i64::from(p.active)
        ],
    )?;
    Ok(())
}

/// Extends the stored seats of `cover` (token hash, place in the batch) to the batch's new
/// tables, numbered `ids`.
fn cover(
    c: &Connection,
    event: EventId,
    cover: &[(String, usize)],
    ids: &[TableId],
) -> Result<(), StoreError> {
    for hash in cover
        .iter()
        .map(|(h, _)| h)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let text: String = c.query_row(
            "SELECT tables FROM seats WHERE token_hash = ?1 AND event = ?2",
            params![hash, event.0],
            |r| r.get(0),
        )?;
        let tables =
            crate::amendment::covered(cover, hash, read(&text, "a seat's tables", event.0)?, ids)?;
        c.execute(
            "UPDATE seats SET tables = ?1 WHERE token_hash = ?2 AND event = ?3",
            params![json(&tables, "a seat's tables")?, hash, event.0],
        )?;
    }
    Ok(())
}

/// Writes an [`Amendment`] within a transaction; returns its new tables' numbers.
fn write_amendment(
    c: &Connection,
    event: EventId,
    a: &Amendment,
) -> Result<Vec<TableId>, StoreError> {
    let ids = insert_tables(c, event, &a.tables)?;
    for hash in &a.revoke {
        c.execute(
            "UPDATE seats SET revoked = 1 WHERE token_hash = ?1 AND event = ?2",
            params![hash, event.0],
        )?;
    }
    cover(c, event, &a.cover, &ids)?;
    for &(round, board) in &a.removed {
        c.execute(
            "DELETE FROM pairings WHERE event = ?1 AND round = ?2 AND board = ?3",
            params![event.0, round.0, board],
        )?;
    }
    for row in &a.stored_boards(&ids)? {
        upsert_pairing(c, event, row)?;
    }
    for p in &a.players {
        upsert_player(c, event, p)?;
    }
    for line in &a.lines(&ids)? {
        insert_change(c, event, line)?;
    }
    Ok(ids)
}

fn insert_change(c: &Connection, event: EventId, line: &ChangeLine) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO changes (event, seq, at, change) VALUES (?1,
         (SELECT COALESCE(MAX(seq), 0) + 1 FROM changes WHERE event = ?1), ?2, ?3)",
        params![event.0, line.at as i64, json(&line.change, "a change")?],
    )?;
    Ok(())
}

fn upsert_tournament(
    c: &Connection,
    event: EventId,
    s: &TournamentSettings,
) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO tournaments (event, settings) VALUES (?1, ?2)
         ON CONFLICT(event) DO UPDATE SET settings = excluded.settings",
        params![event.0, json(s, "tournament settings")?],
    )?;
    Ok(())
}

impl TournamentStore for SqliteStore {
    fn create_tournament(
        &self,
        name: &str,
        settings: &EventSettings,
        tournament: &TournamentSettings,
        tables: &NewTables,
    ) -> Result<(EventId, Vec<TableId>), StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        let event = insert_event(&tx, name, settings)?;
        upsert_tournament(&tx, event, tournament)?;
        let ids = insert_tables(&tx, event, tables)?;
        tx.commit()?;
        Ok((event, ids))
    }

    fn add_round(&self, event: EventId, round: &NewRound) -> Result<Vec<TableId>, StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        let ids = insert_tables(&tx, event, &round.tables)?;
        cover(&tx, event, &round.cover, &ids)?;
        insert_pairings(&tx, event, &round.stored_boards(&ids)?)?;
        insert_change(&tx, event, &round.log)?;
        tx.commit()?;
        Ok(ids)
    }

    fn amend(&self, event: EventId, amendment: &Amendment) -> Result<Vec<TableId>, StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        let ids = write_amendment(&tx, event, amendment)?;
        tx.commit()?;
        Ok(ids)
    }

    fn set_tournament(&self, event: EventId, s: &TournamentSettings) -> Result<(), StoreError> {
        upsert_tournament(&self.w(), event, s)
    }

    fn tournament(&self, event: EventId) -> Result<Option<TournamentSettings>, StoreError> {
        let text: Option<String> = self
            .r()
            .query_row(
                "SELECT settings FROM tournaments WHERE event = ?1",
                params![event.0],
                |r| r.get(0),
            )
            .optional()?;
        text.map(|t| read(&t, "the tournament settings of event", event.0))
            .transpose()
    }

    fn put_players(&self, event: EventId, players: &[Registered]) -> Result<(), StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        tx.execute("DELETE FROM players WHERE event = ?1", params![event.0])?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO players (event, id, player, active) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for p in players {
                st.execute(params![
                    event.0,
                    p.player.id.0,
                    json(&p.player, "a player")?,
                    i64::from(p.active)
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn players(&self, event: EventId) -> Result<Vec<Registered>, StoreError> {
        let c = self.r();
        let mut st =
            c.prepare("SELECT player, active FROM players WHERE event = ?1 ORDER BY id")?;
        let rows = st.query_map(params![event.0], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (text, active) = row?;
            out.push(Registered {
                player: read(&text, "a player of event", event.0)?,
                active: active != 0,
            });
        }
        Ok(out)
    }

    fn add_pairings(&self, event: EventId, rows: &[PairingRow]) -> Result<(), StoreError> {
        let mut c = self.w();
        let tx = c.transaction()?;
        insert_pairings(&tx, event, rows)?;
        tx.commit()?;
        Ok(())
    }

    fn pairings(&self, event: EventId) -> Result<Vec<PairingRow>, StoreError> {
        let c = self.r();
        let mut st = c.prepare(
            "SELECT round, board, red, black, tbl, result FROM pairings WHERE event = ?1
             ORDER BY round, board",
        )?;
        let rows = st.query_map(params![event.0], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, Option<u32>>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (round, board, red, black, table, result) = row?;
            out.push(PairingRow {
                round: RoundNumber(round),
                board,
                red: PlayerId(red),
                black: black.map(PlayerId),
                table: table.map(TableId),
                result: result
                    .map(|t| read(&t, "a board's result of event", event.0))
                    .transpose()?,
            });
        }
        Ok(out)
    }

    fn set_result(
        &self,
        event: EventId,
        round: RoundNumber,
        board: u32,
        result: Option<GameResult>,
    ) -> Result<bool, StoreError> {
        let text = result.map(|r| json(&r, "a result")).transpose()?;
        let n = self.w().execute(
            "UPDATE pairings SET result = ?4 WHERE event = ?1 AND round = ?2 AND board = ?3",
            params![event.0, round.0, board, text],
        )?;
        Ok(n > 0)
    }

    fn log_change(&self, event: EventId, line: &ChangeLine) -> Result<(), StoreError> {
        insert_change(&self.w(), event, line)
    }

    fn changes(&self, event: EventId) -> Result<Vec<ChangeLine>, StoreError> {
        let c = self.r();
        let mut st = c.prepare("SELECT at, change FROM changes WHERE event = ?1 ORDER BY seq")?;
        let rows = st.query_map(params![event.0], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (at, text) = row?;
            out.push(ChangeLine {
                at: at as u64,
                change: read(&text, "a change of event", event.0)?,
            });
        }
        Ok(out)
    }

    fn change_count(&self, event: EventId) -> Result<u64, StoreError> {
        let n: i64 = self.r().query_row(
            "SELECT COUNT(*) FROM changes WHERE event = ?1",
            params![event.0],
            |r| r.get(0),
        )?;
        Ok(n.unsigned_abs())
    }

    fn put_player(&self, event: EventId, p: &Registered) -> Result<(), StoreError> {
        upsert_player(&self.w(), event, p)
    }

    fn put_pairing(&self, event: EventId, p: &PairingRow) -> Result<(), StoreError> {
        upsert_pairing(&self.w(), event, p)
    }
}
