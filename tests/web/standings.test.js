// The standings page (issue 18): an 8-player inclusive Swiss made by the organiser's
// commands (event create, players import, round pair, round result --forfeit), then
// `/standings#event=1` in Chinese and in English: real tables with captions, column and row
// headers, Chinese names marked lang="zh-Hant" on the English page, and no axe violation.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, open, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");

function prepare(bin, db) {
  const run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  run("event", "create", "--config", join(FIX, "tournament.toml"));
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  const pairing = run("round", "pair", "--event", "1");
  // 87: the black player of table 1 does not come; red wins without play.
  run("round", "result", "--event", "1", "--table", "1", "--forfeit", "black");
  return { text: pairing, fix: () => (link) => link };
}

test("standings: the page reads as tables and passes axe, in Chinese and in English", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const zh = await open(chrome, `${server.base}/standings#event=1`);
    await waitText(zh, "#standings caption", "名次");
    await waitText(zh, "#pairings caption", "第1輪配對");
    const shape = await zh.evaluate(() => ({
      cols: [...document.querySelectorAll("#standings thead th")].map((th) => th.scope),
      rows: document.querySelectorAll("#standings tbody th[scope=row]").length,
      first: document.querySelector("#pairings tbody tr").textContent,
    }));
    assert.ok(shape.cols.length >= 4 && shape.cols.every((s) => s === "col"), JSON.stringify(shape));
    assert.equal(shape.rows, 8);
    assert.match(shape.first, /黑方缺席，紅方不戰而勝/);
    assert.deepEqual(await axe(zh, "standings zh"), []);
    await shot(zh, "standings-zh");

    const en = await open(chrome, `${server.base}/standings#event=1`, undefined,
      () => localStorage.setItem("baoqi-lang", "en"));
    await waitText(en, "#standings caption", "Standings");
    const marked = await en.evaluate(() =>
      [...document.querySelectorAll("#standings tbody th[scope=row]")]
        .every((th) => th.closest("[lang='zh-Hant']") || th.querySelector("[lang='zh-Hant']")));
    assert.ok(marked, "every Chinese name is marked lang=zh-Hant on the English page");
    assert.equal(await en.evaluate(() => document.documentElement.lang), "en");
    assert.deepEqual(await axe(en, "standings en"), []);
    // On a phone the page never scrolls sideways (the English headings are the widest): a
    // wide table scrolls in its own box, which the keyboard reaches.
    await en.setViewportSize({ width: 390, height: 844 });
    assert.equal(await en.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false,
      "the standings page scrolls sideways on a phone");
    assert.deepEqual(await axe(en, "standings en phone"), []);
    await shot(en, "standings-en-phone");
    const csv = await (await fetch(`${server.base}/api/events/1/standings.csv`)).text();
    assert.match(csv, /^place,shared,player,name,club,score,Head-to-head,Buchholz,Sonneborn-Berger\n/);
    assert.deepEqual([...zh.errors, ...en.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
