//! The wall clock, which only the exports need (a record's date, 附表四 3(2)). The game
//! timeline stands still while the server is down, so a timeline instant has no calendar
//! date by itself: at every start the server stores a mark pairing the instant the
//! timeline resumes from with the wall clock then, and an instant is dated from the last
//! mark before it. Dates are UTC: the server keeps no time zone.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::timeline::Millis;

/// Milliseconds since the Unix epoch (UTC).
pub type UnixMillis = u64;

/// The wall clock now (0 if the machine's clock is set before 1970).
pub fn now() -> UnixMillis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The wall-clock time of the timeline instant `at`, from `marks` (timeline instant, wall
/// clock) in any order: the last mark at or before `at` plus the time since. `None` when
/// `at` comes before every mark (a game played by a server that kept no marks).
pub fn at(marks: &[(Millis, UnixMillis)], at: Millis) -> Option<UnixMillis> {
    marks
        .iter()
        .filter(|(t, _)| *t <= at)
        .max_by_key(|(t, _)| *t)
        .map(|(t, wall)| wall + (at.0 - t.0))
}

/// A calendar day, written as PGN writes dates: `2026.11.22`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    /// The year.
    pub year: u32,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
}

impl Day {
    /// Reads a date as an organiser writes it: three numbers, year first, with any
    /// separators (`2026-11-22`, `2026/11/22`, `2026.11.22`, `2026年11月22日`). `None` for
    /// anything else.
    pub fn parse(text: &str) -> Option<Day> {
        let numbers: Vec<u32> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        match numbers[..] {
            [year, month, day]
                if (1000..=9999).contains(&year)
                    && (1..=12).contains(&month)
                    && (1..=31).contains(&day) =>
            {
                Some(Day { year, month, day })
            }
            _ => None,
        }
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// A UTC date and time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    /// The day.
    pub day: Day,
    /// Seconds since midnight.
    pub seconds: u32,
}

impl UtcTime {
    /// The UTC date and time of a wall-clock instant.
    pub fn of(ms: UnixMillis) -> UtcTime {
        let secs = ms / 1000;
        UtcTime {
            day: civil_from_days(secs / 86_400),
            seconds: (secs % 86_400) as u32,
        }
    }

    /// The time of day as PGN's `UTCTime` writes it: `09:30:05`.
    pub fn clock(&self) -> String {
        let s = self.seconds;
        format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }
}

/// The proleptic Gregorian day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// for days on or after the epoch).
fn civil_from_days(days: u64) -> Day {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = (yoe + era * 400 + u64::from(month <= 2)) as u32;
    Day { year, month, day }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s4p3_2_utc_dates_of_known_instants() {
        assert_eq!(UtcTime::of(0).day.to_string(), "1970.01.01");
        let t = UtcTime::of(1_700_000_000_000);
        assert_eq!(
            (t.day.to_string(), t.clock()),
            ("2023.11.14".into(), "22:13:20".into())
        );
        assert_eq!(UtcTime::of(951_782_400_000).day.to_string(), "2000.02.29");
        assert_eq!(UtcTime::of(1_709_164_800_000).day.to_string(), "2024.02.29");
    }

    #[test]
    fn s4p3_2_organisers_dates_read_in_any_common_form() {
        for text in ["2026-11-22", "2026/11/22", "2026.11.22", "2026年11月22日"] {
            assert_eq!(
                Day::parse(text).map(|d| d.to_string()).as_deref(),
                Some("2026.11.22")
            );
        }
        for text in ["", "下星期", "22/11/2026", "2026-13-01", "2026-11"] {
            assert_eq!(Day::parse(text), None, "{text}");
        }
    }

    #[test]
    fn an_instant_is_dated_from_the_last_mark_before_it() {
        // Two runs: the second resumed the timeline at 5 000, a day of downtime later.
        let marks = [
            (Millis(1), 1_000_000),
            (Millis(5_000), 1_000_000 + 86_400_000),
        ];
        assert_eq!(at(&marks, Millis(0)), None);
        assert_eq!(at(&marks, Millis(4_000)), Some(1_003_999));
        assert_eq!(
            at(&marks, Millis(6_000)),
            Some(1_000_000 + 86_400_000 + 1_000)
        );
    }
}
