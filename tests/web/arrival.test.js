// 109 on the monitor, in Node: who has not arrived by the latest arrival time, and what the
// referee may record for it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { absences, late, startable } from "../../server/assets/app/arrival.js";

const TEN = 10 * 60_000;
const snap = (moves, over = {}) => ({ phase: "playing", started_at: 5_000, latest_arrival: TEN, moves: Array(moves).fill({}), ...over });

test("109(2): red has not arrived until the first move is made and pressed, black until his is", () => {
  assert.deepEqual(late(snap(0), 5_000 + TEN - 1), [], "before the latest arrival time");
  assert.deepEqual(late(snap(0), 5_000 + TEN), ["red"]);
  assert.deepEqual(late(snap(1), 5_000 + TEN), ["black"]);
  assert.deepEqual(late(snap(2), 5_000 + TEN), [], "both have moved");
  assert.deepEqual(late(snap(0, { latest_arrival: 0 }), 5_000), ["red"], "games of under 15′ a side: the start itself");
  for (const phase of ["not_started", "paused", "over"]) assert.deepEqual(late(snap(0, { phase }), 5_000 + TEN), [], phase);
  assert.deepEqual(late(snap(0, { started_at: undefined }), 5_000 + TEN), [], "a start not known");
});

test("109(2), (4): a late red may be recorded absent, or both; a late black absent", () => {
  assert.deepEqual(absences(["red"]), ["red_absent", "both_absent"]);
  assert.deepEqual(absences(["black"]), ["black_absent"]);
  assert.deepEqual(absences([]), []);
});

test("95(3): the tables of a round still to start", () => {
  const tables = [{ id: 1, snap: { phase: "not_started" } }, { id: 2, snap: { phase: "playing" } }, { id: 3, snap: null }];
  assert.deepEqual(startable(tables), [1]);
});
