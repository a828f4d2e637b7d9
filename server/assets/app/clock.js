// The game's timeline as a page knows it: the server's time from the last `at` seen,
// advanced locally, and both clocks now. No DOM.

/** Server time (game timeline) from the last `at` seen, advanced locally. */
class Timeline {
  constructor() { this.offset = null; this.frozen = null; }
  seen(at) { if (typeof at === "number") this.offset = at - performance.now(); }
  now() { return this.frozen ?? (this.offset === null ? null : performance.now() + this.offset); }
  /** Stops the clocks where they are: the page no longer knows the server's time. */
  freeze() { if (this.frozen === null) this.frozen = this.now(); }
  /** Lets the clocks run again, from the state just received. */
  thaw() { this.frozen = null; }
}
export const timeline = new Timeline();

/** Both clocks now, from a ClockView. */
export function clockNow(clock) {
  if (!clock) return { red: 0, black: 0, running: null };
  const tm = { red: clock.red_ms, black: clock.black_ms, running: clock.running };
  const now = timeline.now();
  if (clock.running && now !== null) {
    const from = Math.max(clock.since, clock.delay_until || 0);
    tm[clock.running] = Math.max(0, tm[clock.running] - Math.max(0, now - from));
  }
  return tm;
}
