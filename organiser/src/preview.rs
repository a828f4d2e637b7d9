//! Before a round is paired: who was absent in the last round (缺席, 87), whom the
//! organiser may withdraw first (109(5): an absence without good reason may be treated as
//! an unjustified withdrawal, 89), and the round the system would draw
//! (`baoqi round pair --dry-run`), written nowhere.

use std::fmt::Write as _;

use baoqi_tournament::swiss::Relaxation;
use baoqi_tournament::{GameResult, Player, PlayerId, RoundNumber};

use super::draft::Board;
use super::results::{Outcomes, board_result};
use super::rounds::{PairError, draft};
use super::{EventError, Opened, last_round};
use baoqi_store::Store;
use baoqi_store::model::EventId;

/// A player still in the event who was absent in the last round paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absentee {
    /// His register line.
    pub player: Player,
    /// The round.
    pub round: RoundNumber,
    /// His event, for the command that withdraws him.
    pub event: EventId,
}

/// The round the system would draw next, as the organiser reads it before pairing.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// The round.
    pub round: RoundNumber,
    /// Each board: red, and black (none for a bye); a game already decided is marked.
    pub boards: Vec<(u32, Player, Option<Player>, Option<GameResult>)>,
    /// The Swiss rules the draw had to break.
    pub relaxed: Vec<Relaxation>,
    /// Who was absent in the last round and is still in the event.
    pub absent: Vec<Absentee>,
}

/// The active players absent (87) in the last round paired of `event`.
pub fn absentees(
    store: &dyn Store,
    event: EventId,
    outcomes: &Outcomes,
) -> Result<Vec<Absentee>, EventError> {
    let t = Opened::open(store, event)?;
    let rows = t.records.pairings(event)?;
    let registered = t.records.players(event)?;
    let Some(round) = last_round(&rows) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for row in rows.iter().filter(|r| r.round == round) {
        let (red, black) = match board_result(row, outcomes) {
            Some(GameResult::RedAbsent) => (true, false),
            Some(GameResult::BlackAbsent) => (false, true),
            Some(GameResult::BothAbsent) => (true, true),
            _ => continue,
        };
        let who = [(red, Some(row.red)), (black, row.black)];
        for id in who.iter().filter(|(a, _)| *a).filter_map(|(_, id)| *id) {
            if let Some(r) = registered.iter().find(|r| r.player.id == id && r.active) {
                out.push(Absentee {
                    player: r.player.clone(),
                    round,
                    event,
                });
            }
        }
    }
    Ok(out)
}

/// The round `event`'s system would draw next, written nowhere.
pub fn preview(
    store: &dyn Store,
    event: EventId,
    outcomes: &Outcomes,
) -> Result<Preview, PairError> {
    let absent = absentees(store, event, outcomes)?;
    let t = Opened::open(store, event)?;
    let registered = t.records.players(event)?;
    let rows = t.records.pairings(event)?;
    let d = draft(&t, &registered, &rows, outcomes)?;
    // Every player drawn is in the register; a number alone should one ever be missing.
    let line = |id: PlayerId| -> Result<Player, PairError> {
        Ok(registered
            .iter()
            .find(|r| r.player.id == id)
            .map_or_else(|| Player::new(id.0, id.to_string()), |r| r.player.clone()))
    };
    let mut boards = Vec::new();
    for (i, b) in d.boards.iter().enumerate() {
        let n = d.first + i as u32;
        boards.push(match *b {
            Board::Game(g, _) => (n, line(g.red)?, Some(line(g.black)?), None),
            Board::Decided(g) => (n, line(g.red)?, Some(line(g.black)?), g.result),
            Board::Bye(p) => (n, line(p)?, None, None),
        });
    }
    Ok(Preview {
        round: d.round,
        boards,
        relaxed: d.relaxed,
        absent,
    })
}

/// Who was absent last round, as `baoqi round pair` says it before its listing.
pub fn absent_text(absent: &[Absentee]) -> String {
    let mut out = String::new();
    for a in absent {
        let _ = writeln!(
            out,
            "absent in round {} (缺席, 87): {} {}; to withdraw him before pairing (109(5), 89): baoqi players withdraw --event {} --player {}",
            a.round, a.player.id, a.player.name, a.event, a.player.id.0
        );
    }
    out
}

/// The preview as text (`baoqi round pair --dry-run`).
pub fn text(p: &Preview) -> String {
    let mut out = format!(
        "round {} as it would be paired (nothing written):\n",
        p.round
    );
    out.push_str(&absent_text(&p.absent));
    for (n, red, black, result) in &p.boards {
        let _ = match (black, result) {
            (None, _) => writeln!(out, "  board {n}: {} {}  bye (輪空)", red.id, red.name),
            (Some(b), Some(r)) => writeln!(
                out,
                "  board {n}: {} {} vs {} {}  decided without play {}",
                red.id,
                red.name,
                b.id,
                b.name,
                super::standings::result_text(Some(*r))
            ),
            (Some(b), None) => writeln!(
                out,
                "  board {n}: {} {} vs {} {}",
                red.id, red.name, b.id, b.name
            ),
        };
    }
    for r in &p.relaxed {
        let _ = writeln!(out, "  rule broken, nothing else possible: {r:?}");
    }
    out
}
