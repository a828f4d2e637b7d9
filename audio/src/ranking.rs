//! A player's place in his event's standings, as the keypad says it when asked (`/ Enter`):
//! 你排第五，四分。第三輪後，共八人. Ties say 並列 (名次分先 leaves them level,
//! 附表二 第二部份 3); half points are said as people say them (四分半, 半分), and the whole
//! scores of 黃氏計分法 as numbers (三十九分). Worded in the `[standing]` section of
//! `phrases/data/phrases.toml`.

use baoqi_tournament::RoundNumber;

use crate::phrasebook::{Phrase, fill, plain};
use crate::spoken_time::{self, count};

/// Where the listener stands, or why there is no place to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ranking {
    /// The listener's place after `after_round`.
    Placed {
        /// The last round whose every result is final.
        after_round: RoundNumber,
        /// The place (1-based).
        place: u32,
        /// Shared with another player (並列).
        shared: bool,
        /// The score in half points.
        halves: u32,
        /// Players in the standings.
        players: u32,
    },
    /// No round is final yet.
    NoRoundFinished,
    /// The event has no standings (not a tournament).
    NoStandings,
    /// The listener is not a player of the event's register.
    NotRegistered,
}

impl Ranking {
    /// What is said, in every form.
    pub fn phrase(&self) -> Phrase {
        match *self {
            Ranking::Placed {
                after_round,
                place,
                shared,
                halves,
                players,
            } => fill(
                if shared {
                    "standing.placed_shared"
                } else {
                    "standing.placed"
                },
                &[
                    ("round", &count(after_round.0)),
                    ("place", &count(place)),
                    ("points", &points(halves)),
                    ("players", &count(players)),
                ],
            ),
            Ranking::NoRoundFinished => plain("standing.no_round_finished"),
            Ranking::NoStandings => plain("standing.no_standings"),
            Ranking::NotRegistered => plain("standing.not_registered"),
        }
    }
}

/// A score in half points as said: 四分, 兩分, 零分, 四分半, 半分, 三十九分.
pub fn points(halves: u32) -> Phrase {
    let whole = halves / 2;
    let half = halves % 2 == 1;
    if half && whole == 0 {
        return plain("standing.half_point");
    }
    // 2 before a unit is 兩 (兩分), as for minutes.
    let (chars, pinyin) = spoken_time::number(whole, true);
    let n = Phrase::new(&chars, &chars, &pinyin);
    fill(
        if half {
            "standing.points_and_half"
        } else {
            "standing.points"
        },
        &[("n", &n)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(after_round: RoundNumber, place: u32, shared: bool, halves: u32) -> Ranking {
        Ranking::Placed {
            after_round,
            place,
            shared,
            halves,
            players: 8,
        }
    }

    #[test]
    fn fu2_3_after_round_three_fifth_with_four_points() {
        let p = placed(RoundNumber(3), 5, false, 8).phrase();
        assert_eq!(p.display, "你排第五，四分。第三輪後，共八人");
        assert_eq!(p.yue, "你排第五，四分。第三輪後，共八人");
        assert_eq!(
            p.cmn,
            "ni3 pai2 di4 wu3, si4 fen1, di4 san1 lun2 hou4, gong4 ba1 ren2"
        );
    }

    #[test]
    fn fu2_3_a_shared_place_is_said_as_level() {
        let p = placed(RoundNumber(3), 3, true, 9).phrase();
        assert_eq!(p.display, "你並列第三，四分半。第三輪後，共八人");
        assert_eq!(
            p.cmn,
            "ni3 bing4 lie4 di4 san1, si4 fen1 ban4, di4 san1 lun2 hou4, gong4 ba1 ren2"
        );
    }

    #[test]
    fn fu2_1_half_points_and_huang_scores_are_said_naturally() {
        let said = |h: u32| points(h);
        assert_eq!(said(1).display, "半分");
        assert_eq!(said(1).cmn, "ban4 fen1");
        assert_eq!(said(0).display, "零分");
        assert_eq!(said(4).display, "兩分");
        assert_eq!(said(5).display, "兩分半");
        assert_eq!(said(5).cmn, "liang3 fen1 ban4");
        // 黃氏計分法: 勝 13 + 黑和 9 + 強制和 8 + 紅和 7 + 不戰而勝 12 = 49.
        assert_eq!(said(98).display, "四十九分");
        assert_eq!(said(98).cmn, "si4 shi2 jiu3 fen1");
        assert_eq!(said(24).display, "十二分");
    }

    #[test]
    fn fu2_3_no_place_is_said_plainly() {
        let no = Ranking::NoStandings.phrase();
        assert_eq!(no.display, "本賽事沒有名次");
        assert_eq!(no.cmn, "ben3 sai4 shi4 mei2 you3 ming2 ci4");
        assert_eq!(
            Ranking::NoRoundFinished.phrase().display,
            "第一輪未完成，未有名次"
        );
        assert_eq!(
            Ranking::NotRegistered.phrase().display,
            "你不在本賽事的名單上"
        );
    }
}
