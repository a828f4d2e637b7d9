//! What the server knows of a table besides its moves, for the 附表四 第三部份 header of the
//! scoresheet and the PGN tags: the event, the round and table, the referees, the date.

use baoqi_arbiter::{Event, Outcome, View};
use baoqi_tournament::GameResult;

use baoqi_store::model::{EventRow, Role, SeatRow, TableId, TableRow};
use baoqi_store::wallclock::{self, Day, UnixMillis, UtcTime};
use baoqi_store::{Store, StoreError};

/// A table as the exports see it: its rows, its referees and when its game started.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    /// The event.
    pub event: EventRow,
    /// The table.
    pub table: TableRow,
    /// The names of the referees who supervise the table (see [`referees_of`]).
    pub referees: Vec<String>,
    /// The wall-clock instant the clocks first started, when the store can date it.
    pub started: Option<UnixMillis>,
    /// The result the organiser entered at the table's board (an absence, 87; a result put
    /// right, or a game confirmed, 7.9): it stands over the game's in the record.
    pub recorded: Option<GameResult>,
}

impl Known {
    /// Reads from the store what the rows do not hold: the table's referees and the wall
    /// clock when its game started. Blocking.
    pub fn gather(
        store: &dyn Store,
        event: EventRow,
        table: TableRow,
    ) -> Result<Known, StoreError> {
        let mut table = table;
        let referees = referees_of(&store.seats(event.id)?, &table);
        let started = started_of(store, table.id)?;
        let recorded = on_board(store, &mut table)?;
        Ok(Known {
            event,
            table,
            referees,
            started,
            recorded,
        })
    }

    /// The outcome the record gives: the organiser's result where he entered one (an
    /// absence is the win or loss it scores, both absent 0-0), else the game's; none while
    /// it goes on.
    pub fn outcome(&self, view: &View) -> Option<Outcome> {
        match self.recorded {
            Some(r) => Some(match r {
                GameResult::RedWins | GameResult::BlackAbsent => Outcome::RedWins,
                GameResult::BlackWins | GameResult::RedAbsent => Outcome::BlackWins,
                GameResult::Draw | GameResult::ForcedDraw => Outcome::Draw,
                GameResult::BothLose | GameResult::BothAbsent => Outcome::BothLose,
            }),
            None => view.result.as_ref().map(|r| r.outcome),
        }
    }

    /// The header: the organiser's own values (the match configuration's `header`) where
    /// given, else what the server knows.
    pub fn header(&self) -> SheetHeader {
        let given = &self.table.config.header;
        let or = |given: &str, known: String| {
            if given.trim().is_empty() {
                known
            } else {
                given.trim().to_string()
            }
        };
        let started = self.started.map(UtcTime::of);
        let day = Day::parse(&given.date).or(started.map(|t| t.day));
        SheetHeader {
            event: or(&given.event, self.event.name.clone()),
            date: or(&given.date, day.map(|d| d.to_string()).unwrap_or_default()),
            day,
            started,
            venue: given.venue.trim().to_string(),
            round: or(&given.round, self.table.round.to_string()),
            table: or(&given.table, self.table.id.to_string()),
            label: self.table.name.clone(),
            referee: or(&given.referee, self.referees.join("、")),
        }
    }
}

/// The 附表四 第三部份 header fields as the exports write them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetHeader {
    /// 比賽名稱 (3(1)).
    pub event: String,
    /// 對賽日期 (3(2)) as the scoresheet writes it: the organiser's text, else the UTC day
    /// the clocks started; empty when unknown.
    pub date: String,
    /// The same date as a day, when it reads as one.
    pub day: Option<Day>,
    /// When the clocks started (UTC), when known.
    pub started: Option<UtcTime>,
    /// 比賽地點 (3(3)); empty when unknown.
    pub venue: String,
    /// 對賽輪數 (3(4)).
    pub round: String,
    /// 對賽枱號 (3(5)): the organiser's number, else the server's table number.
    pub table: String,
    /// The table's label, e.g. `視障賽 1`.
    pub label: String,
    /// 終局裁判姓名 (3(15)); empty when unknown.
    pub referee: String,
}

/// A tournament's table as its board stands now: its players named as the register names
/// them (a name corrected with `baoqi players edit` after the pairing reaches the record),
/// and the organiser's result of the board, if any. A table of no board (an event without
/// rounds, a table added by hand) is left as it is.
fn on_board(store: &dyn Store, table: &mut TableRow) -> Result<Option<GameResult>, StoreError> {
    let Some(records) = store.tournaments() else {
        return Ok(None);
    };
    let rows = records.pairings(table.event)?;
    let Some(row) = rows.iter().find(|r| r.table == Some(table.id)) else {
        return Ok(None);
    };
    let register = records.players(table.event)?;
    let name = |id| {
        register
            .iter()
            .find(|r| r.player.id == id)
            .map(|r| r.player.name.clone())
    };
    if let Some(red) = name(row.red) {
        table.red = red;
    }
    if let Some(black) = row.black.and_then(name) {
        table.black = black;
    }
    Ok(row.result)
}

