//! A round's boards as a pairing system drew them ([`Draft`]) and their writing in one
//! transaction ([`write`]): a table per game, configured from the register and the event's
//! rules (7.2), the round's referee seats (監局, 附表七 6.2(1)), the boards and the change
//! log's line.

use baoqi_tournament::knockout::Stage;
use baoqi_tournament::swiss::Relaxation;
use baoqi_tournament::{Game, Player, PlayerId, Round, RoundNumber};

use super::rounds::{Decided, PairError, PairOptions, Paired};
use super::{ChangeLine, Logged, Opened, PairingRow};
use crate::admin::Batch;
use baoqi_store::config::TableSpec;
use baoqi_store::model::{Role, SeatRow};
use baoqi_store::{NewBoard, NewRound};

/// One board of a round to create: a game and its kind, a game decided without play, or a
/// bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Board {
    /// A game at a table of its own.
    Game(Game, Stage),
    /// A game already decided, with no table: a round robin's game against a player who
    /// withdrew, lost by his absence (89(2)).
    Decided(Game),
    /// A player without an opponent.
    Bye(PlayerId),
}

/// The boards a system drew: of round `round`, numbered from `first`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Draft {
    /// The round.
    pub(super) round: RoundNumber,
    /// The number of the first board.
    pub(super) first: u32,
    /// The boards.
    pub(super) boards: Vec<Board>,
    /// The Swiss rules broken.
    pub(super) relaxed: Vec<Relaxation>,
}

impl Draft {
    /// A new round of `round`'s games (board 1 first; those with a result already are
    /// decided without play) then its byes.
    pub(super) fn new(number: RoundNumber, round: Round, relaxed: Vec<Relaxation>) -> Draft {
        let games = round.games.into_iter().map(|g| match g.result {
            Some(_) => Board::Decided(g),
            None => Board::Game(g, Stage::Main),
        });
        Draft {
            round: number,
            first: 1,
            boards: games
                .chain(round.byes.into_iter().map(Board::Bye))
                .collect(),
            relaxed,
        }
    }

    fn games(&self) -> u32 {
        self.boards
            .iter()
            .filter(|b| matches!(b, Board::Game(..)))
            .count() as u32
    }

    fn byes(&self) -> Vec<PlayerId> {
        self.boards
            .iter()
            .filter_map(|b| match b {
                Board::Bye(p) => Some(*p),
                Board::Game(..) | Board::Decided(_) => None,
            })
            .collect()
    }
}

/// A board's table: its label (a knock-out's tie-break games and decider named so) and
/// its match configured from the register and the event's rules (7.2), a tie-break game or
/// decider at the event's tie-break time.
fn table_spec(
    t: &Opened<'_>,
    register: &[Player],
    (round, board): (RoundNumber, u32),
    game: &Game,
    stage: Stage,
) -> Result<TableSpec, PairError> {
    let player = |id: PlayerId| {
        register
            .iter()
            .find(|p| p.id == id)
            .ok_or(PairError::NotRegistered(id))
    };
    let (red, black) = (player(game.red)?, player(game.black)?);
    let kind = match stage {
        Stage::Main => "",
        Stage::TieBreak => " 加賽",
        Stage::Decider => " 決勝局",
    };
    let mut rules = t.settings.rules(&t.event.name);
    if stage != Stage::Main {
        // A knock-out's tie-break games and decider: the event's tie-break time, each
        // category keeping its allowance (7.2).
        rules.time = t.settings.knockout.tie_break_time(&rules.time);
    }
    let mut config = rules.match_config(red, black, round, board);
    config.start_fen.clone_from(&t.settings.game.start_fen);
    Ok(TableSpec {
        round,
        name: format!("第{round}輪 第{board}台{kind}"),
        red: red.name.clone(),
        black: black.name.clone(),
        red_proxy: red.proxy.clone(),
        black_proxy: black.proxy.clone(),
        config: Some(config),
    })
}

