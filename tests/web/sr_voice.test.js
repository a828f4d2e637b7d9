// The seat page's voice with a screen reader that stops speaking at every key (Orca drops its
// queued live-region messages at each key press): what comes while the player types is held
// and said together once he pauses, never while his keys are going; Alt with ↑ and ↓ steps
// back and on through what was said; the summary on joining is said once (by the focus, not
// again by a live region); a dialog leaves no stale message to be read again when it closes;
// after resigning the focus goes to the command field (never to an empty line).

import { test } from "node:test";
import assert from "node:assert/strict";
import { browser, open, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";
import { srPage, run, says, hears, spoken, play } from "./sr.js";

const DESK = { width: 1280, height: 800 };

/** The demo's 視障賽 seats in the screen-reader mode, the clocks started, red to move. */
async function seats(body) {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 1).link, DESK, "red");
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, DESK, "black");
    await body({ red, black });
  } finally {
    await chrome.close();
    server.stop();
  }
}

/** Black starts the clocks, red plays 炮二平五: black to move, red free to type. */
async function redHasMoved(red, black) {
  await run(black, "z");
  await hears(red, /輪到你/);
  await play(red, "h2e2", "炮二平五");
  await hears(black, /^輪到你/);
}

test("the summary on joining is said once, by the live region, the focus in the command field", () => seats(async ({ red }) => {
  assert.equal(await red.evaluate(() => document.activeElement.id), "cmd", "the screen-reader mode starts in the command field");
  const said = (await spoken(red)).map((m) => m.text).filter((x) => x.includes("你是紅方"));
  assert.equal(said.length, 1, `the summary said once: ${JSON.stringify(said)}`);
}));

test("his opponent's words while he types are held, then said together when he pauses", () => seats(async ({ red, black }) => {
  await redHasMoved(red, black);
  // Red types a long question, a key every 120 ms, while black says his four words.
  const n = (await spoken(red)).length;
  await red.locator("#cmd").focus();
  // The page notes when each key went down: the typing's promise resolves a round trip
  // later, which under load was enough to make the pause look 170 ms shorter than it was.
  await red.evaluate(() => document.addEventListener("keydown", () => { window.lastKeyAt = performance.now(); }, true));
  const typing = red.keyboard.type("k h k h k h k h k h k h k h k h", { delay: 120 });
  await black.waitForTimeout(300);
  await run(black, "馬8進7");
  await typing;
  const lastKey = await red.evaluate(() => window.lastKeyAt);
  const heard = await hears(red, /對手報：馬。對手報：８。對手報：進。對手報：７/, n);
  // Said after the pause, not while he typed (1 s after his last key, within a poll).
  const during = (await spoken(red)).slice(n).filter((m) => /對手報/.test(m.text));
  assert.equal(during.length, 1, `one message for his four words: ${JSON.stringify(during.map((m) => m.text))}`);
  const startOf = await red.evaluate(() => window.spokenStart);
  assert.ok(heard.at + startOf >= lastKey + 900, `said ${Math.round(heard.at + startOf - lastKey)} ms after his last key`);
  // Enter ends the typing: his command's answer is said at once.
  await red.locator("#cmd").fill("t");
  const m = (await spoken(red)).length;
  await red.keyboard.press("Enter");
  const answer = await hears(red, /^輪到對手/, m);
  assert.ok(answer, "the answer to his command");
}));

