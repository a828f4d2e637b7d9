// The seat page's text mode (文字模式（讀屏器）), the one labelled for
// screen readers, must make a move at a table that expects the move on the player's board.
// Today it hides the board, the only way to report the board move, and 按鐘 says nothing:
// four presses lost a game in 6 s (走子未完成便按鐘). The demo's 視障賽 red seat, keyboard
// only: a press before the board move asks first (Cancel focused, nothing sent);
// the words typed, the board move typed in ICCS, the press: the move is played.

import { test } from "node:test";
import assert from "node:assert/strict";
import { axe, browser, open, shot, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Runs `body({ server, chrome, red, black })` against its own demo server and Chromium;
 * `red` and `black` are the links of the demo's 視障賽 seats. */
async function onDemo(body) {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const [red, black] = ["red", "black"].map((role) => seatAt(server.seats, role, 1).link);
    await body({ server, chrome, red, black });
  } finally {
    await chrome.close();
    server.stop();
  }
}

/** Red's seat page in the text mode, at `view`. */
const textPage = (chrome, link, view = DESK) => open(chrome, link, view, () => localStorage.setItem("baoqi-textmode", "1"));

/** Black starts the clocks from his page; red's page says it is his turn. */
async function start(pl, bl) {
  await bl.locator("#press").click();
  await waitText(pl, "#turn", "輪到紅方（我）");
}

/** Types the words one by one in the word field, each acknowledged. */
async function typeWords(pl, words) {
  for (const w of words) {
    await pl.locator("#typed-word").fill(w);
    await pl.keyboard.press("Enter");
    await waitText(pl, "#answer", `報「${w}」：已接受`);
  }
}

/** Types a board move (ICCS) in the text mode's field, acknowledged as `mv`. */
async function typeMove(pl, typed, mv = typed) {
  await pl.locator("#textmove-mv").fill(typed);
  await pl.keyboard.press("Enter");
  await waitText(pl, "#answer", new RegExp(`走子 ${mv}（.+）：已接受`));
}

test("text mode: a blind player makes a whole move without the board, and an early press asks first", () => onDemo(async ({ chrome, red, black }) => {
    const pl = await textPage(chrome, red);
    const bl = await open(chrome, black, DESK);
    await waitText(pl, "#turn", "未開鐘");
    assert.equal(await pl.locator("#board").isHidden(), true, "the text mode hides the board");
    assert.equal(await pl.locator("#textmove").isVisible(), true, "…not the board move");
    await start(pl, bl);

    // An early press: asked first, with what is owed; Cancel (focused) sends nothing.
    await pl.locator("#press").focus();
    await pl.keyboard.press("Enter");
    await waitText(pl, "#confirm-text", "你尚未在棋盤走子及報棋：現在按鐘會被記違反按棋鐘規則");
    assert.equal(await pl.evaluate(() => document.activeElement.textContent), "取消");
    assert.deepEqual(await axe(pl, "text mode early press"), []);
    await shot(pl, "textmode-early-press");
    await pl.keyboard.press("Enter");
    await pl.locator("#confirm").waitFor({ state: "hidden" });

    // The words, typed one by one; the board move typed in ICCS; the press.
    await typeWords(pl, ["炮", "二", "平", "五"]);
    await typeMove(pl, "h2 e2", "h2e2");
    await pl.locator("#press").focus();
    await pl.keyboard.press("Enter");
    await waitText(pl, "#answer", "按鐘：已接受");
    assert.equal(await pl.locator("#confirm[open]").count(), 0, "nothing owed: no question");
    await waitText(pl, "#moves", "炮二平五");
    const tallies = await pl.locator("body").textContent();
    assert.doesNotMatch(tallies, /違反按棋鐘規則：[1-9]/, "no clock violation");
    // The time asked with `c`: the arbiter's report through query_time,
    // the side to move first (6.5(2)): black is to move now.
    await pl.locator("#cmd").fill("c");
    await pl.keyboard.press("Enter");
    await waitText(pl, "#feed", "時間：黑方");
    await waitText(pl, "#live, #live-polite", "時間：對手"); // said to him: his opponent (to move) first
    // A typing slip is said, not sent.
    await pl.locator("#textmove-mv").fill("炮二");
    await pl.keyboard.press("Enter");
    await waitText(pl, "#live", "請以 ICCS 輸入走子");
    // Resigning by keyboard (asked first, Cancel focused): the focus is not lost with the
    // buttons the end of the game disables (WCAG 2.4.3), it is in the command field (the
    // end is said by the live region; an empty result line would be silence).
    await pl.locator("#resign").focus();
    await pl.keyboard.press("Enter");
    await waitText(pl, "#confirm-text", "認負即時生效");
    await pl.keyboard.press("Shift+Tab");
    assert.equal(await pl.evaluate(() => document.activeElement.textContent), "確定");
    await pl.keyboard.press("Enter");
    await waitText(pl, "#result", "認負");
    assert.equal(await pl.evaluate(() => document.activeElement.id), "cmd", "the focus in the command field");
    assert.deepEqual([...pl.errors, ...bl.errors], []);
}));

