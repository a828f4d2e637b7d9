// The standings page: an 8-player inclusive Swiss made by the organiser's
// commands (event create, players import, round pair, round result --forfeit) and played two
// rounds in (round 1 decided by absences, 87; round 2 paired, one absence, the rest in play),
// then `/standings#event=1` in Chinese and in English: the pairings of any round with the
// points 黃氏計分法 gives (不戰而勝 12, 缺席 0), the standings and the crosstable as real
// tables (captions, column and row headers), a text view read line by line, the hall
// screen, print; Chinese names marked lang="zh-Hant" on the English page; no axe violation
// and no sideways scrolling on a phone.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, open, scratchDir, shot, startServer, waitText } from "./harness.js";

const FIX = join(ROOT, "tests", "web", "fixtures");

let run = null;

/** Round 1 (tables 1-4) all absences; round 2 (tables 5-8): table 5 black absent. */
function prepare(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  run("event", "create", "--config", join(FIX, "tournament.toml"));
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  let text = run("round", "pair", "--event", "1");
  // 87: absences decide round 1, so that round 2 can be paired.
  for (const [table, side] of [[1, "black"], [2, "red"], [3, "both"], [4, "black"]]) {
    run("round", "result", "--event", "1", "--table", String(table), "--forfeit", side);
  }
  text += run("round", "pair", "--event", "1");
  run("round", "result", "--event", "1", "--table", "5", "--forfeit", "black");
  return { text, fix: () => (link) => link };
}

