// 95(3) and 109 for the referee's monitor, with no DOM (the tests import it in Node): which
// tables of a round may still be started together, and which sides have not arrived by the
// latest arrival time.

/** The tables of `tables` (`{ id, snap }`) whose clocks have not started (95(3)). */
export const startable = (tables) => tables.filter((x) => x.snap?.phase === "not_started").map((x) => x.id);

/**
 * The sides of a table who have not arrived by the latest arrival time (109(2)): a player
 * arrives by moving and pressing the clock, so red while the first move is not on the
 * scoresheet, black while his first is not; none before the start, before that time, or
 * while the game is not being played (paused, over). `now` is the server's timeline.
 */
export function late(snap, now) {
  if (!snap || snap.phase !== "playing" || snap.started_at == null) return [];
  if (now < snap.started_at + (snap.latest_arrival ?? 0)) return [];
  if (snap.moves.length === 0) return ["red"];
  if (snap.moves.length === 1) return ["black"];
  return [];
}

/** The results a referee may record for the late sides (87, 109(2) and (4)): a side's
 * absence; both absent too when red has not arrived (black cannot show he has before red's
 * move). */
export function absences(sides) {
  if (sides.includes("red")) return ["red_absent", "both_absent"];
  if (sides.includes("black")) return ["black_absent"];
  return [];
}
