//! The organiser's records in the PostgreSQL store: the same tables and answers as the
//! `SQLite` store's ([`crate::TournamentStore`]).

use baoqi_tournament::{GameResult, PlayerId, RoundNumber};

use postgres::GenericClient;

use super::PgStore;
use super::rows::{column, json_text};
use super::writes::{insert_event, insert_tables};
use crate::amendment::Amendment;
use crate::config::EventSettings;
use crate::config::tournament::TournamentSettings;
use crate::model::{EventId, TableId};
use crate::records::{ChangeLine, PairingRow, Registered};
use crate::{NewRound, NewTables};
use crate::{StoreError, TournamentStore};

fn upsert_tournament(
    c: &mut impl GenericClient,
    event: EventId,
    s: &TournamentSettings,
) -> Result<(), StoreError> {
    let text = json_text(s, "tournament settings")?;
    c.execute(
        "INSERT INTO tournaments (event, settings) VALUES ($1, $2)
         ON CONFLICT (event) DO UPDATE SET settings = excluded.settings",
        &[&event.0, &text],
    )?;
    Ok(())
}

/// Inserts boards (`replace`: or replaces the board of the same round and number).
fn write_pairings(
    c: &mut impl GenericClient,
    event: EventId,
    rows: &[PairingRow],
    replace: bool,
) -> Result<(), StoreError> {
    let sql = if replace {
        "INSERT INTO pairings (event, round, board, red, black, tbl, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (event, round, board) DO UPDATE SET red = excluded.red,
             black = excluded.black, tbl = excluded.tbl, result = excluded.result"
    } else {
        "INSERT INTO pairings (event, round, board, red, black, tbl, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7)"
    };
    let insert = c.prepare(sql)?;
    for p in rows {
        let result = p.result.map(|r| json_text(&r, "a result")).transpose()?;
        c.execute(
            &insert,
            &[
                &event.0,
                &i64::from(p.round.0),
                &i64::from(p.board),
                &i64::from(p.red.0),
                &p.black.map(|b| i64::from(b.0)),
                &p.table.map(|t| t.0),
                &result,
            ],
        )?;
    }
    Ok(())
}

/// Appends a line to the event's change log. The event's changes are numbered in one
/// statement; two organisers logging at once on two nodes: one insert fails on the key and
/// is reported, never lost silently.
fn insert_change(
    c: &mut impl GenericClient,
    event: EventId,
    line: &ChangeLine,
) -> Result<(), StoreError> {
    let text = json_text(&line.change, "a change")?;
    c.execute(
        "INSERT INTO changes (event, seq, at, change) VALUES ($1,
         (SELECT COALESCE(MAX(seq), 0) + 1 FROM changes WHERE event = $1), $2, $3)",
        &[&event.0, &(line.at as i64), &text],
    )?;
    Ok(())
}

/// Adds a player to the register, or replaces his line.
fn upsert_player(
    c: &mut impl GenericClient,
    event: EventId,
    p: &Registered,
) -> Result<(), StoreError> {
    let text = json_text(&p.player, "a player")?;
    c.execute(
        "INSERT INTO players (event, id, player, active) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event, id) DO UPDATE SET player = excluded.player,
             active = excluded.active",
        &[&event.0, &i64::from(p.player.id.0), &text, &p.active],
    )?;
    Ok(())
}

/// Extends the stored seats of `cover` (token hash, place in the batch) to the batch's new
/// tables, numbered `ids`.
fn cover(
    c: &mut impl GenericClient,
    event: EventId,
    cover: &[(String, usize)],
    ids: &[TableId],
) -> Result<(), StoreError> {
    for hash in cover
        .iter()
        .map(|(h, _)| h)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let row = c.query_one(
            "SELECT tables FROM seats WHERE token_hash = $1 AND event = $2",
            &[hash, &event.0],
        )?;
        let text: String = row.get(0);
        let tables = crate::amendment::covered(
            cover,
            hash,
            column(&text, "a seat's tables", event.0)?,
            ids,
        )?;
        c.execute(
            "UPDATE seats SET tables = $1 WHERE token_hash = $2 AND event = $3",
            &[&json_text(&tables, "a seat's tables")?, hash, &event.0],
        )?;
    }
    Ok(())
}

/// Writes an [`Amendment`] within a transaction; returns its new tables' numbers.
fn write_amendment(
    c: &mut impl GenericClient,
    event: EventId,
    a: &Amendment,
) -> Result<Vec<TableId>, StoreError> {
    let ids = insert_tables(c, event, &a.tables)?;
    for hash in &a.revoke {
        c.execute(
            "UPDATE seats SET revoked = TRUE WHERE token_hash = $1 AND event = $2",
            &[hash, &event.0],
        )?;
    }
    cover(c, event, &a.cover, &ids)?;
    for &(round, board) in &a.removed {
        c.execute(
            "DELETE FROM pairings WHERE event = $1 AND round = $2 AND board = $3",
            &[&event.0, &i64::from(round.0), &i64::from(board)],
        )?;
    }
    write_pairings(c, event, &a.stored_boards(&ids)?, true)?;
    for p in &a.players {
        upsert_player(c, event, p)?;
    }
    for line in &a.lines(&ids)? {
        insert_change(c, event, line)?;
    }
    Ok(ids)
}

