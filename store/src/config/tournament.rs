//! The `[tournament]` section of an event file: the system, the number of rounds, the
//! scoring, the tie-break order, and what every game of the event shares (`[tournament.match]`,
//! the arbiter's match configuration without the players). Stored with the event.

use baoqi_arbiter::MatchConfig;
use baoqi_arbiter::bounds;
use baoqi_rules::Color;
use baoqi_tournament::knockout::TieRules;
use baoqi_tournament::prizes::PrizeList;
use baoqi_tournament::standings::TieBreak;
use baoqi_tournament::{ByeScore, EventRules, RoundNumber, Scoring, System};
use serde::{Deserialize, Serialize};

use super::{EventFileError, check_match};

/// The pairing system of the event (附表二 第一部份 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingSystem {
    /// 積分編排制 (Swiss): each round paired on the scores so far.
    #[default]
    Swiss,
    /// 單循環: the Berger table.
    RoundRobin,
    /// 雙循環: the Berger table twice, colours reversed.
    DoubleRoundRobin,
    /// 淘汰 (knock-out, 附表二 第一部份 1(1)): the seeded bracket, ties with tie-break games.
    Knockout,
}

/// A referee the event file names for some rounds and boards (`[[tournament.referees]]`):
/// each round paired gets a referee seat of his covering its tables on those boards (the
/// 監局裁判 of 監局制, 附表七 6.2(1) and 第3條).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundReferee {
    /// The referee's name.
    pub name: String,
    /// The rounds he supervises; none: every round.
    #[serde(default)]
    pub rounds: Vec<RoundNumber>,
    /// The boards he supervises in those rounds; none: every board.
    #[serde(default)]
    pub boards: Vec<u32>,
}

impl RoundReferee {
    /// Whether he supervises board `board` of round `round`.
    pub fn covers(&self, round: RoundNumber, board: u32) -> bool {
        (self.rounds.is_empty() || self.rounds.contains(&round))
            && (self.boards.is_empty() || self.boards.contains(&board))
    }
}

/// The tournament settings of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSettings {
    /// The pairing system.
    #[serde(default)]
    pub system: PairingSystem,
    /// Rounds to play (a Swiss needs it; a round robin has as many as its table).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The scoring system of 附表二 第二部份 1.
    #[serde(default)]
    pub scoring: System,
    /// How a bye (輪空) scores.
    #[serde(default)]
    pub bye: ByeScore,
    /// The tie-breaks, in the event's order (名次分先, 第二部份 3; Buchholz, SB for a Swiss).
    #[serde(default)]
    pub tiebreaks: Vec<TieBreak>,
    /// The colour drawn (抽籤) for board 1 of the first round.
    #[serde(default = "red")]
    pub first_colour: Color,
    /// What every game shares: kind, time table by category (7.2), talking clock, alerts,
    /// limits. The players' sides are filled from the register at each pairing.
    #[serde(default, rename = "match")]
    pub game: MatchConfig,
    /// A knock-out's ties: main games, pairs of tie-break games, the decider.
    #[serde(default)]
    pub knockout: TieRules,
    /// The referees of the rounds, by round and board (none: the event's referees only).
    #[serde(default)]
    pub referees: Vec<RoundReferee>,
    /// The prize lists, in the order they are given (one prize per player).
    #[serde(default)]
    pub prizes: Vec<PrizeList>,
}

fn red() -> Color {
    Color::Red
}

impl Default for TournamentSettings {
    fn default() -> TournamentSettings {
        TournamentSettings {
            system: PairingSystem::default(),
            rounds: None,
            scoring: System::default(),
            bye: ByeScore::default(),
            tiebreaks: Vec::new(),
            first_colour: Color::Red,
            game: MatchConfig::default(),
            knockout: TieRules::default(),
            referees: Vec::new(),
            prizes: Vec::new(),
        }
    }
}

/// The most rounds an event may have (a Swiss of 9 to 11 rounds is long).
pub const MAX_ROUNDS: u64 = 99;
/// The most games of a knock-out tie, or pairs of tie-break games.
pub const MAX_TIE_GAMES: u64 = 9;
/// The longest tie-break game a side may be given, in minutes: a day.
pub const MAX_TIE_BREAK_MINUTES: u64 = 24 * 60;
/// The largest increment of a tie-break game, in seconds: an hour.
pub const MAX_TIE_BREAK_INCREMENT_SECONDS: u64 = 3_600;

impl TournamentSettings {
    /// Refuses every value no tournament can use, naming the field: rounds, a knock-out's
    /// games and times, the referees' names, rounds and boards (numbered from 1), and the
    /// match every game shares.
    pub fn check(&self) -> Result<(), EventFileError> {
        if let Some(r) = self.rounds {
            bounds::within("tournament.rounds", u64::from(r), 1, MAX_ROUNDS)?;
        }
        let k = &self.knockout;
        bounds::within(
            "tournament.knockout.games",
            u64::from(k.games),
            1,
            MAX_TIE_GAMES,
        )?;
        let pairs = u64::from(k.tiebreak_pairs);
        bounds::at_most("tournament.knockout.tiebreak_pairs", pairs, MAX_TIE_GAMES)?;
        if let Some(m) = k.tie_break_minutes {
            let field = "tournament.knockout.tie_break_minutes";
            bounds::within(field, u64::from(m), 1, MAX_TIE_BREAK_MINUTES)?;
        }
        if let Some(s) = k.tie_break_increment_seconds {
            let field = "tournament.knockout.tie_break_increment_seconds";
            bounds::at_most(field, u64::from(s), MAX_TIE_BREAK_INCREMENT_SECONDS)?;
        }
        for (i, r) in self.referees.iter().enumerate() {
            let field = format!("tournament.referees[{}]", i + 1);
            bounds::name(&format!("{field}.name"), &r.name)?;
            for &n in &r.rounds {
                bounds::within(&format!("{field}.rounds"), u64::from(n.0), 1, MAX_ROUNDS)?;
            }
            for &n in &r.boards {
                let most = crate::config::MAX_TABLES as u64;
                bounds::within(&format!("{field}.boards"), u64::from(n), 1, most)?;
            }
        }
        self.check_prizes()?;
        check_match(&self.game, "tournament.match")
    }

