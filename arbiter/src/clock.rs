//! The chess clock (附表三, 第95–97條): reading it, pressing it in the four modes, and the
//! instants of flag fall and of each alert threshold (6.6, 7.7). Pure functions on
//! [`ClockView`]; the match stores the view and changes it only through events.

use std::fmt::Write as _;

use baoqi_rules::Color;

use crate::command::Millis;
use crate::config::{ClockMode, TimeControl};
use crate::event::{ClockView, SideTime};

/// A side's stored value.
pub(crate) fn stored(c: &ClockView, side: Color) -> u64 {
    match side {
        Color::Red => c.red_ms,
        Color::Black => c.black_ms,
    }
}

fn set(c: &mut ClockView, side: Color, ms: u64) {
    match side {
        Color::Red => c.red_ms = ms,
        Color::Black => c.black_ms = ms,
    }
}

/// The instant from which the running clock counts down (after a 延時制 delay).
fn counting_from(c: &ClockView) -> Millis {
    c.delay_until.map_or(c.since, |d| d.max(c.since))
}

/// A side's time left at `now` (never negative).
pub(crate) fn remaining(c: &ClockView, side: Color, now: Millis) -> u64 {
    let v = stored(c, side);
    if c.running == Some(side) {
        v.saturating_sub(now.since(counting_from(c)))
    } else {
        v
    }
}

/// The instant the running side's time reaches `level` (when above it now), else `None`.
pub(crate) fn instant_of(c: &ClockView, level: u64) -> Option<(Color, Millis)> {
    let side: Color = c.running?;
    let v = stored(c, side);
    (v > level).then(|| (side, counting_from(c).plus(v - level)))
}

/// Both times at `now`, `first` first.
pub(crate) fn times(c: &ClockView, first: Color, now: Millis) -> [SideTime; 2] {
    [first, first.other()].map(|s| SideTime {
        side: s,
        ms: remaining(c, s, now),
    })
}

/// The clock frozen at `now` (no side running): for a pause, a flag fall or the end.
pub(crate) fn stopped(c: &ClockView, now: Millis) -> ClockView {
    ClockView {
        red_ms: remaining(c, Color::Red, now),
        black_ms: remaining(c, Color::Black, now),
        running: None,
        since: now,
        delay_until: None,
    }
}

/// `side`'s clock starts running at `now` (the start, a resume), without a delay.
pub(crate) fn run(c: &ClockView, side: Color, now: Millis) -> ClockView {
    let mut next = stopped(c, now);
    next.running = Some(side);
    next
}

/// The clock after `mover` presses at `now`, having started the move with `move_start_ms`
/// on his clock; `control` is the mover's and `next` the opponent's time control.
pub(crate) fn press(
    c: &ClockView,
    mover: Color,
    now: Millis,
    move_start_ms: u64,
    control: &TimeControl,
    next: &TimeControl,
) -> ClockView {
    let mut out = stopped(c, now);
    let left = stored(&out, mover);
    let used = move_start_ms.saturating_sub(left);
    match control.mode {
        ClockMode::Increment => set(&mut out, mover, left + control.extra_ms),
        ClockMode::Bronstein => set(&mut out, mover, left + used.min(control.extra_ms)),
        ClockMode::Hourglass => {
            let other = stored(&out, mover.other());
            set(&mut out, mover.other(), other + used);
        }
        ClockMode::Plain | ClockMode::Delay => {}
    }
    out.running = Some(mover.other());
    if next.mode == ClockMode::Delay && next.extra_ms > 0 {
        out.delay_until = Some(now.plus(next.extra_ms));
    }
    out
}

/// The initial clock for two controls, stopped at `now`.
pub(crate) fn initial(red: &TimeControl, black: &TimeControl, now: Millis) -> ClockView {
    ClockView {
        red_ms: red.base_ms,
        black_ms: black.base_ms,
        running: None,
        since: now,
        delay_until: None,
    }
}

/// Time in words for a report: `十五分鐘`, `三十秒`, `四分五十九秒`. Whole seconds are
/// rounded up, as a clock face counting down shows them (附表四 第三部份: the scoresheet
/// writes the clock as the face showed it; the exports round the same way, so the
/// monitor's scoresheet and the exported one agree to the second).
pub(crate) fn words(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut out = String::new();
    if h > 0 {
        let _ = write!(out, "{h}小時");
    }
    if m > 0 {
        let _ = write!(out, "{m}分");
    }
    if s > 0 || out.is_empty() {
        let _ = write!(out, "{s}秒");
    } else if h == 0 {
        out.push('鐘');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Side;

    fn tc(mode: ClockMode, extra_ms: u64) -> TimeControl {
        TimeControl {
            base_ms: 60_000,
            mode,
            extra_ms,
        }
    }

    fn started(mode: ClockMode, extra: u64) -> (ClockView, TimeControl) {
        let t = tc(mode, extra);
        (run(&initial(&t, &t, Millis(0)), Color::Red, Millis(0)), t)
    }

    #[test]
    fn appendix3_2_1_increment_adds_after_each_press() {
        let (c, t) = started(ClockMode::Increment, 5_000);
        let c = press(&c, Color::Red, Millis(10_000), 60_000, &t, &t);
        assert_eq!((c.red_ms, c.black_ms), (55_000, 60_000));
        assert_eq!(c.running, Some(Side::Black));
    }

    #[test]
    fn appendix3_2_2_bronstein_gives_back_at_most_the_time_used() {
        let (c, t) = started(ClockMode::Bronstein, 5_000);
        let quick = press(&c, Color::Red, Millis(2_000), 60_000, &t, &t);
        assert_eq!(quick.red_ms, 60_000);
        let slow = press(&c, Color::Red, Millis(10_000), 60_000, &t, &t);
        assert_eq!(slow.red_ms, 55_000);
    }

    #[test]
    fn appendix3_2_3_delay_holds_the_opponent_clock() {
        let (c, t) = started(ClockMode::Delay, 3_000);
        let c = press(&c, Color::Red, Millis(1_000), 60_000, &t, &t);
        assert_eq!(remaining(&c, Color::Black, Millis(3_500)), 60_000);
        assert_eq!(remaining(&c, Color::Black, Millis(5_000)), 59_000);
        assert_eq!(instant_of(&c, 0), Some((Color::Black, Millis(64_000))));
    }

    #[test]
    fn appendix3_2_4_hourglass_gives_the_opponent_the_time_used() {
        let (c, t) = started(ClockMode::Hourglass, 0);
        let c = press(&c, Color::Red, Millis(7_000), 60_000, &t, &t);
        assert_eq!((c.red_ms, c.black_ms), (53_000, 67_000));
    }

    #[test]
    fn a97_time_never_goes_below_zero() {
        let (c, _) = started(ClockMode::Plain, 0);
        assert_eq!(remaining(&c, Color::Red, Millis(1_000_000)), 0);
        assert_eq!(instant_of(&c, 0), Some((Color::Red, Millis(60_000))));
        assert_eq!(words(900_000), "15分鐘");
        assert_eq!(words(30_000), "30秒");
        assert_eq!(words(299_000), "4分59秒");
    }

    #[test]
    fn s4p3_the_scoresheet_clock_rounds_up_like_the_face() {
        assert_eq!(words(298_001), "4分59秒");
        assert_eq!(words(299_400), "5分鐘");
        assert_eq!(words(1), "1秒");
        assert_eq!(words(0), "0秒");
    }
}
