// The web clients in a real browser against a real `baoqi serve --demo` (issue 8): a whole
// 共融賽 game (table 2: 王芳, VI, red, on the player page; 趙強, deaf, black, on the card UI)
// with the referee monitor and a spectator; a draw offered and declined by cards, a
// 走子檢查 (a) ruled on the monitor, a resignation by card; axe-core on every page in every
// state reached; keyboard-only use of the monitor and the board; screenshots.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startServer, seat, browser, open, axe, shot, holdPointer, holdKey, waitText,
} from "./harness.js";

let server;
let chrome;
const violations = [];
const pages = {};

before(async () => {
  server = await startServer();
  chrome = await browser();
});

after(async () => {
  await chrome?.close();
  server?.stop();
});

/** axe on every open page, in the state it is in now. */
async function axeAll(state) {
  // Side by side: each page has its own renderer.
  const found = await Promise.all(Object.entries(pages).map(([name, page]) => axe(page, `${name} / ${state}`)));
  violations.push(...found.flat());
}

async function shots(state) {
  await Promise.all(Object.entries(pages).map(([name, page]) => shot(page, `${name}-${state}`)));
}

/** Clicks the board point `pt` on a page (a visual board's button). */
async function point(page, pt, scope = "#board") {
  await page.locator(`${scope} button[data-pt="${pt}"]`).click();
}

async function move(page, mv, scope) {
  await point(page, mv.slice(0, 2), scope);
  await point(page, mv.slice(2, 4), scope);
}

async function words(page, list) {
  for (const w of list) {
    await page.locator(`#keys button[data-word="${w}"]`).click();
    await waitText(page, "#answer", `報「${w}」：已接受`);
  }
}

/** Snapshot-level facts read from the page's own rendering. */
async function turnText(page) {
  return page.locator("#turn").textContent();
}

test("a 共融賽 game across the card UI, the player page and the referee monitor", async () => {
  try {
    await game();
  } catch (e) {
    await shots("failed");
    for (const [name, page] of Object.entries(pages)) {
      const feed = await page.locator("#feed, #log").first().textContent().catch(() => "");
      console.error(`--- ${name} feed:\n${feed.slice(0, 1500)}`);
    }
    throw e;
  }
});