// Joining says where the player stands (once, the focus in the command field), and so
// does every reconnect: whose turn (in the second person), a repeat owed, the last move made
// meanwhile, both times (his first), his seat and his opponent. Today the page says only
// 「已連線」.
test("text mode: joining and reconnecting say the turn, the last move, the times and the opponent", () => onDemo(async ({ server, chrome, red, black }) => {
    const pl = await textPage(chrome, red, PHONE);
    await waitText(pl, "#summary", "未開鐘：黑方按鐘後由你先走。你的時間 30 分鐘，對手 30 分鐘。你是紅方李明，對手黑方張華。");
    assert.equal(await pl.evaluate(() => document.activeElement.id), "cmd", "the focus in the command field");
    await waitText(pl, "#live-polite", "未開鐘");
    const bl = await open(chrome, black, DESK);
    await waitText(bl, "#summary", "你是黑方張華，對手紅方李明。");
    await start(pl, bl);
    await typeWords(pl, ["炮", "二", "平", "五"]);
    await typeMove(pl, "h2e2");
    await pl.locator("#press").click();
    await waitText(pl, "#answer", "按鐘：已接受");
    // The server goes down and comes back: the page, reconnected, says where things stand.
    await server.crash();
    await server.restart();
    // Said (the polite region), not only shown: the summary is kept current unsaid.
    await waitText(pl, "#live-polite", "上一着：紅方 炮二平五", 20000);
    const said = await pl.locator("#summary").textContent();
    // The server's restart paused the game: said first, as the keypad says it (summary.paused).
    assert.match(said, /^對局暫停。輪到對手/, said);
    assert.ok(said.slice(0, 40).includes("上一着"), `the last move within the first 40 characters: ${said}`);
    assert.deepEqual(await axe(pl, "text mode summary"), []);
    await shot(pl, "textmode-reconnected-phone");
    assert.deepEqual(pl.errors.filter((e) => !/WebSocket|ERR_CONNECTION/.test(e)), []);
}));

// One voice at a time. Screen readers may drop queued polite speech when
// an assertive change comes (WAI-ARIA 1.2); an impossible word is said politely (the word)
// and at once assertively (the refusal). The polite words given just before go with the
// assertive message, after its own, and the polite region is emptied: nothing is said in
// both regions, nothing is lost.
test("text mode: an impossible word is one assertive message, nothing left in the polite region", () => onDemo(async ({ chrome, red, black }) => {
    const pl = await textPage(chrome, red);
    const bl = await open(chrome, black, DESK);
    await waitText(pl, "#summary", "未開鐘");
    await start(pl, bl);
    // Every change of the two regions, with its time.
    await pl.evaluate(() => {
      window.spoken = [];
      for (const id of ["live", "live-polite"]) {
        const node = document.getElementById(id);
        new MutationObserver(() => window.spoken.push({ id, at: performance.now(), text: node.textContent.trim() }))
          .observe(node, { childList: true, characterData: true, subtree: true });
      }
    });
    // Red's cannons stand on files 二 and 八: 炮五 cannot be any move (6.3(6)(b)).
    for (const w of ["炮", "五"]) {
      await pl.locator("#typed-word").fill(w);
      await pl.keyboard.press("Enter");
      await pl.waitForTimeout(300);
    }
    await pl.waitForFunction(() => window.spoken.some((s) => s.text.includes("不可能")));
    await pl.waitForTimeout(800);
    const spoken = (await pl.evaluate(() => window.spoken)).filter((s) => s.text);
    const about = spoken.filter((s) => s.text.includes("五"));
    assert.ok(about.length >= 1, JSON.stringify(spoken));
    // The word 五 and its refusal: said in one region only, the assertive one, once.
    const regions = new Set(about.map((s) => s.id));
    assert.deepEqual([...regions], ["live"], JSON.stringify(spoken));
    assert.ok(about.at(-1).text.startsWith("報「五」") || about.at(-1).text.includes("不可能"), JSON.stringify(about));
    assert.equal(await pl.locator("#live-polite").textContent(), "", "the polite region emptied");
}));

/** The places where the text board's lines part a piece from its point: every rank item
 * (「a9 黑車」) and every kind with its points (「炮：b2 h2」) must lie on one line of the page,
 * as a braille display shows a line; and how many of each were measured. */
function partedOnTheBoard() {
  const root = document.getElementById("textboard");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const parted = [];
  let items = 0;
  let kinds = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const [re, count] of [[/[a-i]\d [\u4e00-\u9fff]+/g, () => items++], [/[^\s。，：]+：[a-i]\d(?: [a-i]\d)*/g, () => kinds++]]) {
      for (const m of node.data.matchAll(re)) {
        count();
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) parted.push(m[0]);
      }
    }
  }
  return { parted, items, kinds };
}

test("text board: a line never parts a piece from its point, even on a phone", () => onDemo(async ({ chrome, red }) => {
  const pl = await textPage(chrome, red, PHONE);
  await pl.locator("#textboard li").first().waitFor();
  const { parted, items, kinds } = await pl.evaluate(partedOnTheBoard);
  // The opening position: 32 pieces on the ranks, 14 kinds (7 a side) in the pieces list.
  assert.equal(items, 32, "every piece on the ranks was measured");
  assert.equal(kinds, 14, "every kind of the pieces list was measured");
  assert.deepEqual(parted, [], "parted across two lines");
  await shot(pl, "textmode-textboard-phone");
}));
