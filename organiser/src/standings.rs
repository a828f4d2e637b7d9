//! The standings (名次分先, 附表二 第二部份 3), the rounds' pairings and the crosstable of an
//! event, computed by the tournament core from the stored rounds and the tables' games, and
//! written out as text (`baoqi standings`), CSV and JSON (the standings page reads the JSON).

use std::collections::{BTreeMap, BTreeSet};

use baoqi_arbiter::Category;
use baoqi_rules::Color;
use baoqi_tournament::changes::HalfByes;
use baoqi_tournament::standings::{TieBreak, standings};
use baoqi_tournament::{
    GameResult, Mark, Player, PlayerId, Points, Round, RoundNumber, Scoring, System, records,
};
use serde::Serialize;

use super::columns::{self, Align};
use super::crosstable::{self, CrossRow};
use super::prizes::PrizeView;
use super::results::{self, Outcomes};
use super::{EventError, Opened, PairingRow, PairingSystem, Registered, TournamentSettings};
use baoqi_store::Store;
use baoqi_store::model::{EventId, TableId};

/// A name in both languages: the page picks one, the text and CSV show both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    /// 中文 (Traditional).
    pub zh: String,
    /// English.
    pub en: String,
}

fn label(zh: &str, en: &str) -> Label {
    Label {
        zh: zh.into(),
        en: en.into(),
    }
}

/// A player as the standings name him.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    /// The register number.
    pub id: PlayerId,
    /// 姓名.
    pub name: String,
    /// 所屬團體.
    pub club: Option<String>,
}

impl Named {
    /// His club as the text listings write it after his name: ` (東區)`, or nothing.
    pub fn club_after(&self) -> String {
        self.club
            .as_deref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default()
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The place (shared places repeat: 1, 2, 2, 4).
    pub place: u32,
    /// Shared with another player.
    pub shared: bool,
    /// The player.
    pub player: Named,
    /// The score as written (`2½`, `39`).
    pub score: String,
    /// The score in half points (for sorting by machine).
    pub halves: u32,
    /// The tie-break values the core needed to separate this player from those level with
    /// him, in the event's order, as written; shorter when fewer were needed.
    pub tiebreaks: Vec<String>,
    /// Every tie-break's value, in the event's order, as written; `None` where it does not
    /// apply (head-to-head among players who have not all met, a club for a player without
    /// one): the CSV's columns.
    pub every_tiebreak: Vec<Option<String>>,
    /// [`Line::every_tiebreak`] as the core counts it (half points, SB in quarters).
    #[serde(skip)]
    pub every_value: Vec<Option<i64>>,
    /// His categories (7.2(1)) as the register gives them; empty means 健視: the category
    /// prizes are drawn from them.
    pub categories: Vec<Category>,
    /// His rating, if the register gives one.
    pub rating: Option<u32>,
    /// Withdrawn (89(2)) with his results standing: he keeps his line.
    pub withdrawn: bool,
}

/// One board of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Board {
    /// The board (1-based).
    pub board: u32,
    /// The table, none for a bye.
    pub table: Option<TableId>,
    /// 紅方, or the player with the bye.
    pub red: Named,
    /// 黑方, none for a bye.
    pub black: Option<Named>,
    /// The result, once known.
    pub result: Option<GameResult>,
    /// The result as written: `1-0`, `0-1`, `½-½`, `+/-` (absence), `bye`, empty while
    /// the game goes on.
    pub score: String,
    /// The points red (or the player with the bye) scores by the event's rules, as written
    /// (黃氏計分法: `13`, `12` for 不戰而勝); empty while the game goes on.
    pub red_points: String,
    /// The points black scores, as written; empty for a bye and while the game goes on.
    pub black_points: String,
    /// Final: verified by the referee (7.9) or recorded by the organiser.
    pub verified: bool,
    /// Its clocks were started, or its result is known: a board not begun is not "in play".
    pub started: bool,
}

/// One round's boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundView {
    /// The round.
    pub round: RoundNumber,
    /// Its boards, board 1 first, byes last.
    pub boards: Vec<Board>,
}