/// Writes the draft in one transaction: a table per game (every configuration checked
/// first), the round's referee seats, the boards and the change log's line.
pub(super) fn write(
    t: &Opened<'_>,
    register: &[Player],
    draft: &Draft,
    options: &PairOptions,
) -> Result<Paired, PairError> {
    let mut batch = Batch::default();
    let mut boards = Vec::new();
    let mut tables = Vec::new();
    for (i, b) in draft.boards.iter().enumerate() {
        let board = draft.first + i as u32;
        let (row, table, result) = match *b {
            Board::Game(game, stage) => {
                let spec = table_spec(t, register, (draft.round, board), &game, stage)?;
                let index = batch.table(&spec)?;
                tables.push((board, index));
                ((game.red, Some(game.black)), Some(index), None)
            }
            Board::Decided(game) => ((game.red, Some(game.black)), None, game.result),
            Board::Bye(p) => ((p, None), None, None),
        };
        let row = PairingRow {
            round: draft.round,
            board,
            red: row.0,
            black: row.1,
            table: None,
            result,
        };
        boards.push(NewBoard { row, table });
    }
    let kept = referee_seats(&mut batch, t, options, draft.round, &tables)?;
    let round = NewRound {
        tables: batch.tables().clone(),
        boards,
        log: ChangeLine {
            at: baoqi_store::wallclock::now(),
            change: logged(draft),
        },
        cover: kept
            .iter()
            .flat_map(|(seat, covered)| covered.iter().map(|&i| (seat.token_hash.clone(), i)))
            .collect(),
    };
    let ids = t.records.add_round(t.event.id, &round)?;
    let extended = kept
        .into_iter()
        .map(|(seat, covered)| {
            let new = covered
                .iter()
                .filter_map(|&i| ids.get(i).copied())
                .collect();
            (seat.name, new)
        })
        .collect();
    let player = |id: PlayerId| register.iter().find(|p| p.id == id).cloned();
    let decided = round
        .boards
        .iter()
        .filter(|b| b.row.result.is_some())
        .map(|b| Decided {
            row: b.row,
            red: player(b.row.red),
            black: b.row.black.and_then(player),
        })
        .collect();
    let byes = draft.byes().into_iter().filter_map(player).collect();
    let numbered = round
        .boards
        .iter()
        .map(|b| PairingRow {
            table: b.table.and_then(|i| ids.get(i).copied()),
            ..b.row
        })
        .collect();
    Ok(Paired {
        round: draft.round,
        created: batch.created(t.event.id, &t.event.name, &ids)?,
        byes,
        relaxed: draft.relaxed.clone(),
        decided,
        boards: numbered,
        register: register.to_vec(),
        extended,
    })
}

/// The change log's line of a draft: a round paired; a knock-out's tie-break games are a
/// second line of the same round.
fn logged(draft: &Draft) -> Logged {
    Logged::Paired {
        round: draft.round,
        games: draft.games(),
        byes: draft.byes(),
        relaxed: draft.relaxed.clone(),
    }
}

/// The referee seats of the round's new tables (`tables`: board and index in the batch):
/// each referee the event file names for the round's boards (監局, 附表七 6.2(1)), and each
/// named on the command line for all of them. A referee without a table here gets none. A
/// referee who has a seat of his own already (an earlier round's) keeps it: it comes to
/// cover these tables too (returned with their places in the batch), so he keeps one link
/// for the event.
fn referee_seats(
    batch: &mut Batch,
    t: &Opened<'_>,
    options: &PairOptions,
    round: RoundNumber,
    tables: &[(u32, usize)],
) -> Result<Vec<(SeatRow, Vec<usize>)>, PairError> {
    let all: Vec<usize> = tables.iter().map(|&(_, i)| i).collect();
    let named = t.settings.referees.iter().map(|r| {
        let covered = tables
            .iter()
            .filter(|&&(board, _)| r.covers(round, board))
            .map(|&(_, i)| i)
            .collect::<Vec<_>>();
        (r.name.as_str(), covered)
    });
    let given = options.referees.iter().map(|n| (n.as_str(), all.clone()));
    let seats = t.store.seats(t.event.id)?;
    let mut kept: Vec<(SeatRow, Vec<usize>)> = Vec::new();
    for (name, covered) in named.chain(given) {
        if covered.is_empty() {
            continue;
        }
        // A referee of some tables (not of every table, who covers these already).
        let own = seats.iter().find(|s| {
            s.role == Role::Referee && !s.revoked && s.name == name && !s.tables.is_empty()
        });
        match own {
            Some(seat) => match kept
                .iter_mut()
                .find(|(s, _)| s.token_hash == seat.token_hash)
            {
                Some((_, more)) => more.extend(covered),
                None => kept.push((seat.clone(), covered)),
            },
            None => batch.seat(Role::Referee, name, covered),
        }
    }
    Ok(kept)
}
