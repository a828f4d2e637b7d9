//! [`MatchConfig`]: everything fixed before the game (章程 and 附表七): the event kind, each
//! side's categories and aids, the time controls of 附表三 per category, alerts and the
//! violation limits of 127(2). Loadable from TOML (see `docs/arbiter.md`).

use serde::{Deserialize, Serialize};

/// Which part of 附表七 governs the match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// 第六部分 視障賽: every player is visually impaired; announcing (報棋) is required.
    #[serde(alias = "視障賽")]
    Part6,
    /// 第七部分 共融賽: players with and without impairments; announcing is required when a
    /// visually impaired player takes part (7.4(2)(a)).
    #[serde(alias = "共融賽")]
    Part7,
    /// A regular game: no announcement, no special aids.
    #[default]
    Regular,
}

/// A player's category (7.2(1)); a side may have several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// 全失明.
    #[serde(alias = "全失明")]
    Blind,
    /// 部份失明.
    #[serde(alias = "部份失明")]
    PartiallySighted,
    /// 健視.
    #[serde(alias = "健視")]
    Sighted,
    /// 聾啞: cannot announce (7.4(2)(d)); uses the cards of 7.1(2).
    #[serde(alias = "聾啞")]
    Deaf,
    /// 肢體傷殘 (6.3(5), 7.4(3)).
    #[serde(alias = "肢體傷殘")]
    Physical,
}

/// A physical board at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardId {
    /// 為視障人士設計的棋盤 (6.1(1), 7.1(1)(a)).
    Vi,
    /// 正規棋盤.
    Regular,
}

impl BoardId {
    /// The board's name: 視障棋盤 or 正規棋盤.
    pub const fn chinese(self) -> &'static str {
        match self {
            BoardId::Vi => "視障棋盤",
            BoardId::Regular => "正規棋盤",
        }
    }
}

/// Which board a side operates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardUse {
    /// The VI board.
    Vi,
    /// The regular board.
    Regular,
    /// No board: the announcement alone is the move.
    None,
}

impl BoardUse {
    /// The board, if any.
    pub const fn board(self) -> Option<BoardId> {
        match self {
            BoardUse::Vi => Some(BoardId::Vi),
            BoardUse::Regular => Some(BoardId::Regular),
            BoardUse::None => None,
        }
    }
}

/// One side's player: name, categories and aids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideConfig {
    /// The player's name (對賽者姓名, 附表四 3(6)).
    #[serde(default)]
    pub name: String,
    /// Categories; empty means 健視.
    #[serde(default)]
    pub categories: Vec<Category>,
    /// Plays blindfolded: counts as 全失明 whatever the sight (7.2(2)).
    #[serde(default)]
    pub blindfold: bool,
    /// Knows traditional notation; if not, the referee announces and the player repeats
    /// (6.3(7), 7.4(2)(c)).
    #[serde(default = "yes")]
    pub knows_notation: bool,
    /// The proxy (代理 / 助手) named before the game, if any (6.3(5)(b), 7.1(3), 7.4(2)(d)(ii),
    /// 7.4(2)(g)(iii), 7.4(3)(c)).
    #[serde(default)]
    pub proxy: Option<String>,
    /// The board this side operates; default: the VI board for a VI player, else regular.
    #[serde(default)]
    pub board: Option<BoardUse>,
    /// A time control for this side alone, overriding the category table.
    #[serde(default)]
    pub time: Option<TimeControl>,
}

fn yes() -> bool {
    true
}

impl Default for SideConfig {
    /// A sighted player who knows notation, no proxy, the regular board.
    fn default() -> SideConfig {
        SideConfig {
            name: String::new(),
            categories: Vec::new(),
            blindfold: false,
            knows_notation: true,
            proxy: None,
            board: None,
            time: None,
        }
    }
}

impl SideConfig {
    /// Whether the side counts as 全失明 (a blindfold counts, 7.2(2)).
    pub fn is_blind(&self) -> bool {
        self.blindfold || self.categories.contains(&Category::Blind)
    }

