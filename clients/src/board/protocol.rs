//! The line protocol a tactile sensor board sends over USB serial (`docs/board-protocol.md`).
//!
//! One ASCII line per event, points in ICCS coordinates of the physical board as seen from
//! red's side (`a0` is red's left corner):
//!
//! ```text
//! L e3        a piece was lifted from e3 (occupancy sensor went off)
//! P e4        a piece was placed on e4 (occupancy sensor went on)
//! S e3        the button of point e3 was pressed (press-to-select mode)
//! C           the clock button
//! A           the announce button (ask the referee to announce, 7.4(2)(d))
//! O <90 x 0/1>  full occupancy, a0 b0 … i0 a1 … i9 (sent on connect and on request)
//! # text      a comment, ignored
//! ```

use std::fmt;

use baoqi_rules::Point;

/// One event sensed by the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SensorEvent {
    /// A piece left this point.
    Lift(Point),
    /// A piece was put on this point.
    Place(Point),
    /// The point's button was pressed (press-to-select boards).
    Select(Point),
    /// The clock button.
    Clock,
    /// The announce button.
    Announce,
    /// The whole occupancy: bit `i` set when point index `i` holds a piece.
    Occupancy(u128),
}

/// Why a line from the board could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The first letter is not one of L P S C A O.
    #[error("unknown board event `{0}` (expected L, P, S, C, A or O)")]
    UnknownEvent(String),
    /// The event needs a point and none or a bad one was given.
    #[error("`{0}` needs a point such as e3")]
    BadPoint(String),
    /// The occupancy map is not 90 characters of 0 and 1.
    #[error("an occupancy line has 90 characters of 0 and 1, got `{0}`")]
    BadOccupancy(String),
}

/// Reads one line. Blank lines and comments give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<SensorEvent>, LineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let tag = parts.next().unwrap_or_default();
    let arg = parts.next();
    let point = || {
        arg.and_then(|a| a.parse::<Point>().ok())
            .ok_or_else(|| LineError::BadPoint(line.to_owned()))
    };
    let event = match tag.to_ascii_uppercase().as_str() {
        "L" => SensorEvent::Lift(point()?),
        "P" => SensorEvent::Place(point()?),
        "S" => SensorEvent::Select(point()?),
        "C" => SensorEvent::Clock,
        "A" => SensorEvent::Announce,
        "O" => SensorEvent::Occupancy(parse_occupancy(arg.unwrap_or_default())?),
        _ => return Err(LineError::UnknownEvent(line.to_owned())),
    };
    Ok(Some(event))
}

fn parse_occupancy(map: &str) -> Result<u128, LineError> {
    let bad = || LineError::BadOccupancy(map.to_owned());
    if map.len() != Point::COUNT {
        return Err(bad());
    }
    map.bytes()
        .enumerate()
        .try_fold(0u128, |acc, (i, b)| match b {
            b'0' => Ok(acc),
            b'1' => Ok(acc | 1 << i),
            _ => Err(bad()),
        })
}

impl fmt::Display for SensorEvent {
    /// Writes the event as the board would send it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SensorEvent::Lift(p) => write!(f, "L {p}"),
            SensorEvent::Place(p) => write!(f, "P {p}"),
            SensorEvent::Select(p) => write!(f, "S {p}"),
            SensorEvent::Clock => f.write_str("C"),
            SensorEvent::Announce => f.write_str("A"),
            SensorEvent::Occupancy(bits) => {
                let map: String = (0..Point::COUNT)
                    .map(|i| if bits >> i & 1 == 1 { '1' } else { '0' })
                    .collect();
                write!(f, "O {map}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_round_trips_through_its_line() {
        let e3: Point = "e3".parse().unwrap();
        for event in [
            SensorEvent::Lift(e3),
            SensorEvent::Place(e3),
            SensorEvent::Select(e3),
            SensorEvent::Clock,
            SensorEvent::Announce,
            SensorEvent::Occupancy(0b1011 << 40),
        ] {
            assert_eq!(parse_line(&event.to_string()), Ok(Some(event)));
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert_eq!(parse_line("  # hello"), Ok(None));
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(
            parse_line("l e3"),
            Ok(Some(SensorEvent::Lift("e3".parse().unwrap())))
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(matches!(
            parse_line("X e3"),
            Err(LineError::UnknownEvent(_))
        ));
        assert!(matches!(parse_line("L"), Err(LineError::BadPoint(_))));
        assert!(matches!(parse_line("P z9"), Err(LineError::BadPoint(_))));
        assert!(matches!(
            parse_line("O 0101"),
            Err(LineError::BadOccupancy(_))
        ));
    }
}
