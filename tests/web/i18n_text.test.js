// The phrasebook in English: with the device's language set to English,
// every event, refusal, error, open call, result, end cause and warning the server can send
// — the samples printed by `baoqi protocol samples`, as in protocol.test.js, and their
// variants through every value of the enums text.js speaks — is said in English.
//
// The rule: an English line holds no CJK character (ideographs, CJK and full-width
// punctuation such as 「」、：（）, full-width digits), except
//   1. the text people type, which the server echoes unchanged: every string of the sample
//      itself that holds a CJK character (names, notes, a referee's reason, a typed word)
//      is taken out of the line first; and
//   2. the notation, which stays Chinese in every language: a run of CJK characters is
//      allowed when each of its characters belongs to a notation word as either side
//      writes it (WORD_TEXT of protocol.js: the pieces 帥仕相傌俥炮兵 將士象馬車砲卒,
//      the numerals 一…九 and １…９, 前中後, 進退平) or is the scoresheet's ＝.
// Anything else (a Chinese word left untranslated, a Traditional rule word of protocol.js
// given without its English, a full-width colon) fails, with the line and the sample.
//
// Node, no browser: i18n.js reads the language from localStorage when it is first
// imported, so the stub below is in place before text.js is imported (each test file runs
// in its own process, so the other files keep the default language).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, baoqiBin } from "./harness.js";

const store = { "baoqi-lang": "en" };
Object.defineProperty(globalThis, "localStorage", {
  configurable: true, writable: true,
  value: { getItem: (k) => store[k] ?? null, setItem: (k, v) => { store[k] = String(v); } },
});

const app = (name) => import(pathToFileURL(join(ROOT, "server", "assets", "app", name)).href);
const samples = JSON.parse(execFileSync(baoqiBin(), ["protocol", "samples"], { encoding: "utf8" }));
const text = await app("text.js");
const refusals = await app("refusals.js");
const { lang } = await app("i18n.js");
const { ENUMS, WORD_TEXT } = await app("protocol.js");

