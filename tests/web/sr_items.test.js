// What the blind player met on the demo's 視障賽 table, keyboard only (sr_game.test.js
// plays whole games; textmode.test.js the text mode's move, joining and one voice at a time):
// - the focus starts in the command field (the summary is said once, by the live region),
//   and its help is not read on every focus (no 107-character description);
// - the board is an ARIA grid (rows of cells: a screen reader leaves browse mode in it),
//   its instructions are still read on a phone, where they are not drawn;
// - in the word keys a typed letter, digit or sign goes to its word (type-ahead), nothing
//   sent; the next possible words are said (full);
// - verbosity: terse says the opponent's move once, with the turn; full says his words
//   and the check that agreed too;
// - the focus is not lost when 不接受 disables itself.

import { test } from "node:test";
import assert from "node:assert/strict";
import { axe, browser, open, shot, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every change of the page's two live regions, recorded from its first script on. */
function record() {
  window.spoken = [];
  document.addEventListener("DOMContentLoaded", () => {
    for (const id of ["live", "live-polite"]) {
      const node = document.getElementById(id);
      new MutationObserver(() => {
        const text = node.textContent.replace(/\u00a0/g, "").trim();
        if (text) window.spoken.push({ region: id, text });
      }).observe(node, { childList: true, characterData: true, subtree: true });
    }
  });
}

/** The demo's 視障賽 seats, red's page at `view` (`text`: in the screen-reader mode). */
async function seats(chrome, server, view, text = true) {
  const [redLink, blackLink] = ["red", "black"].map((r) => seatAt(server.seats, r, 1).link);
  const red = await open(chrome, redLink, view, text ? () => { localStorage.setItem("baoqi-textmode", "1"); } : null);
  await red.addInitScript(record);
  await red.reload();
  const black = await open(chrome, blackLink, DESK, () => localStorage.setItem("baoqi-textmode", "1"));
  await waitText(red, "#summary", "你是紅方");
  await waitText(black, "#summary", "你是黑方");
  return { red, black };
}

/** Runs a line in a page's command field. */
async function run(page, line) {
  await page.locator("#cmd").fill(line);
  await page.locator("#cmd").press("Enter");
}

const spoken = (page) => page.evaluate(() => window.spoken.map((m) => m.text));

async function withDemo(body) {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    await body({ server, chrome });
  } finally {
    await chrome.close();
    server.stop();
  }
}

test("the command field focused on joining, the board a grid, its instructions read on a phone", () => withDemo(async ({ server, chrome }) => {
  for (const view of [DESK, PHONE]) {
    const sr = (await seats(chrome, server, view, true)).red;
    // The screen-reader mode starts where he types: the command field.
    assert.equal(await sr.evaluate(() => document.activeElement.id), "cmd", "the focus starts in the command field");
    assert.equal(await sr.locator("#cmd").getAttribute("aria-describedby"), null, "no help read on every focus");
    await sr.context().close();
    const { red } = await seats(chrome, server, view, false);
    // The grid pattern: ten rows of nine cells, each cell's button a point.
    const grid = red.locator('#board [role="grid"]');
    assert.equal(await grid.count(), 1);
    assert.equal(await grid.locator('[role="row"]').count(), 10);
    assert.equal(await grid.locator('[role="row"]').first().locator('[role="gridcell"] button[data-pt]').count(), 9);
    // Its instructions are its description, in the accessibility tree at every width.
    assert.equal(await grid.getAttribute("aria-describedby"), "board-help");
    const help = await red.locator("#board-help").evaluate((n) => ({ display: getComputedStyle(n).display, text: n.textContent }));
    assert.notEqual(help.display, "none", `instructions dropped at ${view.width} px`);
    assert.match(help.text, /方向鍵/);
    assert.deepEqual(await axe(red, `board grid ${view.width}`), []);
    if (view === PHONE) await shot(red, "board-grid-phone");
    await red.context().close();
  }
}));

