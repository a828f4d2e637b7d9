// Every ruling dialog of the referee monitor, each confirmed, logged and its
// effect checked on the players' pages, on a 視障賽 table: start, pause/resume (103–104),
// record and rescind a violation (126), correct a diverging board (7.4(2)(g)(iv)), override
// a 走子檢查 (6.4), adjudicate (70(1)) and verify the result (6.8) — all with the keyboard
// only, from the page's load: no mouse, no focusing by script; the focus visible at every
// stop. axe-core on every page in every state and on each layout of ruling dialog while it is
// open; screenshots under target/screenshots/dialogs-*.

import assert from "node:assert/strict";
import { open, waitText, MONITOR_VIEW } from "./harness.js";
import { eventTest, seatAt, boardMove, sayWords, rule } from "./event.js";
import { expectFocus, tabTo } from "./a11y.js";

const TABLE = 4;
eventTest("dialogs", "each ruling of the monitor, by keyboard only, confirmed, logged and effective", rulings);

/** The text of a side's tally cells on the monitor (技術, 記錄, 按鐘). */
async function tally(mon, side) {
  return mon.locator(`#table-${TABLE} .tally tr`, { hasText: side }).locator("td").allTextContents();
}

async function rulings({ server, chrome, pages }) {
  const { seats } = server;
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, MONITOR_VIEW));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link));
  const black = pages.add("black", await open(chrome, seatAt(seats, "black", TABLE).link));
  await waitText(red, "#who", "蔡一");
  await waitText(mon, "#tables", "裁決 Rulings");
  const card = `#table-${TABLE}`;

  // From the page's load, Tab reaches the tables' tabs first; Enter chooses one and the focus
  // stays on it; the next stops are the other table, the round's start (its games have not
  // started: 95(3)) and the rulings.
  await tabTo(mon, "#tabs button", { max: 1 });
  await expectFocus(mon, `#tabs button[data-table="${TABLE}"]`);
  await mon.keyboard.press("Enter");
  await waitText(mon, "#current", "裁決 Rulings");
  await expectFocus(mon, `#tabs button[data-table="${TABLE}"][aria-pressed="true"]`);
  assert.equal(await tabTo(mon, "#action-buttons button"), 3, "then the other table, the round's start, then the rulings");
  await expectFocus(mon, '#action-buttons button[aria-keyshortcuts="S"]');

  // S: the referee starts the clocks (95(3)-(4)); a dialog without fields: Enter confirms.
  await rule(mon, "s", async () => expectFocus(mon, "#dlg-yes"), { pages, state: "01-dialog-start" });
  await waitText(mon, "#log", "開始棋鐘 — 已接受");
  await waitText(red, "#turn", "輪到紅方（我）");
  await expectFocus(mon, '#action-buttons button[aria-keyshortcuts="S"]');

  // P: pause (103); the open call says who must seal the move. Tab goes on from the rulings
  // into the table's card, to the call's button, which opens the resume ruling (104).
  await rule(mon, "p");
  await waitText(mon, "#log", "暫停對局 — 已接受");
  await waitText(black, "#turn", "（暫停）");
  await waitText(mon, `${card} .calls`, "對局暫停，續着方為紅方");
  await pages.state("02-paused");
  await tabTo(mon, `${card} .calls button[data-action="resume"]`);
  await mon.keyboard.press("Enter");
  await mon.locator("#dlg[open]").waitFor();
  assert.match(await mon.locator("#dlg-summary").textContent(), /續賽/);
  await expectFocus(mon, "#dlg-yes");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#log", "續賽 — 已接受");
  await red.waitForFunction(() => /^輪到紅方（我）$/.test(document.getElementById("turn").textContent));
  // The call is gone with its button: the focus falls back on the table's heading.
  await mon.locator(`${card} .calls button[data-action="resume"]`).waitFor({ state: "detached" });
  await expectFocus(mon, `#h-table-${TABLE}`);

  // V: a clock-press violation recorded against black (126), the lists chosen with the
  // arrow keys; X: rescinded.
  await rule(mon, "v", async (m) => {
    await m.keyboard.press("ArrowDown");
    await m.keyboard.press("Tab");
    await m.keyboard.press("ArrowDown");
    await m.keyboard.press("ArrowDown");
    await m.keyboard.press("Tab");
    await m.keyboard.type("提前按鐘");
    assert.deepEqual(await m.evaluate(() => ["f-side", "f-kind"].map((id) => document.getElementById(id).value)), ["black", "clock"]);
  }, { pages, state: "03-dialog-violation" });
  await waitText(mon, "#log", "黑方違反按棋鐘規則：提前按鐘 — 已接受");
  await waitText(black, "#feed", "違反按棋鐘規則：1／4（經裁判判定：提前按鐘）");
  await waitText(mon, `${card} .tally`, "黑方0／20／41／4");
  assert.deepEqual(await tally(mon, "黑方"), ["0／2", "0／4", "1／4"]);
  await pages.state("04-violation", ["monitor", "black"]);
  await rule(mon, "x", async (m) => {
    await m.keyboard.press("ArrowDown");
    await m.keyboard.press("Tab");
    await m.keyboard.press("End");
  });
  await waitText(mon, "#log", "撤銷黑方一次違反按棋鐘規則 — 已接受");
  await waitText(mon, `${card} .tally`, "黑方0／20／40／4");

  // Red's board shows two moves at once: it differs from the game. B opens the correct-board
  // ruling filled from the open call: the board and the game's placement (7.4(2)(g)(iv)).
  await boardMove(red, "h2e2");
  await boardMove(red, "b2b4");
  await waitText(mon, `${card} .calls`, "視障棋盤與對局不同");
  await pages.state("05-diverging", ["monitor", "red"]);
  await rule(mon, "b", async (m) => {
    await expectFocus(m, "#f-board");
    assert.equal(await m.locator("#f-board").inputValue(), "vi");
    assert.equal(await m.locator("#f-place").inputValue(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
  }, { pages, state: "06-dialog-correct-board" });
  await waitText(mon, "#log", "把視障棋盤修正為 rnbakabnr");
  await waitText(mon, card, "沒有待處理事項");

  // 走子檢查 (a) pending (炮二進四 announced, 炮二平五 on the board): red's clock runs again
  // until the board is put right (6.4(a)). The monitor's clock ticks, yet the card is not
  // redrawn: the 最近呼叫 list opened with the keyboard stays open, the focus stays on it.
  await boardMove(red, "h2e2");
  await sayWords(red, ["炮", "二", "進", "四"]);
  await red.locator("#press").click();
  await waitText(mon, `${card} .calls`, "走子檢查 (a)");
  await tabTo(mon, `${card} details.recent summary`);
  await mon.keyboard.press("Enter");
  await mon.evaluate(() => { window.summary = document.activeElement; });
  const before = await mon.locator(`${card} .clockline`).textContent();
  await mon.waitForTimeout(2200);
  assert.notEqual(await mon.locator(`${card} .clockline`).textContent(), before, "the clock moved");
  assert.ok(await mon.evaluate(() => document.activeElement === window.summary && window.summary.parentElement.open),
    "the same 最近呼叫 list, still open, still focused");
  await pages.state("07-check-a-calls-open", ["monitor"]);
  // O: the referee overrides the check, ruling that the board move stands.
  await rule(mon, "o", async (m) => {
    assert.equal(await m.locator("#f-mv").inputValue(), "h2e2");
  }, { pages, state: "08-dialog-override" });
  await waitText(mon, "#log", "裁定着法 h2e2 成立 — 已接受");
  await waitText(black, "#moves", "炮二平五");
  await waitText(black, "#turn", "輪到黑方（我）");

  // J: adjudication (70(1)): red wins (the list's first choice); the article as given.
  await rule(mon, "j", async (m) => {
    await m.keyboard.press("Tab");
    await m.keyboard.type("黑方無理退出");
    await m.keyboard.press("Tab");
    await m.keyboard.type("70(1)");
  }, { pages, state: "09-dialog-adjudicate" });
  await waitText(mon, "#log", "判紅方勝：黑方無理退出（70(1)） — 已接受");
  await waitText(black, "#result", "1-0");
  await waitText(red, "#turn", "對局結束");
  await waitText(mon, `${card} .calls`, "須口頭核實");
  await pages.state("10-adjudicated");
  // Y: verification (6.8).
  await rule(mon, "y", async (m) => { await m.keyboard.type("雙方確認"); });
  await waitText(mon, card, "已口頭核實");
  await waitText(mon, card, "沒有待處理事項");
}

// The 61 warning due as the arbiter's open call: a rook and a general shuffle until the
// position occurs a 3rd time (預警循環上限); the monitor shows the warning with its exact
// words; W opens the warning ruling filled with them; once given, the call closes and the
// players' pages show it (60, 61(1), 121(2)). Then on the player pages: a draw offered in
// one's turn and declined (69(2)), and a resignation, confirmed in a dialog first (69(1)).
const REP = 5;

eventTest("repetition", "a 61 warning due is given from the monitor; a draw declined; a resignation confirmed", repetition);

async function repetition({ server, chrome, pages: rep }) {
  const { seats } = server;
  const mon = rep.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, MONITOR_VIEW));
  const red = rep.add("red", await open(chrome, seatAt(seats, "red", REP).link));
  const black = rep.add("black", await open(chrome, seatAt(seats, "black", REP).link));
  await waitText(mon, "#tabs", "循環 Repetition");
  await mon.keyboard.press("2");
  await waitText(mon, "#current", "循環 Repetition");
  await black.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  const card = `#table-${REP}`;
  for (let round = 0; round < 2; round++) {
    for (const [page, mv] of [[red, "a1a2"], [black, "e9d9"], [red, "a2a1"], [black, "d9e9"]]) {
      await boardMove(page, mv);
      await page.locator("#press").click();
      await waitText(page, "#answer", "按鐘：已接受");
    }
  }
  await waitText(mon, `${card} .calls`, "須即時警誡「一般循環盤面，雙方不變作和」");
  await waitText(mon, `${card} .calls`, "〔第61(1)條、第121(2)條〕");
  await rep.state("01-warning-due");
  // W, from the keyboard: the words of the due warning are filled in, both sides (61(1)).
  await rule(mon, "w", async (m) => {
    assert.equal(await m.locator("#f-text").inputValue(), "一般循環盤面，雙方不變作和");
    assert.equal(await m.locator("#f-side").inputValue(), "", "61(1) warns both sides");
  }, { pages: rep, state: "02-dialog-warning" });
  await waitText(mon, "#log", "警告雙方「一般循環盤面，雙方不變作和」 — 已接受");
  await waitText(mon, card, "沒有待處理事項");
  await waitText(red, "#banner", "裁判警告雙方：一般循環盤面，雙方不變作和");
  await rep.state("03-warning-given");

  // Red offers a draw in his turn and moves (the offer stands from the end of the turn,
  // 69(2)(b)); black declines it with the page's button.
  await red.locator("#offer").click();
  await waitText(red, "#answer", "提和：已接受");
  await boardMove(red, "a1b1");
  await red.locator("#press").click();
  await waitText(black, "#turn", "輪到黑方（我）");
  await black.locator("#decline:not([disabled])").click();
  await waitText(black, "#answer", "不接受和棋：已接受");
  await waitText(red, "#feed", "黑方不接受提和");
  await black.locator("#decline[disabled]").waitFor({ state: "attached" }); // no offer left to answer

  // Resigning is final (69(1)), so the page asks first, Cancel focused: Escape keeps playing
  // and gives the focus back to 認負; Enter asks again, Shift+Tab to 確定, Enter resigns.
  await tabTo(black, "#resign");
  await black.keyboard.press("Enter");
  await black.locator("#confirm[open]").waitFor();
  await expectFocus(black, "#confirm button[value=no]");
  await rep.state("04-resign-confirm", ["black"]);
  await black.keyboard.press("Escape");
  await black.locator("#confirm:not([open])").waitFor({ state: "attached" });
  await expectFocus(black, "#resign");
  assert.equal(await black.locator("#result").textContent(), "", "cancelled: the game goes on");
  assert.ok(await black.locator("#downloads").isHidden(), "no game record to download during the game");
  await black.keyboard.press("Enter");
  await black.locator("#confirm[open]").waitFor();
  await tabTo(black, "#confirm-yes", { max: 1, back: true });
  await black.keyboard.press("Enter");
  await waitText(black, "#answer", "認負：已接受");
  await waitText(red, "#result", "1-0");
  await waitText(mon, card, "黑方認負");
  // After the game each player can save it for the software he opens games in.
  for (const page of [red, black]) {
    await waitText(page, "#downloads", "下載棋譜：PGN · XQF（象棋演播室） · CBF（象棋橋） · DhtmlXQ（東萍）");
    const hrefs = await page.locator("#downloads a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    assert.deepEqual(hrefs, ["game.pgn", "game.xqf", "game.cbf", "game.dhtmlxq"].map((f) => `/api/tables/${REP}/${f}`));
    const statuses = await page.evaluate((urls) => Promise.all(urls.map((u) => fetch(u).then((r) => r.status))), hrefs);
    assert.deepEqual(statuses, [200, 200, 200, 200]);
  }
  await rep.state("05-resigned", ["black", "red"]);
}
