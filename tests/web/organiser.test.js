// The organiser's register page: `/organiser#event=1&token=…` with the token of the
// event-wide referee. Through the page's form a late entrant is registered and a player
// withdrawn (89(2)); the API and the standings see both, and the next round pairs the
// entrant and not the withdrawn player. Without a token the page asks for one, and a wrong
// token, like a missing name, is read out from the role=alert region. No axe violation, and
// no sideways scrolling on a tablet, a phone or the hall's screen.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, baoqiBin, browser, open, parseSeats, scratchDir, shot, startServer, waitText } from "./harness.js";

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

const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test("organiser: a late entrant and a withdrawal through the page, seen by the API and the next round", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  const api = async (path) => (await fetch(`${server.base}${path}`, {
    headers: { Authorization: `Bearer ${referee}` },
  })).json();
  try {
    // Without a token: the page asks for it; a wrong one is refused aloud.
    const page = await open(chrome, `${server.base}/organiser#event=1`, { width: 1024, height: 768 });
    await page.locator("#token-input").waitFor();
    await page.fill("#token-input", "not-a-token");
    await page.click("#login button[type=submit]");
    await waitText(page, "#error[role=alert]", "令牌無效");
    await page.fill("#token-input", referee);
    await page.click("#login button[type=submit]");
    await waitText(page, "#players caption", "名冊（8人");
    assert.deepEqual(await axe(page, "organiser 1024"), []);
    assert.equal(await sideways(page), false, "the page scrolls sideways on a tablet");
    await shot(page, "organiser-tablet");

    // A missing name is refused before any request.
    await page.click("#f-submit");
    await waitText(page, "#error", "請填寫姓名");

    // A late entrant: totally blind, blindfold not needed, with a club and a proxy.
    await page.getByLabel("姓名（必填）").fill("吳五");
    await page.getByLabel("所屬團體").fill("南區");
    await page.getByRole("group", { name: /類別/ }).getByLabel("全失明").check();
    await page.getByLabel("代理（姓名）").fill("何助手");
    await page.click("#f-submit");
    await waitText(page, "#status", "已登記 #9 吳五");
    await waitText(page, "#players tbody", "吳五");
    await waitText(page, "#log", "遲到賽員 #9 吳五");

    // A second 吳五 of the same club: the page asks first; cancelled,
    // nothing is added.
    await page.getByLabel("姓名（必填）").fill("吳五");
    await page.getByLabel("所屬團體").fill("南區");
    await page.click("#f-submit");
    await waitText(page, "#confirm-text", "名冊上已有「吳五」（南區）：是另一位賽員嗎？");
    assert.deepEqual(await axe(page, "organiser same name"), []);
    await page.getByRole("dialog").getByRole("button", { name: "取消" }).click();
    await page.locator("#confirm").waitFor({ state: "hidden" });
    assert.equal(await page.locator("#players tbody tr", { hasText: "吳五" }).count(), 1);
    await page.getByLabel("姓名（必填）").fill("");
    await page.getByLabel("所屬團體").fill("");

    // A withdrawal with its reason.
    await page.selectOption("#w-player", { label: "#8 周四" });
    await page.getByLabel("原因（記錄在案）").fill("病假");
    await page.click("#withdraw-form button[type=submit]");
    // It cannot be undone: the page asks first, Cancel focused.
    await waitText(page, "#confirm-text", "#8 周四 退出比賽（第89(2)條）");
    assert.equal(await page.evaluate(() => document.activeElement.textContent), "取消");
    await page.getByRole("button", { name: "確定" }).click();
    await waitText(page, "#status", "#8 周四 已退出");
    await waitText(page, "#log", "病假");
    assert.equal(await page.locator("#w-player option", { hasText: "周四" }).count(), 0);

    const view = await api("/api/events/1/players");
    const byId = Object.fromEntries(view.players.map((p) => [p.player.id, p]));
    assert.equal(byId[9].player.name, "吳五");
    assert.deepEqual(byId[9].player.categories, ["blind"]);
    assert.equal(byId[9].player.proxy, "何助手");
    assert.equal(byId[9].settings.board, "vi");
    assert.equal(byId[8].active, false);
    const anonymous = await fetch(`${server.base}/api/events/1/players`, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "x" }) });
    assert.equal(anonymous.status, 401, "no write without a token");

    const standings = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
    assert.ok(standings.lines.some((l) => l.player.name === "吳五"), "the standings list the late entrant");
    const pairing = run("round", "pair", "--event", "1");
    assert.match(pairing, /吳五/);
    assert.doesNotMatch(pairing, /周四/);

    // Round 1 over (every black absent), a late entrant whose missed round scores a half
    // point, as the organiser chooses on the form; with her sex and year of birth for the
    // prizes.
    for (const [, table] of pairing.matchAll(/table (\d+) \(round 1/g)) {
      run("round", "result", "--event", "1", "--table", table, "--forfeit", "black");
    }
    await page.getByLabel("姓名（必填）").fill("何六");
    await page.getByLabel("性別（獎項用）").selectOption({ label: "女" });
    await page.getByLabel("出生年份（獎項用）").fill("2010");
    await page.getByLabel("他錯過的已賽輪次").selectOption({ label: "每輪半分（作和局計）" });
    await page.click("#f-submit");
    await waitText(page, "#status", "已登記 #10 何六");
    await waitText(page, "#log", "遲到賽員 #10 何六，由第2輪起編排，缺賽各輪每輪半分");
    const late = (await api("/api/events/1/players")).players.find((p) => p.player.id === 10).player;
    assert.deepEqual([late.sex, late.born], ["female", 2010]);
    const after = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
    const line = after.lines.find((l) => l.player.name === "何六");
    assert.equal(line.score, "8", "round 1 as a draw under 黃氏計分法 (強制和 8)");
    // The event's backup, for a second laptop: one hall's file (SQLite's), said when saved.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#backup-button")]);
    assert.match(download.suggestedFilename(), /^baoqi-event-1-\d{8}-\d{4}\.db$/);
    const saved = readFileSync(await download.path());
    assert.equal(saved.subarray(0, 16).toString("latin1"), "SQLite format 3\0", "a SQLite file");
    await waitText(page, "#backup-status[role=status]", "已下載 baoqi-event-1-");
    // It opens as a hall's file: the command line lists its players, the late entrant too.
    const copy = join(scratchDir("baoqi-backup-"), "event.db");
    writeFileSync(copy, saved);
    assert.match(execFileSync(baoqiBin(), ["players", "list", "--event", "1", "--db", copy], { encoding: "utf8" }), /何六/);

    // Correcting his line does not offer the choice again.
    await page.locator("#players tbody tr", { hasText: "何六" }).getByRole("button").first().click();
    assert.equal(await page.locator("#f-missed").isVisible(), false);
    await page.click("#f-cancel");
    assert.equal(await page.locator("#f-missed").isVisible(), true);

    // A phone and the hall's screen: no sideways scrolling, still no axe violation.
    for (const [w, h, name] of [[390, 844, "phone"], [1920, 1080, "hall"]]) {
      await page.setViewportSize({ width: w, height: h });
      assert.equal(await sideways(page), false, `the page scrolls sideways at ${w}x${h}`);
      assert.deepEqual(await axe(page, `organiser ${name}`), []);
      await shot(page, `organiser-${name}`);
    }

    // In English, the same page.
    const en = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 },
      () => localStorage.setItem("baoqi-lang", "en"));
    await waitText(en, "#players caption", "Register: 10 players");
    await waitText(en, "#log", "89(2): #8 周四 withdrew");
    assert.deepEqual(await axe(en, "organiser en"), []);
    assert.deepEqual([...page.errors.filter((e) => !/40[19]|422/.test(e)), ...en.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

// 第108條 from the organiser page: a board of the current round whose players sat with the
// colours reversed (108(1)) is replayed at a new table, the new seats' links shown once; a
// wrong pairing (108(2)) exchanges the black players of two boards, both replayed; each
// correction is in the change log; the server's refusal (here: the round is over, a new one
// paired meanwhile) is read out from the role=alert region. Every button of the page within
// the tablet's width; no axe violation at 1024x768, 390x844 and 1920x1080.
test("organiser: 108 corrections of the current round through the page", async () => {
  const server = await startServer({ demo: false, prepare: (bin, db) => {
    const listing = prepare(bin, db);
    run("round", "pair", "--event", "1");
    return listing;
  } });
  const chrome = await browser();
  const api = async (path) => (await fetch(`${server.base}${path}`, {
    headers: { Authorization: `Bearer ${referee}` },
  })).json();
  try {
    const page = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(page, "#boards caption", "第1輪");
    const before = (await api("/api/events/1/players")).boards;
    assert.equal(before.length, 4, "four boards in round 1");

    // 108(1): colours reversed at board 1, within 5′ of a 20′ game: a replay at a new table.
    await page.getByLabel("台", { exact: true }).selectOption({ value: String(before[0].table) });
    // A correction cannot be undone: the page says what it will do and asks first; Cancel
    // (focused) leaves everything as it was.
    await page.getByRole("button", { name: /紅黑顛倒/ }).click();
    await waitText(page, "#confirm-text", `第1輪第1台（第${before[0].table}桌）`);
    await waitText(page, "#confirm-text", "此桌的賽員連結作廢");
    assert.deepEqual(await axe(page, "organiser 108 confirm"), []);
    await shot(page, "organiser-108-confirm");
    await page.keyboard.press("Enter");
    await page.locator("#confirm").waitFor({ state: "hidden" });
    assert.deepEqual((await api("/api/events/1/players")).boards, before, "cancelled: nothing changed");
    assert.equal(await page.locator("#log", { hasText: "第108(1)條" }).count(), 0);
    await page.getByRole("button", { name: /紅黑顛倒/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#o-status[role=status]", "第1輪第1台");
    await waitText(page, "#o-status", "重賽");
    // 108(1): 「無論如何雙方均記技術犯規 1 次」: the replay starts with one a side.
    await waitText(page, "#o-status", "新局開始時雙方各記技術犯規 1 次");
    await waitText(page, "#new-seats", "只顯示一次");
    const links = await page.locator("#new-seats a").evaluateAll((as) => as.map((a) => a.href));
    assert.ok(links.length >= 2 && links.every((l) => /\/(seat|card|proxy)#token=/.test(l)), links.join(" "));
    await waitText(page, "#log", "第108(1)條：第1輪第1台紅黑顛倒");
    let boards = (await api("/api/events/1/players")).boards;
    assert.notEqual(boards[0].table, before[0].table, "board 1 is replayed at a new table");
    await waitText(page, "#boards tbody", `${boards[0].table}`);

    // 108(2): the black players of boards 2 and 3 exchanged, both replayed.
    await page.getByLabel("台", { exact: true }).selectOption({ value: String(boards[1].table) });
    await page.getByLabel("對調哪一方的賽員").selectOption("black");
    await page.getByLabel("與此台對調").selectOption({ value: String(boards[2].table) });
    await page.getByRole("button", { name: /對調賽員/ }).click();
    await waitText(page, "#confirm-text", "第1輪第2台與第3台：黑方賽員對調");
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#o-status", "第108(2)條");
    await waitText(page, "#log", "第108(2)條：第1輪配對更正");
    boards = (await api("/api/events/1/players")).boards;
    assert.equal(boards[1].black, before[2].black);
    assert.equal(boards[2].black, before[1].black);
    assert.equal(await sideways(page), false, "the page scrolls sideways on a tablet");
    const cut = await page.evaluate(() => [...document.querySelectorAll("button")]
      .filter((b) => b.offsetParent !== null)
      .filter((b) => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; })
      .map((b) => b.textContent));
    assert.deepEqual(cut, [], "every button within the tablet's width");
    assert.deepEqual(await axe(page, "organiser 108 1024"), []);
    await shot(page, "organiser-108-tablet");

    // The round is over meanwhile (every game lost by absence, round 2 paired) and the page
    // has not yet asked the event's version (held here, as a slow network would): the
    // page's correction of round 1 is refused aloud, and the page shows round 2.
    await page.route("**/api/events/1/version", (r) => r.abort());
    for (const b of boards.filter((x) => x.table)) {
      run("round", "result", "--event", "1", "--table", String(b.table), "--forfeit", "black");
    }
    run("round", "pair", "--event", "1");
    await page.getByRole("button", { name: /紅黑顛倒/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#o-error[role=alert]", "第1輪已完結");
    await waitText(page, "#boards caption", "第2輪");
    await page.unroute("**/api/events/1/version");

    for (const [w, h, name] of [[390, 844, "phone"], [1920, 1080, "hall"]]) {
      await page.setViewportSize({ width: w, height: h });
      assert.equal(await sideways(page), false, `the page scrolls sideways at ${w}x${h}`);
      assert.deepEqual(await axe(page, `organiser 108 ${name}`), []);
      await shot(page, `organiser-108-${name}`);
    }

    // In English, the log says the same.
    const en = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 },
      () => localStorage.setItem("baoqi-lang", "en"));
    await waitText(en, "#log", "108(1): round 1 board 1: colours reversed");
    await waitText(en, "#boards caption", "Round 2");
    assert.deepEqual(await axe(en, "organiser 108 en"), []);
    assert.deepEqual([...page.errors.filter((e) => !/ 409 /.test(` ${e} `)), ...en.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

// The result grid on the organiser's page (第87條, 附表七 7.9). An absence
// is entered; entering another result over it is refused by the server and the page asks
// first, naming what it replaces, and only with a reason; the change log says who and why;
// the organiser's result is cleared; round 1 is put right after round 2 is paired. The
// referee's monitor, open all along, shows the organiser's result on the board's tile.
test("organiser: the result grid enters, corrects and clears a board's result, and the monitor shows it", async () => {
  let pairing = "";
  const server = await startServer({ demo: false, prepare: (bin, db) => {
    const listing = prepare(bin, db);
    pairing = run("round", "pair", "--event", "1");
    return listing;
  } });
  const chrome = await browser();
  try {
    const monitor = await open(chrome, `${server.base}/monitor#token=${referee}`, { width: 1024, height: 768 });
    await monitor.locator("#tabs .tile").first().waitFor();
    const page = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(page, "#grid caption", "第1輪成績");
    assert.equal(await page.locator("#grid tbody tr").count(), 4);
    assert.deepEqual(await axe(page, "grid 1024"), []);

    // An absence at board 1: entered at once (nothing counts there yet).
    await page.getByRole("button", { name: "更正第1台" }).click();
    assert.equal(await page.evaluate(() => document.activeElement.id), "g-result", "the tap puts the focus on the result");
    await page.selectOption("#g-result", "black_absent");
    await page.click("#grid-form button[type=submit]");
    await waitText(page, "#g-status[role=status]", "第1台：成績為 +/- 黑方缺席");
    await waitText(page, "#grid tbody tr:first-child", "+/-");
    const tile = monitor.locator("#tabs .tile").first();
    await waitText(monitor, "#tabs .tile:first-child", "成績（裁判長登記）+/-");
    // Not played: no clocks that were never started.
    await waitText(monitor, "#tabs .tile:first-child .t-clock", "未對弈");
    assert.deepEqual(await axe(monitor, "monitor with an organiser's result"), []);
    await shot(monitor, "grid-monitor-recorded");

    // A draw over it: refused without a reason, then asked, naming what it replaces.
    await page.selectOption("#g-result", "draw");
    await page.click("#grid-form button[type=submit]");
    await waitText(page, "#g-error[role=alert]", "第1台已有成績：+/- 黑方缺席，紅方不戰而勝（裁判長登記）");
    assert.equal(await page.evaluate(() => document.activeElement.id), "g-reason");
    await page.fill("#g-reason", "記錄卡寫和局");
    await page.click("#grid-form button[type=submit]");
    await waitText(page, "#confirm-text", "已有成績：+/- 黑方缺席，紅方不戰而勝（裁判長登記）。改為 ½-½ 和局？原因：記錄卡寫和局");
    assert.deepEqual(await axe(page, "grid confirm"), []);
    await shot(page, "grid-confirm-tablet");
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#g-status", "成績為 ½-½ 和局");
    await waitText(page, "#log", "第1輪第1台：登記成績 ½-½ 和局（原為 +/- 黑方缺席，紅方不戰而勝），referee（原因：記錄卡寫和局）");
    await waitText(monitor, "#tabs .tile:first-child", "½-½ 和局");

    // Cleared: asked first; the game (not started) counts again.
    await page.selectOption("#g-result", "clear");
    await page.click("#grid-form button[type=submit]");
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#g-status", "裁判長登記已清除");
    await waitText(monitor, "#tabs .tile:first-child", "未開鐘");
    assert.match(await monitor.locator("#tabs .tile:first-child .t-clock").textContent(), /紅方 \d+:\d\d/, "the clocks again");
    assert.equal(await tile.evaluate((b) => b.textContent.includes("裁判長登記")), false);

    // Board 2 played at its table: black starts the clocks, red resigns. The result waits
    // for its verification (7.9); the organiser verifies it from the grid.
    const cells = await (await fetch(`${server.base}/api/events/1/grid?round=1`, { headers: { Authorization: `Bearer ${referee}` } })).json();
    const table2 = cells.find((b) => b.board === 2).table;
    const onServer = (link) => { const u = new URL(link); return `${server.base}${u.pathname}${u.hash}`; };
    const seat = (role) => parseSeats(pairing, onServer).find((s) => s.role === role && s.where === `table ${table2}`).link;
    const black = await open(chrome, seat("black"));
    await black.locator("#press:not([disabled])").click();
    const red = await open(chrome, seat("red"));
    await red.locator("#resign").click();
    await red.locator("#confirm-yes").click();
    await waitText(page, "#grid tbody tr:nth-child(2)", "（未核實）", 15000);
    await page.getByRole("button", { name: "核實第2台的對局結果" }).click();
    await waitText(page, "#confirm-text", "核實第2台");
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#g-status", "第2台：成績為 0-1");
    // Verified once: the organiser's result stands in the grid, the button gone.
    await page.getByRole("button", { name: "核實第2台的對局結果" }).waitFor({ state: "detached" });
    assert.match(await page.locator("#grid tbody tr:nth-child(2) td:nth-child(6)").textContent(), /^0-1/);
    await black.context().close();
    await red.context().close();

    // Round 1 ends by absences, round 2 is paired: round 1's board 2 is put right.
    const round1 = await (await fetch(`${server.base}/api/events/1/grid?round=1`, { headers: { Authorization: `Bearer ${referee}` } })).json();
    for (const b of round1.filter((x) => !x.result)) {
      run("round", "result", "--event", "1", "--round", "1", "--board", String(b.board), "--forfeit", "black");
    }
    run("round", "pair", "--event", "1");
    await page.reload();
    await waitText(page, "#grid caption", "第2輪成績");
    await page.selectOption("#g-round", "1");
    await waitText(page, "#grid caption", "第1輪成績");
    await page.selectOption("#g-board", "2");
    await page.selectOption("#g-result", "red_absent");
    await page.fill("#g-reason", "紅方其實缺席");
    await page.click("#grid-form button[type=submit]");
    await waitText(page, "#confirm-text", "改為 -/+ 紅方缺席");
    await page.getByRole("dialog").getByRole("button", { name: "確定" }).click();
    await waitText(page, "#g-status", "第2台：成績為 -/+ 紅方缺席");
    // Round 2 was paired on the old result: the page says whose score group changed, as
    // `round result` does (87), and what can be done.
    const board2 = round1.find((b) => b.board === 2);
    await waitText(page, "#g-moved[role=alert]", "注意：第2輪已按更正前的積分配對");
    const moved = await page.locator("#g-moved").textContent();
    for (const p of [board2.red, board2.black]) assert.match(moved, new RegExp(`#${p.id} ${p.name}[^：]*：\\d+ → \\d+ 分`), moved);
    assert.match(moved, /baoqi round unpair --event 1/);
    // The grid read at each size: no board, table or name broken across lines (a name was
    // one character a line on a phone and at 1920 px), and on a hall monitor the page's
    // whole width (it sat in a narrow column at the page's foot).
    const gridShape = () => page.evaluate(() => {
      const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
      const cells = [...document.querySelectorAll("#grid tbody tr")].flatMap((tr) => [...tr.children].slice(0, 4));
      return {
        broken: cells.filter((c) => lines(c) > 1).map((c) => c.textContent),
        width: document.querySelector("#grid-section").getBoundingClientRect().width,
        first: document.querySelector("#grid-section").getBoundingClientRect().top < document.querySelector("#players-section").getBoundingClientRect().top,
      };
    });
    for (const [w, h, name] of [[1024, 768, "tablet"], [390, 844, "phone"], [1920, 1080, "hall"]]) {
      await page.setViewportSize({ width: w, height: h });
      assert.equal(await sideways(page), false, `the page scrolls sideways at ${w}x${h}`);
      const shape = await gridShape();
      assert.deepEqual(shape.broken, [], `${name}: a cell broken across lines`);
      assert.ok(shape.first, `${name}: the result grid comes before the register`);
      if (name === "hall") assert.ok(shape.width > 0.9 * w - 60, `hall: the grid is ${shape.width} px wide`);
      assert.deepEqual(await axe(page, `grid ${name}`), []);
      await page.locator("#grid-section").scrollIntoViewIfNeeded();
      await shot(page, `grid-${name}`);
    }
    assert.deepEqual(page.errors.filter((e) => !/ 409 /.test(` ${e} `)), []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

// A bye in the result grid (附表二: an odd number of players): its row names no board and
// no table, says 輪空 where a result would be, and offers nothing to enter; the form leaves
// it out, and the server refuses a result for it.
test("organiser: a bye's row in the result grid has no board, no result and nothing to correct", async () => {
  const server = await startServer({ demo: false, prepare: (bin, db) => {
    const listing = prepare(bin, db);
    run("players", "add", "--event", "1", "--name", "吳五", "--club", "南區");
    run("round", "pair", "--event", "1");
    return listing;
  } });
  const chrome = await browser();
  try {
    const page = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(page, "#grid caption", "第1輪成績");
    const rows = page.locator("#grid tbody tr");
    assert.equal(await rows.count(), 5, "four boards and a bye");
    const bye = page.locator("#grid tbody tr", { hasText: "輪空" });
    assert.equal(await bye.count(), 1);
    const cells = await bye.locator("th, td").allTextContents();
    assert.equal(cells[0], "輪空", `the bye names no board: ${cells}`);
    assert.equal(cells[1], "", "and no table");
    assert.equal(await bye.locator("button").count(), 0, "nothing to correct");
    const options = await page.locator("#g-board option").allTextContents();
    assert.equal(options.length, 4, `the form lists the four boards: ${options}`);
    const cell = (await (await fetch(`${server.base}/api/events/1/grid?round=1`, { headers: { Authorization: `Bearer ${referee}` } })).json())
      .find((c) => !c.black);
    const res = await fetch(`${server.base}/api/events/1/grid/1/${cell.board}`, {
      method: "POST", headers: { Authorization: `Bearer ${referee}`, "Content-Type": "application/json" },
      body: JSON.stringify({ result: "red_wins" }),
    });
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, "bye");
    assert.deepEqual(await axe(page, "grid with a bye"), []);
    assert.deepEqual(page.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

// The desk on the page: the round paired and taken back as `round pair` and `round unpair`
// do, each asked first; a refusal said in the page's words with the tables it names.
test("organiser: the next round paired and the last taken back from the page", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const page = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(page, "#players caption", "名冊（8人");
    await page.click("#p-pair");
    await waitText(page, "#confirm-text", "按賽制配對下一輪？");
    await page.click("#confirm-yes");
    await waitText(page, "#p-status", "第1輪已配對：4 台");
    // Each seat's link once: the 8 players' (the referees' links come from the event file).
    const links = await page.locator("#p-seats a").evaluateAll((as) => as.map((a) => a.href));
    assert.ok(links.length >= 8 && links.every((l) => l.startsWith(`${server.base}/`) && /token=/.test(l)), JSON.stringify(links));
    await waitText(page, "#grid caption", "第1輪成績");
    assert.deepEqual(await axe(page, "organiser rounds"), []);
    await page.locator("#rounds-section").scrollIntoViewIfNeeded();
    await shot(page, "organiser-rounds-tablet");

    // Round 1 has no result yet: the next round is refused, saying why and where.
    await page.click("#p-pair");
    await page.click("#confirm-yes");
    await waitText(page, "#p-error[role=alert]", "上一輪尚有對局未有結果（第 1、2、3、4 桌）");

    // Taken back before its games start: its tables set aside, the grid empty again.
    await page.click("#p-unpair");
    await waitText(page, "#confirm-text", "撤回最後一輪？");
    await page.click("#confirm-yes");
    await waitText(page, "#p-status", "第1輪已撤回：第 1、2、3、4 桌作廢");
    await waitText(page, "#players caption", "名冊（8人，已配對0輪）");
    assert.deepEqual(page.errors.filter((e) => !/ 409 /.test(` ${e} `)), []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
