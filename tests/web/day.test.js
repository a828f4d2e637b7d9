// A tournament day's screens: the referee's monitor and the spectators'
// page are opened before round 1 is paired, as a hall opens them in the morning. When the
// organiser pairs the round from the command line, both follow its tables within seconds
// without a reload: the monitor has a tile for each, the spectators' page lists them to
// choose from and shows the board of the one chosen, captioned by its table.
// No axe violation.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, MONITOR_VIEW, axe, browser, open, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");
let run = null;
let referee = "";
let spectator = "";

function prepare(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const created = run("event", "create", "--config", join(FIX, "tournament.toml"));
  referee = created.match(/referee monitor \(referee\): \S+#token=(\S+)/)[1];
  spectator = created.match(/spectator\s.*#token=(\S+)/)[1];
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  return { text: created, fix: () => (link) => link };
}

test("screens opened before round 1 follow its tables without a reload", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const monitor = await open(chrome, `${server.base}/monitor#token=${referee}`, MONITOR_VIEW);
    const watch = await open(chrome, `${server.base}/watch#token=${spectator}`, { width: 1024, height: 768 });
    await waitText(monitor, "#status", "已連線");
    await waitText(watch, "#status", "已連線");
    assert.equal(await monitor.locator("#tabs .tile").count(), 0, "nothing paired yet");

    // Round 1 is paired from the command line while both pages stay open.
    const paired = Date.now();
    run("round", "pair", "--event", "1");
    await monitor.locator("#tabs .tile").nth(3).waitFor({ timeout: 4000 });
    const took = Date.now() - paired;
    assert.equal(await monitor.locator("#tabs .tile").count(), 4, "a tile per table of round 1");
    await waitText(monitor, "#tabs .tile", "第1輪");
    // The spectators' page: the tables to choose from, the first one's board shown.
    await watch.locator("#table-pick option").nth(3).waitFor({ state: "attached", timeout: 4000 });
    await waitText(watch, "#turn", "未開鐘");
    await watch.selectOption("#table-pick", "3");
    await waitText(watch, "#who", "第1輪 第3台");
    assert.match(await watch.evaluate(() => location.hash), /table=3/);
    console.log(`round 1's tables on the open monitor ${took} ms after the pairing`);
    assert.ok(took < 4000, `${took} ms`);
    assert.deepEqual(await axe(monitor, "monitor after the pairing"), []);
    assert.deepEqual(await axe(watch, "spectators after the pairing"), []);
    await shot(monitor, "day-monitor-after-pairing");
    await shot(watch, "day-watch-after-pairing");

    // The referee chooses round 1's third table. Round 1 decided and round 2 paired, the
    // monitor follows round 2 and selects its first table: round 1's stayed selected into
    // round 5, its tile no longer shown.
    await monitor.locator("#tabs .tile").nth(2).click();
    await waitText(monitor, "#current", "第1輪 第3台");
    for (let n = 1; n <= 4; n++) run("round", "result", "--event", "1", "--table", String(n), "--forfeit", "black");
    run("round", "pair", "--event", "1");
    await waitText(monitor, "#tabs .tile", "第2輪");
    await waitText(monitor, "#current", "第2輪 第1台");
    assert.equal(await monitor.locator(".table-card:not([hidden])").count(), 1, "one table shown whole");
    assert.deepEqual(monitor.errors, []);
    assert.deepEqual(watch.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
