//! The colour rules of the Swiss pairer (先後手, 附表二 第一部份 3(c)): a player's red/black
//! difference stays within ±2 and nobody gets one colour three games running, unless no
//! pairing allows it; within those rules each player's preference (balance, then alternation).

use baoqi_rules::Color;
use serde::{Deserialize, Serialize};

/// A colour rule that a pairing may have to break when nothing else is possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourRule {
    /// Reds minus blacks would leave −2…2.
    Difference,
    /// The same colour three games running.
    ThreeInARow,
}

/// Reds minus blacks.
pub fn difference(colours: &[Color]) -> i32 {
    colours
        .iter()
        .map(|c| if *c == Color::Red { 1 } else { -1 })
        .sum()
}

/// The rule that `colour` would break for a player who has played `colours`, if any.
pub fn breaks(colours: &[Color], colour: Color) -> Option<ColourRule> {
    let after = difference(colours) + if colour == Color::Red { 1 } else { -1 };
    if after.abs() > 2 {
        return Some(ColourRule::Difference);
    }
    match colours {
        [.., a, b] if *a == colour && *b == colour => Some(ColourRule::ThreeInARow),
        _ => None,
    }
}

/// How much a player wants a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Preference {
    /// No game yet, or nothing to choose.
    None,
    /// Balanced so far: the colour he did not have last (alternation).
    Mild(Color),
    /// One colour behind.
    Strong(Color),
    /// The other colour would break a rule.
    Absolute(Color),
}

impl Preference {
    /// The preference of a player who has played `colours`.
    pub fn of(colours: &[Color]) -> Preference {
        for c in Color::ALL {
            if breaks(colours, c.other()).is_some() && breaks(colours, c).is_none() {
                return Preference::Absolute(c);
            }
        }
        match difference(colours) {
            d if d > 0 => Preference::Strong(Color::Black),
            d if d < 0 => Preference::Strong(Color::Red),
            _ => colours
                .last()
                .map_or(Preference::None, |c| Preference::Mild(c.other())),
        }
    }

    /// The colour wanted, if any.
    pub const fn colour(self) -> Option<Color> {
        match self {
            Preference::None => None,
            Preference::Mild(c) | Preference::Strong(c) | Preference::Absolute(c) => Some(c),
        }
    }

    /// The cost of not getting it: 2 for a strong or absolute preference, 1 for a mild one.
    pub const fn weight(self) -> u32 {
        match self {
            Preference::None => 0,
            Preference::Mild(_) => 1,
            Preference::Strong(_) | Preference::Absolute(_) => 2,
        }
    }
}

/// What giving `colour` to a player costs: (rules broken, preference unmet).
pub fn cost(colours: &[Color], colour: Color) -> (u32, u32) {
    let pref = Preference::of(colours);
    let broken = u32::from(breaks(colours, colour).is_some());
    let unmet = if pref.colour().is_some_and(|c| c != colour) {
        pref.weight()
    } else {
        0
    };
    (broken, unmet)
}

/// Who of `a` (ranked higher) and `b` plays red: the cheaper allocation; at equal cost the
/// stronger preference wins, then the player who alternates from the last round in which
/// their colours differed, then the higher-ranked player's preference; with no preference at
/// all, `a` has `fallback`.
pub fn allocate(a: &[Color], b: &[Color], fallback: Color) -> Color {
    let total = |ca: Color| {
        let (x1, y1) = cost(a, ca);
        let (x2, y2) = cost(b, ca.other());
        (x1 + x2, y1 + y2)
    };
    let (red, black) = (total(Color::Red), total(Color::Black));
    if red != black {
        return if red < black {
            Color::Red
        } else {
            Color::Black
        };
    }
    let (pa, pb) = (Preference::of(a), Preference::of(b));
    if pa.weight() != pb.weight() {
        return if pa.weight() > pb.weight() {
            pa.colour().unwrap_or(fallback)
        } else {
            pb.colour().map_or(fallback, Color::other)
        };
    }
    let last_differing = a.iter().rev().zip(b.iter().rev()).find(|(x, y)| x != y);
    if let Some((ca, _)) = last_differing {
        return ca.other();
    }
    pa.colour()
        .or_else(|| pb.colour().map(Color::other))
        .unwrap_or(fallback)
}
