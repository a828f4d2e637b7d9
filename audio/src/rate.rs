//! The speech rate ([`Rate`]), in espeak-ng's words per minute (`-s`), changed in steps by the
//! player (`0 +`, `0 -`) or set at start (`--rate`). speech-dispatcher is given the same
//! rate as a ratio of its normal one.

/// A speech rate in words per minute, as espeak-ng counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rate(u16);

/// The answer to a change of rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RateSet {
    /// Faster than before.
    Faster(Rate),
    /// Slower than before.
    Slower(Rate),
    /// Already the fastest: unchanged.
    AtFastest,
    /// Already the slowest: unchanged.
    AtSlowest,
}

/// Why a rate was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("speech rate {0} words per minute is outside {min}..={max}", min = Rate::MIN.0, max = Rate::MAX.0)]
pub struct RateOutOfRange(pub u16);

impl Default for Rate {
    fn default() -> Rate {
        Rate::DEFAULT
    }
}

impl Rate {
    /// espeak-ng's own default, 175 words per minute.
    pub const DEFAULT: Rate = Rate(175);
    /// The slowest, 80 (espeak-ng's lower bound).
    pub const MIN: Rate = Rate(80);
    /// The fastest, 450 (espeak-ng's upper bound).
    pub const MAX: Rate = Rate(450);
    /// One press of `0 +` or `0 -`.
    pub const STEP: u16 = 25;

    /// A rate in words per minute, within [`Rate::MIN`]..=[`Rate::MAX`].
    pub fn new(wpm: u16) -> Result<Rate, RateOutOfRange> {
        if (Rate::MIN.0..=Rate::MAX.0).contains(&wpm) {
            Ok(Rate(wpm))
        } else {
            Err(RateOutOfRange(wpm))
        }
    }

    /// Words per minute (espeak-ng's `-s`).
    pub const fn wpm(self) -> u16 {
        self.0
    }

    /// The rate as a multiple of the default (speech-dispatcher and the scripted speaker).
    pub fn ratio(self) -> f32 {
        f32::from(self.0) / f32::from(Rate::DEFAULT.0)
    }

    /// One step faster, or why not.
    pub fn faster(self) -> RateSet {
        if self >= Rate::MAX {
            RateSet::AtFastest
        } else {
            RateSet::Faster(Rate((self.0 + Rate::STEP).min(Rate::MAX.0)))
        }
    }

    /// One step slower, or why not.
    pub fn slower(self) -> RateSet {
        if self <= Rate::MIN {
            RateSet::AtSlowest
        } else {
            RateSet::Slower(Rate(self.0.saturating_sub(Rate::STEP).max(Rate::MIN.0)))
        }
    }

    /// The rate on another scale (speech-dispatcher's −100..=100 with 0 normal): the default
    /// at `normal`, the slowest and fastest at `min` and `max`, linear between.
    pub fn on_scale(self, min: f32, normal: f32, max: f32) -> f32 {
        let (wpm, default) = (f32::from(self.0), f32::from(Rate::DEFAULT.0));
        if wpm >= default {
            normal + (max - normal) * (wpm - default) / (f32::from(Rate::MAX.0) - default)
        } else {
            normal - (normal - min) * (default - wpm) / (default - f32::from(Rate::MIN.0))
        }
    }

    /// The rate as a percentage of the default, as it is said (`語速一百二十`).
    pub fn percent(self) -> u32 {
        (u32::from(self.0) * 100 + u32::from(Rate::DEFAULT.0) / 2) / u32::from(Rate::DEFAULT.0)
    }
}

impl RateSet {
    /// The new rate, when it changed.
    pub fn rate(self) -> Option<Rate> {
        match self {
            RateSet::Faster(r) | RateSet::Slower(r) => Some(r),
            RateSet::AtFastest | RateSet::AtSlowest => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stop_at_the_limits() {
        assert_eq!(Rate::DEFAULT.faster(), RateSet::Faster(Rate(200)));
        assert_eq!(Rate::DEFAULT.slower(), RateSet::Slower(Rate(150)));
        assert_eq!(Rate::MAX.faster(), RateSet::AtFastest);
        assert_eq!(Rate::MIN.slower(), RateSet::AtSlowest);
        assert_eq!(Rate(440).faster(), RateSet::Faster(Rate::MAX));
        assert_eq!(Rate(90).slower(), RateSet::Slower(Rate::MIN));
    }

    #[test]
    fn out_of_range_is_refused_and_percent_is_of_the_default() {
        assert_eq!(Rate::new(79), Err(RateOutOfRange(79)));
        assert_eq!(Rate::new(451), Err(RateOutOfRange(451)));
        assert_eq!(Rate::new(350).map(Rate::percent), Ok(200));
        assert_eq!(Rate::DEFAULT.percent(), 100);
    }

    #[test]
    fn speech_dispatcher_scale_keeps_default_and_limits() {
        let on = |r: Rate| r.on_scale(-100.0, 0.0, 100.0);
        assert!(on(Rate::DEFAULT).abs() < 1e-3);
        assert!((on(Rate::MAX) - 100.0).abs() < 1e-3);
        assert!((on(Rate::MIN) + 100.0).abs() < 1e-3);
        assert!(on(Rate(200)) > 0.0 && on(Rate(150)) < 0.0);
    }
}
