// The pages' phrasebook against the protocol: every message, event, refusal, error
// and open call the server can send — one sample of each variant, printed by
// `baoqi protocol samples` from the protocol crate — is said in words by text.js, with no
// empty line and no `undefined`; and the constants the pages import are the crate's own
// (a Rust test checks that protocol.js is not stale).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, baoqiBin } from "./harness.js";

const app = (name) => import(pathToFileURL(join(ROOT, "server", "assets", "app", name)).href);
const samples = JSON.parse(execFileSync(baoqiBin(), ["protocol", "samples"], { encoding: "utf8" }));

/** A line is said when it is not empty and says no `undefined` or `NaN`. */
function said(text, what) {
  assert.ok(typeof text === "string" && text.length > 0, `nothing said for ${JSON.stringify(what)}`);
  assert.ok(!/undefined|NaN|\[object/.test(text), `${text} for ${JSON.stringify(what)}`);
}

test("every event the server can send is said in words", async () => {
  const { describe } = await app("text.js");
  const { EVENTS } = await app("protocol.js");
  const seen = new Set();
  for (const ev of samples.events) {
    seen.add(ev.type);
    if (ev.type === "clock") continue; // the clock is shown, never said
    said(describe(ev), ev);
  }
  assert.deepEqual([...seen].sort(), [...EVENTS].sort(), "protocol.js names the events the samples hold");
});

test("every refusal and error is said in words", async () => {
  const { rejection, errorCode, answer } = await app("refusals.js");
  const { REJECTIONS, ENUMS } = await app("protocol.js");
  for (const r of samples.rejections) said(rejection(r), r);
  assert.deepEqual([...new Set(samples.rejections.map((r) => r.reason))].sort(), [...REJECTIONS].sort());
  for (const code of ENUMS.error_code) said(errorCode(code), code);
  for (const code of ["not_connected", "connection_lost"]) said(errorCode(code), code);
  for (const m of samples.server_messages.filter((m) => m.type === "rejected" || m.type === "error")) said(answer(m), m);
});

test("every open call of the referee is said in words", async () => {
  const { call } = await app("text.js");
  const { CALL_KINDS } = await app("protocol.js");
  for (const c of samples.calls) said(call(c), c);
  assert.deepEqual(samples.calls.map((c) => c.kind).sort(), [...CALL_KINDS].sort());
});

test("the words of a move are each side's own (紅 二, 黑 ２)", async () => {
  const { words, move } = await app("text.js");
  assert.equal(words(["cannon", "2", "across", "5"], "red"), "炮二平五");
  assert.equal(words(["horse", "8", "forward", "7"], "black"), "馬８進７");
  assert.equal(move({ words: ["cannon", "5", "forward", "4"], captured: "pawn", check: true }, "red", true), "炮五進四×○＝");
});
