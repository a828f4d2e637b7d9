//! The standings (名次分先, 附表二 第二部份 3) and the rounds' pairings of an event, computed
//! by the tournament core from the stored rounds and the tables' games, and written out as
//! text (`baoqi standings`), CSV and JSON (the standings page reads the JSON).

use std::fmt::Write as _;

use baoqi_tournament::standings::{TieBreak, standings};
use baoqi_tournament::{GameResult, Player, PlayerId, Points, System};
use serde::Serialize;

use super::results::{self, Outcomes};
use super::{EventError, Opened, PairingSystem};
use crate::model::{EventId, TableId};
use crate::store::Store;

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
    /// Final: verified by the referee (7.9) or recorded by the organiser.
    pub verified: bool,
}

/// One round's boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundView {
    /// The round.
    pub round: u32,
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
    /// The standings, first place first.
    pub lines: Vec<Line>,
    /// Every round paired so far.
    pub rounds: Vec<RoundView>,
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
    let t = Opened::open(store, event)?;
    let register: Vec<Player> = t
        .records
        .players(event)?
        .into_iter()
        .map(|r| r.player)
        .collect();
    let rows = t.records.pairings(event)?;
    let rounds = results::rounds(&rows, outcomes);
    let order = &t.settings.tiebreaks;
    let named = |id: PlayerId| {
        register.iter().find(|p| p.id == id).map_or_else(
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
    };
    let lines = standings(&register, &rounds, t.settings.scoring(), order)
        .into_iter()
        .map(|s| Line {
            place: s.place,
            shared: s.shared,
            player: named(s.player),
            score: s.score.to_string(),
            halves: s.score.0,
            tiebreaks: order
                .iter()
                .zip(&s.tiebreaks)
                .map(|(t, v)| tiebreak_value(t, *v))
                .collect(),
        })
        .collect();
    let views: Vec<RoundView> = (1..=rounds.len() as u32)
        .map(|n| RoundView {
            round: n,
            boards: rows
                .iter()
                .filter(|r| r.round == n)
                .map(|r| {
                    let result = results::board_result(r, outcomes);
                    Board {
                        board: r.board,
                        table: r.table,
                        red: named(r.red),
                        black: r.black.map(named),
                        result,
                        score: if r.is_bye() {
                            "bye"
                        } else {
                            result_text(result)
                        }
                        .into(),
                        verified: results::board_final(r, outcomes),
                    }
                })
                .collect(),
        })
        .collect();
    let rounds_complete = views
        .iter()
        .take_while(|v| v.boards.iter().all(|b| b.verified))
        .count() as u32;
    Ok(Standings {
        event,
        name: t.event.name.clone(),
        system: t.settings.system,
        scoring: t.settings.scoring,
        rounds_total: t.settings.rounds,
        rounds_complete,
        tiebreaks: order.iter().map(tiebreak_label).collect(),
        lines,
        rounds: views,
    })
}

/// The standings as text: a heading, then place, number, name, club, score and tie-breaks.
pub fn text(s: &Standings) -> String {
    let mut out = format!(
        "{} — 名次 standings after round {} (第{}輪後)\n",
        s.name, s.rounds_complete, s.rounds_complete
    );
    let heads: Vec<String> = s
        .tiebreaks
        .iter()
        .map(|l| format!("{} {}", l.zh, l.en))
        .collect();
    let _ = writeln!(
        out,
        "名次  編號  姓名 name  積分 score  {}",
        heads.join("  ")
    );
    for l in &s.lines {
        let place = if l.shared {
            format!("{}=", l.place)
        } else {
            l.place.to_string()
        };
        let club = l
            .player
            .club
            .as_ref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{place:>4}  {:>4}  {}{club}  {}  {}",
            l.player.id.0,
            l.player.name,
            l.score,
            l.tiebreaks.join("  ")
        );
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The standings as CSV: one header line, then one line per player.
pub fn csv(s: &Standings) -> String {
    let mut head = vec!["place".to_string(), "shared".into(), "player".into()];
    head.extend(["name", "club", "score"].map(String::from));
    head.extend(s.tiebreaks.iter().map(|l| csv_field(&l.en)));
    let mut out = head.join(",");
    out.push('\n');
    for l in &s.lines {
        let mut cells = vec![
            l.place.to_string(),
            l.shared.to_string(),
            l.player.id.0.to_string(),
            csv_field(&l.player.name),
            csv_field(l.player.club.as_deref().unwrap_or("")),
            csv_field(&l.score),
        ];
        cells.extend(l.tiebreaks.iter().map(|v| csv_field(v)));
        cells.resize(6 + s.tiebreaks.len(), String::new());
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
