// The referee's monitor as a hall view: 24 live tables on a 1920×1080
// screen, each table's state readable without scrolling (clocks, whose turn, calls flagged,
// violations, offers), the selected table whole (both boards, tallies, offer) beside them.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { open, scratchDir, waitText } from "./harness.js";
import { eventTest, seatAt, startEvent } from "./event.js";

const HALL = { width: 1920, height: 1080 };
const TABLES = 24;

/** An event of 24 tables, one referee for all: every other table a 共融賽 with mirrored
 * boards (two boards to show), the rest 視障賽. */
function hallEvent() {
  const tables = [...Array(TABLES).keys()].map((i) => {
    const n = i + 1;
    const mixed = n % 2 === 0;
    return `[[tables]]
name = "${mixed ? "共融" : "視障"} ${n}"
red = "紅${n}"
black = "黑${n}"

[tables.match]
kind = "${mixed ? "part7" : "part6"}"
red = { name = "紅${n}", categories = ["blind"]${mixed ? ', board = "vi"' : ""} }
black = { name = "黑${n}", categories = ["${mixed ? "deaf" : "blind"}"]${mixed ? ', board = "regular"' : ""} }
`;
  });
  const text = `name = "全場測試 hall"\nspectators = 0\n\n[[referees]]\nname = "總裁判"\ntables = [${[...Array(TABLES).keys()].map((i) => i + 1).join(", ")}]\n\n${tables.join("\n")}`;
  const file = join(scratchDir("baoqi-hall-"), "hall.toml");
  writeFileSync(file, text);
  return file;
}

eventTest("hall", "24 live tables on one hall monitor, every state readable without scrolling", run, () => startEvent(hallEvent()));

/** Asserts that `selector` is wholly on the page's screen. */
async function onScreen(page, selector, what) {
  const b = await page.locator(selector).first().boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(b && b.y >= 0 && b.y + b.height <= height + 1 && b.x >= 0 && b.x + b.width <= width + 1,
    `${what}: ${selector} is on the ${width}×${height} screen (${JSON.stringify(b)})`);
}

async function run({ server, chrome, pages }) {
  const { seats } = server;
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", 1).link, HALL));
  await mon.locator(`#tabs .tile`).nth(TABLES - 1).waitFor();
  // Start the clocks at a few tables (black presses, 6.2): their tiles show them running.
  for (const n of [1, 2, 7, 9]) {
    const black = await open(chrome, seatAt(seats, "black", n).link);
    await black.locator("#press:not([disabled])").click();
    await waitText(mon, `#tabs [data-table="${n}"]`, "輪到紅方");
    await black.context().close();
  }
  // Red of table 9 resigns: the result waits for the referee's oral verification (6.8), a
  // call; its tile is flagged, in words as well as by its border.
  const red9 = await open(chrome, seatAt(seats, "red", 9).link);
  // Connected first: a resignation pressed before the page has joined is not sent (under
  // load the press once came before the join, and the call never came).
  await waitText(red9, "#status", "已連線", 20000);
  await red9.locator("#resign").click();
  await red9.locator("#confirm-yes").click();
  await waitText(mon, '#tabs [data-table="9"]', "待處理");
  await red9.context().close();
  assert.match(await mon.locator('#tabs [data-table="9"]').getAttribute("class"), /needs/);
  assert.doesNotMatch(await mon.locator('#tabs [data-table="3"]').getAttribute("class"), /needs/);

  // Every tile is on the screen, and says the table's clocks and state in words.
  for (let n = 1; n <= TABLES; n++) {
    const tile = `#tabs [data-table="${n}"]`;
    await onScreen(mon, tile, `table ${n}`);
    const text = await mon.locator(tile).textContent();
    assert.match(text, /紅方 \d+:\d\d.*黑方 \d+:\d\d/, `table ${n}'s clocks: ${text}`);
    assert.match(text, /未開鐘|輪到|結束/, `table ${n}'s state: ${text}`);
  }
  // The selected 共融賽 table is whole beside the tiles: both boards, the tallies, the offer.
  await mon.locator('#tabs [data-table="2"]').click();
  await mon.locator("#table-2 .xboard").nth(1).waitFor();
  await onScreen(mon, "#table-2 .xboard >> nth=0", "the VI board");
  await onScreen(mon, "#table-2 .xboard >> nth=1", "the regular board");
  await onScreen(mon, "#table-2 .tally", "the tallies");
  await waitText(mon, "#table-2", "提和：");
  await onScreen(mon, "#table-2 .offer", "the offer line");
  await pages.state("01-hall");

  // 列印 prints the scoresheet, not the whole monitor.
  await mon.evaluate(() => { window.print = () => { window.printed = true; }; });
  await mon.keyboard.press("r");
  await mon.locator("#sheet-sec:not([hidden])").waitFor();
  await mon.locator("#sheet button", { hasText: "列印" }).click();
  assert.ok(await mon.evaluate(() => window.printed));
  await mon.emulateMedia({ media: "print" });
  assert.ok(await mon.locator("#sheet .sheet").isVisible(), "the scoresheet is printed");
  for (const other of ["#tabs", "#action-buttons", "#table-2", "#log"]) {
    assert.equal(await mon.locator(other).isVisible(), false, `${other} is not printed`);
  }
  await mon.emulateMedia({ media: "screen" });
}
