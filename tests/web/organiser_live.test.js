// The organiser's page through a day: opened before round 1 and never reloaded, it follows
// what the command line does to the same event — a round paired, a board's result entered,
// a player withdrawn (89(2)), the next round paired — within seconds: the register's caption,
// a player's status, the withdrawal's list, the result grid and 108's boards at the round
// being played, the change log. What the organiser was typing in the meantime (a late
// entrant's name and club, a withdrawal's reason) stays in its fields, the focus where it
// was. No axe violation, on the hall's screen and on a phone.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, open, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");
let referee = "";
let run = null;

function prepare(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const created = run("event", "create", "--config", join(FIX, "tournament.toml"));
  referee = created.match(/referee monitor \(referee\): \S+#token=(\S+)/)[1];
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  return { text: created, fix: () => (link) => link };
}

/** How long the page may take to show what the store says (it polls every few seconds). */
const FOLLOWS = 10000;

test("organiser page: a day of rounds, results and a withdrawal from the command line, without a reload", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const page = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1920, height: 1080 });
    await waitText(page, "#players caption", "名冊（8人，已配對0輪）");
    assert.equal(await page.locator("#grid-section").isHidden(), true, "no round paired yet");

    // The organiser starts a late entrant's line and a withdrawal's reason, and is still
    // typing the club when round 1 is paired from the command line.
    await page.fill("#w-reason", "家中有事");
    await page.fill("#f-name", "吳五");
    await page.locator("#f-club").focus();
    await page.keyboard.type("南區");
    run("round", "pair", "--event", "1");
    await waitText(page, "#players caption", "已配對1輪", FOLLOWS);
    await waitText(page, "#grid caption", "第1輪成績", FOLLOWS);
    await waitText(page, "#boards caption", "第1輪對局", FOLLOWS);
    await waitText(page, "#log", "第1輪配對：4局", FOLLOWS);
    assert.equal(await page.inputValue("#f-name"), "吳五");
    assert.equal(await page.inputValue("#f-club"), "南區");
    assert.equal(await page.inputValue("#w-reason"), "家中有事");
    assert.equal(await page.evaluate(() => document.activeElement.id), "f-club", "the focus stays where he types");

    // A result entered at the desk's terminal: the grid shows it as the organiser's.
    run("round", "result", "--event", "1", "--round", "1", "--board", "1", "--forfeit", "black", "--reason", "黑方未到");
    const board1 = page.locator("#grid tbody tr", { hasText: "第1台" });
    await waitText(board1, "td", "+/-", FOLLOWS);
    await waitText(page, "#log", "第1輪第1台：登記成績", FOLLOWS);

    // A withdrawal from the command line: his status, and the withdrawal form's list. The
    // player chosen in that list stays chosen.
    await page.selectOption("#w-player", { label: "#3 王芳" });
    run("players", "withdraw", "--event", "1", "--player", "8", "--reason", "病假");
    const withdrawn = page.locator("#players tbody tr", { hasText: "周四" });
    await waitText(withdrawn, "td", "已退出", FOLLOWS);
    assert.equal(await page.locator("#w-player option", { hasText: "周四" }).count(), 0);
    assert.equal(await page.inputValue("#w-player"), "3");
    await waitText(page, "#status", "周四", FOLLOWS);
    assert.deepEqual(await axe(page, "organiser following round 1"), []);
    await shot(page, "organiser-live-round1-hall");

    // The rest of round 1 entered (周四's game on board 4 was lost by his absence when he
    // withdrew), round 2 paired: the grid and 108's boards move to it.
    for (const b of ["2", "3"]) run("round", "result", "--event", "1", "--round", "1", "--board", b, "--result", "draw");
    run("round", "pair", "--event", "1");
    await waitText(page, "#players caption", "名冊（8人，已配對2輪）", FOLLOWS);
    await waitText(page, "#grid caption", "第2輪成績", FOLLOWS);
    await waitText(page, "#boards caption", "第2輪對局", FOLLOWS);
    assert.equal(await page.inputValue("#g-round"), "2");
    assert.equal(await page.inputValue("#f-name"), "吳五", "the late entrant's line is still there");
    assert.equal(await page.inputValue("#w-reason"), "家中有事");
    // A lost link reissued and a spectator added at the terminal: the log says both in
    // the page's language.
    run("event", "reissue", "--event", "1", "--table", "1", "--role", "red");
    run("event", "spectators", "--event", "1", "--add", "1");
    await waitText(page, "#log", "紅方 李明（第1桌）：連結重發，舊連結作廢", FOLLOWS);
    await waitText(page, "#log", "新增觀眾連結", FOLLOWS);
    assert.deepEqual(await axe(page, "organiser following round 2"), []);
    await shot(page, "organiser-live-round2-hall");
    await page.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(await axe(page, "organiser following round 2 on a phone"), []);
    await shot(page, "organiser-live-round2-phone");
    assert.deepEqual(page.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