/// An event's standings and pairings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// The event.
    pub event: EventId,
    /// Its name.
    pub name: String,
    /// The pairing system.
    pub system: PairingSystem,
    /// The scoring system.
    pub scoring: System,
    /// Rounds to play, when known.
    pub rounds_total: Option<u32>,
    /// Rounds whose every result is in.
    pub rounds_complete: u32,
    /// The tie-breaks, in order.
    pub tiebreaks: Vec<Label>,
    /// The tie-breaks as the core knows them (the CSV writes their values as numbers).
    #[serde(skip)]
    pub order: Vec<TieBreak>,
    /// The standings, first place first.
    pub lines: Vec<Line>,
    /// Every round paired so far.
    pub rounds: Vec<RoundView>,
    /// The crosstable, one row per line of the standings, in their order.
    pub crosstable: Vec<CrossRow>,
    /// The event's prize lists given from the standings so far (final once every round is).
    pub prizes: Vec<PrizeView>,
}

/// The name of a tie-break in both languages.
pub fn tiebreak_label(t: &TieBreak) -> Label {
    match t {
        TieBreak::HeadToHead => label("對賽結果", "Head-to-head"),
        TieBreak::GamesCompleted => label("完成對賽", "Games completed"),
        TieBreak::Blacks => label("後手局數", "Games with black"),
        TieBreak::Club => label("團體積分", "Club score"),
        TieBreak::Custom { name, .. } => label(name, name),
        TieBreak::Wins => label("勝局", "Wins"),
        TieBreak::Buchholz => label("對手分", "Buchholz"),
        TieBreak::BuchholzCut1 => label("對手分（去最低）", "Buchholz cut 1"),
        TieBreak::SonnebornBerger => label("索伯分", "Sonneborn-Berger"),
    }
}

/// A tie-break value as written: scores in points (`3½`), SB in quarter units, counts as is.
fn tiebreak_value(t: &TieBreak, v: i64) -> String {
    match t {
        TieBreak::HeadToHead | TieBreak::Buchholz | TieBreak::BuchholzCut1 | TieBreak::Club => {
            Points(v.max(0) as u32).to_string()
        }
        TieBreak::SonnebornBerger => {
            let s = format!("{:.2}", v as f64 / 4.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        _ => v.to_string(),
    }
}

/// A result as the pairings list writes it.
pub fn result_text(r: Option<GameResult>) -> &'static str {
    match r {
        None => "",
        Some(GameResult::RedWins) => "1-0",
        Some(GameResult::BlackWins) => "0-1",
        Some(GameResult::Draw | GameResult::ForcedDraw) => "½-½",
        Some(GameResult::BothLose) => "0-0",
        Some(GameResult::RedAbsent) => "-/+",
        Some(GameResult::BlackAbsent) => "+/-",
        Some(GameResult::BothAbsent) => "-/-",
    }
}

/// Why the standings cannot be computed.
pub type StandingsError = EventError;

/// The standings of `event` from its stored rounds and its tables' games (`outcomes`).
pub fn compute(
    store: &dyn Store,
    event: EventId,
    outcomes: &Outcomes,
) -> Result<Standings, StandingsError> {
    Ok(Stored::read(store, event)?.standings(outcomes))
}

/// What an event's standings are computed from, as read from the store: the event, its
/// settings, its register and its pairings. The tables' games come apart ([`Outcomes`]).
#[derive(Debug, Clone)]
pub struct Stored {
    /// The event.
    pub event: EventId,
    /// Its name.
    pub name: String,
    /// Its tournament settings.
    pub settings: TournamentSettings,
    /// The players the standings rank: the register less those withdrawn with no board
    /// in any round (withdrawn before the start, or a round robin's withdrawal whose games
    /// were annulled, 89(2): as if they had never entered). A player withdrawn whose
    /// results stand keeps his line.
    pub register: Vec<Player>,
    /// Every board of every round paired so far.
    pub rows: Vec<PairingRow>,
    /// The players of the register who have withdrawn (89(2)).
    pub withdrawn: BTreeSet<PlayerId>,
    /// The late entrants who score the rounds they missed as draws.
    pub half_byes: HalfByes,
}

impl Stored {
    /// Reads `event`'s tournament from the store.
    pub fn read(store: &dyn Store, event: EventId) -> Result<Stored, StandingsError> {
        let t = Opened::open(store, event)?;
        let rows = t.records.pairings(event)?;
        let registered = t.records.players(event)?;
        let withdrawn = registered
            .iter()
            .filter(|r| !r.active)
            .map(|r| r.player.id)
            .collect();
        Ok(Stored {
            event,
            name: t.event.name.clone(),
            register: ranked(registered, &rows),
            rows,
            settings: t.settings,
            withdrawn,
            half_byes: super::withdrawal::half_byes(&t.records.changes(event)?),
        })
    }

    /// The standings, pairings and crosstable once the tables' games are `outcomes`.
    pub fn standings(&self, outcomes: &Outcomes) -> Standings {
        let rounds = results::scored(&self.rows, outcomes, &self.half_byes);
        let scoring = self.settings.scoring();
        let order = &self.settings.tiebreaks;
        let names = Names::of(&self.register);
        let views = round_views(&self.rows, outcomes, &names, scoring, rounds.len());
        // "After round N" counts the rounds whose every result is final, and only those
        // (as the keypad's spoken place does): a game of the round being played shows in
        // its pairings and the crosstable, not yet in the standings.
        let complete = super::place::rounds_final(&self.rows, outcomes);
        let mut lines = lines(
            &names,
            &self.register,
            &rounds[..complete as usize],
            scoring,
            order,
        );
        for l in &mut lines {
            l.withdrawn = self.withdrawn.contains(&l.player.id);
        }
        let prizes = super::prizes::views(&self.settings.prizes, &lines, &self.register);
        Standings {
            event: self.event,
            name: self.name.clone(),
            system: self.settings.system,
            scoring: self.settings.scoring,
            rounds_total: self.settings.rounds,
            rounds_complete: complete,
            tiebreaks: order.iter().map(tiebreak_label).collect(),
            order: order.clone(),
            crosstable: crosstable::rows(&lines, &records(&rounds), scoring),
            lines,
            rounds: views,
            prizes,
        }
    }
}

/// The players the standings rank ([`Stored::register`]): the register less those withdrawn
/// with no board in any round. The keypad's spoken place counts the same players.
pub fn ranked(registered: Vec<Registered>, rows: &[PairingRow]) -> Vec<Player> {
    let has_board = |id: PlayerId| rows.iter().any(|r| r.red == id || r.black == Some(id));
    registered
        .into_iter()
        .filter(|r| r.active || has_board(r.player.id))
        .map(|r| r.player)
        .collect()
}

/// The register by number, to name the players.
struct Names<'a>(BTreeMap<PlayerId, &'a Player>);