impl TournamentStore for PgStore {
    fn create_tournament(
        &self,
        name: &str,
        settings: &EventSettings,
        tournament: &TournamentSettings,
        tables: &NewTables,
    ) -> Result<(EventId, Vec<TableId>), StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            let event = insert_event(&mut tx, name, settings)?;
            upsert_tournament(&mut tx, event, tournament)?;
            let ids = insert_tables(&mut tx, event, tables)?;
            tx.commit()?;
            Ok((event, ids))
        })
    }

    fn add_round(&self, event: EventId, round: &NewRound) -> Result<Vec<TableId>, StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            let ids = insert_tables(&mut tx, event, &round.tables)?;
            cover(&mut tx, event, &round.cover, &ids)?;
            write_pairings(&mut tx, event, &round.stored_boards(&ids)?, false)?;
            insert_change(&mut tx, event, &round.log)?;
            tx.commit()?;
            Ok(ids)
        })
    }

    fn amend(&self, event: EventId, amendment: &Amendment) -> Result<Vec<TableId>, StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            let ids = write_amendment(&mut tx, event, amendment)?;
            tx.commit()?;
            Ok(ids)
        })
    }

    fn put_player(&self, event: EventId, player: &Registered) -> Result<(), StoreError> {
        self.w(|c| upsert_player(c, event, player))
    }

    fn put_pairing(&self, event: EventId, row: &PairingRow) -> Result<(), StoreError> {
        self.w(|c| write_pairings(c, event, std::slice::from_ref(row), true))
    }

    fn set_tournament(&self, event: EventId, s: &TournamentSettings) -> Result<(), StoreError> {
        self.w(|c| upsert_tournament(c, event, s))
    }

    fn tournament(&self, event: EventId) -> Result<Option<TournamentSettings>, StoreError> {
        let row = self.r(|c| {
            Ok(c.query_opt(
                "SELECT settings FROM tournaments WHERE event = $1",
                &[&event.0],
            )?)
        })?;
        row.map(|r| column(r.get(0), "the tournament settings of event", event.0))
            .transpose()
    }

    fn put_players(&self, event: EventId, players: &[Registered]) -> Result<(), StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            tx.execute("DELETE FROM players WHERE event = $1", &[&event.0])?;
            for p in players {
                upsert_player(&mut tx, event, p)?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn players(&self, event: EventId) -> Result<Vec<Registered>, StoreError> {
        let rows = self.r(|c| {
            Ok(c.query(
                "SELECT player, active FROM players WHERE event = $1 ORDER BY id",
                &[&event.0],
            )?)
        })?;
        rows.iter()
            .map(|r| {
                Ok(Registered {
                    player: column(r.get(0), "a player of event", event.0)?,
                    active: r.get(1),
                })
            })
            .collect()
    }

    fn add_pairings(&self, event: EventId, rows: &[PairingRow]) -> Result<(), StoreError> {
        self.w(|c| {
            let mut tx = c.transaction()?;
            write_pairings(&mut tx, event, rows, false)?;
            tx.commit()?;
            Ok(())
        })
    }

    fn pairings(&self, event: EventId) -> Result<Vec<PairingRow>, StoreError> {
        let rows = self.r(|c| {
            Ok(c.query(
                "SELECT round, board, red, black, tbl, result FROM pairings WHERE event = $1
             ORDER BY round, board",
                &[&event.0],
            )?)
        })?;
        rows.iter()
            .map(|r| {
                let result: Option<String> = r.get(5);
                Ok(PairingRow {
                    round: RoundNumber(r.get::<_, i64>(0) as u32),
                    board: r.get::<_, i64>(1) as u32,
                    red: PlayerId(r.get::<_, i64>(2) as u32),
                    black: r.get::<_, Option<i64>>(3).map(|b| PlayerId(b as u32)),
                    table: r.get::<_, Option<i64>>(4).map(TableId),
                    result: result
                        .map(|t| column(&t, "a board's result of event", event.0))
                        .transpose()?,
                })
            })
            .collect()
    }

    fn set_result(
        &self,
        event: EventId,
        round: RoundNumber,
        board: u32,
        result: Option<GameResult>,
    ) -> Result<bool, StoreError> {
        let text = result.map(|r| json_text(&r, "a result")).transpose()?;
        let n = self.w(|c| {
            Ok(c.execute(
                "UPDATE pairings SET result = $4 WHERE event = $1 AND round = $2 AND board = $3",
                &[&event.0, &i64::from(round.0), &i64::from(board), &text],
            )?)
        })?;
        Ok(n > 0)
    }

    fn log_change(&self, event: EventId, line: &ChangeLine) -> Result<(), StoreError> {
        self.w(|c| insert_change(c, event, line))
    }

    fn change_count(&self, event: EventId) -> Result<u64, StoreError> {
        let n = self.r(|c| {
            let row = c.query_one("SELECT COUNT(*) FROM changes WHERE event = $1", &[&event.0])?;
            Ok(row.get::<_, i64>(0))
        })?;
        Ok(n.unsigned_abs())
    }

    fn changes(&self, event: EventId) -> Result<Vec<ChangeLine>, StoreError> {
        let rows = self.r(|c| {
            Ok(c.query(
                "SELECT at, change FROM changes WHERE event = $1 ORDER BY seq",
                &[&event.0],
            )?)
        })?;
        rows.iter()
            .map(|r| {
                Ok(ChangeLine {
                    at: r.get::<_, i64>(0) as u64,
                    change: column(r.get(1), "a change of event", event.0)?,
                })
            })
            .collect()
    }
}