const CJK = /[\u2e80-\u2fff\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const CJK_RUN = /[\u2e80-\u2fff\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+/g;
/** The characters of the notation: every word as red or black writes it, and ＝. */
const NOTATION = new Set(["＝", ...Object.values(WORD_TEXT).flatMap((side) => Object.values(side).flatMap((w) => [...w]))]);

/** The strings of a sample that hold CJK (what people typed), longest first. */
function typed(sample) {
  const found = [];
  const walk = (v) => {
    if (typeof v === "string") { if (CJK.test(v)) found.push(v); } else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(sample);
  return found.sort((a, b) => b.length - a.length);
}

/** Asserts that `line` is said, in English, for `sample` (the rule above). */
function english(line, sample) {
  const what = JSON.stringify(sample);
  assert.ok(typeof line === "string" && line.length > 0, `nothing said for ${what}`);
  assert.ok(!/undefined|NaN|\[object/.test(line), `${line} for ${what}`);
  let rest = line;
  for (const s of typed(sample)) rest = rest.split(s).join(" ");
  for (const [run] of rest.matchAll(CJK_RUN)) {
    assert.ok([...run].every((c) => NOTATION.has(c)), `not English: 「${run}」 in "${line}" for ${what}`);
  }
}

/** Each sample, then the sample with `field` set to every value of the enum `name`. */
function* through(list, vary) {
  for (const x of list) {
    yield x;
    for (const [field, name] of Object.entries(vary(x) || {})) {
      for (const v of ENUMS[name]) yield { ...x, [field]: v };
    }
  }
}

/** Each sample, then the sample with each of its booleans flipped. */
function* flipped(list) {
  for (const x of list) {
    yield x;
    for (const [k, v] of Object.entries(x)) if (typeof v === "boolean") yield { ...x, [k]: !v };
  }
}

const SIDES = ["side", "owner", "holder", "loser", "offender", "mover"];
const sides = (x) => Object.fromEntries(SIDES.filter((k) => typeof x[k] === "string").map((k) => [k, "side"]));

/** The enum-valued fields of each event, by its type. */
const EVENT_ENUMS = {
  touched: { kind: "kind" },
  board: { board: "board" },
  board_diverges: { board: "board" },
  board_agrees: { board: "board" },
  checked: { outcome: "check_outcome" },
  violation: { kind: "violation_kind" },
  violation_removed: { kind: "violation_kind", why: "removal" },
  draw_declined: { how: "decline" },
  card_moved: { card: "card", how: "card_move" },
  referee_needed: { call: "referee_call" },
  paused: { reason: "pause_reason" },
  game_over: { outcome: "outcome" },
};
/** … of each open call, by its kind. */
const CALL_ENUMS = {
  check_restore: { cause: "restore_cause" },
  announce_for: { why: "announced_for" },
  board_divergence: { board: "board" },
  paused: { reason: "pause_reason" },
  verify_result: { outcome: "outcome" },
};
/** … of each refusal, by its reason. */
const REJECTION_ENUMS = {
  touched_piece: { kind: "kind" },
  nothing_to_rescind: { kind: "violation_kind" },
  not_allowed: { act: "act" },
  out_of_order: { wait: "wait" },
};

test("the page's language is English when the device chose it", () => {
  assert.equal(lang, "en");
  assert.deepEqual(text.SIDE, { red: "Red", black: "Black" });
});

test("every event is said in English", () => {
  const events = samples.events.filter((e) => e.type !== "clock"); // the clock is shown, never said
  const boardEnds = ENUMS.end_reason.map((reason) => ({ type: "game_over", cause: "board", reason, outcome: "draw", articles: ["66(4)"] }));
  let n = 0;
  for (const ev of flipped([...through([...events, ...boardEnds], (e) => ({ ...EVENT_ENUMS[e.type], ...sides(e) }))])) {
    english(text.describe(ev), ev);
    n++;
  }
  assert.ok(n > samples.events.length, `${n} lines`);
});

test("every refusal, error and answer is said in English", () => {
  for (const r of through(samples.rejections, (x) => ({ ...REJECTION_ENUMS[x.reason], ...sides(x) }))) english(refusals.rejection(r), r);
  for (const r of [{ reason: "not_your_turn" }, { reason: "card", why: { card: "draw", problem: "not_in_hand" } }]) english(refusals.rejection(r), r);
  for (const code of [...ENUMS.error_code, "not_connected", "connection_lost"]) english(refusals.errorCode(code), code);
  for (const m of samples.server_messages.filter((m) => m.type === "rejected" || m.type === "error")) english(refusals.answer(m), m);
  english(refusals.answer({ type: "rejected", rejection: { reason: "a_new_one" } }), "an unknown refusal");
  english(refusals.answer({ type: "error", code: "a_new_one" }), "an unknown error");
});

test("every open call of the referee is said in English", () => {
  for (const c of flipped([...through(samples.calls, (x) => ({ ...CALL_ENUMS[x.kind], ...sides(x) }))])) english(text.call(c), c);
});

test("results, end causes, warnings and the words of the tables are English", () => {
  for (const c of samples.end_causes) {
    english(text.endCause(c), c);
    for (const outcome of ENUMS.outcome) english(text.result({ ...c, outcome, articles: ["69(1)", "7.1(2)"] }), c);
  }
  for (const ev of samples.events.filter((e) => e.warning)) english(text.warning(ev.warning), ev.warning);
  for (const o of ENUMS.check_outcome) english(text.checkOutcome(o), o);
  for (const [table, codes] of [["KIND", ENUMS.violation_kind], ["CARD", ENUMS.card], ["SIDE", ENUMS.side], ["BOARD_NAME", ENUMS.board]]) {
    for (const k of codes) english(text[table][k], `${table}.${k}`);
  }
  for (const k of ENUMS.kind) english(text.kindOf(k, "black"), k);
  for (const l of "KABNRCPkabnrcp") english(text.pieceOf(l), l);
  for (const ms of [0, 1000, 61000, 3725000]) english(text.sayTime(ms), ms);
  assert.equal(text.sayTime(61000), "1 minute 1 second");
  assert.equal(text.articles(["69(2)(c)", "6.4"]), "art. 69(2)(c); Schedule 7, 6.4");
});

test("the notation stays Chinese in English", () => {
  assert.equal(text.words(["cannon", "2", "across", "5"], "red"), "炮二平五");
  assert.equal(text.move({ words: ["horse", "8", "forward", "7"], captured: "pawn", check: true }, "black", true), "馬８進７×○＝");
  assert.equal(text.describe({ type: "moved", side: "red", mv: { words: ["cannon", "2", "across", "5"] } }), "Red: 炮二平五");
});
