// The spectators' page late in a day: round 1's results were entered by the organiser from
// the command line, round 2 is paired. A board whose result the organiser entered shows that
// result, not 「未開鐘」, whether it was entered before the page opened or while it is open;
// a table chosen from the list is named as the hall numbers it (第2輪 第2台), never by the
// server's own number, and the summary names its players, not those of the table shown
// before. No axe violation, on the hall's screen and on a phone.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, open, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");
let run = null;
let spectator = "";

function prepare(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const created = run("event", "create", "--config", join(FIX, "tournament.toml"));
  spectator = created.match(/spectator\s.*#token=(\S+)/)[1];
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  // Round 1 (tables 1 to 4) decided at the desk, round 2 (tables 5 to 7) paired.
  run("round", "pair", "--event", "1");
  run("round", "result", "--event", "1", "--round", "1", "--board", "1", "--forfeit", "black");
  for (const b of ["2", "3", "4"]) run("round", "result", "--event", "1", "--round", "1", "--board", b, "--result", "draw");
  run("round", "pair", "--event", "1");
  return { text: created, fix: () => (link) => link };
}

test("spectators' page: the organiser's results, the tables by round and board, the summary of the table chosen", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const table = async (id) => (await (await fetch(`${server.base}/api/tables/${id}`)).json()).table;
    const watch = await open(chrome, `${server.base}/watch#token=${spectator}&table=1`, { width: 1920, height: 1080 });
    await waitText(watch, "#status", "已連線");
    await waitText(watch, "#who", "第1輪 第1台");
    // Round 1 board 1: black absent, entered before the page opened; never played.
    await waitText(watch, "#turn", "+/-");
    await waitText(watch, "#summary", "黑方缺席");
    assert.doesNotMatch(await watch.textContent("#turn"), /未開鐘/);

    // Table 6 chosen: round 2's board 2, named so; its own players in the summary.
    const six = await table(6);
    await watch.selectOption("#table-pick", "6");
    await waitText(watch, "#who", "第2輪 第2台");
    await waitText(watch, "#summary", `${six.red}（紅）對 ${six.black}（黑）`);
    await waitText(watch, "#board-caption", "第2輪 第2台");
    await waitText(watch, "#live-polite, #live", "第2輪 第2台");
    await waitText(watch, "#turn", "未開鐘");
    assert.doesNotMatch(await watch.evaluate(() => document.body.innerText), /第 6 台/, "the server's number is not the hall's");

    // Its result entered at the desk while the page is open.
    run("round", "result", "--event", "1", "--round", "2", "--board", "2", "--forfeit", "red");
    await waitText(watch, "#turn", "-/+", 8000);
    await waitText(watch, "#summary", "紅方缺席");
    await waitText(watch, "#live-polite, #live", "紅方缺席");
    assert.deepEqual(await axe(watch, "spectators, a result entered"), []);
    await shot(watch, "watch-entered-hall");
    await watch.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(await axe(watch, "spectators, a result entered, phone"), []);
    await shot(watch, "watch-entered-phone");
    assert.deepEqual(watch.errors, []);

    // A spectator who arrives without a table in the address sees the latest round's first
    // board, not round 1's.
    const late = await open(chrome, `${server.base}/watch#token=${spectator}`, { width: 1024, height: 768 });
    await waitText(late, "#status", "已連線");
    await waitText(late, "#who", "第2輪 第1台");
    assert.equal(await late.inputValue("#table-pick"), "5");
    assert.deepEqual(late.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
