//! The organiser's edits of an event's register, each checked by the tournament core and
//! logged: `baoqi players add` (a late entrant), `baoqi players edit` (a corrected line),
//! `baoqi players withdraw` (89(2)); the organiser page does the same over HTTP.
//!
//! What a withdrawal does to the event is the core's (89(2), `docs/decisions.md`): before the
//! first round the draw is simply made without him; in a Swiss his results stand and he is
//! paired no more; in a round robin his games are annulled, or his remaining games lost by
//! absence, the rounds to come carrying it out when they are paired
//! (`withdrawal.rs`). A round robin's table is fixed at its first round: it takes no
//! late entrant, and its seeds and ratings (which drew the Berger numbers) no longer change.

use baoqi_arbiter::{BoardUse, Category};
use baoqi_tournament::Sex;
use baoqi_tournament::berger::BergerError;
use baoqi_tournament::changes::{Change, ChangeError, Format, Missed, Tournament};

use baoqi_tournament::{
    FieldProblem, GameResult, MAX_PLAYERS, Player, PlayerId, SameName, check_text,
};
use serde::{Deserialize, Deserializer};

use super::results::{self, Outcomes, ReadError};
use super::withdrawal::RoundRobin;
use super::{Amendment, EventError, Logged, Opened, PairingRow, PairingSystem, Registered};
use baoqi_store::model::EventId;
use baoqi_store::{NewBoard, Store, StoreError};

/// A player's register line as the organiser gives it: each field given replaces the old
/// value (`null` clears an optional one); a new player's missing fields take the register's
/// defaults (健視, knows notation, no aids). The fields of the CSV register.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// 姓名.
    #[serde(default)]
    pub name: Option<String>,
    /// 所屬團體.
    #[serde(default, deserialize_with = "given")]
    pub club: Option<Option<String>>,
    /// 種子 (1 = first seed).
    #[serde(default, deserialize_with = "given")]
    pub seed: Option<Option<u32>>,
    /// A rating.
    #[serde(default, deserialize_with = "given")]
    pub rating: Option<Option<u32>>,
    /// Categories (7.2(1)); empty means 健視.
    #[serde(default)]
    pub categories: Option<Vec<Category>>,
    /// Plays blindfolded (7.2(2)).
    #[serde(default)]
    pub blindfold: Option<bool>,
    /// Knows traditional notation (7.4(2)(c)).
    #[serde(default)]
    pub knows_notation: Option<bool>,
    /// The proxy's name (代理).
    #[serde(default, deserialize_with = "given")]
    pub proxy: Option<Option<String>>,
    /// The board the player operates; none: by category.
    #[serde(default, deserialize_with = "given")]
    pub board: Option<Option<BoardUse>>,
    /// 性別 (for the prizes).
    #[serde(default, deserialize_with = "given")]
    pub sex: Option<Option<Sex>>,
    /// 出生年份 (for the prizes).
    #[serde(default, deserialize_with = "given")]
    pub born: Option<Option<u32>>,
}

/// A field present in JSON, `null` included, is `Some`: `null` clears, absent keeps.
#[allow(clippy::option_option)] // absent, cleared and given are three different edits
fn given<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Trimmed text, none when empty.
fn text(t: Option<&String>) -> Option<String> {
    t.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

impl Patch {
    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Patch::default()
    }

    /// `player` with the patch applied; refuses an empty name and a seed of 0.
    pub fn apply(&self, player: &Player) -> Result<Player, EditError> {
        let mut p = player.clone();
        if let Some(name) = &self.name {
            p.name = text(Some(name)).ok_or(EditError::EmptyName)?;
        }
        if let Some(club) = &self.club {
            p.club = text(club.as_ref());
        }
        if let Some(seed) = self.seed {
            if seed == Some(0) {
                return Err(EditError::ZeroSeed);
            }
            p.seed = seed;
        }
        if let Some(rating) = self.rating {
            p.rating = rating;
        }
        if let Some(categories) = &self.categories {
            p.categories.clear();
            for c in categories {
                if !p.categories.contains(c) {
                    p.categories.push(*c);
                }
            }
        }
        p.blindfold = self.blindfold.unwrap_or(p.blindfold);
        p.knows_notation = self.knows_notation.unwrap_or(p.knows_notation);
        if let Some(proxy) = &self.proxy {
            p.proxy = text(proxy.as_ref());
        }
        if let Some(board) = self.board {
            p.board = board;
        }
        if let Some(sex) = self.sex {
            p.sex = sex;
        }
        if let Some(born) = self.born {
            p.born = born;
        }
        for (field, value) in [
            ("name", Some(&p.name)),
            ("club", p.club.as_ref()),
            ("proxy", p.proxy.as_ref()),
        ] {
            if let Some(value) = value {
                check_text(value).map_err(|problem| EditError::Text { field, problem })?;
            }
        }
        Ok(p)
    }
}