/** Whether the page scrolls sideways. */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test("standings: every round's pairings, the crosstable, a text view, the hall and print", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const zh = await open(chrome, `${server.base}/standings#event=1`, { width: 1024, height: 768 });
    await waitText(zh, "#pairings caption", "第2輪配對（本輪）");
    await waitText(zh, "#standings caption", "名次（第1輪後）");
    const shape = await zh.evaluate(() => ({
      cols: [...document.querySelectorAll("#standings thead th")].map((th) => th.scope),
      rows: document.querySelectorAll("#standings tbody th[scope=row]").length,
      rounds: [...document.querySelectorAll("#round option")].map((o) => o.textContent),
      current: document.querySelector("#pairings tbody tr").textContent,
      cross: [...document.querySelectorAll("#cross thead th")].map((th) => `${th.scope}:${th.textContent}`),
      crossRows: document.querySelectorAll("#cross tbody th[scope=row]").length,
    }));
    assert.ok(shape.cols.length >= 4 && shape.cols.every((s) => s === "col"), JSON.stringify(shape));
    assert.equal(shape.rows, 8);
    assert.deepEqual(shape.rounds, ["第1輪", "第2輪（本輪）"]);
    assert.match(shape.current, /黑方缺席，紅方不戰而勝/);
    assert.match(shape.current, /12 : 0/, "the points 黃氏計分法 gives a 不戰而勝 and a 缺席");
    // Every tie-break written for every player, as the CSV has them (a printed list left
    // most of them empty); head-to-head blank, never 0, where the players level have not all
    // met (after round 1's absences, none has).
    const breaks = await zh.evaluate(() => {
      const heads = [...document.querySelectorAll("#standings thead th")].map((th) => th.textContent).slice(4);
      return [...document.querySelectorAll("#standings tbody tr")].map((tr) =>
        Object.fromEntries(heads.map((h, i) => [h, tr.children[4 + i].textContent])));
    });
    assert.ok(breaks.length === 8 && "對賽結果" in breaks[0] && Object.keys(breaks[0]).length >= 2, JSON.stringify(breaks));
    for (const b of breaks) {
      assert.equal(b["對賽結果"], "", `head-to-head among players who never met: ${JSON.stringify(b)}`);
      for (const [k, v] of Object.entries(b)) if (k !== "對賽結果") assert.notEqual(v, "", `${k}: ${JSON.stringify(b)}`);
    }
    // The other boards of round 2 have not started their clocks: not "in play" on the hall's screen.
    const waiting = await zh.evaluate(() =>
      [...document.querySelectorAll("#pairings tbody tr")].slice(1).map((tr) => tr.children[2].textContent));
    assert.ok(waiting.length > 0 && waiting.every((w) => w === "未開始"), JSON.stringify(waiting));
    // The crosstable: a real table, a column per round, a row header per player.
    assert.deepEqual(shape.cross, ["col:序", "col:姓名", "col:第1輪", "col:第2輪", "col:積分"]);
    assert.equal(shape.crossRows, 8);
    // 組別獎: each category present, its best-placed players.
    const prizes = await zh.evaluate(() => ({
      heads: [...document.querySelectorAll("#prizes h3")].map((h) => h.textContent),
      blind: document.querySelector("#prizes ol li").textContent,
    }));
    assert.deepEqual(prizes.heads, ["全失明", "部份失明", "聾啞", "健視"]);
    assert.match(prizes.blind, /^第\d+名 李明（視障協會），積分 \d+/);
    assert.deepEqual(await axe(zh, "standings zh"), []);
    await shot(zh, "standings-zh-1024");

    // The previous round, chosen in the menu: round 1's four absences, as the rules score them.
    await zh.selectOption("#round", "1");
    await waitText(zh, "#pairings caption", "第1輪配對");
    const round1 = await zh.evaluate(() =>
      [...document.querySelectorAll("#pairings tbody tr")].map((tr) => tr.textContent));
    assert.equal(round1.length, 4);
    assert.match(round1[0], /黑方缺席，紅方不戰而勝.*12 : 0/);
    assert.match(round1[1], /紅方缺席，黑方不戰而勝.*0 : 12/);
    assert.match(round1[2], /雙方缺席.*0 : 0/);
    assert.match(zh.url(), /round=1/, "the address keeps the round");
    // Each crosstable cell reads in full: colour, opponent, result, points.
    const cells = await zh.evaluate(() =>
      [...document.querySelectorAll("#cross td.cross .visually-hidden")].map((s) => s.textContent));
    assert.ok(cells.some((c) => /^執紅對 .+（\d），不戰而勝，12分$/.test(c)), cells.join("\n"));
    assert.ok(cells.some((c) => /，缺席，0分$/.test(c)), cells.join("\n"));
    assert.ok(cells.some((c) => /，未有結果$/.test(c)), "round 2's games in play");

    // The text view: sentences, line by line.
    await zh.goto(`${server.base}/standings#event=1&round=1&view=text`);
    await zh.reload();
    await waitText(zh, "#pairings h3", "第1輪配對");
    const lines = await zh.evaluate(() =>
      [...document.querySelectorAll("#pairings li")].map((li) => li.textContent));
    assert.match(lines[0], /^第一台：.+（紅）不戰而勝，.+ 缺席（12：0）$/, lines.join("\n"));
    assert.match(lines[1], /^第二台：.+（紅）缺席，.+ 不戰而勝（0：12）$/, lines.join("\n"));
    const text = await zh.evaluate(() => ({
      tables: document.querySelectorAll("main table").length,
      standings: document.querySelector("#standings li").textContent,
      cross: document.querySelector("#cross li li").textContent,
    }));
    assert.equal(text.tables, 0, "the text view draws no table");
    assert.match(text.standings, /^第1名.*：.+積分 \d+/);
    assert.match(text.cross, /^第1輪：/);
    assert.deepEqual(await axe(zh, "standings zh text"), []);
    await shot(zh, "standings-zh-text");

    const en = await open(chrome, `${server.base}/standings#event=1`, { width: 1024, height: 768 },
      () => localStorage.setItem("baoqi-lang", "en"));
    await waitText(en, "#standings caption", "Standings");
    await waitText(en, "#pairings caption", "Pairings, round 2 (current)");
    const marked = await en.evaluate(() =>
      [...document.querySelectorAll("#standings tbody th[scope=row]")]
        .every((th) => th.closest("[lang='zh-Hant']") || th.querySelector("[lang='zh-Hant']")));
    assert.ok(marked, "every Chinese name is marked lang=zh-Hant on the English page");
    assert.equal(await en.evaluate(() => document.documentElement.lang), "en");
    assert.deepEqual(await axe(en, "standings en"), []);
    // On a phone the page never scrolls sideways (the English headings are the widest): a
    // wide table scrolls in its own box, which the keyboard reaches.
    await en.setViewportSize({ width: 390, height: 844 });
    assert.equal(await sideways(en), false, "the standings page scrolls sideways on a phone");
    assert.deepEqual(await axe(en, "standings en phone"), []);
    await shot(en, "standings-en-phone");
    await en.goto(`${server.base}/standings#event=1&view=text`);
    await en.reload();
    await waitText(en, "#pairings h3", "Pairings, round 2");
    assert.equal(await sideways(en), false, "the text view scrolls sideways on a phone");
    assert.match(await en.locator("#pairings li").first().textContent(),
      /^Board 1: .+ \(red\) wins without play, .+ absent \(12–0\)$/);
    assert.deepEqual(await axe(en, "standings en text phone"), []);

    // The hall screen: the current round's pairings, large.
    const hall = await open(chrome, `${server.base}/standings#event=1&view=hall`, { width: 1920, height: 1080 });
    await waitText(hall, "#pairings caption", "第2輪配對（本輪）");
    const big = await hall.evaluate(() => ({
      size: parseFloat(getComputedStyle(document.querySelector("#pairings td")).fontSize),
      cross: getComputedStyle(document.querySelector("#sec-cross")).display,
    }));
    assert.ok(big.size >= 32, `the hall's pairings are read from afar: ${big.size}px`);
    assert.equal(big.cross, "none");
    assert.deepEqual(await axe(hall, "standings hall"), []);
    await shot(hall, "standings-hall-1920");

    // Print: no buttons, black on white, every section.
    const paper = await open(chrome, `${server.base}/standings#event=1`, { width: 794, height: 1123 });
    await waitText(paper, "#cross caption", "交叉表");
    await paper.emulateMedia({ media: "print" });
    const printed = await paper.evaluate(() => ({
      buttons: [...document.querySelectorAll("button, select")].filter((b) => b.offsetParent !== null).length,
      background: getComputedStyle(document.body).backgroundColor,
      head: getComputedStyle(document.querySelector("#standings thead th")).backgroundColor,
      sections: [...document.querySelectorAll("main section")].filter((s) => s.offsetParent !== null).length,
    }));
    assert.deepEqual(printed, { buttons: 0, background: "rgb(255, 255, 255)", head: "rgb(255, 255, 255)", sections: 3 });
    await shot(paper, "standings-print");
    const pdf = await paper.pdf({ format: "A4", printBackground: true });
    const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length;
    assert.equal(pages, 2, "the pairings and standings on one A4 page, the crosstable on the next");

    const csv = await (await fetch(`${server.base}/api/events/1/standings.csv`)).text();
    // fetch's text() drops the BOM a spreadsheet needs.
    assert.match(csv, /^place,shared,player,name,club,score,Head-to-head,Buchholz,Sonneborn-Berger,withdrawn,category,rating\n/);
    const pairings = await (await fetch(`${server.base}/api/events/1/pairings.csv`)).text();
    assert.equal(pairings.trim().split("\n").length, 1 + 8);
    // A withdrawal (89(2)): table 5's absent black player withdraws; his results
    // stand, and the standings mark him, in the table and in the text view.
    const json = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
    const five = json.rounds[1].boards.find((b) => b.table === 5).black;
    run("players", "withdraw", "--event", "1", "--player", String(five.id));
    const after = await open(chrome, `${server.base}/standings#event=1`, { width: 1024, height: 768 });
    await waitText(after, "#standings tbody", "（已退出，第89(2)條）");
    const gone = after.locator("#standings tbody tr", { hasText: "已退出" });
    assert.equal(await gone.count(), 1);
    assert.match(await gone.textContent(), new RegExp(five.name));
    assert.deepEqual(await axe(after, "standings withdrawn"), []);
    assert.deepEqual([...zh.errors, ...en.errors, ...hall.errors, ...paper.errors, ...after.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

/** Runs `body` with a server of the event `prep` makes and a browser, both closed after. */
async function withServer(prep, body) {
  const server = await startServer({ demo: false, prepare: prep });
  const chrome = await browser();
  try {
    await body(server, chrome);
  } finally {
    await chrome.close();
    server.stop();
  }
}

/** A 5-round Swiss of the same 8 players, every round decided by absences (87). */
function prepareFive(bin, db) {
  run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const config = join(scratchDir("baoqi-five-"), "five.toml");
  writeFileSync(config, readFileSync(join(FIX, "tournament.toml"), "utf8").replace(/^rounds = 3$/m, "rounds = 5"));
  run("event", "create", "--config", config);
  run("players", "import", "--event", "1", join(FIX, "players.csv"));
  for (let r = 0; r < 5; r++) {
    run("round", "pair", "--event", "1");
    for (let k = 1; k <= 4; k++) {
      run("round", "result", "--event", "1", "--table", String(r * 4 + k), "--forfeit", ["black", "red"][(r + k) % 2]);
    }
  }
  return { text: "", fix: () => (link) => link };
}

test("a phone shows every round of a 5-round crosstable, each name on one line", () => withServer(prepareFive, async (server, chrome) => {
  const phone = await open(chrome, `${server.base}/standings#event=1`, { width: 390, height: 844 });
  await waitText(phone, "#standings caption", "名次（第5輪後）");
  await waitText(phone, "#cross thead", "第5輪");
  const seen = await phone.evaluate(() => {
    const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
    const box = (id) => { const b = document.querySelector(`#${id}`); return { scroll: b.scrollWidth, client: b.clientWidth }; };
    return {
      cross: box("cross"),
      standings: box("standings"),
      broken: [...document.querySelectorAll("#standings tbody th bdi, #cross tbody th bdi")].filter((b) => lines(b) > 1).map((b) => b.textContent),
    };
  });
  // Round 5's column was past the crosstable's edge, and names broke a character a line.
  assert.ok(seen.cross.scroll <= seen.cross.client + 1, `the crosstable's rounds all on the screen: ${JSON.stringify(seen.cross)}`);
  assert.ok(seen.standings.scroll <= seen.standings.client + 1, `the standings' columns all on the screen: ${JSON.stringify(seen.standings)}`);
  assert.deepEqual(seen.broken, [], "a name broken across lines");
  assert.equal(await sideways(phone), false);
  assert.deepEqual(await axe(phone, "standings five rounds phone"), []);
  await phone.locator("#cross").scrollIntoViewIfNeeded();
  await shot(phone, "standings-five-rounds-phone");
  assert.deepEqual(phone.errors, []);
}));

test("find your board: every player of the round by the strokes of his name, with his board, colour and opponent, on one A4 page", () => withServer(prepare, async (server, chrome) => {
  for (const [size, label] of [[{ width: 1024, height: 768 }, "tablet"], [{ width: 390, height: 844 }, "phone"]]) {
    const page = await open(chrome, `${server.base}/standings#event=1&view=find`, size);
    await waitText(page, "#find caption", "第2輪：找座位（按姓名筆畫）");
    const rows = await page.evaluate(() => [...document.querySelectorAll("#find tbody tr")]
      .map((tr) => ({ name: tr.querySelector("bdi").textContent, board: tr.children[1].textContent, colour: tr.children[2].textContent,
        other: tr.children[3].querySelector("bdi")?.textContent })));
    // By the strokes of the surname: 王 4, 李 7, 周 林 8, 張 陳 11, 黃 12, 趙 14.
    assert.deepEqual(rows.map((r) => r.name), ["王芳", "李明", "周四", "林二", "張華", "陳一", "黃三", "趙強"]);
    for (const r of rows) {
      const other = rows.find((o) => o.name === r.other);
      assert.ok(other && other.board === r.board && other.other === r.name && other.colour !== r.colour, JSON.stringify([r, other]));
    }
    assert.deepEqual([...new Set(rows.map((r) => r.board))].sort(), ["1", "2", "3", "4"]);
    assert.equal(await page.locator("#sec-standings").isHidden(), true, "the list alone");
    assert.equal(await sideways(page), false, `${label}: no sideways scrolling`);
    assert.deepEqual(await axe(page, `find your board ${label}`), []);
    await shot(page, `standings-find-${label}`);
    if (label === "tablet") {
      await page.emulateMedia({ media: "print" });
      const pdf = await page.pdf({ format: "A4", printBackground: true });
      assert.equal((pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length, 1, "one A4 page");
    }
    assert.deepEqual(page.errors, []);
  }
}));

test("table cards: a card for each board of the round, its number and both players, two to an A4 page", () => withServer(prepare, async (server, chrome) => {
  const page = await open(chrome, `${server.base}/standings#event=1&view=cards`, { width: 1024, height: 768 });
  await page.locator(".board-card").nth(3).waitFor();
  const cards = await page.evaluate(() => [...document.querySelectorAll(".board-card")].map((c) => ({
    board: c.querySelector(".card-board").textContent, round: c.querySelector(".card-round").textContent,
    names: [...c.querySelectorAll("bdi")].map((b) => b.textContent) })));
  const json = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
  const round2 = json.rounds[1].boards.filter((b) => b.black);
  assert.deepEqual(cards, round2.map((b) => ({ board: `第${b.board}台`, round: "第2輪", names: [b.red.name, b.black.name] })));
  assert.equal(await page.locator("#sec-standings").isHidden(), true, "the cards alone");
  assert.deepEqual(await axe(page, "table cards"), []);
  await shot(page, "standings-cards-tablet");
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  assert.equal((pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length, 2, "4 cards, two to a page");
  assert.deepEqual(page.errors, []);
}));

test("scoresheets: one for each board of the round (84, 附表四 第三部份), printed with the event, round, board and players, one to an A4 page", () => withServer(prepare, async (server, chrome) => {
  const page = await open(chrome, `${server.base}/standings#event=1&view=sheets`, { width: 1024, height: 768 });
  await page.locator(".score-sheet").nth(3).waitFor();
  const json = await (await fetch(`${server.base}/api/events/1/standings.json`)).json();
  const boards = json.rounds[1].boards.filter((b) => b.black);
  const sheets = await page.evaluate(() => [...document.querySelectorAll(".score-sheet")].map((s) => ({
    text: s.textContent, rows: s.querySelectorAll("table.sheet-moves tbody tr").length })));
  assert.equal(sheets.length, boards.length);
  sheets.forEach((s, i) => {
    const b = boards[i];
    for (const part of [json.name, "對賽輪數：第2輪", `對賽枱號：第${b.board}台`, "頁數：第 1 頁", b.red.name, b.black.name,
      "對賽日期", "比賽地點", "終局原因", "紅方簽署", "黑方簽署", "終局裁判姓名", "終局裁判簽署"]) {
      assert.ok(s.text.includes(part), `${part}: ${s.text.slice(0, 200)}`);
    }
    assert.equal(s.rows, 40, "forty 回合 to write");
  });
  assert.deepEqual(await axe(page, "scoresheets"), []);
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  assert.equal((pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length, boards.length, "one to a page");
  await page.emulateMedia({ media: "screen" });
  await shot(page, "standings-sheets-tablet");
  assert.deepEqual(page.errors, []);
}));
