// Every message a blind player is given, worth reading on a 40-cell braille display: its
// first sentence fits 40 cells of contracted Chinese braille, Hong Kong (zh-hk) and
// Taiwanese (zh-tw), counted by liblouis (the tables a screen reader and BRLTTY use), not in
// characters: a character is two or three cells, a digit takes a number sign. A live message
// stays a few seconds on the display; its point must be in what it shows first.
// The messages: what the keypad says for every sample event, refusal and notice (`baoqi
// protocol heard`), what the seat page's narration says for the same events at every
// verbosity, and the page's answers to refusals; and every entry of the phrasebook, its slots
// filled with samples (the keypad's own help, prompts and answers).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, baoqiBin } from "./harness.js";

const app = (name) => import(pathToFileURL(join(ROOT, "server", "assets", "app", name)).href);
const json = (bin, what) => JSON.parse(execFileSync(bin, ["protocol", what], { encoding: "utf8", maxBuffer: 64 << 20 }));
const CELLS = 40;
const PYTHON = process.env.BAOQI_LOUIS_PYTHON || "/usr/bin/python3";

/** The keypad's binary: the full build (the hall's server has no keypad). */
function keypadBin() {
  const bin = process.env.BAOQI_KEYPAD_BIN || join(ROOT, "target", "debug", "baoqi");
  if (!existsSync(bin)) throw new Error(`no baoqi binary with the keypad at ${bin}: run cargo build first`);
  return bin;
}

/** Everything the page's narrator says for one event heard by `seat`, at every verbosity. */
function pageSays(Narrator, ev, seat) {
  const out = [];
  for (const v of ["auto", "terse", "full"]) {
    for (const own of [false, true]) {
      const n = new Narrator(seat, () => v, () => own);
      out.push(...n.hear(ev), ...n.flush());
    }
  }
  return out.map((m) => m.text);
}

/** Whether a phrasebook entry is a part of messages, not one of its own: a reason, a side,
 * an end's cause, a repetition's verbatim wording (第61條), a violation's name, whose time.
 * The sample events hold every one of them within the whole message they end up in. */
const part = (k) => /^(because|side|repetition|end)\./.test(k) && !["repetition.warning", "end.game_over"].includes(k)
  || /^violation\.(technical|recording|clock)$/.test(k) || /^times\.(you|opponent)$/.test(k);

/** Every message, with where it comes from (for the failure's report). */
async function messages() {
  const { Narrator } = await app("narrate.js");
  const { answerFor } = await app("refusals.js");
  const heard = json(keypadBin(), "heard");
  const all = new Map();
  const add = (text, from) => { if (text && !all.has(text)) all.set(text, from); };
  for (const { event, seat, said } of heard.events) {
    for (const { text } of said) add(text, `keypad, ${event.type} to ${seat}`);
    for (const text of pageSays(Narrator, event, seat)) add(text, `seat page, ${event.type} to ${seat}`);
  }
  for (const { rejection: r, text } of heard.refusals) {
    add(text, `keypad, refused ${r.reason ?? ""}`);
    add(answerFor({ type: "rejected", rejection: r }, r.side), `seat page, refused ${r.reason ?? ""}`);
  }
  for (const { notice, text } of heard.notices) add(text, `keypad, ${notice}`);
  for (const { entry, text } of heard.entries) if (!part(entry)) add(text, `keypad, ${entry}`);
  for (const [text, from] of await pageAnswers(heard)) add(text, from);
  return all;
}

/** The seat page's answers of its own: every text command on a game in progress (its
 * snapshot built from the protocol's sample state, with a record of twelve moves, a draw
 * offer standing and a read-back owed), a slip, a move on his own board. */
async function pageAnswers(heard) {
  const { command, slip } = await app("nvui.js");
  const { ownBoardStep } = await app("narrate.js");
  const state = json(baoqiBin(), "samples").server_messages.find((m) => m.type === "state").snapshot;
  const moved = heard.events.find((e) => e.event.type === "moved" && e.event.mv.captured).event;
  const moves = Array.from({ length: 12 }, (_, i) => ({ ply: i + 1, side: i % 2 ? "black" : "red", mv: moved.mv, clock_ms: 1234567 }));
  const mirror = { words: moved.mv.words, mover: "black", mirror: true };
  const snaps = [
    { ...state, phase: "playing", moves, offer: { side: "black", stands: true, card: false } },
    { ...state, phase: "playing", moves, pending: { ...state.pending, repeat: mirror } },
    { ...state, phase: "playing", moves, pending: { ...state.pending, correction: "h2e2" } },
  ];
  const lines = ["c", "d", "l", "m", "m 1", "p", "p 紅", "f 5", "f a", "r 0", "s e0", "k 馬", "t", "a", "h", "h 2", "h 3", "[", "zz"];
  const out = [];
  for (const snap of snaps) {
    for (const me of ["red", "black"]) {
      for (const line of lines) out.push([command(line, snap, me), `seat page, command ${line}`]);
      out.push([command("d", snap, me, snap.boards[0]), "seat page, command d after the board move"]);
    }
  }
  out.push([slip("炮二平五五五"), "seat page, a slip"], [ownBoardStep("視障棋盤", "俥八進四", "b0b4"), "seat page, a board move"]);
  return out;
}

/** liblouis's count of each message's first sentence (tests/braille/cells.py). */
function cells(texts) {
  const out = execFileSync(PYTHON, [join(ROOT, "tests", "braille", "cells.py")],
    { input: JSON.stringify(texts), encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

test("liblouis counts cells, not characters", () => {
  // Nine characters, but more than 18 cells in either table: the count is liblouis's own.
  const [row] = cells(["你在視障棋盤走了俥八進四"]);
  assert.ok(row["zh-hk"] > 2 * 12 && row["zh-tw"] > 2 * 12, JSON.stringify(row));
});

test("every message's first sentence fits 40 cells of zh-hk and zh-tw braille", async () => {
  const all = await messages();
  assert.ok(all.size > 150, `${all.size} messages gathered`);
  const rows = cells([...all.keys()]);
  const over = rows.filter((r) => r["zh-hk"] > CELLS || r["zh-tw"] > CELLS);
  const report = over.map((r) => `  ${r["zh-hk"]}/${r["zh-tw"]} cells 「${r.first}」 (${all.get(r.text)}); 40 cells show 「${r.shown}」`);
  assert.equal(over.length, 0, `${over.length} of ${rows.length} messages have a first sentence over 40 cells:\n${report.join("\n")}`);
});
