// The screens of a tournament day, as the organiser saw them fail.
// The monitor: the event-wide monitor of 144 tables over four rounds showed round 1 first, the
// current round below the fold; on a tablet and a phone the selected table's detail was
// thousands of pixels down and a tap did not bring it into view; at 390 px the page was
// wider than the screen. The calls: a call's banner stayed after the call was settled at a table
// not selected; a lost connection showed only as small red text while the tiles kept frozen
// clocks running. (The hall screen's test is hall_screen.test.js.) No axe violation in any
// state.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { baoqiBin, open, scratchDir, startServer, waitText } from "./harness.js";
import { eventTest, seatAt } from "./event.js";

const HALL = { width: 1920, height: 1080 };
const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };
const ROUNDS = 4;
const PER_ROUND = 36;
const PLACEHOLDER = "http://baoqi.invalid";

/** An event of 144 tables, 36 a round over four rounds, with one event-wide referee (a
 * seat that lists no table follows every table of the event, those added later too). */
function bigEvent() {
  const tables = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (let k = 1; k <= PER_ROUND; k++) {
      tables.push(`[[tables]]
round = ${r}
name = "第${r}輪 第${k}台"
red = "紅${r}-${k}"
black = "黑${r}-${k}"

[tables.match]
kind = "part6"
red = { name = "紅${r}-${k}", categories = ["blind"] }
black = { name = "黑${r}-${k}", categories = ["blind"] }
`);
    }
  }
  const text = `name = "百四台 144 tables"\nspectators = 0\n\n[[referees]]\nname = "總裁判"\n\n${tables.join("\n")}`;
  const file = join(scratchDir("baoqi-screens-"), "big.toml");
  writeFileSync(file, text);
  return file;
}

/** The table id of round `r`'s `k`th table. */
const tableOf = (r, k) => (r - 1) * PER_ROUND + k;

/** Whether `selector` lies wholly within the page's screen as it is scrolled now. */
function inView(page, selector) {
  return page.evaluate((s) => {
    const e = document.querySelector(s);
    if (!e) return false;
    const b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= -1 && b.bottom <= innerHeight + 1 && b.left >= -1 && b.right <= innerWidth + 1;
  }, selector);
}

/** Waits until `selector` is in view (a smooth scroll takes its time). */
async function waitInView(page, selector, what) {
  await page.waitForFunction((s) => {
    const e = document.querySelector(s);
    if (!e) return false;
    const b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= -1 && b.bottom <= innerHeight + 1;
  }, selector, { timeout: 4000 }).catch(() => {});
  const box = await page.evaluate((s) => JSON.stringify(document.querySelector(s)?.getBoundingClientRect()), selector);
  assert.ok(await inView(page, selector), `${what}: ${selector} is in view (${box}, ${JSON.stringify(page.viewportSize())})`);
}

/** Whether the page scrolls sideways. */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);

/** The ids of the tiles shown. */
const shownTiles = (page) => page.evaluate(() =>
  [...document.querySelectorAll("#tabs .tile")].filter((b) => b.offsetParent !== null).map((b) => Number(b.dataset.table)));

/** Starts the clocks of a table (black presses, 6.2). */
async function startClocks(chrome, seats, table) {
  const black = await open(chrome, seatAt(seats, "black", table).link);
  await black.locator("#press:not([disabled])").click();
  await waitText(black, "#turn", "輪到紅方");
  await black.context().close();
}

/** Red resigns on his page (the result then waits for the referee's oral verification, 6.8);
 * the page stays open until `seen()` has seen the call. */
async function resign(chrome, link, seen) {
  const red = await open(chrome, link);
  await waitText(red, "#status", "已連線");
  await red.locator("#resign").click();
  await red.locator("#confirm-yes").click();
  await seen();
  await red.context().close();
}

let db = null;
/** The 144-table event served; its database is kept to add a table while it runs. */
function startBig() {
  const file = bigEvent();
  return startServer({
    demo: false,
    prepare: (bin, path) => {
      db = path;
      return {
        text: execFileSync(bin, ["event", "create", "--config", file, "--db", path, "--url", PLACEHOLDER], { encoding: "utf8" }),
        fix: (base) => (link) => link.replace(PLACEHOLDER, base),
      };
    },
  });
}

eventTest("screens-monitor", "the monitor of 144 tables shows the current round first, a tap brings the table into view, a call in another round is one tap away", monitorRounds, startBig);

