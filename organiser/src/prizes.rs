//! The event's prize lists (`[[tournament.prizes]]`) as the standings show them: each list's
//! prizes given from the standings so far ([`baoqi_tournament::prizes::award`]: in the
//! organiser's order, one prize per player, none to a player who withdrew), and the same as
//! text for `baoqi standings --format text` and the prize-giving.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use baoqi_tournament::prizes::{PrizeList, award};
use baoqi_tournament::{Player, PlayerId};
use serde::Serialize;

use super::standings::{Line, Named};

/// One prize list with its prizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrizeView {
    /// The list's name.
    pub name: String,
    /// How many prizes it has.
    pub places: u32,
    /// Its prizes given, first prize first; fewer than `places` when too few players may
    /// take them.
    pub prizes: Vec<PrizeLine>,
}

/// One prize given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrizeLine {
    /// The prize's number in its list.
    pub prize: u32,
    /// The winner's place in the standings.
    pub place: u32,
    /// The winner.
    pub player: Named,
}

/// Every list of `lists` given from the standings `lines` (best first); `register` gives what
/// the lists ask of a player (categories, sex, year of birth).
pub fn views(lists: &[PrizeList], lines: &[Line], register: &[Player]) -> Vec<PrizeView> {
    let placed: Vec<(PlayerId, u32)> = lines.iter().map(|l| (l.player.id, l.place)).collect();
    let withdrawn: BTreeSet<PlayerId> = lines
        .iter()
        .filter(|l| l.withdrawn)
        .map(|l| l.player.id)
        .collect();
    award(lists, &placed, register, &withdrawn)
        .into_iter()
        .map(|a| PrizeView {
            name: a.list.name,
            places: a.list.places,
            prizes: a
                .prizes
                .iter()
                .filter_map(|p| {
                    let line = lines.iter().find(|l| l.player.id == p.player)?;
                    Some(PrizeLine {
                        prize: p.prize,
                        place: p.place,
                        player: line.player.clone(),
                    })
                })
                .collect(),
        })
        .collect()
}

/// The prize lists as text, one list after another: 「視障組（2 prizes）」, then each prize,
/// its winner and his place; a prize nobody may take is said so. `final_after` is the round
/// the standings are final after (`None`: the event is not over, and the text says so).
pub fn text(prizes: &[PrizeView], final_after: Option<u32>) -> String {
    let mut out = match final_after {
        Some(n) => format!("獎項 prizes, final after round {n}\n"),
        None => "獎項 prizes, if the event ended now (not final)\n".to_string(),
    };
    for list in prizes {
        let _ = writeln!(out, "{}（{} 名 prizes）", list.name, list.places);
        for p in &list.prizes {
            let club = p.player.club_after();
            let _ = writeln!(
                out,
                "  {:>2}. #{} {}{club}  名次 place {}",
                p.prize, p.player.id.0, p.player.name, p.place
            );
        }
        for n in list.prizes.len() as u32 + 1..=list.places {
            let _ = writeln!(out, "  {n:>2}. 從缺 not awarded: no one else may take it");
        }
    }
    out
}