    /// Refuses a prize list without a name, with no prize or more than a register holds, or
    /// whose years of birth admit nobody.
    fn check_prizes(&self) -> Result<(), EventFileError> {
        for (i, p) in self.prizes.iter().enumerate() {
            let field = format!("tournament.prizes[{}]", i + 1);
            bounds::name(&format!("{field}.name"), &p.name)?;
            let most = baoqi_tournament::MAX_PLAYERS as u64;
            bounds::within(&format!("{field}.places"), u64::from(p.places), 1, most)?;
            if let (Some(from), Some(until)) = (p.born_from, p.born_until) {
                bounds::within(
                    &format!("{field}.born_until"),
                    u64::from(until),
                    u64::from(from),
                    u64::MAX,
                )?;
            }
        }
        Ok(())
    }

    /// The event's scoring.
    pub fn scoring(&self) -> Scoring {
        Scoring {
            system: self.scoring,
            bye: self.bye,
        }
    }

    /// The event's rules as the tournament core derives each game from them (`name` is the
    /// event's, for the scoresheet header).
    pub fn rules(&self, name: &str) -> EventRules {
        EventRules {
            kind: self.game.kind,
            time: self.game.time.clone(),
            talking_clock: self.game.talking_clock,
            alerts: self.game.alerts.clone(),
            limits: self.game.limits,
            name: name.to_string(),
            latest_arrival_ms: self.game.latest_arrival_ms,
            venue: self.game.header.venue.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_section_reads_with_defaults() {
        let s: TournamentSettings = toml::from_str(
            r#"
            system = "swiss"
            rounds = 3
            scoring = "huang"
            tiebreaks = ["head_to_head", "buchholz"]
            [match]
            kind = "part7"
            time.blind = { base_ms = 2_700_000, mode = "plain" }
            "#,
        )
        .unwrap();
        assert_eq!(s.rounds, Some(3));
        assert_eq!(s.scoring, System::Huang);
        assert_eq!(s.tiebreaks, vec![TieBreak::HeadToHead, TieBreak::Buchholz]);
        assert_eq!(s.first_colour, Color::Red);
        assert_eq!(s.rules("e").time.blind.unwrap().base_ms, 2_700_000);
        assert_eq!(s.rules("e").latest_arrival_ms, None, "109(2)'s own time");
    }

    #[test]
    fn a109_2_the_event_file_may_set_the_latest_arrival_and_every_game_keeps_it() {
        let s: TournamentSettings = toml::from_str(
            "system = \"swiss\"\n[match]\nkind = \"part7\"\nlatest_arrival_ms = 900_000\n",
        )
        .unwrap();
        let rules = s.rules("e");
        assert_eq!(rules.latest_arrival_ms, Some(900_000));
        let p = baoqi_tournament::Player::new(1, "甲");
        let game = rules.match_config(&p, &p, RoundNumber(1), 1);
        assert_eq!(game.latest_arrival(), baoqi_arbiter::Millis(900_000));
    }

    #[test]
    fn fu4_3_3_the_venue_of_the_event_file_is_on_every_game_s_scoresheet() {
        let s: TournamentSettings =
            toml::from_str("system = \"swiss\"\n[match]\nheader.venue = \"香港中央圖書館\"\n")
                .unwrap();
        let p = baoqi_tournament::Player::new(1, "甲");
        let game = s.rules("e").match_config(&p, &p, RoundNumber(2), 3);
        assert_eq!(game.header.venue, "香港中央圖書館");
        assert_eq!(
            (game.header.round.as_str(), game.header.table.as_str()),
            ("2", "3")
        );
    }

    #[test]
    fn fu2_1_1_the_sample_reads_and_a_knockout_gives_its_ties_rules() {
        let text = include_str!("../../../docs/tournament.toml");
        let (_, sample) = crate::config::EventFile::with_tournament(text).unwrap();
        let sample = sample.unwrap();
        assert!(
            sample.referees[0].covers(RoundNumber(3), 2)
                && !sample.referees[0].covers(RoundNumber(1), 3)
        );
        let s: TournamentSettings = toml::from_str(
            r#"
            system = "knockout"
            knockout = { games = 1, tiebreak_pairs = 2, decider = "lot" }
            "#,
        )
        .unwrap();
        assert_eq!(s.system, PairingSystem::Knockout);
        assert_eq!(
            s.knockout,
            TieRules {
                games: 1,
                tiebreak_pairs: 2,
                decider: baoqi_tournament::knockout::Decider::Lot,
                ..TieRules::default()
            }
        );
        assert!(s.referees.is_empty());
    }

    #[test]
    fn fu2_1_1_a_knockout_gives_its_tie_break_games_a_time() {
        let s: TournamentSettings = toml::from_str(
            r#"
            system = "knockout"
            knockout = { games = 2, tiebreak_pairs = 1, decider = "lot", tie_break_minutes = 5, tie_break_increment_seconds = 3 }
            "#,
        )
        .unwrap();
        assert_eq!(
            (
                s.knockout.tie_break_minutes,
                s.knockout.tie_break_increment_seconds
            ),
            (Some(5), Some(3))
        );
    }
}
