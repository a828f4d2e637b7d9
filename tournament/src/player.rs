//! The register's player and the match settings derived from it (附表七 7.1–7.4): the time
//! allowance by disability class (7.2), the board, the cards, who announces.

use baoqi_arbiter::{
    AlertConfig, BoardUse, Category, EventKind, Header, Limits, MatchConfig, SideConfig,
    TimeControl, TimeTable,
};
use serde::{Deserialize, Serialize};

/// A player's number in the register (1-based, stable for the whole event).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u32);

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A round's number: 1 for the first round, 2 for the second, as 附表二 numbers them (第一輪,
/// 第二輪 …). Not a count of rounds (those stay plain numbers), nor a board's number; written
/// as the bare number in JSON, files and URLs, and printed so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RoundNumber(pub u32);

impl RoundNumber {
    /// The first round (第一輪).
    pub const fn first() -> RoundNumber {
        RoundNumber(1)
    }

    /// The round at `index` (zero-based) of a list of rounds in order: index 0 is round 1.
    /// With a list's length, it is the round after the list's last (`from_index(rounds.len())`).
    pub const fn from_index(index: usize) -> RoundNumber {
        RoundNumber(index as u32 + 1)
    }

    /// This round's position (zero-based) in a list of rounds in order: round 1 is at 0.
    /// Round 0 has none (this underflows, as `round - 1` did); see [`RoundNumber::checked_index`].
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// This round's position (zero-based), `None` for a round 0 (a number that names no round).
    pub const fn checked_index(self) -> Option<usize> {
        match self.0.checked_sub(1) {
            Some(i) => Some(i as usize),
            None => None,
        }
    }

    /// The last of the first `count` rounds: round `count`; `None` when no round is counted.
    pub const fn last_of(count: u32) -> Option<RoundNumber> {
        if count > 0 {
            Some(RoundNumber(count))
        } else {
            None
        }
    }

    /// How many rounds there are up to and including this one (its number, as a count).
    pub const fn rounds_through(self) -> u32 {
        self.0
    }

    /// The round after this one.
    #[must_use]
    pub const fn next(self) -> RoundNumber {
        RoundNumber(self.0 + 1)
    }
}

impl std::fmt::Display for RoundNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for RoundNumber {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(RoundNumber)
    }
}

/// One line of the register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The register number.
    pub id: PlayerId,
    /// 姓名.
    pub name: String,
    /// 所屬團體: players of one club are kept apart where possible (附表二 第一部份 3(e)).
    pub club: Option<String>,
    /// 種子 (1 = first seed), when the organiser seeds by hand (附表二 第一部份 3(b)).
    pub seed: Option<u32>,
    /// A rating, when the organiser ranks by rating.
    pub rating: Option<u32>,
    /// Categories (7.2(1)); empty means 健視.
    pub categories: Vec<Category>,
    /// Plays blindfolded: counts as 全失明 (7.2(2)).
    pub blindfold: bool,
    /// Knows traditional notation (7.4(2)(c)).
    pub knows_notation: bool,
    /// The proxy (代理) named before the event (7.1(3), 7.4(2)(d)(ii), 7.4(2)(g)(iii)).
    pub proxy: Option<String>,
    /// The board the player operates; `None`: by category (VI board for a VI player).
    pub board: Option<BoardUse>,
    /// 性別, when the register gives it (a women's prize).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
    /// 出生年份, when the register gives it (a juniors' or seniors' prize).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub born: Option<u32>,
}

/// A player's sex as the register gives it, for the prizes that ask for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    /// 女.
    Female,
    /// 男.
    Male,
}

impl Player {
    /// A sighted player who knows notation, without club, seed or aids.
    pub fn new(id: u32, name: impl Into<String>) -> Player {
        Player {
            id: PlayerId(id),
            name: name.into(),
            club: None,
            seed: None,
            rating: None,
            categories: Vec::new(),
            blindfold: false,
            knows_notation: true,
            proxy: None,
            board: None,
            sex: None,
            born: None,
        }
    }