async function monitorRounds({ server, chrome, pages }) {
  const { seats } = server;
  const referee = seatAt(seats, "referee");
  const mon = pages.add("monitor", await open(chrome, referee.link, TABLET));
  await mon.locator("#tabs .tile").nth(ROUNDS * PER_ROUND - 1).waitFor({ state: "attached", timeout: 15000 });
  await waitText(mon, "#status", "已連線");

  // The current round (the highest present) is shown first, its first table on the screen.
  assert.equal(await mon.locator("#round-filter").inputValue(), String(ROUNDS), "the filter starts on the last round");
  const shown = await shownTiles(mon);
  assert.deepEqual(shown, [...Array(PER_ROUND).keys()].map((k) => tableOf(ROUNDS, k + 1)), "round 4's tiles, and only them");
  await waitInView(mon, `#tabs [data-table="${tableOf(ROUNDS, 1)}"]`, "round 4's first table");
  const options = await mon.locator("#round-filter option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(options, ["4", "3", "2", "1", "all"], "the rounds, the current first, then all rounds");
  await waitText(mon, "#current", "第4輪 第1台");

  // Two tables of the round under way.
  for (const k of [1, 2]) await startClocks(chrome, seats, tableOf(ROUNDS, k));
  await waitText(mon, `#tabs [data-table="${tableOf(ROUNDS, 1)}"]`, "輪到紅方");
  await mon.evaluate(() => window.scrollTo(0, 0));
  await pages.state("01-tablet-round4");

  // A tap on a tile far down brings the selected table's detail and its rulings into view.
  const far = tableOf(ROUNDS, 33);
  await mon.locator(`#tabs [data-table="${far}"]`).click();
  await waitText(mon, "#current", "第4輪 第33台");
  await waitInView(mon, `#h-table-${far}`, "the tapped table's heading (tablet)");
  await waitInView(mon, "#action-buttons", "the rulings (tablet)");

  // A call in another round: red of round 2's table 5 resigns (the result waits for the
  // referee's oral verification, 6.8). The banner names the round and the table, the round's
  // choice in the filter and the line above the tiles flag it, and one tap goes there.
  const elsewhere = tableOf(2, 5);
  await startClocks(chrome, seats, elsewhere);
  await resign(chrome, seatAt(seats, "red", elsewhere).link, () => waitText(mon, "#banner.on", "第2輪 第5台"));
  await waitText(mon, "#elsewhere", "第2輪");
  await waitText(mon, "#elsewhere", `第 ${elsewhere} 台`);
  assert.match(await mon.locator('#round-filter option[value="2"]').textContent(), /⚠/);
  await mon.evaluate(() => window.scrollTo(0, 0));
  await pages.state("02-tablet-call-elsewhere");
  await mon.locator("#banner .banner-go").click();
  assert.equal(await mon.locator("#round-filter").inputValue(), "2");
  await waitText(mon, "#current", "第2輪 第5台");
  assert.equal(await mon.locator(`#tabs [data-table="${elsewhere}"]`).getAttribute("aria-pressed"), "true");
  await waitInView(mon, `#table-${elsewhere} .calls`, "the call's ruling after one tap");
  assert.equal(await mon.locator("#elsewhere button").count(), 0, "the call is in the round shown now");
  await pages.state("03-tablet-went-to-call");

  // All rounds: every tile.
  await mon.selectOption("#round-filter", "all");
  assert.equal((await shownTiles(mon)).length, ROUNDS * PER_ROUND);

  // A hall screen: round 4 beside the selected table, no scrolling needed to see both.
  await mon.selectOption("#round-filter", String(ROUNDS));
  await mon.setViewportSize(HALL);
  await mon.locator(`#tabs [data-table="${tableOf(ROUNDS, 2)}"]`).click();
  await mon.evaluate(() => window.scrollTo(0, 0));
  await waitInView(mon, `#tabs [data-table="${tableOf(ROUNDS, PER_ROUND)}"]`, "round 4's last tile at 1920×1080");
  await waitInView(mon, `#h-table-${tableOf(ROUNDS, 2)}`, "the selected table at 1920×1080");
  await pages.state("04-hall-round4");

  // A phone: no sideways scrolling; a tap brings the table into view.
  await mon.setViewportSize(PHONE);
  await mon.evaluate(() => window.scrollTo(0, 0));
  assert.equal(await sideways(mon), false, `the monitor is ${await mon.evaluate(() => document.documentElement.scrollWidth)} px wide on a 390 px phone`);
  await pages.state("05-phone-round4");
  const last = tableOf(ROUNDS, 30);
  await mon.locator(`#tabs [data-table="${last}"]`).click();
  await waitInView(mon, `#h-table-${last}`, "the tapped table's heading (phone)");
  assert.equal(await sideways(mon), false, "the selected table fits the phone");
  await pages.state("06-phone-selected");

  // The filter follows a new round as it appears (a table of round 5 added from the command
  // line while the monitor is open).
  await mon.setViewportSize(TABLET);
  execFileSync(baoqiBin(), ["table", "add", "--event", "1", "--round", "5", "--name", "第5輪 第1台", "--red", "紅五", "--black", "黑五", "--db", db], { encoding: "utf8" });
  await mon.waitForFunction(() => document.querySelector("#round-filter")?.value === "5", null, { timeout: 8000 });
  assert.deepEqual(await shownTiles(mon), [ROUNDS * PER_ROUND + 1]);
  await pages.state("07-tablet-round5");
}

eventTest("screens-sync", "a settled call's banner goes whichever table is selected; a lost connection dashes every tile's clocks and says 未同步", settledAndLost);

async function settledAndLost({ server, chrome, pages }) {
  const { seats } = server;
  const referee = seatAt(seats, "referee", 4);
  const mon = pages.add("monitor", await open(chrome, referee.link, TABLET));
  // A second referee's screen for the same tables (a table referee beside the chief).
  const other = pages.add("other", await open(chrome, referee.link, HALL));
  await waitText(mon, "#tabs", "循環 Repetition");
  await waitText(other, "#tabs", "循環 Repetition");

  // Red of table 4 resigns: the call is on the banner of both screens.
  await startClocks(chrome, seats, 4);
  await resign(chrome, seatAt(seats, "red", 4).link, async () => {
    for (const page of [mon, other]) await waitText(page, "#banner.on", "第 4 台");
  });
  // Table 5 under way; the first screen looks at it, not at table 4.
  await startClocks(chrome, seats, 5);
  await mon.locator('#tabs [data-table="5"]').click();
  await waitText(mon, "#current", "循環 Repetition");
  await waitText(mon, '#tabs [data-table="5"] .t-clock', "◀");
  assert.equal(await mon.locator("#banner.on").count(), 1, "the call is open: its banner stays");
  await pages.state("01-call-open");

  // The other screen settles the call: the first one's banner goes too.
  await other.locator('#tabs [data-table="4"]').click();
  await other.locator('#table-4 .calls button[data-action="verify_result"]').click();
  await other.locator("#dlg[open]").waitFor();
  await other.locator("#f-note").fill("紅方口頭確認認負");
  await other.locator("#dlg-yes").click();
  await waitText(other, "#table-4", "已口頭核實");
  await mon.locator("#banner.on").waitFor({ state: "detached", timeout: 5000 });
  await other.locator("#banner.on").waitFor({ state: "detached", timeout: 5000 });
  await pages.close("other");

  // The server stops answering: no tile shows a time or a running clock, and a large notice
  // says 未同步 until the page is in step again.
  assert.equal(await mon.locator("#unsynced").isVisible(), false);
  server.freeze(true);
  try {
    await waitText(mon, "#status", "正在重新連線", 16000);
    await mon.locator("#unsynced").waitFor({ state: "visible" });
    const seen = await mon.evaluate(() => ({
      clocks: [...document.querySelectorAll("#tabs .tile .t-clock")].map((c) => c.textContent),
      line: document.querySelector("#tables .table-card:not([hidden]) .clockline").textContent,
      notice: document.querySelector("#unsynced").textContent,
      size: parseFloat(getComputedStyle(document.querySelector("#unsynced")).fontSize),
      shown: (() => { const b = document.querySelector("#unsynced").getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; })(),
    }));
    for (const c of [...seen.clocks, seen.line]) {
      assert.match(c, /紅方 --:-- · 黑方 --:--/, `a clock while unsynchronised: ${c} in ${JSON.stringify(seen)}`);
      assert.doesNotMatch(c, /◀|\d:\d\d/, `no time, no running mark: ${c}`);
    }
    assert.match(seen.notice, /^未同步/);
    assert.ok(seen.size >= 24, `the notice is large: ${seen.size}px`);
    assert.ok(seen.shown, "the notice is on the screen");
    await mon.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok(await inView(mon, "#unsynced"), "and stays there when the page is scrolled");
    await mon.evaluate(() => window.scrollTo(0, 0));
    await pages.state("02-unsynced");
  } finally {
    server.freeze(false);
  }
  await waitText(mon, "#status", "已連線", 16000);
  await mon.locator("#unsynced").waitFor({ state: "hidden" });
  await waitText(mon, '#tabs [data-table="5"] .t-clock', "◀");
  await pages.state("03-resynchronised");
}
