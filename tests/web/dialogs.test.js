// Every ruling dialog of the referee monitor (SPEC §10), each confirmed, logged and its
// effect checked on the players' pages, on a 視障賽 table: start, pause/resume (103–104),
// record and rescind a violation (126), correct a diverging board from its open call
// (7.4(2)(g)(iv)), override a 走子檢查 (6.4), adjudicate (70(1)) and verify the result (6.8).
// axe-core on every page in every state; screenshots under target/screenshots/dialogs-*.

import assert from "node:assert/strict";
import { open, waitText } from "./harness.js";
import { eventTest, seatAt, boardMove, sayWords, rule } from "./event.js";

const TABLE = 4;
eventTest("dialogs", "each ruling of the monitor, confirmed, logged and effective", rulings);

/** The text of a side's tally cells on the monitor (技術, 記錄, 按鐘). */
async function tally(mon, side) {
  return mon.locator(`#table-${TABLE} .tally tr`, { hasText: side }).locator("td").allTextContents();
}

async function rulings({ server, chrome, pages }) {
  const { seats } = server;
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, { width: 1400, height: 1000 }));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link));
  const black = pages.add("black", await open(chrome, seatAt(seats, "black", TABLE).link));
  await waitText(red, "#who", "蔡一");
  await waitText(mon, "#tables", "裁決 Rulings");
  await mon.locator("body").focus();
  await mon.keyboard.press("1");
  await waitText(mon, "#current", "裁決 Rulings");
  const card = `#table-${TABLE}`;

  // S: the referee starts the clocks (95(3)-(4)).
  await rule(mon, "s");
  await waitText(mon, "#log", "開始棋鐘 — 已接受");
  await waitText(red, "#turn", "輪到紅方（我）");

  // P: pause (103); the open call says who must seal the move; its button resumes (104).
  await rule(mon, "p");
  await waitText(mon, "#log", "暫停對局 — 已接受");
  await waitText(black, "#turn", "（暫停）");
  await waitText(mon, `${card} .calls`, "對局暫停，續着方為紅方");
  await pages.state("01-paused");
  await mon.locator(`${card} .calls button[data-action="resume"]`).click();
  await mon.locator("#dlg[open]").waitFor();
  assert.match(await mon.locator("#dlg-summary").textContent(), /續賽/);
  await mon.locator("#dlg-yes").click();
  await waitText(mon, "#log", "續賽 — 已接受");
  await red.waitForFunction(() => /^輪到紅方（我）$/.test(document.getElementById("turn").textContent));

  // V: a clock-press violation recorded against black (126); X: rescinded.
  await rule(mon, "v", async (m) => {
    await m.locator("#f-side").selectOption("black");
    await m.locator("#f-kind").selectOption("clock");
    await m.locator("#f-note").fill("提前按鐘");
  });
  await waitText(mon, "#log", "黑方違反按棋鐘規則：提前按鐘 — 已接受");
  await waitText(black, "#feed", "違反按棋鐘規則：1／4（提前按鐘）");
  await waitText(mon, `${card} .tally`, "黑方0／20／41／4");
  assert.deepEqual(await tally(mon, "黑方"), ["0／2", "0／4", "1／4"]);
  await pages.state("02-violation", ["monitor", "black"]);
  await rule(mon, "x", async (m) => {
    await m.locator("#f-side").selectOption("black");
    await m.locator("#f-kind").selectOption("clock");
  });
  await waitText(mon, "#log", "撤銷黑方一次違反按棋鐘規則 — 已接受");
  await waitText(mon, `${card} .tally`, "黑方0／20／40／4");

  // Red's board shows two moves at once: it differs from the game. The open call's button
  // opens the correct-board ruling with the board and the game's placement filled in.
  await boardMove(red, "h2e2");
  await boardMove(red, "b2b4");
  await waitText(mon, `${card} .calls`, "視障棋盤與對局不同");
  await pages.state("03-diverging", ["monitor", "red"]);
  await mon.locator(`${card} .calls button[data-action="correct_board"]`).click();
  await mon.locator("#dlg[open]").waitFor();
  assert.equal(await mon.locator("#f-board").inputValue(), "vi");
  assert.equal(await mon.locator("#f-place").inputValue(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
  await pages.state("04-correct-dialog", ["monitor"]);
  await mon.locator("#dlg-yes").click();
  await waitText(mon, "#log", "把視障棋盤修正為 rnbakabnr");
  await waitText(mon, card, "沒有待處理事項");

  // 走子檢查 (a) pending (炮二進四 announced, 炮二平五 on the board); O: the referee
  // overrides it, ruling that the board move stands.
  await boardMove(red, "h2e2");
  await sayWords(red, ["炮", "二", "進", "四"]);
  await red.locator("#press").click();
  await waitText(mon, `${card} .calls`, "走子檢查 (a)");
  await rule(mon, "o", async (m) => {
    assert.equal(await m.locator("#f-mv").inputValue(), "h2e2");
  });
  await waitText(mon, "#log", "裁定着法 h2e2 成立 — 已接受");
  await waitText(black, "#moves", "炮二平五");
  await waitText(black, "#turn", "輪到黑方（我）");

  // J: adjudication (70(1)): red wins; the pages show the result; Y: verification (6.8).
  await rule(mon, "j", async (m) => {
    await m.locator("#f-res").selectOption("red");
    await m.locator("#f-reason").fill("黑方無理退出");
    await m.locator("#f-art").fill("70(1)");
  });
  await waitText(mon, "#log", "判紅方勝：黑方無理退出（70(1)） — 已接受");
  await waitText(black, "#result", "1-0");
  await waitText(red, "#turn", "對局結束");
  await waitText(mon, `${card} .calls`, "須口頭核實");
  await pages.state("05-adjudicated");
  await rule(mon, "y", async (m) => { await m.locator("#f-note").fill("雙方確認"); });
  await waitText(mon, card, "已口頭核實");
  await waitText(mon, card, "沒有待處理事項");
}

// The 61 warning due as the arbiter's open call: a rook and a general shuffle until the
// position occurs a 3rd time (預警循環上限); the monitor shows the warning with its exact
// words; its button opens the warning ruling filled with them; once given, the call closes
// and the players' pages show it (60, 61(1), 121(2)).
const REP = 5;

eventTest("repetition", "a 61 warning due is given from the monitor's open call", repetition);

async function repetition({ server, chrome, pages: rep }) {
  const { seats } = server;
  const mon = rep.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, { width: 1400, height: 1000 }));
  const red = rep.add("red", await open(chrome, seatAt(seats, "red", REP).link));
  const black = rep.add("black", await open(chrome, seatAt(seats, "black", REP).link));
  await waitText(mon, "#tables", "循環 Repetition");
  await mon.locator("body").focus();
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
  await waitText(mon, `${card} .calls`, "須即時警誡");
  await waitText(mon, `${card} .calls`, "須即時警誡「一般循環盤面，雙方不變作和」");
  await waitText(mon, `${card} .calls`, "〔61(1), 121(2)〕");
  await rep.state("01-warning-due");
  await mon.locator(`${card} .calls button[data-action="issue_warning"]`).click();
  await mon.locator("#dlg[open]").waitFor();
  assert.equal(await mon.locator("#f-text").inputValue(), "一般循環盤面，雙方不變作和");
  assert.equal(await mon.locator("#f-side").inputValue(), "", "61(1) warns both sides");
  await mon.locator("#dlg-yes").click();
  await waitText(mon, "#log", "警告雙方「一般循環盤面，雙方不變作和」 — 已接受");
  await waitText(mon, card, "沒有待處理事項");
  await waitText(red, "#banner", "裁判警告雙方：一般循環盤面，雙方不變作和");
  await rep.state("02-warning-given");
}