    /// Whether the side is visually impaired (全失明 or 部份失明, or blindfolded).
    pub fn is_vi(&self) -> bool {
        self.is_blind() || self.categories.contains(&Category::PartiallySighted)
    }

    /// Whether the side cannot announce by voice (聾啞, 7.4(2)(d)).
    pub fn is_deaf(&self) -> bool {
        self.categories.contains(&Category::Deaf)
    }

    /// The board the side operates.
    pub fn board_use(&self) -> BoardUse {
        self.board.unwrap_or(if self.is_vi() {
            BoardUse::Vi
        } else {
            BoardUse::Regular
        })
    }
}

/// How the clock adjusts on a press (附表三 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// No adjustment (包幹制 without extra time).
    #[default]
    Plain,
    /// 加秒制 (2(1)): the mover gets `extra_ms` back on each press.
    #[serde(alias = "加秒")]
    Increment,
    /// Bronstein 補時制 (2(2)): the mover gets back the lesser of the time used and `extra_ms`.
    #[serde(alias = "補時")]
    Bronstein,
    /// 延時制 (2(3)): after a press the opponent's clock waits `extra_ms` before running.
    #[serde(alias = "延時")]
    Delay,
    /// 沙漏制 (2(4)): on each press the opponent gets back the time the mover just used.
    #[serde(alias = "沙漏")]
    Hourglass,
}

/// A time control (附表三): base time and the press adjustment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// 用時 in milliseconds.
    pub base_ms: u64,
    /// The adjustment.
    #[serde(default)]
    pub mode: ClockMode,
    /// The increment, Bronstein maximum or delay, in milliseconds (unused for hourglass).
    #[serde(default)]
    pub extra_ms: u64,
}

impl Default for TimeControl {
    /// 常規 (附表三 3(3)): 30 minutes plus 10 seconds a move.
    fn default() -> TimeControl {
        TimeControl {
            base_ms: 30 * 60_000,
            mode: ClockMode::Increment,
            extra_ms: 10_000,
        }
    }
}

/// Time controls by category (7.2(1): 全失明 longest, 部份失明 next, 健視 shortest).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeTable {
    /// Used when no category entry applies.
    #[serde(default)]
    pub default: TimeControl,
    /// 全失明 (and blindfolded players, 7.2(2)).
    #[serde(default)]
    pub blind: Option<TimeControl>,
    /// 部份失明.
    #[serde(default)]
    pub partially_sighted: Option<TimeControl>,
    /// 肢體傷殘 who operate the board themselves (7.4(3)(a)).
    #[serde(default)]
    pub physical: Option<TimeControl>,
    /// 聾啞.
    #[serde(default)]
    pub deaf: Option<TimeControl>,
    /// 健視.
    #[serde(default)]
    pub sighted: Option<TimeControl>,
    /// A VI player who named a proxy gets this smaller adjustment (7.4(2)(g)(iii)).
    #[serde(default)]
    pub vi_with_proxy: Option<TimeControl>,
}

impl TimeTable {
    /// The control for a side: its own override, else the VI-with-proxy entry, else the
    /// first category entry in the order 全失明, 部份失明, 肢體傷殘, 聾啞, 健視, else the default.
    pub fn for_side(&self, side: &SideConfig) -> TimeControl {
        if let Some(t) = side.time {
            return t;
        }
        if side.is_vi()
            && side.proxy.is_some()
            && let Some(t) = self.vi_with_proxy
        {
            return t;
        }
        let cats = &side.categories;
        let has = |c: Category| cats.contains(&c);
        let order = [
            (side.is_blind(), self.blind),
            (has(Category::PartiallySighted), self.partially_sighted),
            (has(Category::Physical), self.physical),
            (has(Category::Deaf), self.deaf),
            (true, self.sighted),
        ];
        order
            .into_iter()
            .find_map(|(applies, t)| if applies { t } else { None })
            .unwrap_or(self.default)
    }
}

