//! `baoqi changes`: an event's change log as text, one line per change, dated in UTC, the
//! players named from the register.

use std::fmt::Write as _;

use baoqi_arbiter::{BoardUse, Category};
use baoqi_tournament::changes::{Adjustment, Change, Missed, Remedy};
use baoqi_tournament::{Player, PlayerId};

use super::standings::result_text;
use super::{ChangeLine, EventError, Logged, Opened, Registered};
use baoqi_store::Store;
use baoqi_store::model::EventId;
use baoqi_store::wallclock::UtcTime;

/// The register and the change log of `event`, oldest change first.
pub fn list(
    store: &dyn Store,
    event: EventId,
) -> Result<(Vec<Registered>, Vec<ChangeLine>), EventError> {
    let t = Opened::open(store, event)?;
    Ok((t.records.players(event)?, t.records.changes(event)?))
}

/// `#3 王芳`, or the number alone for a player the register lacks.
fn who(players: &[Registered], id: PlayerId) -> String {
    players
        .iter()
        .find(|r| r.player.id == id)
        .map_or_else(|| id.to_string(), |r| format!("{id} {}", r.player.name))
}

fn adjustment(a: Adjustment) -> &'static str {
    match a {
        Adjustment::Redraw => "before the start: the draw is made without him",
        Adjustment::Annulled => "his games are annulled",
        Adjustment::RemainingForfeited => "his remaining games are lost by absence",
        Adjustment::NotPaired => "his results stand; he is paired no more",
    }
}

fn change(players: &[Registered], c: &Change) -> String {
    match c {
        Change::ColoursReversed {
            round,
            board,
            remedy,
        } => {
            let what = match remedy {
                Remedy::Replay => "replayed with the right colours",
                Remedy::Record => "the game stands, recorded as played",
            };
            format!("108(1) round {round} board {board}: colours reversed, {what}")
        }
        Change::PairingOverridden { round, after, .. } => {
            let games: Vec<String> = after
                .games
                .iter()
                .map(|g| format!("{} v {}", who(players, g.red), who(players, g.black)))
                .collect();
            format!(
                "108(2) round {round}: pairing corrected: {}",
                games.join("; ")
            )
        }
        Change::Withdrawn {
            player,
            adjustment: a,
        } => {
            format!(
                "89(2) {} withdrew: {}",
                who(players, *player),
                adjustment(*a)
            )
        }
        Change::LateEntrant {
            player,
            from_round,
            missed,
        } => format!(
            "late entrant {}, paired from round {from_round}{}",
            who(players, *player),
            match missed {
                Missed::Nothing => "",
                Missed::HalfPoint => ", half a point for each round missed",
            }
        ),
    }
}

/// A seat issued after the event was made, in words.
fn seat_text(
    role: baoqi_store::model::Role,
    name: &str,
    tables: &[baoqi_store::model::TableId],
    reissued: bool,
) -> String {
    let list: Vec<String> = tables.iter().map(ToString::to_string).collect();
    let at = if list.is_empty() {
        "every table".to_string()
    } else {
        format!("table(s) {}", list.join(", "))
    };
    let what = if reissued {
        "link reissued (the old one revoked)"
    } else {
        "seat added"
    };
    format!("{} {name} ({at}): {what}", role.as_str())
}

/// One entry of the log in words.
pub fn entry(players: &[Registered], logged: &Logged) -> String {
    match logged {
        Logged::Registered { players: n } => format!("register imported: {n} players"),
        Logged::Seat {
            role,
            name,
            tables,
            reissued,
        } => seat_text(*role, name, tables, *reissued),
        Logged::Paired {
            round, games, byes, ..
        } => format!("round {round} paired: {games} games, {} bye(s)", byes.len()),
        Logged::Result {
            round,
            board,
            result,
        } => format!(
            "round {round} board {board}: result recorded, {}",
            result_text(Some(*result))
        ),
        Logged::Entered {
            round,
            board,
            before,
            after,
            by,
            reason,
        } => {
            let what = match after {
                // The game's own result entered as it is: made final (7.9), nothing replaced.
                Some(r) if before == after => {
                    format!("the game's result {} confirmed", result_text(Some(*r)))
                }
                Some(r) => format!("result entered, {}", result_text(Some(*r))),
                None => "the organiser's result cleared".to_string(),
            };
            let was = before
                .filter(|_| before != after)
                .map(|b| format!(" (was {})", result_text(Some(b))))
                .unwrap_or_default();
            let because = reason
                .as_ref()
                .map(|r| format!("; reason: {r}"))
                .unwrap_or_default();
            format!("round {round} board {board}: {what}{was}, by {by}{because}")
        }
        Logged::Unpaired { round, tables } => {
            let list: Vec<String> = tables.iter().map(ToString::to_string).collect();
            format!(
                "round {round} un-paired before its games started: table(s) {} set aside",
                list.join(", ")
            )
        }
        Logged::Change(c) => change(players, c),
        Logged::Edited { before, after } => {
            format!(
                "{} edited: {}",
                who(players, before.id),
                edited(before, after)
            )
        }
        Logged::Deleted { player, reason } => {
            let because = reason
                .as_ref()
                .map(|r| format!(" (reason: {r})"))
                .unwrap_or_default();
            format!(
                "{} {} struck from the register before being paired (entered by mistake, not a withdrawal){because}",
                player.id, player.name
            )
        }
        Logged::Withdrawal { change: c, reason } => {
            let because = reason
                .as_ref()
                .map(|r| format!(" (reason: {r})"))
                .unwrap_or_default();
            format!("{}{because}", change(players, c))
        }
        Logged::Retabled {
            round,
            board,
            from,
            to,
        } => {
            let from = from.map(|f| format!("table {f}")).unwrap_or_default();
            format!("round {round} board {board}: replayed at table {to} instead of {from}")
        }
        Logged::Lot {
            round,
            first,
            second,
            winner,
        } => format!(
            "round {round}: the lot (抽籤) of the tie {} v {}, drawn by the server: {} goes through",
            who(players, *first),
            who(players, *second),
            who(players, *winner)
        ),
    }
}

