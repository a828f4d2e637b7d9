// One phrasebook for the keypad and the pages: what the keypad says for every sample event
// (`baoqi protocol heard`, from the audio crate) and what the seat page's screen-reader
// narration says for the same event (narrate.js) are held to the same words wherever the
// keypad's message comes from an entry the two share (phrases.js, generated from the
// phrasebook and checked stale by a Rust test). A page may add to a shared message after
// 「。」, 「（」 or 「：」 (an article, a key to press), never change it. Every shared entry must
// be compared at least once: a test that compared nothing would prove nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, baoqiBin } from "./harness.js";

const app = (name) => import(pathToFileURL(join(ROOT, "server", "assets", "app", name)).href);
const json = (bin, what) => JSON.parse(execFileSync(bin, ["protocol", what], { encoding: "utf8", maxBuffer: 64 << 20 }));

/** The keypad's binary: the full build (the hall's server has no keypad). */
function keypadBin() {
  const bin = process.env.BAOQI_KEYPAD_BIN || join(ROOT, "target", "debug", "baoqi");
  if (!existsSync(bin)) throw new Error(`no baoqi binary with the keypad at ${bin}: run cargo build first`);
  return bin;
}

/** The entries of what a player's own move did, said after the move on the pages. */
const OWN_MOVE = /^move\.you_/;

/** Whether `page` says `keypad`'s message: the same, or the same followed by more. */
const saysTheSame = (page, keypad) => page === keypad || ["。", "（", "："].some((p) => page.startsWith(keypad + p));

/** Whether `text` holds entry `zh` (its slots matching anything): a part of a message (a
 * reason inside a tally) is compared as part of the whole. */
function holds(text, zh) {
  const pattern = zh.split(/\{\w+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+?");
  return new RegExp(pattern).test(text);
}

/** Everything the page's narrator says for one event, heard by `seat`, whoever's turn it is,
 * the seat operating the VI board as the keypad's listener does (7.4(2)(g)(i)). */
function pageSays(Narrator, ev, seat) {
  const out = [];
  for (const own of [false, true]) {
    const n = new Narrator(seat, () => "full", () => own, () => "vi");
    out.push(...n.hear(ev), ...n.flush());
  }
  return out.map((m) => m.text);
}

test("a sample of events reads the same on the keypad and the pages where they share the phrasebook", async () => {
  const { Narrator } = await app("narrate.js");
  const { PHRASES } = await app("phrases.js");
  const samples = json(baoqiBin(), "samples").events;
  const heard = json(keypadBin(), "heard").events;
  assert.ok(heard.length >= samples.length * 2, "the keypad heard every sample event, for both seats");
  const compared = new Set();
  const texts = [];
  for (const { event, seat, said } of heard) {
    for (const { entry, text } of said) {
      if (!(entry in PHRASES)) continue;
      const page = pageSays(Narrator, event, seat);
      // What his own move did: the keypad says it alone (he has just made the move), the
      // page after the move's words (「你走了 炮二平五，吃馬，將軍」).
      const same = OWN_MOVE.test(entry) ? (p) => p.includes(`，${text}`) : (p) => saysTheSame(p, text);
      assert.ok(page.some(same),
        `${entry}: the keypad says 「${text}」 to ${seat} for ${JSON.stringify(event)}; the page says ${JSON.stringify(page)}`);
      compared.add(entry);
      texts.push(text);
    }
  }
  // Refusals, the connection's state, the keypad's own settings and where a game stands
  // (compared below, state by state) are said for no event.
  const ofEvents = Object.keys(PHRASES).filter((k) => !["refused.", "conn.", "keypad.", "summary."].some((p) => k.startsWith(p)));
  assert.ok(ofEvents.length >= 6, `${ofEvents.length} shared entries of events`);
  // The parts of messages (a violation's kind and reason, a game's outcome and end cause,
  // whose time, a board move that is no legal move) are
  // compared within the whole; every other shared entry is a message of its own and must be
  // compared as one.
  const part = (k) => k.startsWith("because.") || /^violation\.(technical|recording|clock)$/.test(k)
    || (k.startsWith("end.") && k !== "end.game_over") || /^times\.(you|opponent)$/.test(k)
    || k === "check.no_legal_move";
  for (const k of ofEvents) {
    if (part(k)) assert.ok(texts.some((x) => holds(x, PHRASES[k][0])), `${k}: no message compared holds it`);
    else assert.ok(compared.has(k), `${k}: no sample event makes the keypad say it`);
  }
});

test("a seat's own refusal reads the same on the keypad and the pages", async () => {
  const { answerFor } = await app("refusals.js");
  const { PHRASES } = await app("phrases.js");
  const rejections = json(baoqiBin(), "samples").rejections;
  const refusals = json(keypadBin(), "heard").refusals;
  assert.equal(refusals.length, rejections.length, "the keypad answered every sample refusal");
  const compared = new Set();
  for (const { rejection: r, entry, text } of refusals) {
    if (!(entry in PHRASES)) continue;
    const page = answerFor({ type: "rejected", rejection: r }, r.side);
    assert.ok(saysTheSame(page, text), `${entry}: the keypad says 「${text}」 for ${JSON.stringify(r)}; the page 「${page}」`);
    compared.add(entry);
  }
  const shared = Object.keys(PHRASES).filter((k) => k.startsWith("refused."));
  assert.ok(shared.length >= 1);
  for (const k of shared) assert.ok(compared.has(k), `${k}: no sample refusal makes the keypad say it`);
});

test("the connection's messages are the keypad's words on the pages", async () => {
  const { phrase } = await app("text.js");
  const { PHRASES } = await app("phrases.js");
  const notices = json(keypadBin(), "heard").notices;
  assert.deepEqual(notices.map((n) => n.notice), ["lost", "not_sent"]);
  for (const { notice, entry, text } of notices) {
    assert.ok(entry in PHRASES, `the keypad says 「${text}」 when ${notice}, from an entry the pages do not share: ${entry}`);
    assert.equal(phrase(entry), text, entry);
  }
});

test("where the game stands on (re)joining: the keypad's parts are the seat page's summary, in the same words", async () => {
  const { summary } = await app("summary.js");
  const { PHRASES } = await app("phrases.js");
  const standings = json(keypadBin(), "heard").standings;
  assert.ok(standings.length >= 12, "a game at each stage, for both seats");
  const compared = new Set();
  for (const { view, seat, said } of standings) {
    const page = summary(view, seat);
    for (const { entry, text } of said) {
      if (!(entry in PHRASES)) continue;
      // A part is a sentence of the summary: ended by 「。」, or followed by the page's keys.
      assert.ok(["。", "（", "："].some((p) => page.includes(text + p)),
        `${entry}: the keypad says 「${text}」 to ${seat} (${view.phase}); the page 「${page}」`);
      compared.add(entry);
    }
  }
  for (const k of Object.keys(PHRASES).filter((x) => x.startsWith("summary."))) {
    assert.ok(compared.has(k), `${k}: no sample state makes the keypad say it`);
  }
  assert.ok(compared.has("end.game_over"), "a game over is said in the same words too");
});