async function game() {
  const { base, seats } = server;
  const red = seat(seats, "red", 2);
  const black = seat(seats, "black", 2);
  const referee = seat(seats, "referee");
  const spectator = seat(seats, "spectator");

  // The monitor, the two seats and a spectator join with their links.
  pages.monitor = await open(chrome, referee.link, { width: 1400, height: 1000 });
  pages.player = await open(chrome, red.link);
  pages.card = await open(chrome, black.link, { width: 1024, height: 1366 });
  pages.watch = await open(chrome, spectator.link.replace("#", "#table=2&"));
  // The deaf player's seat link opens the card UI.
  await pages.card.waitForURL(/\/card#token=/);
  await waitText(pages.card, "#who", "趙強");
  await waitText(pages.player, "#who", "王芳");
  await waitText(pages.monitor, "#tables", "共融賽");
  await waitText(pages.card, "#turn", "未開鐘");
  await axeAll("start");
  await shots("01-start");

  // Keyboard only on the monitor: table 2 chosen with its shortcut, the shortcut list opened.
  const mon = pages.monitor;
  await mon.keyboard.press("2");
  await waitText(mon, "#current", "共融賽");
  await mon.keyboard.press("?");
  assert.equal(await mon.locator("#keys-help").getAttribute("open"), "");
  // Tab order: the first stops are the table tabs, then the ruling buttons.
  await mon.locator("body").focus();
  await mon.keyboard.press("Tab");
  assert.match(await mon.evaluate(() => document.activeElement.textContent), /^1\. /);

  // Black presses the clock: the clocks start, red to move (95(3)).
  await pages.card.locator("#press").click();
  await waitText(pages.card, "#turn", "輪到紅方");
  await waitText(pages.player, "#turn", "輪到紅方（我）");

  // Red moves 炮二平五 on the board by keyboard only (arrow keys, Enter), then announces.
  const pl = pages.player;
  await pl.locator('#board button[data-pt="e0"]').focus();
  for (const k of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp"]) await pl.keyboard.press(k);
  assert.equal(await pl.evaluate(() => document.activeElement.dataset.pt), "h2");
  await pl.keyboard.press("Enter");
  for (const k of ["ArrowLeft", "ArrowLeft", "ArrowLeft"]) await pl.keyboard.press(k);
  await pl.keyboard.press("Enter");
  await waitText(pl, "#answer", "走子 h2e2：已接受");
  await words(pl, ["炮", "二"]);
  // Each word is shown back, bound, with the parser's verdict.
  await waitText(pl, "#words", "炮");
  await waitText(pl, "#verdict", "可能的着法");
  // The deaf opponent sees each word as it comes.
  await waitText(pages.card, "#heard-words", "炮");
  await axeAll("announcing");
  await shots("02-announcing");
  await words(pl, ["平", "五"]);
  await waitText(pages.card, "#heard-move", "炮二平五");
  await pl.locator("#press").click();
  await waitText(pl, "#moves", "炮二平五");
  await waitText(pages.watch, "#moves", "炮二平五");

  // Black mirrors red's move on the regular board and confirms on the card UI (7.4(2)(g)(ii)).
  const cd = pages.card;
  await waitText(cd, "#turn", "輪到黑方（我）");
  await cd.locator("#confirm-repeat").waitFor({ state: "visible" });
  await shots("03-mirror-due");
  await move(cd, "h2e2");
  await waitText(cd, "#answer", "走子 h2e2：已接受");
  await cd.locator("#confirm-repeat").click();
  await waitText(cd, "#answer", "確認對手着法：已接受");

  // Black moves, signals for the referee to announce (7.4(2)(d)), the referee announces
  // from the monitor (keyboard only), black presses the clock.
  await move(cd, "h9g7");
  await waitText(cd, "#answer", "走子 h9g7：已接受");
  await cd.locator("#signal").click();
  await waitText(cd, "#answer", "請代為報棋：已接受");
  await waitText(mon, "#table-2", "代為報棋");
  await axeAll("signalled");
  await shots("04-signalled");
  await mon.locator("body").focus();
  await mon.keyboard.press("a");
  await mon.locator("#dlg[open]").waitFor();
  await mon.keyboard.type("馬 8 進 7");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#answer", "已接受");
  await waitText(cd, "#heard-move", "馬８進７");
  await cd.locator("#press").click();
  await waitText(pl, "#moves", "馬８進７");
  await waitText(pl, "#turn", "輪到紅方（我）");

  // Red mirrors on the VI board and confirms the repeat.
  await move(pl, "h9g7");
  await pl.locator("#confirm-repeat").click();
  await waitText(pl, "#answer", "確認複讀：已接受");

  // A draw offered and declined by cards: red hands the draw card in its turn, moves,
  // announces, presses; black's card UI shows the card arriving and returns it (a hold).
  await pl.locator("#offer").click();
  await waitText(pl, "#answer", "提和：已接受");
  await cd.locator('#received [data-card="red-draw"]').waitFor();
  await waitText(cd, "#banner", "紅方交來提和卡");
  await move(pl, "h0g2");
  await words(pl, ["馬", "二", "進", "三"]);
  await pl.locator("#press").click();
  await waitText(pl, "#moves", "傌二進三");
  await waitText(mon, "#table-2", "紅方提和（已生效）");
  await axeAll("draw-offered");
  await shots("05-draw-offered");
  await holdPointer(cd, '#received [data-card="red-draw"]');
  await waitText(cd, "#answer", "交還提和卡（不接受和棋）：已接受");
  await waitText(pl, "#feed", "不接受提和");
  await waitText(cd, "#received", "沒有卡牌");

  // Black mirrors, moves 車９平８ (i9h9) with the referee announcing, presses.
  await move(cd, "h0g2");
  await cd.locator("#confirm-repeat").click();
  await move(cd, "i9h9");
  await cd.locator("#signal").click();
  await mon.locator("body").focus();
  await mon.keyboard.press("a");
  await mon.keyboard.type("車 9 平 8");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#log", "車 9 平 8");
  await cd.locator("#press").click();
  await waitText(pl, "#moves", "車９平８");

  // 走子檢查 (a): red moves 俥一進一 on the board but announces 俥九進一 (legal): the board
  // must be corrected to the announcement; the referee confirms on the monitor (keyboard).
  await move(pl, "i9h9");
  await pl.locator("#confirm-repeat").click();
  await waitText(pl, "#answer", "確認複讀：已接受");
  await move(pl, "i0i1");
  await words(pl, ["車", "九", "進", "一"]);
  await pl.locator("#press").click();
  await waitText(mon, "#table-2", "走子檢查 (a)");
  await axeAll("check-a");
  await shots("06-check-a");
  // The referee has the VI board put right and confirms the check: the announced move stands.
  await mon.locator("body").focus();
  await mon.keyboard.press("k");
  await mon.locator("#dlg[open]").waitFor();
  await mon.keyboard.press("Enter");
  await waitText(mon, "#log", "確認走子檢查結果：棋盤已修正至 a0a1 — 已接受");
  await waitText(pl, "#moves", "俥九進一");

  // A resignation by card (keyboard hold): final at once.
  await holdKey(cd, '#mine [data-card="black-resign"]');
  await waitText(cd, "#answer", "交出認負卡（認負）：已接受");
  await waitText(pl, "#turn", "對局結束");
  await waitText(mon, "#table-2", "1-0");
  await waitText(pl, "#feed", "黑方的認負卡交給紅方");

  // The referee records the oral verification and opens the scoresheet (keyboard).
  await mon.locator("body").focus();
  await mon.keyboard.press("y");
  await mon.keyboard.type("雙方口頭確認紅勝");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#table-2", "已口頭核實");
  await mon.keyboard.press("r");
  await waitText(mon, "#sheet", "炮二平五");
  assert.equal(await mon.evaluate(() => document.activeElement.id), "h-sheet");
  const sheet = await (await fetch(`${base}/api/tables/2/scoresheet.txt`)).text();
  assert.match(sheet, /炮二平五/);

  // The spectator's text-first mode answers board commands.
  const w = pages.watch;
  await w.locator("#textmode").check();
  await w.locator("#cmd").fill("f e");
  await w.keyboard.press("Enter");
  await waitText(w, "#cmdout", "e 線");
  await w.locator("#cmd").fill("c");
  await w.keyboard.press("Enter");
  await waitText(w, "#cmdout", "紅方");
  await axeAll("over");
  await shots("07-over");

  for (const [name, page] of Object.entries(pages)) {
    assert.deepEqual(page.errors, [], `${name} page errors`);
  }
  assert.deepEqual(violations, [], `axe violations:\n${violations.join("\n")}`);
}
