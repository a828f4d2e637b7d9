//! The wall-clock marks of the `SQLite` store: rows `wall:<timeline instant>` of the `meta`
//! table, valued with the Unix time in milliseconds at that instant (see [`crate::wallclock`]).

use rusqlite::{Connection, params};

use super::StoreError;
use crate::timeline::Millis;
use crate::wallclock::UnixMillis;

/// Stores one mark. A later mark for the same instant replaces it: the run before stored
/// nothing after that instant (every append also moves the stored timeline up to it).
pub(super) fn mark(c: &Connection, at: Millis, wall: UnixMillis) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        params![format!("wall:{}", at.0), wall as i64],
    )?;
    Ok(())
}

/// Every mark, in timeline order.
pub(super) fn marks(c: &Connection) -> Result<Vec<(Millis, UnixMillis)>, StoreError> {
    let mut st = c.prepare("SELECT key, value FROM meta WHERE key LIKE 'wall:%'")?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (key, wall) = row?;
        // A key this code did not write is not a mark: skipped, never guessed at.
        if let Some(at) = key.strip_prefix("wall:").and_then(|t| t.parse().ok()) {
            out.push((Millis(at), wall as u64));
        }
    }
    out.sort_unstable();
    Ok(out)
}