/// Why an edit of the register was refused; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The event's tournament cannot be opened.
    #[error(transparent)]
    Event(#[from] EventError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No player of this number.
    #[error("event {event} has no player {player}")]
    UnknownPlayer {
        /// The event.
        event: EventId,
        /// The number asked for.
        player: PlayerId,
    },
    /// The player has withdrawn already (89(2)).
    #[error("player {0} has already withdrawn (89(2))")]
    AlreadyWithdrawn(PlayerId),
    /// A name must be given.
    #[error("a player's name must not be empty")]
    EmptyName,
    /// A seed of 0.
    #[error("seeds start at 1")]
    ZeroSeed,
    /// Another player holds the seed.
    #[error("seed {seed} is already player {holder}'s")]
    DuplicateSeed {
        /// The seed.
        seed: u32,
        /// Who holds it.
        holder: PlayerId,
    },
    /// A second player of a name already registered, with no two different clubs to tell
    /// them apart, and the organiser has not confirmed they are two people.
    #[error(
        "{holder} is already registered as {name}{}: give each his club, or confirm that they are two players",
        club.as_ref().map(|c| format!(" of {c}")).unwrap_or_default()
    )]
    SameName {
        /// The name.
        name: String,
        /// The club both carry, if any.
        club: Option<String>,
        /// The player registered under it.
        holder: PlayerId,
    },
    /// A name, club or proxy too long or holding a control character.
    #[error("{field}: {problem}")]
    Text {
        /// The field.
        field: &'static str,
        /// What is wrong.
        problem: FieldProblem,
    },
    /// The register is full.
    #[error("the event has {MAX_PLAYERS} players already, the most an event may have")]
    Full,
    /// An edit that gives nothing to change.
    #[error("nothing to change: give at least one field")]
    Nothing,
    /// A round robin's seeds and ratings drew its Berger numbers at its first round.
    #[error(
        "the round robin's table was drawn at round 1 by the seeds and ratings: they can no longer change"
    )]
    DrawFixed,
    /// The tables' games cannot be read (a round robin's withdrawal counts his games
    /// played, 89(2)).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A round robin's table cannot be drawn again.
    #[error(transparent)]
    Berger(#[from] BergerError),
    /// The tournament core refused the change.
    #[error(transparent)]
    Change(#[from] ChangeError),
}

impl EditError {
    /// A short name of the refusal, for a page to say it in its own language.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::Event(EventError::NoEvent(_)) => "no_event",
            EditError::Event(EventError::NotATournament(_)) => "not_a_tournament",
            EditError::Event(_)
            | EditError::Store(_)
            | EditError::Read(_)
            | EditError::Berger(_) => "internal",
            EditError::UnknownPlayer { .. } => "unknown_player",
            EditError::AlreadyWithdrawn(_) => "already_withdrawn",
            EditError::EmptyName => "empty_name",
            EditError::ZeroSeed => "zero_seed",
            EditError::DuplicateSeed { .. } => "duplicate_seed",
            EditError::SameName { .. } => "same_name",
            EditError::Nothing => "nothing",
            EditError::Text { .. } => "bad_text",
            EditError::Full => "register_full",
            EditError::DrawFixed => "draw_fixed",
            EditError::Change(ChangeError::RoundRobinStarted) => "round_robin_started",
            EditError::Change(_) => "refused",
        }
    }
}

/// An event's register and rounds, loaded for an edit.
struct Loaded<'a> {
    t: Opened<'a>,
    registered: Vec<Registered>,
    rows: Vec<PairingRow>,
}

fn load(store: &dyn Store, event: EventId) -> Result<Loaded<'_>, EditError> {
    let t = Opened::open(store, event)?;
    let registered = t.records.players(event)?;
    let rows = t.records.pairings(event)?;
    Ok(Loaded {
        t,
        registered,
        rows,
    })
}

