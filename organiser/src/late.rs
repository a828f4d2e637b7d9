//! A result put right after later rounds were paired (第87條; `docs/decisions.md`, the
//! result grid): a later round is not paired again by itself, but the organiser is told
//! whose score group the correction changed in the rounds already paired, and what he may
//! do (take the last round back before its games start, or leave it).

use std::fmt::Write as _;

use baoqi_tournament::changes::HalfByes;
use baoqi_tournament::{Points, RoundNumber, Scoring};

use super::results::{self, Outcomes};
use super::standings::Named;
use super::{PairingRow, PairingSystem, Registered};
use baoqi_store::model::EventId;

/// A player paired in a later round on a score the correction changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The round paired on the old score.
    pub round: RoundNumber,
    /// The player.
    pub player: Named,
    /// His score before that round, as it was paired.
    pub before: Points,
    /// His score before it now.
    pub after: Points,
}

/// The players of the rounds after `corrected` whose score before their round differs
/// between the boards `old` and `new` (the same boards, one result changed). Only a Swiss
/// pairs by score groups: other systems give none.
pub(crate) fn moved(
    system: PairingSystem,
    scoring: Scoring,
    register: &[Registered],
    (old, new): (&[PairingRow], &[PairingRow]),
    corrected: RoundNumber,
    (outcomes, half): (&Outcomes, &HalfByes),
) -> Vec<Moved> {
    if system != PairingSystem::Swiss {
        return Vec::new();
    }
    let (was, now) = (
        results::scored(old, outcomes, half),
        results::scored(new, outcomes, half),
    );
    baoqi_tournament::regrouped(&was, &now, corrected, scoring)
        .into_iter()
        .map(|m| Moved {
            round: m.round,
            player: super::standings::named(
                register
                    .iter()
                    .find(|r| r.player.id == m.player)
                    .map(|r| &r.player),
                m.player,
            ),
            before: m.before,
            after: m.after,
        })
        .collect()
}

/// The warning the command line prints after a correction that moved players (empty when
/// none moved): each round paired on the old scores, each player with his points then and
/// now, and the organiser's two ways on.
pub fn warning(event: EventId, last: Option<RoundNumber>, moved: &[Moved]) -> String {
    let mut out = String::new();
    let mut round = None;
    for m in moved {
        if round != Some(m.round) {
            round = Some(m.round);
            let _ = writeln!(
                out,
                "warning: round {r} was paired before this correction; these players were paired on a score they no longer have before round {r} (第{r}輪的積分組別已變):",
                r = m.round
            );
        }
        let club = m.player.club_after();
        let _ = writeln!(
            out,
            "  #{} {}{club}: {} → {} points, paired in the {}-point group",
            m.player.id.0, m.player.name, m.before, m.after, m.before
        );
    }
    if let (Some(last), false) = (last, moved.is_empty()) {
        let _ = writeln!(
            out,
            "what you can do: leave it (the standings count the corrected result; the next round is paired on it), or, while no game of round {last} has started, take round {last} back and pair it again: baoqi round unpair --event {event}, then baoqi round pair --event {event}"
        );
    }
    out
}