    /// The name as two lines of the register are compared: without spaces nor invisible
    /// characters (a bidi control or a zero-width space, refused in a new name, may sit in
    /// one kept from before), in lower case (`陳 大文` is `陳大文`, `Amy Wong` is `amy wong`).
    pub fn name_key(&self) -> String {
        self.name
            .chars()
            .filter(|&c| !c.is_whitespace() && !baoqi_arbiter::bounds::is_invisible_format(c))
            .flat_map(char::to_lowercase)
            .collect()
    }

    /// Whether `other` may be the same person as far as the register tells: the same name
    /// ([`Player::name_key`]) and no two different clubs to tell them apart (a missing club
    /// tells nothing). Such a second player is taken only when the organiser confirms.
    pub fn namesake(&self, other: &Player) -> bool {
        let told_apart = matches!((&self.club, &other.club), (Some(a), Some(b)) if a != b);
        self.name_key() == other.name_key() && !told_apart
    }

    /// The player as one side of a match (the arbiter's [`SideConfig`]).
    pub fn side_config(&self) -> SideConfig {
        SideConfig {
            name: self.name.clone(),
            categories: self.categories.clone(),
            blindfold: self.blindfold,
            knows_notation: self.knows_notation,
            proxy: self.proxy.clone(),
            board: self.board,
            time: None,
        }
    }

    /// The initial ranking order: seed first (lower is stronger), then rating (higher is
    /// stronger), then the register number. Players without a seed follow the seeded ones.
    pub fn ranking_key(&self) -> (u32, std::cmp::Reverse<u32>, PlayerId) {
        (
            self.seed.unwrap_or(u32::MAX),
            std::cmp::Reverse(self.rating.unwrap_or(0)),
            self.id,
        )
    }
}

/// What the event's rules fix for every game (章程, 附表七): the kind, the time table by
/// category (7.2), alerts, violation limits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRules {
    /// Part 6 (視障賽), part 7 (共融賽) or regular.
    pub kind: EventKind,
    /// Time controls by category (7.2(1)).
    pub time: TimeTable,
    /// A talking clock at every table with a VI player (7.1(1)(b)).
    pub talking_clock: bool,
    /// Alerts.
    pub alerts: AlertConfig,
    /// Violation limits (127(2)).
    pub limits: Limits,
    /// The event's name, for the scoresheet header.
    pub name: String,
    /// The latest arrival after the start, when the event's rules set one (109(2)).
    #[serde(default)]
    pub latest_arrival_ms: Option<u64>,
    /// 比賽地點 (附表四 3(3)), for every game's scoresheet and record (PGN `Site`).
    #[serde(default)]
    pub venue: String,
}

/// A player's own settings, derived from the register and the event's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSettings {
    /// The time allowance (7.2): by category, a blindfold counting as 全失明 (7.2(2)), a VI
    /// player with a proxy on the table's smaller entry (7.4(2)(g)(iii)).
    pub time: TimeControl,
    /// The board the player operates.
    pub board: BoardUse,
    /// The referee announces first and the player repeats (7.4(2)(c)).
    pub referee_announces: bool,
    /// Deaf: draw and resignation cards (7.1(2)), visual alerts, announcing by the referee or
    /// the proxy (7.4(2)(d)).
    pub cards: bool,
}

impl EventRules {
    /// The player's own settings.
    pub fn settings(&self, player: &Player) -> PlayerSettings {
        let side = player.side_config();
        PlayerSettings {
            time: self.time.for_side(&side),
            board: side.board_use(),
            referee_announces: !player.knows_notation,
            cards: side.is_deaf(),
        }
    }

    /// The whole configuration of the game `red` against `black`; the table repeats nothing.
    pub fn match_config(
        &self,
        red: &Player,
        black: &Player,
        round: RoundNumber,
        table: u32,
    ) -> MatchConfig {
        let red = red.side_config();
        let black = black.side_config();
        let vi_present = red.is_vi() || black.is_vi();
        MatchConfig {
            kind: self.kind,
            red,
            black,
            time: self.time.clone(),
            talking_clock: self.talking_clock && vi_present,
            alerts: self.alerts.clone(),
            limits: self.limits,
            official_draw: false,
            start_fen: None,
            header: Header {
                event: self.name.clone(),
                round: round.to_string(),
                table: table.to_string(),
                venue: self.venue.clone(),
                ..Header::default()
            },
            carried: baoqi_arbiter::Tallies::default(),
            latest_arrival_ms: self.latest_arrival_ms,
        }
    }
}
