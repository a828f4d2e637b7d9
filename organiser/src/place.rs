//! A player's place in his event's standings, asked from his seat (`query_standing`):
//! the keypad says it (你排第五，四分。第三輪後). The seat's table names the
//! pairing, the pairing names the player; the places are the tournament core's
//! ([`baoqi_tournament::standings::standings`], 名次分先, 附表二 第二部份 3) over the
//! rounds whose every result is final, so that "after round 3" never counts a round still
//! being played (a game over but not yet verified, 7.9, a bye of the next round).

use baoqi_arbiter::Side;
use baoqi_protocol::{Place, StandingAnswer};
use baoqi_tournament::changes::HalfByes;
use baoqi_tournament::standings::standings;
use baoqi_tournament::{Player, RoundNumber};

use super::results::{self, Outcomes};
use super::{EventError, Opened, PairingRow, TournamentSettings};
use baoqi_store::model::{SeatRow, TableId};
use baoqi_store::{Store, StoreError};

/// Rounds whose every board is final, counted from the first (a round is paired only when
/// the one before it is final, so at most the last paired round is not).
pub fn rounds_final(rows: &[PairingRow], outcomes: &Outcomes) -> u32 {
    let last = super::last_round(rows).map_or(0, RoundNumber::rounds_through);
    (1..=last)
        .map(RoundNumber)
        .take_while(|&n| {
            rows.iter()
                .filter(|r| r.round == n)
                .all(|r| results::board_final(r, outcomes))
        })
        .count() as u32
}

/// The place of the player who plays `side` at `table`, from the event's register, its
/// pairings and the tables' games.
pub fn place_of(
    register: &[Player],
    (rows, half): (&[PairingRow], &HalfByes),
    outcomes: &Outcomes,
    settings: &TournamentSettings,
    table: TableId,
    side: Side,
) -> StandingAnswer {
    let Some(row) = rows.iter().find(|r| r.table == Some(table)) else {
        return StandingAnswer::NotRegistered;
    };
    let player = match side {
        Side::Red => Some(row.red),
        Side::Black => row.black,
    };
    let Some(player) = player else {
        return StandingAnswer::NotRegistered;
    };
    let Some(after_round) = RoundNumber::last_of(rounds_final(rows, outcomes)) else {
        return StandingAnswer::NoRoundFinished {
            rounds_total: settings.rounds,
        };
    };
    let done: Vec<PairingRow> = rows
        .iter()
        .filter(|r| r.round <= after_round)
        .copied()
        .collect();
    let rounds = results::scored(&done, outcomes, half);
    let lines = standings(register, &rounds, settings.scoring(), &settings.tiebreaks);
    let players = lines.len() as u32;
    lines
        .into_iter()
        .find(|l| l.player == player)
        .map_or(StandingAnswer::NotRegistered, |l| {
            StandingAnswer::Placed(Place {
                after_round,
                rounds_total: settings.rounds,
                place: l.place,
                shared: l.shared,
                halves: l.score.0,
                players,
            })
        })
}

/// The answer for `seat`, read from the store; `outcomes` are the event's tables' games.
pub fn answer(
    store: &dyn Store,
    seat: &SeatRow,
    outcomes: &Outcomes,
) -> Result<StandingAnswer, StoreError> {
    let (Some(side), [table]) = (seat.role.side(), seat.tables.as_slice()) else {
        return Ok(StandingAnswer::NotRegistered);
    };
    let t = match Opened::open(store, seat.event) {
        Ok(t) => t,
        Err(EventError::Store(e)) => return Err(e),
        Err(EventError::Unsupported | EventError::NoEvent(_) | EventError::NotATournament(_)) => {
            return Ok(StandingAnswer::NoStandings);
        }
    };
    let rows = t.records.pairings(seat.event)?;
    // The players the standings rank, as the standings page counts them: "共四十一人" for
    // 41 lines, not the register's 42 with a player withdrawn before the start.
    let register = super::standings::ranked(t.records.players(seat.event)?, &rows);
    let half = super::withdrawal::half_byes(&t.records.changes(seat.event)?);
    Ok(place_of(
        &register,
        (&rows, &half),
        outcomes,
        &t.settings,
        *table,
        side,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use baoqi_tournament::{GameResult, PlayerId, System};

    fn row(round: u32, board: u32, red: u32, black: u32, result: Option<GameResult>) -> PairingRow {
        PairingRow {
            round: RoundNumber(round),
            board,
            red: PlayerId(red),
            black: Some(PlayerId(black)),
            table: Some(TableId(i64::from(round * 10 + board))),
            result,
        }
    }

    fn four() -> Vec<Player> {
        (1..=4).map(|i| Player::new(i, format!("p{i}"))).collect()
    }

    #[test]
    fn fu2_3_level_players_share_the_place() {
        // 1/½/0, no tie-break: both winners of round 1 share first, both losers third.
        let rows = [
            row(1, 1, 1, 2, Some(GameResult::RedWins)),
            row(1, 2, 3, 4, Some(GameResult::BlackAbsent)),
        ];
        let settings = TournamentSettings {
            scoring: System::GamePoints,
            rounds: Some(3),
            ..TournamentSettings::default()
        };
        let place = |table, side| {
            place_of(
                &four(),
                (&rows, &HalfByes::new()),
                &Outcomes::new(),
                &settings,
                table,
                side,
            )
        };
        let want = |place, shared, halves| {
            StandingAnswer::Placed(Place {
                after_round: RoundNumber(1),
                rounds_total: Some(3),
                place,
                shared,
                halves,
                players: 4,
            })
        };
        assert_eq!(place(TableId(12), Side::Red), want(1, true, 2));
        assert_eq!(place(TableId(11), Side::Black), want(3, true, 0));
    }

    #[test]
    fn fu2_3_a_round_being_played_does_not_count_yet() {
        // Round 2: board 1 recorded (an absence), board 2 still being played. The place is
        // after round 1, without round 2's absence.
        let rows = [
            row(1, 1, 1, 2, Some(GameResult::RedWins)),
            row(1, 2, 3, 4, Some(GameResult::Draw)),
            row(2, 1, 2, 3, Some(GameResult::BlackAbsent)),
            row(2, 2, 4, 1, None),
        ];
        let settings = TournamentSettings {
            scoring: System::Huang,
            ..TournamentSettings::default()
        };
        let a = place_of(
            &four(),
            (&rows, &HalfByes::new()),
            &Outcomes::new(),
            &settings,
            TableId(21),
            Side::Red,
        );
        let StandingAnswer::Placed(p) = a else {
            panic!("{a:?}")
        };
        // Player 2 lost round 1 (負 2), round 2's 不戰而勝 not yet counted.
        assert_eq!((p.after_round, p.halves, p.place), (RoundNumber(1), 4, 4));
    }

    #[test]
    fn fu2_3_before_any_round_is_final_there_is_no_place() {
        let rows = [row(1, 1, 1, 2, None), row(1, 2, 3, 4, None)];
        let settings = TournamentSettings::default();
        let a = place_of(
            &four(),
            (&rows, &HalfByes::new()),
            &Outcomes::new(),
            &settings,
            TableId(11),
            Side::Red,
        );
        assert_eq!(a, StandingAnswer::NoRoundFinished { rounds_total: None });
        let stranger = place_of(
            &four(),
            (&rows, &HalfByes::new()),
            &Outcomes::new(),
            &settings,
            TableId(99),
            Side::Red,
        );
        assert_eq!(stranger, StandingAnswer::NotRegistered);
    }
}
