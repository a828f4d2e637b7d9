// A whole tournament day on each store, a hall's file and the federation's PostgreSQL: an
// 8-player Swiss of five rounds run from the command line (each round paired, its results
// entered: wins, draws, an absence, 87), with the organiser's page, the referee's monitor,
// the hall screen and the spectators' page opened in the morning and never reloaded. After
// each round every screen has moved to it; at the end the standings say 「第5輪後」 and the
// organiser's page counts five rounds. PostgreSQL is the one `scripts/services.sh` started
// (BAOQI_TEST_POSTGRES), in a schema of its own made and dropped with psql; required when
// BAOQI_REQUIRE_POSTGRES is set, as for the suite.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, MONITOR_VIEW, browser, open, scratchDir, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");
const ROUNDS = 5;
/** How long a screen may take to show what the store says. */
const FOLLOWS = 15000;

/** The event file of the day: the fixture's Swiss, five rounds. */
function eventFile(dir) {
  const path = join(dir, "day.toml");
  writeFileSync(path, readFileSync(join(FIX, "tournament.toml"), "utf8").replace("rounds = 3", `rounds = ${ROUNDS}`));
  return path;
}

/** A schema of its own on the suite's PostgreSQL, and its `--db`; null without one. */
function postgres() {
  const url = process.env.BAOQI_TEST_POSTGRES;
  if (!url) {
    assert.ok(!process.env.BAOQI_REQUIRE_POSTGRES, "BAOQI_TEST_POSTGRES is not set");
    return null;
  }
  const schema = `t_web_${process.pid}_${Date.now() % 100000}`;
  execFileSync("psql", [url, "-q", "-c", `CREATE SCHEMA ${schema}`]);
  return {
    db: `${url}?options=-csearch_path%3D${schema}`,
    drop: () => execFileSync("psql", [url, "-q", "-c", `DROP SCHEMA ${schema} CASCADE`]),
  };
}

/** Runs the day on the store `db`. */
async function day(db) {
  let run = null;
  let referee = "";
  let spectator = "";
  const prepare = (bin, store) => {
    run = (...args) => execFileSync(bin, [...args, "--db", store], { encoding: "utf8" });
    const created = run("event", "create", "--config", eventFile(scratchDir("baoqi-day-")));
    referee = created.match(/referee monitor \(referee\): \S+#token=(\S+)/)[1];
    spectator = created.match(/spectator\s.*#token=(\S+)/)[1];
    run("players", "import", "--event", "1", join(FIX, "players.csv"));
    return { text: created, fix: () => (link) => link };
  };
  const server = await startServer({ demo: false, prepare, store: db });
  const chrome = await browser();
  try {
    const organiser = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1920, height: 1080 });
    const monitor = await open(chrome, `${server.base}/monitor#token=${referee}`, MONITOR_VIEW);
    const hall = await open(chrome, `${server.base}/standings#event=1&view=hall`, { width: 1920, height: 1080 });
    const watch = await open(chrome, `${server.base}/watch#token=${spectator}`, { width: 1024, height: 768 });
    await waitText(organiser, "#players caption", "已配對0輪");
    const results = ["red", "draw", "black"];
    for (let r = 1; r <= ROUNDS; r += 1) {
      const listing = run("round", "pair", "--event", "1");
      const boards = [...listing.matchAll(/\(round \d+\) 第\d+輪 第(\d+)台/g)].map((m) => m[1]);
      assert.equal(boards.length, 4, listing);
      await waitText(organiser, "#grid caption", `第${r}輪成績`, FOLLOWS);
      // Lists that show once there is a choice: present, hidden or not.
      const listed = (page, sel, text) => page.locator(sel, { hasText: text }).first().waitFor({ state: "attached", timeout: FOLLOWS });
      await listed(monitor, "#round-filter option", `第${r}輪（本輪）`);
      await listed(watch, "#table-pick option", `第${r}輪`);
      // The hall screen turns its pages by itself: what it holds, shown now or next.
      await listed(hall, "#pairings caption", `第${r}輪配對（本輪）`);
      for (const [i, b] of boards.entries()) {
        const how = i === 3 && r === 2 ? ["--forfeit", "black"] : ["--result", results[(i + r) % 3]];
        run("round", "result", "--event", "1", "--round", String(r), "--board", b, ...how);
      }
      // The round's results on the organiser's grid; the standings after it on the hall's.
      await organiser.waitForFunction(() => {
        const rows = [...document.querySelectorAll("#grid tbody tr")];
        return rows.length === 4 && rows.every((tr) => tr.children[6].textContent !== "*");
      }, null, { timeout: FOLLOWS });
      await hall.locator("#standings caption", { hasText: `第${r}輪後` }).first().waitFor({ state: "attached", timeout: FOLLOWS });
    }
    await waitText(organiser, "#players caption", `已配對${ROUNDS}輪`, FOLLOWS);
    const final = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
    assert.equal(final.rounds_complete, ROUNDS);
    assert.equal(final.lines.length, 8);
    for (const page of [organiser, monitor, hall, watch]) assert.deepEqual(page.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
}

test("a whole day of five rounds on a hall's file, every screen open from morning to evening", async () => {
  await day(null);
});

test("a whole day of five rounds on PostgreSQL, every screen open from morning to evening", async (t) => {
  const pg = postgres();
  if (!pg) {
    t.skip("no BAOQI_TEST_POSTGRES");
    return;
  }
  try {
    await day(pg.db);
  } finally {
    pg.drop();
  }
});