impl<'a> Names<'a> {
    fn of(register: &'a [Player]) -> Names<'a> {
        Names(register.iter().map(|p| (p.id, p)).collect())
    }

    /// The player as the standings name him (his number when not in the register).
    fn named(&self, id: PlayerId) -> Named {
        named(self.0.get(&id).copied(), id)
    }
}

/// Player `id` as the standings name him, from his register line (his number when he has
/// none): the standings and the result grid alike.
pub(crate) fn named(line: Option<&Player>, id: PlayerId) -> Named {
    line.map_or_else(
        || Named {
            id,
            name: id.to_string(),
            club: None,
        },
        |p| Named {
            id,
            name: p.name.clone(),
            club: p.club.clone(),
        },
    )
}

/// The standings' lines: the core's order (名次分先), named, scores and tie-breaks written.
fn lines(
    names: &Names,
    register: &[Player],
    rounds: &[Round],
    scoring: Scoring,
    order: &[TieBreak],
) -> Vec<Line> {
    standings(register, rounds, scoring, order)
        .into_iter()
        .map(|s| {
            let player = names.0.get(&s.player);
            Line {
                place: s.place,
                shared: s.shared,
                player: names.named(s.player),
                score: s.score.to_string(),
                halves: s.score.0,
                tiebreaks: order
                    .iter()
                    .zip(&s.tiebreaks)
                    .map(|(t, v)| tiebreak_value(t, *v))
                    .collect(),
                every_tiebreak: order
                    .iter()
                    .zip(&s.values)
                    .map(|(t, v)| v.map(|v| tiebreak_value(t, v)))
                    .collect(),
                every_value: s.values,
                categories: player.map(|p| p.categories.clone()).unwrap_or_default(),
                rating: player.and_then(|p| p.rating),
                withdrawn: false,
            }
        })
        .collect()
}

/// Rounds 1 to `count`, each with its boards.
fn round_views(
    rows: &[PairingRow],
    outcomes: &Outcomes,
    names: &Names,
    scoring: Scoring,
    count: usize,
) -> Vec<RoundView> {
    (0..count)
        .map(RoundNumber::from_index)
        .map(|n| RoundView {
            round: n,
            boards: rows
                .iter()
                .filter(|r| r.round == n)
                .map(|r| board(r, outcomes, names, scoring))
                .collect(),
        })
        .collect()
}

/// One board: its players, its result (the organiser's, else the table's) and the points
/// each side scores by the event's rules.
fn board(row: &PairingRow, outcomes: &Outcomes, names: &Names, scoring: Scoring) -> Board {
    let result = results::board_result(row, outcomes);
    let (red_points, black_points) = board_points(row, result, scoring);
    Board {
        board: row.board,
        table: row.table,
        red: names.named(row.red),
        black: row.black.map(|b| names.named(b)),
        result,
        score: if row.is_bye() {
            "bye"
        } else {
            result_text(result)
        }
        .into(),
        red_points,
        black_points,
        verified: results::board_final(row, outcomes),
        started: result.is_some()
            || row
                .table
                .and_then(|t| outcomes.get(&t))
                .is_some_and(|o| o.started),
    }
}

/// The points of red (or the player with the bye) and of black, as written; empty while
/// the result is unknown (附表二 第二部份 1: 不戰而勝 and 缺席 as the system scores them).
fn board_points(
    row: &PairingRow,
    result: Option<GameResult>,
    scoring: Scoring,
) -> (String, String) {
    let points = |m: Mark| scoring.points(m).to_string();
    if row.is_bye() {
        return (points(Mark::Bye), String::new());
    }
    result.map_or_else(Default::default, |r| {
        (points(r.mark(Color::Red)), points(r.mark(Color::Black)))
    })
}

/// How far the standings go, in words: the rounds finished (every result final, 7.9) and
/// the round in play, if any (no "after round 0" during round 1).
pub fn progress(s: &Standings) -> String {
    let paired = s.rounds.len() as u32;
    match (s.rounds_complete, paired) {
        (_, 0) => "before round 1: no round paired (未編排)".into(),
        (0, p) => format!("round {p} in play, no round finished (第{p}輪進行中，未有完成的輪次)"),
        (d, p) if p > d => {
            format!("after round {d}; round {p} in play (第{d}輪後；第{p}輪進行中)")
        }
        (d, _) => format!("after round {d} (第{d}輪後)"),
    }
}

/// The standings as text: a heading saying how far they go ([`progress`]), then a table of
/// place, number, name (club), score and the tie-breaks the places needed, its columns
/// lined up by display width (a Chinese character takes two).
pub fn text(s: &Standings) -> String {
    let mut out = format!("{} — 名次 standings {}\n", s.name, progress(s));
    let mut head: Vec<String> = ["名次", "編號", "姓名 name", "積分 score"]
        .map(String::from)
        .into();
    head.extend(s.tiebreaks.iter().map(|l| format!("{} {}", l.zh, l.en)));
    let mut rows = vec![head];
    rows.extend(s.lines.iter().map(|l| text_row(l, s.tiebreaks.len())));
    let mut align = vec![Align::Right, Align::Right, Align::Left, Align::Right];
    align.extend(s.tiebreaks.iter().map(|_| Align::Right));
    out.push_str(&columns::table(&rows, &align));
    out
}

/// One line of the text standings: `2=`, `#`, `陳大文 (盲人會)`, score, tie-breaks.
fn text_row(l: &Line, tiebreaks: usize) -> Vec<String> {
    let place = if l.shared {
        format!("{}=", l.place)
    } else {
        l.place.to_string()
    };
    let club = l.player.club_after();
    let withdrawn = if l.withdrawn { " 退出 withdrawn" } else { "" };
    let mut row = vec![
        place,
        l.player.id.0.to_string(),
        format!("{}{club}{withdrawn}", l.player.name),
        l.score.clone(),
    ];
    // The values the place needed; blank where one does not apply (head-to-head among
    // players who have not all met), as in the CSV.
    let needed = l.every_tiebreak.iter().take(l.tiebreaks.len());
    row.extend(needed.map(|v| v.clone().unwrap_or_default()));
    row.resize(4 + tiebreaks, String::new());
    row
}

// The CSV files are written in [`super::spreadsheet`]; their names stay here, where the
// server and the command line have always found them.
pub use super::spreadsheet::{crosstable_csv, csv, pairings_csv};