/// Which thresholds are announced (6.6(2), 7.7(2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertSet {
    /// 6.6(2): half time, 15, 10, 5, 1 min, 30 s, 10 s, for each side.
    Part6,
    /// 7.7(2): 60, 30, 15, 10, 5, 1 min, 30 s, 10 s of the VI side, to the VI player.
    Part7,
    /// `thresholds_ms` (and half time when `half` is set).
    Custom,
    /// No alerts.
    None,
}

/// Alert configuration; by default the set of the event kind (none for regular games).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlertConfig {
    /// The set; `None` follows the event kind.
    #[serde(default)]
    pub set: Option<AlertSet>,
    /// Custom thresholds in milliseconds.
    #[serde(default)]
    pub thresholds_ms: Vec<u64>,
    /// Custom: also alert at half of the side's base time.
    #[serde(default)]
    pub half: bool,
    /// Custom: only the VI sides' clocks are watched.
    #[serde(default)]
    pub vi_only: bool,
}

/// The thresholds of 6.6(2) (without half time) in milliseconds.
pub const PART6_THRESHOLDS_MS: [u64; 6] = [900_000, 600_000, 300_000, 60_000, 30_000, 10_000];
/// The thresholds of 7.7(2) in milliseconds.
pub const PART7_THRESHOLDS_MS: [u64; 8] = [
    3_600_000, 1_800_000, 900_000, 600_000, 300_000, 60_000, 30_000, 10_000,
];

/// Violation limits (127(2)); 0 means no limit (70(4)(b)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// 技術犯規: default 2.
    #[serde(default = "two")]
    pub technical: u32,
    /// 違反記錄規則: default 4.
    #[serde(default = "four")]
    pub recording: u32,
    /// 違反按棋鐘規則: default 4.
    #[serde(default = "four")]
    pub clock: u32,
}

fn two() -> u32 {
    2
}
fn four() -> u32 {
    4
}

impl Limits {
    /// The limit of one kind of violation (0: none).
    pub fn of(&self, kind: crate::command::ViolationKind) -> u32 {
        match kind {
            crate::command::ViolationKind::Technical => self.technical,
            crate::command::ViolationKind::Recording => self.recording,
            crate::command::ViolationKind::Clock => self.clock,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            technical: 2,
            recording: 4,
            clock: 4,
        }
    }
}

/// The 附表四 第三部份 header fields of the scoresheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// 比賽名稱.
    #[serde(default)]
    pub event: String,
    /// 對賽日期.
    #[serde(default)]
    pub date: String,
    /// 基賽地點.
    #[serde(default)]
    pub venue: String,
    /// 對賽輪數.
    #[serde(default)]
    pub round: String,
    /// 對賽枱號.
    #[serde(default)]
    pub table: String,
    /// 終局裁判姓名.
    #[serde(default)]
    pub referee: String,
}

/// The whole configuration of one match.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchConfig {
    /// Part 6, part 7 or regular.
    #[serde(default)]
    pub kind: EventKind,
    /// 紅方.
    #[serde(default)]
    pub red: SideConfig,
    /// 黑方.
    #[serde(default)]
    pub black: SideConfig,
    /// Time controls by category.
    #[serde(default)]
    pub time: TimeTable,
    /// Talking clock: both times spoken on every press (7.1(1)(b)).
    #[serde(default)]
    pub talking_clock: bool,
    /// Automatic time alerts.
    #[serde(default)]
    pub alerts: AlertConfig,
    /// Violation limits.
    #[serde(default)]
    pub limits: Limits,
    /// Both players agreed to 第67條 (官和) before the game (64(2)).
    #[serde(default)]
    pub official_draw: bool,
    /// The start position (FEN); default the standard start.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// Scoresheet header.
    #[serde(default)]
    pub header: Header,
    /// Violations each side brings into the game, counted before its first move: a replay
    /// under 108(1) (「無論如何雙方均記技術犯規 1 次」) starts with one technical foul each.
    /// Counted towards the limits of 127(2) like any other (70(4)).
    #[serde(default, skip_serializing_if = "crate::view::Tallies::is_clear")]
    pub carried: crate::view::Tallies,
    /// The latest arrival after the start as the event's rules set it (109(2):
    /// 「比賽章程訂明之最遲到達時間」), in milliseconds; none: the rules' own
    /// ([`MatchConfig::latest_arrival`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_arrival_ms: Option<u64>,
}