test("type-ahead in the word keys, nothing sent; the terse and the full verbosity", () => withDemo(async ({ server, chrome }) => {
  const { red, black } = await seats(chrome, server, DESK);
  await run(black, "z");
  await waitText(red, "#turn", "輪到紅方（我）");
  // Type-ahead: c goes to 炮, 2 to 二 (red's numeral), = to 平 after two words.
  await red.locator("#keys button").first().focus();
  await red.keyboard.press("c");
  assert.equal(await red.evaluate(() => document.activeElement.dataset.word), "炮");
  await red.keyboard.press("2");
  assert.equal(await red.evaluate(() => document.activeElement.dataset.word), "二");
  assert.equal(await red.locator("#answer").textContent(), "", "nothing sent");
  // Full: each word's answer names the words that may come next.
  await run(red, "v full");
  await waitText(red, "#cmdout", "讀出：詳細");
  await run(red, "b h2e2");
  await waitText(red, "#answer", "走子 h2e2（炮二平五）：已接受");
  await run(red, "炮");
  // Said as its own sentence (a burst of messages within 30 ms is read as one, joined).
  await red.waitForFunction(() => window.spoken.some((m) => /(^|。)炮：可能，尚餘 \d+ 種。下一字可為 /.test(m.text)))
    .catch(async (e) => assert.fail(`${e.message}: ${JSON.stringify(await spoken(red))}`));
  await run(red, "二平五");
  await waitText(red, "#verdict", "已報");
  await run(red, "z");
  await waitText(black, "#turn", "輪到黑方（我）");
  // Full: black's words as he says them, and the check that agreed after the turn.
  await run(black, "b h9g7");
  await run(black, "H8+7");
  await waitText(black, "#verdict", "已報");
  await run(black, "z");
  await red.waitForFunction(() => window.spoken.some((m) => /^輪到你。黑方 馬８進７。對手的報棋與走子吻合/.test(m.text)));
  assert.ok((await spoken(red)).some((x) => x.includes("對手報：馬")), "his words in full");
  // Terse: the opponent's move once, with the turn; none of his words.
  await run(red, "v terse");
  await run(red, "b h0g2");
  await run(red, "H2+3");
  await waitText(red, "#verdict", "已報");
  const before = (await spoken(red)).length;
  await run(red, "z");
  await waitText(black, "#turn", "輪到黑方（我）");
  await run(black, "b i9h9");
  await run(black, "R9=8");
  await waitText(black, "#verdict", "已報");
  await run(black, "z");
  await red.waitForFunction(() => window.spoken.some((m) => m.text.startsWith("輪到你。黑方 車９平８")));
  const heard = (await spoken(red)).slice(before);
  assert.ok(!heard.some((x) => x.includes("對手報")), `terse: no words of his: ${JSON.stringify(heard)}`);
  assert.ok(!heard.some((x) => x.includes("吻合")), "terse: no check that agreed");
  assert.deepEqual([...red.errors, ...black.errors], []);
}));

test("declining a draw by keyboard keeps the focus on the page", () => withDemo(async ({ server, chrome }) => {
  const { red, black } = await seats(chrome, server, PHONE);
  await run(black, "z");
  await waitText(red, "#turn", "輪到紅方（我）");
  await run(red, "o");
  await run(red, "b h2e2");
  await run(red, "C2=5");
  await waitText(red, "#verdict", "已報");
  await run(red, "z");
  await waitText(black, "#summary, #live-polite", "提和");
  await black.locator("#decline").waitFor({ state: "visible" });
  await black.locator("#decline:not([disabled])").focus();
  await black.keyboard.press("Enter");
  await waitText(black, "#answer", "不接受和棋：已接受");
  await black.locator("#decline[disabled]").waitFor({ state: "attached" });
  const at = await black.evaluate(() => ({ id: document.activeElement.id, body: document.activeElement === document.body }));
  assert.equal(at.body, false, "the focus is not lost");
  assert.equal(at.id, "offer", "it goes where he acts next");
}));