impl Loaded<'_> {
    /// Whether a round has been paired.
    fn started(&self) -> bool {
        !self.rows.is_empty()
    }

    fn round_robin(&self) -> bool {
        matches!(
            self.t.settings.system,
            PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin
        )
    }

    /// The event as the tournament core sees it (results do not matter to these changes).
    fn core(&self) -> Tournament {
        let format = match self.t.settings.system {
            PairingSystem::Swiss => Format::Swiss,
            PairingSystem::Knockout => Format::Knockout,
            _ => Format::RoundRobin,
        };
        let mut t = Tournament::new(
            format,
            self.registered.iter().map(|r| r.player.clone()).collect(),
        );
        t.active = super::withdrawal::active(&self.registered);
        t.rounds = results::rounds(&self.rows, &Outcomes::new());
        t.started = self.started();
        t
    }

    fn find(&self, player: PlayerId) -> Result<&Registered, EditError> {
        self.registered
            .iter()
            .find(|r| r.player.id == player)
            .ok_or(EditError::UnknownPlayer {
                event: self.t.event.id,
                player,
            })
    }

    /// Refuses a seed another player holds.
    fn check_seed(&self, p: &Player) -> Result<(), EditError> {
        let Some(seed) = p.seed else { return Ok(()) };
        match self
            .registered
            .iter()
            .find(|r| r.player.id != p.id && r.player.seed == Some(seed))
        {
            Some(r) => Err(EditError::DuplicateSeed {
                seed,
                holder: r.player.id,
            }),
            None => Ok(()),
        }
    }

    /// Refuses a player who may be one registered already ([`Player::namesake`]) unless the
    /// organiser confirmed (`same_name`).
    fn check_name(&self, p: &Player, same_name: SameName) -> Result<(), EditError> {
        if same_name == SameName::Allow {
            return Ok(());
        }
        match self
            .registered
            .iter()
            .find(|r| r.player.id != p.id && r.player.namesake(p))
        {
            Some(r) => Err(EditError::SameName {
                name: r.player.name.clone(),
                club: r.player.club.clone().filter(|_| r.player.club == p.club),
                holder: r.player.id,
            }),
            None => Ok(()),
        }
    }
}

/// Registers a late entrant (or, before the first round, one more player): numbered after
/// the last, paired from the next round; the rounds he missed score nothing. A second
/// player of a name and club is refused ([`add_with`] takes the organiser's confirmation,
/// and a half point for each round missed).
pub fn add(store: &dyn Store, event: EventId, patch: &Patch) -> Result<Registered, EditError> {
    add_with(store, event, patch, (SameName::Refuse, Missed::Nothing))
}

/// Registers a late entrant as [`add`]; `same_name` is the organiser's confirmation that a
/// player of a name and club already registered is another person, `missed` what each round
/// he missed scores (nothing, or a half point).
pub fn add_with(
    store: &dyn Store,
    event: EventId,
    patch: &Patch,
    (same_name, missed): (SameName, Missed),
) -> Result<Registered, EditError> {
    let l = load(store, event)?;
    if l.registered.len() >= MAX_PLAYERS {
        return Err(EditError::Full);
    }
    let number = l
        .registered
        .iter()
        .map(|r| r.player.id.0)
        .max()
        .unwrap_or(0)
        + 1;
    let player = patch.apply(&Player::new(number, String::new()))?;
    if player.name.is_empty() {
        return Err(EditError::EmptyName);
    }
    l.check_seed(&player)?;
    l.check_name(&player, same_name)?;
    let change = l.core().late_entrant(player.clone(), missed)?;
    let added = Registered {
        player,
        active: true,
    };
    l.t.records.put_player(event, &added)?;
    l.t.log(Logged::Change(change))?;
    Ok(added)
}

/// Corrects a player's line. The tables already made keep their settings; the next rounds
/// are configured from the corrected line (7.2). A name or club changed to those of another
/// player is refused ([`edit_with`] takes the organiser's confirmation).
pub fn edit(
    store: &dyn Store,
    event: EventId,
    player: PlayerId,
    patch: &Patch,
) -> Result<Registered, EditError> {
    edit_with(store, event, player, patch, SameName::Refuse)
}