test("Enter says what was held while he typed first, then his command's answer: nothing held comes after it", () => seats(async ({ red, black }) => {
  await redHasMoved(red, black);
  const n = (await spoken(red)).length;
  await red.locator("#cmd").focus();
  // 「k h」 a key every 350 ms, while black says his four words; Enter at once after.
  const typing = red.keyboard.type("k h", { delay: 350 });
  await run(black, "馬8進7");
  await typing;
  await red.keyboard.press("Enter");
  await hears(red, /傌：/, n);
  await red.waitForTimeout(1500);
  const after = (await spoken(red)).slice(n).map((m) => m.text);
  const words = after.findIndex((t) => /對手報：馬/.test(t));
  const answer = after.findIndex((t) => /傌：/.test(t));
  assert.ok(words >= 0 && words <= answer, `his opponent's words, then the answer: ${JSON.stringify(after)}`);
  assert.ok(!after.slice(answer + 1).some((t) => /對手報/.test(t)), `nothing held after the answer: ${JSON.stringify(after)}`);
}));

test("Alt+↑ and Alt+↓ step back and on through what was said, the newest first", () => seats(async ({ red, black }) => {
  await run(black, "z");
  await hears(red, /輪到你/);
  await says(red, "t", /^輪到你$/);
  await says(red, "h", /^說明一/);
  let n = (await spoken(red)).length;
  await red.keyboard.press("Alt+ArrowUp");
  assert.match((await hears(red, /^說明一/, n)).text, /^說明一/, "the newest first");
  n = (await spoken(red)).length;
  await red.keyboard.press("Alt+ArrowUp");
  await hears(red, /^輪到你$/, n);
  n = (await spoken(red)).length;
  await red.keyboard.press("Alt+ArrowDown");
  await hears(red, /^說明一.*（最新）$/, n);
}));

test("a dialog empties the live regions (nothing stale to read again as it closes); after resigning the focus is on the command field", () => seats(async ({ red, black }) => {
  await run(black, "z");
  await hears(red, /輪到你/);
  await run(red, "resign");
  await red.locator("#confirm[open]").waitFor();
  assert.deepEqual(await red.evaluate(() => ["live", "live-polite"].map((id) => document.getElementById(id).textContent)), ["", ""]);
  await red.keyboard.press("Escape");
  await red.waitForTimeout(300);
  assert.deepEqual(await red.evaluate(() => ["live", "live-polite"].map((id) => document.getElementById(id).textContent)), ["", ""], "nothing shown again on closing");
  await run(red, "resign");
  await red.locator("#confirm[open]").waitFor();
  // Counted before the click: the end's words may come back before a count taken after it.
  const n = (await spoken(red)).length;
  await red.locator("#confirm-yes").click();
  await hears(red, /^對局結束：你負/, n);
  assert.equal(await red.evaluate(() => document.activeElement.id), "cmd");
  await waitText(red, "#result", "黑方勝");
}));

test("in English: sentences spaced, the notation marked Chinese for the voice; the board's points say the piece first", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const page = await open(chrome, seatAt(server.seats, "red", 1).link, DESK, () => {
      localStorage.setItem("baoqi-lang", "en");
      localStorage.setItem("baoqi-textmode", "1");
    });
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, DESK, "black");
    await waitText(page, "#summary", "You are");
    // Every sentence of the summary ends with a full stop and a space before the next one.
    assert.doesNotMatch(await page.locator("#summary").textContent(), /\.[A-Z]/);
    await run(black, "z");
    await page.waitForFunction(() => document.getElementById("turn").textContent.includes("me"));
    await page.locator("#cmd").fill("b h2e2");
    await page.locator("#cmd").press("Enter");
    await page.waitForFunction(() => document.querySelector('#live-polite span[lang="zh-Hant"]')?.textContent.includes("炮二平五"))
      .catch(async (e) => assert.fail(`${e.message}: ${await page.locator("#live-polite").innerHTML()}`));
    // The graphical board (the text mode off): a point says its piece first, an empty one
    // only where it is.
    await page.locator("#textmode").uncheck();
    assert.equal(await page.locator('#board button[data-pt="e0"]').getAttribute("aria-label"), "red 帥, e0 (file 5)");
    assert.equal(await page.locator('#board button[data-pt="e1"]').getAttribute("aria-label"), "e1");
  } finally {
    await chrome.close();
    server.stop();
  }
});
