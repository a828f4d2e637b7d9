// The desk moves to a second laptop in the middle of a round. On the first, a game has
// begun (black started the clocks) when the organiser saves the event's backup from the
// organiser page (「下載備份」); then the first laptop dies (SIGKILL). The second laptop's
// server is started on the downloaded file alone (`baoqi serve --db FILE`): the links and
// tokens printed on the first go on working there (their address put on the second), the
// organiser page reads the same register and round, and the game that was in play is
// paused at the instant the first laptop last stored, as after a restart, both clocks
// stopped until the referee resumes it (docs/decisions.md, the restart policy).

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, browser, open, parseSeats, scratchDir, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");

test("second laptop: the organiser page's backup, served on another machine, carries on the round", async () => {
  let referee = "";
  let pairing = "";
  const first = await startServer({ demo: false, prepare: (bin, db) => {
    const run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
    const created = run("event", "create", "--config", join(FIX, "tournament.toml"));
    referee = created.match(/referee monitor \(referee\): \S+#token=(\S+)/)[1];
    run("players", "import", "--event", "1", join(FIX, "players.csv"));
    pairing = run("round", "pair", "--event", "1");
    return { text: created, fix: () => (link) => link };
  } });
  const chrome = await browser();
  let second = null;
  try {
    const on = (server) => (link) => { const u = new URL(link); return `${server.base}${u.pathname}${u.hash}`; };
    const cells = await (await fetch(`${first.base}/api/events/1/grid?round=1`, { headers: { Authorization: `Bearer ${referee}` } })).json();
    const table = cells.find((b) => b.board === 2).table;
    const seat = (server, role) => parseSeats(pairing, on(server)).find((s) => s.role === role && s.where === `table ${table}`).link;

    // Board 2 begins on the first laptop: black starts the clocks.
    const black = await open(chrome, seat(first, "black"));
    await black.locator("#press:not([disabled])").click();
    for (let i = 0; ; i++) {
      const { snapshot } = await (await fetch(`${first.base}/api/tables/${table}`)).json();
      if (snapshot.phase === "playing") break;
      assert.ok(i < 100, `the game did not begin: ${JSON.stringify(snapshot).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const desk = await open(chrome, `${first.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(desk, "#grid caption", "第1輪成績");

    // The backup from the page; then the first laptop dies.
    const [download] = await Promise.all([desk.waitForEvent("download"), desk.click("#backup-button")]);
    const file = join(scratchDir("baoqi-second-"), "event.db");
    writeFileSync(file, readFileSync(await download.path()));
    await black.context().close();
    await desk.context().close();
    await first.crash();

    // The second laptop serves the file itself.
    second = await startServer({ demo: false, store: file });
    assert.match(second.output(), /\d+ tables running/);
    // The register and the round, read with the same referee's token.
    const page = await open(chrome, `${second.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(page, "#players caption", "名冊（8人");
    await waitText(page, "#grid caption", "第1輪成績");
    // The game in play, on the referee's monitor and the red player's page (the same links):
    // paused at the first laptop's last instant, as after a restart, awaiting the referee.
    const monitor = await open(chrome, `${second.base}/monitor#token=${referee}`, { width: 1400, height: 1000 });
    await waitText(monitor, "#tabs", "輪到紅方（暫停）", 15000);
    const red = await open(chrome, seat(second, "red"));
    // His clock stands where the first laptop left it (it ran there, under 20 minutes now).
    await waitText(red, "body", /對局暫停。輪到你。你的時間 19 分 \d+ 秒/, 15000);
    assert.deepEqual([...page.errors, ...monitor.errors, ...red.errors], []);
  } finally {
    await chrome.close();
    second?.stop();
    first.stop();
  }
});