/// Corrects a player's line as [`edit`]; `same_name` is the organiser's confirmation that
/// another player of the name and club is another person.
pub fn edit_with(
    store: &dyn Store,
    event: EventId,
    player: PlayerId,
    patch: &Patch,
    same_name: SameName,
) -> Result<Registered, EditError> {
    if patch.is_empty() {
        return Err(EditError::Nothing);
    }
    let l = load(store, event)?;
    let before = l.find(player)?;
    let after = patch.apply(&before.player)?;
    l.check_seed(&after)?;
    let renamed =
        (after.name_key(), &after.club) != (before.player.name_key(), &before.player.club);
    if renamed {
        l.check_name(&after, same_name)?;
    }
    let drawn = (after.seed, after.rating) != (before.player.seed, before.player.rating);
    if drawn && l.round_robin() && l.started() {
        return Err(EditError::DrawFixed);
    }
    let edited = Registered {
        player: after.clone(),
        active: before.active,
    };
    l.t.records.put_player(event, &edited)?;
    l.t.log(Logged::Edited {
        before: before.player.clone(),
        after,
    })?;
    Ok(edited)
}

/// A withdrawal done: the core's change, and the boards of the round being played that it
/// decided without play (his absence, 缺席).
#[derive(Debug, Clone, PartialEq)]
pub struct Withdrawn {
    /// The core's change.
    pub change: Change,
    /// His boards without a result that are now lost by his absence.
    pub forfeited: Vec<PairingRow>,
}

/// 89(2) in a Swiss or a knock-out after the start: his results stand and he is paired no
/// more; a board of his without a result (the round being played) is lost by his absence
/// (缺席, 87; the opponent's 不戰而勝), since he will not play it.
fn forfeited(rows: &[PairingRow], outcomes: &Outcomes, player: PlayerId) -> Vec<NewBoard> {
    rows.iter()
        .filter(|r| r.black.is_some() && (r.red == player || r.black == Some(player)))
        .filter(|r| results::board_result(r, outcomes).is_none())
        .map(|r| {
            let absent = if r.red == player {
                GameResult::RedAbsent
            } else {
                GameResult::BlackAbsent
            };
            NewBoard {
                row: PairingRow {
                    result: Some(absent),
                    ..*r
                },
                table: None,
            }
        })
        .collect()
}

/// 89(2): `player` withdraws (with the 賽務總監's consent, 89(1)); `reason` is logged. His
/// register line, what the withdrawal does to the boards paired and the log's line are
/// written in one transaction. A round robin after the start counts his games played from
/// the tables' games as the store holds them.
pub fn withdraw(
    store: &dyn Store,
    event: EventId,
    player: PlayerId,
    reason: Option<&str>,
) -> Result<Withdrawn, EditError> {
    if let Some(c) = reason.and_then(baoqi_arbiter::bounds::hidden_in_sentence) {
        let problem = if c.is_control() {
            FieldProblem::Control
        } else {
            FieldProblem::Invisible(u32::from(c))
        };
        return Err(EditError::Text {
            field: "reason",
            problem,
        });
    }
    let l = load(store, event)?;
    let r = l.find(player)?;
    if !r.active {
        return Err(EditError::AlreadyWithdrawn(player));
    }
    let mut amendment = Amendment::default();
    let change = if l.round_robin() && l.started() {
        let outcomes = results::from_store(store, event)?;
        let withdrawn = super::withdrawal::logged(&l.t.records.changes(event)?);
        let (change, boards) = RoundRobin {
            system: l.t.settings.system,
            registered: &l.registered,
            rows: &l.rows,
            outcomes: &outcomes,
            withdrawn: &withdrawn,
        }
        .withdraw(player)?;
        amendment.removed = boards.removed;
        amendment.boards = boards.rewritten;
        change
    } else if l.started() {
        let outcomes = results::from_store(store, event)?;
        amendment.boards = forfeited(&l.rows, &outcomes, player);
        l.core().withdraw(player)?
    } else {
        l.core().withdraw(player)?
    };
    amendment.players.push(Registered {
        player: r.player.clone(),
        active: false,
    });
    amendment.log.push(Logged::Withdrawal {
        change: change.clone(),
        reason: text(reason.map(str::to_string).as_ref()),
    });
    amendment.at = baoqi_store::wallclock::now();
    l.t.records.amend(event, &amendment)?;
    Ok(Withdrawn {
        change,
        forfeited: amendment.boards.iter().map(|b| b.row).collect(),
    })
}
