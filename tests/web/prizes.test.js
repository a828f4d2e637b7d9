// The prize lists on the standings page (the event file's `[[tournament.prizes]]`): an
// 8-player Swiss of one round decided by absences (87), with an overall, a 視障 and a women's
// list. The page says 「獎項」, each list with its prizes, winners and places, one prize per
// player, 「從缺」 for a prize nobody else may take, 「最終結果」 once the last round is final;
// printed with the standings (the prize-giving reads from paper); no axe violation and no
// sideways scrolling on a tablet or a phone.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, open, scratchDir, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");

const PRIZES = `
[[tournament.prizes]]
name = "總成績"
places = 2

[[tournament.prizes]]
name = "視障組"
places = 2
categories = ["blind", "partially_sighted"]

[[tournament.prizes]]
name = "女子組"
places = 2
sex = "female"
`;

function prepare(bin, db) {
  const run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const dir = scratchDir("baoqi-prizes-");
  const toml = join(dir, "event.toml");
  writeFileSync(toml, readFileSync(join(FIX, "tournament.toml"), "utf8").replace("rounds = 3", "rounds = 1") + PRIZES);
  // 王芳 is the one woman the register names: the women's second prize is 從缺.
  const csv = join(dir, "players.csv");
  writeFileSync(csv, readFileSync(join(FIX, "players.csv"), "utf8")
    .replace("姓名,所屬團體,種子,類別,代理", "姓名,所屬團體,種子,類別,代理,性別")
    .replace(/\n(.+)/g, (_, line) => `\n${line},${line.startsWith("王芳") ? "女" : "男"}`));
  run("event", "create", "--config", toml);
  run("players", "import", "--event", "1", csv);
  const text = run("round", "pair", "--event", "1");
  for (const [, table] of text.matchAll(/table (\d+) \(round 1/g)) {
    run("round", "result", "--event", "1", "--table", table, "--forfeit", "black");
  }
  return { text, fix: () => (link) => link };
}

const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test("prizes: the organiser's lists, one prize per player, final after the last round, printed", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const page = await open(chrome, `${server.base}/standings#event=1`, { width: 1024, height: 768 });
    await waitText(page, "#h-prizes", "獎項");
    await waitText(page, "#prizes", "最終結果（第1輪後）");
    const lists = await page.evaluate(() => [...document.querySelectorAll("#prizes h3")].map((h) => ({
      head: h.textContent,
      items: [...h.nextElementSibling.querySelectorAll("li")].map((li) => li.textContent),
    })));
    assert.deepEqual(lists.map((l) => l.head), ["總成績（2名）", "視障組（2名）", "女子組（2名）"]);
    const winner = (item) => item.match(/#\d+ (\S+?)（|#\d+ (\S+?)，/)?.slice(1).find(Boolean);
    const won = lists.flatMap((l) => l.items.map(winner).filter(Boolean));
    assert.equal(new Set(won).size, won.length, `one prize per player: ${won}`);
    assert.match(lists[0].items[0], /^第1獎 #\d+ .+，名次 1$/);
    // The prize's number is in its line: the list adds none of its own (it read 「1. 第1獎」).
    const marks = await page.evaluate(() => [...document.querySelectorAll("#prizes h3 + *")].map((l) =>
      `${l.tagName} ${getComputedStyle(l).listStyleType}`));
    assert.deepEqual(marks, ["UL none", "UL none", "UL none"]);
    for (const item of lists[1].items) assert.match(item, /李明|張華|從缺/, "the 視障 list admits 全失明 and 部份失明 only");
    // The one woman has a prize (hers or an earlier list's); the women's second is 從缺.
    assert.match(lists[2].items[1], /^第2獎 從缺/);
    assert.deepEqual(await axe(page, "prizes 1024"), []);
    await shot(page, "prizes-tablet");
    // Printed with the standings: the prize-giving reads from paper.
    await page.emulateMedia({ media: "print" });
    assert.equal(await page.locator("#sec-prizes").isVisible(), true, "the prize lists are printed");
    await page.emulateMedia({ media: "screen" });
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await sideways(page), false, "the page scrolls sideways on a phone");
    await shot(page, "prizes-phone");
    assert.deepEqual(page.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