/// An optional value as written in the log: the value, or `—`.
fn or_dash<T: std::fmt::Display>(v: Option<&T>) -> String {
    v.map_or_else(|| "—".into(), ToString::to_string)
}

fn categories(p: &Player) -> String {
    let names: Vec<&str> = p
        .categories
        .iter()
        .map(|c| match c {
            Category::Blind => "全失明",
            Category::PartiallySighted => "部份失明",
            Category::Sighted => "健視",
            Category::Deaf => "聾啞",
            Category::Physical => "肢體傷殘",
        })
        .collect();
    if names.is_empty() {
        "健視".into()
    } else {
        names.join("、")
    }
}

fn board(b: Option<BoardUse>) -> String {
    match b {
        None => "by category",
        Some(BoardUse::Vi) => "視障",
        Some(BoardUse::Regular) => "正規",
        Some(BoardUse::None) => "無",
    }
    .into()
}

fn sex(p: &Player) -> String {
    match p.sex {
        Some(baoqi_tournament::Sex::Female) => "女".into(),
        Some(baoqi_tournament::Sex::Male) => "男".into(),
        None => "-".into(),
    }
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

/// The fields a correction changed, `field old → new`.
fn edited(before: &Player, after: &Player) -> String {
    let fields = [
        ("name", before.name.clone(), after.name.clone()),
        (
            "club",
            or_dash(before.club.as_ref()),
            or_dash(after.club.as_ref()),
        ),
        (
            "seed",
            or_dash(before.seed.as_ref()),
            or_dash(after.seed.as_ref()),
        ),
        (
            "rating",
            or_dash(before.rating.as_ref()),
            or_dash(after.rating.as_ref()),
        ),
        ("category", categories(before), categories(after)),
        (
            "blindfold",
            yes_no(before.blindfold),
            yes_no(after.blindfold),
        ),
        (
            "knows_notation",
            yes_no(before.knows_notation),
            yes_no(after.knows_notation),
        ),
        (
            "proxy",
            or_dash(before.proxy.as_ref()),
            or_dash(after.proxy.as_ref()),
        ),
        ("board", board(before.board), board(after.board)),
        ("sex", sex(before), sex(after)),
        (
            "born",
            or_dash(before.born.as_ref()),
            or_dash(after.born.as_ref()),
        ),
    ];
    let changed: Vec<String> = fields
        .into_iter()
        .filter(|(_, a, b)| a != b)
        .map(|(name, a, b)| format!("{name} {a} → {b}"))
        .collect();
    if changed.is_empty() {
        "nothing changed".into()
    } else {
        changed.join(", ")
    }
}

/// The whole log: `YYYY.MM.DD hh:mm:ss UTC  <entry>` per line.
pub fn text(players: &[Registered], lines: &[ChangeLine]) -> String {
    let mut out = String::new();
    for l in lines {
        let at = UtcTime::of(l.at);
        let _ = writeln!(
            out,
            "{} {} UTC  {}",
            at.day,
            at.clock(),
            entry(players, &l.change)
        );
    }
    if out.is_empty() {
        out.push_str("no change logged\n");
    }
    out
}

/// The tables of `event` set aside (作廢) by a 108 replay (each board moved to a new table
/// leaves its old one closed, its game no longer counting, kept in the log for the record)
/// or by a round un-paired before its games started.
/// None for an event without a tournament, or a store without one.
pub fn set_aside(
    store: &dyn Store,
    event: EventId,
) -> Result<Vec<baoqi_store::model::TableId>, baoqi_store::StoreError> {
    let Some(records) = store.tournaments() else {
        return Ok(Vec::new());
    };
    Ok(records
        .changes(event)?
        .into_iter()
        .flat_map(|line| match line.change {
            Logged::Retabled { from, .. } => from.into_iter().collect(),
            Logged::Unpaired { tables, .. } => tables,
            _ => Vec::new(),
        })
        .collect())
}
