// A dead connection must not look alive: with the server frozen (SIGSTOP:
// its sockets stay open, nothing is answered), every page said 已連線 and the clocks kept
// counting. Missed pongs now mark the page 正在重新連線 and stop its clocks where they were,
// until it has reconnected and the state (with the clocks) is fresh again.

import assert from "node:assert/strict";
import { MONITOR_VIEW, open, waitText } from "./harness.js";
import { eventTest, seatAt } from "./event.js";

const TABLE = 7;

eventTest("liveness", "a frozen server: the page says it is reconnecting and its clocks stop", run);

/** The running clock's text on a page (red's, once black has started the clocks). */
const redClock = (page) => page.locator("#clocks .clock").first().textContent();

async function run({ server, chrome, pages }) {
  const card = pages.add("card", await open(chrome, seatAt(server.seats, "black", TABLE).link, { width: 1024, height: 768 }));
  const mon = pages.add("monitor", await open(chrome, seatAt(server.seats, "referee", TABLE).link, { width: 1920, height: 1080 }));
  await waitText(card, "#status", "已連線");
  await card.locator("#press").click();
  await waitText(card, "#turn", "輪到紅方");
  await card.waitForTimeout(1200);

  server.freeze(true);
  try {
    for (const page of [card, mon]) await waitText(page, "#status", "正在重新連線", 16000);
    assert.ok(await card.evaluate(() => document.body.classList.contains("offline")));
    const stopped = await redClock(card);
    await card.waitForTimeout(2200);
    assert.equal(await redClock(card), stopped, "the clock stands still while the server is silent");
    await pages.state("01-frozen");
  } finally {
    server.freeze(false);
  }
  for (const page of [card, mon]) await waitText(page, "#status", "已連線", 16000);
  const again = await redClock(card);
  await card.waitForTimeout(2200);
  assert.notEqual(await redClock(card), again, "the clock runs again once the state is fresh");
}

eventTest("restart", "after a server restart no clock runs and the card UI says why", restart);

/** The server killed in red's turn and started again: the card UI showed
 * 暫停 yet ◀ 走, and red's clock went on counting down. A restart is not an adjournment:
 * both clocks stop until the referee resumes. */
async function restart({ server, chrome, pages }) {
  const card = pages.add("card", await open(chrome, seatAt(server.seats, "black", TABLE).link, { width: 1024, height: 768 }));
  await waitText(card, "#status", "已連線");
  await card.locator("#press").click();
  await waitText(card, "#turn", "輪到紅方");
  await card.waitForTimeout(1200);
  await server.crash();
  await waitText(card, "#status", "正在重新連線", 8000);
  await server.restart();
  await waitText(card, "#status", "已連線", 16000);
  await waitText(card, "#turn", "暫停");
  assert.equal(await card.locator("#clocks .clock.running").count(), 0, "no clock is marked running");
  const after = await redClock(card);
  await card.waitForTimeout(2200);
  assert.equal(await redClock(card), after, "red's clock stands still until the referee resumes");
  await waitText(card, "#feed", "伺服器重新啟動");
  await waitText(card, "#banner.on", "伺服器重新啟動。雙方棋鐘停止，等候裁判續賽");
  // The referee's monitor lists the restart as an open call with its Resume button; a
  // call no article names shows no empty 〔〕 after its words.
  const mon = pages.add("monitor", await open(chrome, seatAt(server.seats, "referee", TABLE).link, MONITOR_VIEW));
  const call = mon.locator("li.call", { hasText: "伺服器" });
  await call.waitFor();
  assert.doesNotMatch(await call.textContent(), /〔\s*〕/);
  await pages.state("01-restarted");
}