/// The wall-clock instant table `table`'s clocks first started, when its log holds the
/// start and the store can date it. Blocking: reads the table's log.
pub fn started_of(store: &dyn Store, table: TableId) -> Result<Option<UnixMillis>, StoreError> {
    let start = store.log(table)?.iter().find_map(|entry| {
        entry.events.iter().find_map(|e| match e {
            Event::Started { at, .. } => Some(*at),
            _ => None,
        })
    });
    Ok(match start {
        Some(at) => wallclock::at(&store.wall_clock_marks()?, at),
        None => None,
    })
}

/// The referees of a table, by name: the seats that name the table, else those that cover
/// every table of the event (a chief referee). Revoked seats are left out. The store keeps
/// which seat gave each command only as its role, so when several referees supervise a
/// table, all are named.
pub fn referees_of(seats: &[SeatRow], table: &TableRow) -> Vec<String> {
    let referees = || {
        seats
            .iter()
            .filter(|s| s.role == Role::Referee && !s.revoked && s.event == table.event)
    };
    let named: Vec<String> = referees()
        .filter(|s| s.tables.contains(&table.id))
        .map(|s| s.name.clone())
        .collect();
    if !named.is_empty() {
        return named;
    }
    referees()
        .filter(|s| s.tables.is_empty())
        .map(|s| s.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_store::config::EventSettings;
    use baoqi_store::model::EventId;
    use baoqi_tournament::RoundNumber;

    fn seat(name: &str, tables: Vec<TableId>, revoked: bool) -> SeatRow {
        SeatRow {
            token_hash: name.into(),
            event: EventId(1),
            role: Role::Referee,
            name: name.into(),
            tables,
            revoked,
        }
    }

    fn known(referees: &[&str]) -> Known {
        Known {
            event: EventRow {
                id: EventId(1),
                name: "公開賽".into(),
                settings: EventSettings::default(),
            },
            table: TableRow {
                id: TableId(7),
                event: EventId(1),
                round: RoundNumber(3),
                name: "視障賽 2".into(),
                red: "甲".into(),
                black: "乙".into(),
                config: baoqi_arbiter::MatchConfig::default(),
            },
            referees: referees.iter().map(ToString::to_string).collect(),
            started: Some(1_700_000_000_000),
            recorded: None,
        }
    }

    #[test]
    fn s4p3_15_the_table_referee_before_the_chief_referee() {
        let table = known(&[]).table;
        let chief = seat("總裁判", vec![], false);
        let other = seat("李裁判", vec![TableId(8)], false);
        let gone = seat("王裁判", vec![TableId(7)], true);
        assert_eq!(
            referees_of(&[chief.clone(), other.clone(), gone], &table),
            ["總裁判"]
        );
        let own = seat("陳裁判", vec![TableId(7), TableId(8)], false);
        assert_eq!(referees_of(&[chief, other, own], &table), ["陳裁判"]);
    }

    #[test]
    fn s4p3_the_header_from_what_the_server_knows() {
        let h = known(&["陳裁判", "李裁判"]).header();
        assert_eq!(
            (h.event.as_str(), h.round.as_str(), h.table.as_str()),
            ("公開賽", "3", "7")
        );
        assert_eq!((h.date.as_str(), h.venue.as_str()), ("2023.11.14", ""));
        assert_eq!(h.referee, "陳裁判、李裁判");
    }

    #[test]
    fn s4p3_the_organisers_header_wins() {
        let mut k = known(&["陳裁判"]);
        k.table.config.header = baoqi_arbiter::Header {
            event: "全港視障象棋賽".into(),
            date: "2026-11-22".into(),
            venue: "香港".into(),
            round: "1".into(),
            table: "3".into(),
            referee: "張裁判".into(),
        };
        let h = k.header();
        assert_eq!(h.event, "全港視障象棋賽");
        assert_eq!(
            (h.date.as_str(), h.day.map(|d| d.to_string())),
            ("2026-11-22", Some("2026.11.22".into()))
        );
        assert_eq!(
            (h.venue.as_str(), h.round.as_str(), h.table.as_str()),
            ("香港", "1", "3")
        );
        assert_eq!(h.referee, "張裁判");
    }
}
