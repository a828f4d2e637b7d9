// Long names: the register takes names of up to 100 characters, and a name of one long word
// (no place to break it) or of 100 characters of Chinese must not push a page off its
// screen. The hall screen's pairings keep their Result and Black columns on a 1920×1080
// screen, and a seat page never scrolls sideways on a 1024-wide tablet; the whole name is
// still in the page.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, browser, open, scratchDir, shot, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";

const PLACEHOLDER = "http://baoqi.invalid";
/** The longest name the register takes, as one word the browser finds no place to break. */
const WORD = "W".repeat(100);
/** The longest name in Chinese, and the longest club. */
const CJK = "長".repeat(100);
const PLAYERS = `姓名,所屬團體\n${WORD},東區\n${CJK},${"會".repeat(100)}\n王芳,東區\n趙強,聾人會\n`;

/** The tournament of the standings' test with these four players, round 1 paired. */
function prepare(bin, db) {
  const csv = join(scratchDir("baoqi-long-"), "players.csv");
  writeFileSync(csv, PLAYERS);
  const run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  run("event", "create", "--config", join(ROOT, "tests", "web", "fixtures", "tournament.toml"));
  run("players", "import", "--event", "1", csv);
  const text = run("round", "pair", "--event", "1", "--url", PLACEHOLDER);
  return { text, fix: (base) => (link) => link.replace(PLACEHOLDER, base) };
}

/** How far the page reaches past its screen's right edge, in pixels (0: not at all). */
const overflow = (page) => page.evaluate(() => {
  const right = Math.max(...[...document.querySelectorAll("body *")].map((e) => e.getBoundingClientRect().right));
  return Math.max(0, right - document.documentElement.clientWidth, document.documentElement.scrollWidth - document.documentElement.clientWidth);
});

test("long names: the hall screen's pairings and the seat page stay on their screens", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const hall = await open(chrome, `${server.base}/standings#event=1&view=hall`, { width: 1920, height: 1080 });
    await waitText(hall, "#pairings caption", "第1輪配對");
    const columns = await hall.evaluate(() => [...document.querySelectorAll("#pairings tbody tr")].map((tr) =>
      [...tr.children].map((c) => Math.round(c.getBoundingClientRect().right))));
    assert.ok(columns.length >= 2, JSON.stringify(columns));
    for (const row of columns) {
      assert.ok(row.every((right) => right <= 1920), `every column, Result and Black too, on the 1920 screen: ${row}`);
    }
    assert.ok((await hall.textContent("#pairings")).includes(WORD), "the whole name is shown");
    await shot(hall, "long-names-hall-1920");

    for (const role of ["red", "black"]) {
      for (const table of [1, 2]) {
        const seat = await open(chrome, seatAt(server.seats, role, table).link, { width: 1024, height: 768 });
        await waitText(seat, "#who", "（");
        assert.equal(await overflow(seat), 0, `the ${role} seat of table ${table} scrolls sideways`);
        await shot(seat, `long-names-${role}-${table}-1024`);
        assert.deepEqual(seat.errors, []);
        await seat.context().close();
      }
    }
    assert.deepEqual(hall.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