impl MatchConfig {
    /// 109(2): how long after the start a player may still arrive; one who has not moved
    /// and pressed the clock by then is absent. The event's rules' time
    /// ([`MatchConfig::latest_arrival_ms`]) when they set one; else 10 minutes where each
    /// side has 15 minutes or more (read, as 108's 「15 分鐘以上」 is, as 15 or more), else
    /// none: the start itself.
    pub fn latest_arrival(&self) -> crate::command::Millis {
        if let Some(ms) = self.latest_arrival_ms {
            return crate::command::Millis(ms);
        }
        let shortest = [&self.red, &self.black]
            .map(|s| self.time.for_side(s).base_ms)
            .into_iter()
            .min()
            .unwrap_or(0);
        crate::command::Millis(if shortest >= 15 * 60_000 {
            10 * 60_000
        } else {
            0
        })
    }

    /// Reads a configuration from TOML text.
    pub fn from_toml(text: &str) -> Result<MatchConfig, toml::de::Error> {
        toml::from_str(text)
    }

    /// The side's configuration.
    pub fn side(&self, color: baoqi_rules::Color) -> &SideConfig {
        match color {
            baoqi_rules::Color::Red => &self.red,
            baoqi_rules::Color::Black => &self.black,
        }
    }

    /// Whether moves must be announced (報棋): part 6 always (6.3(2)); part 7 when a VI
    /// player takes part (7.4(2)(a)); never in a regular game.
    pub fn announcing(&self) -> bool {
        match self.kind {
            EventKind::Part6 => true,
            EventKind::Part7 => self.red.is_vi() || self.black.is_vi(),
            EventKind::Regular => false,
        }
    }

    /// Whether the deaf players' cards of 7.1(2) are at the table.
    pub fn cards(&self) -> bool {
        self.red.is_deaf() || self.black.is_deaf()
    }

    /// The resolved alert set: thresholds, half time, VI sides only.
    pub fn alert_plan(&self) -> (Vec<u64>, bool, bool) {
        let set = self.alerts.set.unwrap_or(match self.kind {
            EventKind::Part6 => AlertSet::Part6,
            EventKind::Part7 => AlertSet::Part7,
            EventKind::Regular => AlertSet::None,
        });
        match set {
            AlertSet::Part6 => (PART6_THRESHOLDS_MS.to_vec(), true, false),
            AlertSet::Part7 => (PART7_THRESHOLDS_MS.to_vec(), false, true),
            AlertSet::Custom => (
                self.alerts.thresholds_ms.clone(),
                self.alerts.half,
                self.alerts.vi_only,
            ),
            AlertSet::None => (Vec::new(), false, false),
        }
    }

    /// The alert thresholds watched on `side`'s clock, largest first, each fixed or half
    /// time (6.6(2)(a)). Under VI-only alerts (7.7(2)) a sighted side has none; a deaf side
    /// has its own, shown and never spoken.
    pub fn alert_thresholds(
        &self,
        side: baoqi_rules::Color,
    ) -> Vec<(u64, crate::reasons::Threshold)> {
        use crate::reasons::Threshold;
        let (list, half, vi_only) = self.alert_plan();
        let s = self.side(side);
        // 7.7(2): alerts for the VI side only; `docs/product.md` §7: a deaf side sees alerts
        // on its own clock too (addressed to itself alone, spoken to nobody).
        if vi_only && !s.is_vi() && !s.is_deaf() {
            return Vec::new();
        }
        let mut v: Vec<(u64, Threshold)> =
            list.into_iter().map(|t| (t, Threshold::Fixed)).collect();
        if half {
            v.push((self.time.for_side(s).base_ms / 2, Threshold::Half));
        }
        // Largest first; at equal times the half-time alert is the one kept.
        v.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then((b.1 == Threshold::Half).cmp(&(a.1 == Threshold::Half)))
        });
        v.dedup_by_key(|x| x.0);
        v.retain(|x| x.0 > 0);
        v
    }
}
