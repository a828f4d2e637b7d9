// The seat page in its screen-reader mode (文字模式（讀屏器）) as the browser tests drive it:
// keyboard only, through the one command field, with every change of the two live regions
// recorded with its time, as a screen reader would say it.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, open, waitText } from "./harness.js";
import { tabTo } from "./a11y.js";

const BRAILLE = 40;

/** A seat's page in the screen-reader mode at `view`, every change of its two live regions
 * recorded with its time; the focus reaches the command field by keyboard. */
export async function srPage(chrome, link, view, who) {
  const page = await open(chrome, link, view, () => {
    localStorage.setItem("baoqi-textmode", "1");
    window.spoken = [];
    const start = performance.now();
    window.spokenStart = start;
    window.spokenSince = () => performance.now() - start - (window.spoken.at(-1)?.at ?? -1e9);
    document.addEventListener("DOMContentLoaded", () => {
      for (const id of ["live", "live-polite"]) {
        const node = document.getElementById(id);
        new MutationObserver(() => {
          const text = node.textContent.replace(/\u00a0/g, "").trim();
          if (text) window.spoken.push({ region: id === "live" ? "assertive" : "polite", at: Math.round(performance.now() - start), text });
        }).observe(node, { childList: true, characterData: true, subtree: true });
      }
    });
  });
  page.who = who;
  await waitText(page, "#summary", "你是");
  // The screen-reader mode starts in the command field.
  if (!(await page.evaluate(() => document.activeElement?.id === "cmd"))) await tabTo(page, "#cmd");
  return page;
}

/** How long a player listens after the last message before he acts (more than the 600 ms
 * in which an urgent message takes the polite one with it): the pace of a person, within the
 * server's budget of commands (10 a second). */
export const LISTEN_MS = 700;

/** Types a line in the command field and runs it (Enter), once the page has been silent for
 * LISTEN_MS; the focus stays there. */
export async function run(page, line) {
  await page.waitForFunction((ms) => window.spokenSince() > ms, LISTEN_MS);
  await page.locator("#cmd").focus();
  await page.keyboard.press("Control+A");
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

/** What the page's regions have said so far. */
export const spoken = (page) => page.evaluate(() => window.spoken);

/** Waits until the page has said something matching `re` (after `from` messages). */
export async function hears(page, re, from = 0) {
  await page.waitForFunction(([src, n]) => window.spoken.slice(n).some((m) => new RegExp(src).test(m.text)), [re.source, from], { timeout: 8000 })
    .catch(async () => assert.fail(`${page.who} never heard ${re}: ${JSON.stringify((await spoken(page)).slice(from).map((m) => m.text))}`));
  return (await spoken(page)).slice(from).find((m) => re.test(m.text));
}

/** Runs a command and waits for what it makes the page say. */
export async function says(page, line, re) {
  const n = (await spoken(page)).length;
  await run(page, line);
  return hears(page, re, n);
}

/** One move of a 視障賽 seat, by keyboard: the board move, the words, the clock. */
export async function play(page, mv, words) {
  await says(page, `b ${mv}`, /你在棋盤走了/);
  await says(page, words, /報棋完成，不能反悔/);
  const n = (await spoken(page)).length;
  await run(page, "z");
  await hears(page, /你走了 /, n);
}

/** The checks every transcript passes: the braille line, no symbol read out, one voice at
 * a time. */
export function audit(list, who) {
  for (const m of list) {
    // The first sentence says what happened on its own: a 40-cell line shows all of it.
    const first = m.text.split("。")[0];
    assert.ok([...first].length <= BRAILLE, `${who}: the first sentence of 「${m.text}」 is longer than ${BRAILLE} characters`);
    assert.doesNotMatch(m.text, /1\/2|[×○]/, `${who}: symbols read out in 「${m.text}」`);
  }
  // Nothing is said by both regions (one voice at a time).
  const polite = new Set(list.filter((m) => m.region === "polite").map((m) => m.text));
  for (const m of list.filter((x) => x.region === "assertive")) assert.ok(!polite.has(m.text), `${who}: said twice: ${m.text}`);
}

/** The transcript as a screen reader gives it: time, region, text. */
export function transcript(list) {
  return list.map((m) => `${String((m.at / 1000).toFixed(2)).padStart(7)} s  ${m.region === "assertive" ? "assertive" : "polite   "}  ${m.text}`).join("\n");
}

export function save(name, pages) {
  const dir = join(ROOT, "target", "transcripts");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), pages.map(([who, list]) => `## ${who}\n\n${transcript(list)}\n`).join("\n"));
}
