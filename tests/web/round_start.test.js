// The round on the referee's monitor (95(3), 109), as a chief arbiter starts one: round 1
// paired, he starts all its games at once with one confirmed press (the referee presses for
// black, 95(4)); in games of 15 minutes or less a side the latest arrival time is the start
// itself (109(2)), so every red who has not moved and pressed is listed at once, each with
// his absence (87) to record at one confirmed press, which the result grid then holds.
// No axe violation; the desk seen at a hall monitor's and a tablet's size.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, MONITOR_VIEW, axe, browser, open, scratchDir, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");
let run = null;
let referee = "";

/** The standings' tournament at 10′ a side (12′ for the visually impaired): under 15′, so
 * the latest arrival is the start (109(2)); round 1 paired. */
function prepare(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const config = join(scratchDir("baoqi-round-start-"), "short.toml");
  writeFileSync(config, readFileSync(join(FIX, "tournament.toml"), "utf8")
    .replace(/base_ms = 1_200_000/, "base_ms = 600_000").replace(/base_ms = 1_800_000/, "base_ms = 720_000")
    .replace(/base_ms = 1_500_000/, "base_ms = 720_000"));
  const created = run("event", "create", "--config", config);
  referee = created.match(/referee monitor \(referee\): \S+#token=(\S+)/)[1];
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  run("round", "pair", "--event", "1");
  return { text: created, fix: () => (link) => link };
}

test("95(3), 109: the round's games started at once from the monitor; a red who has not arrived recorded absent at one press", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const mon = await open(chrome, `${server.base}/monitor#token=${referee}`, MONITOR_VIEW);
    await mon.locator("#tabs .tile").nth(3).waitFor({ timeout: 8000 });
    await waitText(mon, "#start-round", "開始本輪 4 局");
    assert.deepEqual(await axe(mon, "round desk before the start"), []);
    await mon.click("#start-round");
    await waitText(mon, "#confirm-text", "開始本輪 4 局的棋鐘？");
    await mon.click("#confirm-yes");
    for (let id = 1; id <= 4; id++) await waitText(mon, `#tabs [data-table="${id}"]`, "輪到紅方");
    await mon.locator("#round-desk").waitFor({ state: "hidden", timeout: 4000 });
    await waitText(mon, "#log", "開鐘 — 已接受");

    // Under 15′ a side, the latest arrival is the start: every red who has not moved is listed.
    await mon.locator("#late-list li").nth(3).waitFor({ timeout: 8000 });
    await waitText(mon, "#late-list h3", "逾最遲到達時間仍未走子及按鐘（第109(2)條）");
    const line = await mon.locator("#late-list li").first().textContent();
    assert.match(line, /紅方）：未到/, line);
    assert.deepEqual(await axe(mon, "round desk, late arrivals"), []);
    await shot(mon, "round-desk-late-1400");

    // Table 1's red recorded absent (87): -/+ , held by the grid, gone from the list.
    await mon.click('[data-absent="1-red_absent"]');
    await waitText(mon, "#confirm-text", "記錄 -/+ 紅方缺席，黑方不戰而勝？（第87、109條）");
    await mon.click("#confirm-yes");
    await waitText(mon, '#tabs [data-table="1"]', "成績（裁判長登記）-/+ 紅方缺席");
    await mon.waitForFunction(() => document.querySelectorAll("#late-list li").length === 3);
    await waitText(mon, "#log", "-/+ 紅方缺席，黑方不戰而勝（第109(2)條）— 已記錄");
    const cells = await (await fetch(`${server.base}/api/events/1/grid?round=1`, { headers: { Authorization: `Bearer ${referee}` } })).json();
    assert.equal(cells.find((c) => c.table === 1)?.recorded, "red_absent", JSON.stringify(cells[0]));
    await mon.setViewportSize({ width: 1024, height: 768 });
    await mon.locator("#late-list").scrollIntoViewIfNeeded();
    await shot(mon, "round-desk-late-tablet");
    assert.deepEqual(mon.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
