// The standings page's hall screen, as the organiser saw it fail: it never paged, so the
// standings and the crosstable never reached the hall. Now it pages through the current
// round's pairings, the standings and the crosstable by itself, each page whole on the
// screen at a hall's, a tablet's and a phone's size, and no axe violation in any state.
// (Its own file, out of screens.test.js: the longest of the browser tests starts first.)

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { ROOT, open, scratchDir, shot, startServer, waitText } from "./harness.js";
import { eventTest } from "./event.js";

const HALL = { width: 1920, height: 1080 };
const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };
const FIX = join(ROOT, "tests", "web", "fixtures");

// ---- The standings page's hall screen ----

const PLAYERS = 40;
let runCli = null;

/** A 3-round Swiss of 40 players (20 boards a round, more than a screen holds): round 1
 * decided by absences (87), round 2 paired and half of it decided. */
function prepareTournament(bin, path) {
  runCli = (...args) => execFileSync(bin, [...args, "--db", path], { encoding: "utf8" });
  const dir = scratchDir("baoqi-hall-");
  const csv = join(dir, "players.csv");
  const clubs = ["視障協會", "東區", "聾人會", "西區"];
  writeFileSync(csv, `姓名,所屬團體,種子,類別,代理\n${[...Array(PLAYERS).keys()].map((i) =>
    `棋手${i + 1},${clubs[i % 4]},${i + 1},健視,`).join("\n")}\n`);
  const text = runCli("event", "create", "--config", join(FIX, "tournament.toml"));
  runCli("players", "import", "--event", "1", csv);
  runCli("round", "pair", "--event", "1");
  decide(1, PLAYERS / 2);
  runCli("round", "pair", "--event", "1");
  decide(PLAYERS / 2 + 1, PLAYERS / 4);
  return { text, fix: () => (link) => link };
}

/** Records absences (87) at `count` tables from `first`, in turn red's, black's, both. */
function decide(first, count) {
  for (let n = first; n < first + count; n++) {
    runCli("round", "result", "--event", "1", "--table", String(n), "--forfeit", ["black", "red", "both"][n % 3]);
  }
}

/** What the hall screen shows now: the section, its rows, the page line, whether it fits. */
const hallNow = (page) => page.evaluate(() => {
  const sec = [...document.querySelectorAll("main section")].filter((x) => x.offsetParent !== null);
  const rows = sec.flatMap((x) => [...x.querySelectorAll("tbody tr")].filter((r) => r.offsetParent !== null)
    .map((r) => r.querySelector("th[scope=row]").textContent));
  const box = sec[0]?.querySelector(".table-scroll");
  return {
    sections: sec.map((x) => x.id), rows, line: document.querySelector("#hall-page").textContent,
    fits: document.documentElement.scrollHeight <= innerHeight + 1 && sec[0].getBoundingClientRect().bottom <= innerHeight + 1,
    wide: document.documentElement.scrollWidth > innerWidth || (box && box.scrollWidth > box.clientWidth + 1),
    size: parseFloat(getComputedStyle(sec[0].querySelector("td") || sec[0]).fontSize),
  };
});

/** Watches the hall screen (turning a page a second) through one full cycle of its pages,
 * page 1 to page n; resolves with each page as `hallNow` saw it, with a shot of each once it
 * is uncovered. A page missed while a shot was taken is waited for in the next cycle. */
async function cycle(page, label, pages = null) {
  const at = (k) => page.waitForFunction((n) => document.querySelector("#hall-page").textContent.startsWith(`第 ${n} 頁`), k, { timeout: 60000 });
  await toFirst(page);
  await at(1);
  const n = Number((await page.locator("#hall-page").textContent()).match(/共 (\d+) 頁/)[1]);
  const seen = [];
  for (let k = 1; k <= n; k++) {
    if (k > 1) await at(k);
    seen.push(await hallNow(page));
    if (pages) {
      // The page as the hall sees it once uncovered: paged no further while its shot is
      // taken (a shot takes longer than the test's one-second page).
      await page.click("#hall-pause");
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      if ((await page.locator("#hall-page").textContent()).startsWith(`第 ${k} 頁`)) {
        await pages.state(`${label}-p${k}`, ["hall"]);
      }
      await page.click("#hall-pause");
    }
  }
  return seen;
}

/** Every page of the hall screen at its present size, turned by its own 下一頁 while paused
 * (that the pages turn by themselves is `cycle`'s to see, at the hall's size and with no
 * motion): each page as `hallNow` saw it once it settled, a shot of each with `pages`. */
async function stepped(page, label, pages = null) {
  await toFirst(page);
  await page.click("#hall-pause");
  const n = Number((await page.locator("#hall-page").textContent()).match(/共 (\d+) 頁/)[1]);
  const seen = [];
  for (let k = 1; k <= n; k++) {
    if (k > 1) await page.click("#hall-next");
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    seen.push(await hallNow(page));
    if (pages) await pages.state(`${label}-p${k}`, ["hall"]);
  }
  await page.click("#hall-pause");
  return seen;
}

/** Brings the first page up, paused, by the screen's own 下一頁 (the pages turn by themselves
 * from there on): a cycle need not wait a whole turn of the screen to begin. */
async function toFirst(page) {
  await page.waitForFunction(() => /^第 \d+ 頁/.test(document.querySelector("#hall-page").textContent));
  const first = async () => (await page.locator("#hall-page").textContent()).startsWith("第 1 頁");
  if (await first()) return;
  await page.click("#hall-pause");
  for (let i = 0; i < 60 && !(await first()); i++) await page.click("#hall-next");
  await page.click("#hall-pause");
}

/** The names of the rows of a section's pages, in order. */
const rowsOf = (seen, sec) => seen.filter((p) => p.sections[0] === sec).flatMap((p) => p.rows);

eventTest("screens-hall", "the hall screen pages through the pairings, the standings and the crosstable by itself, standings first once the last round is over", hallPages,
  () => startServer({ demo: false, prepare: prepareTournament }));

async function hallPages({ server, chrome, pages }) {
  const hall = pages.add("hall", await open(chrome, `${server.base}/standings#event=1&view=hall&page=1`, HALL));
  await waitText(hall, "#pairings caption", "第2輪配對（本輪）");
  await listenAnimations(hall);

  // A round under way: the pairings first, then the standings, then the crosstable, each
  // over as many pages as it needs, every page on the screen whole and said to be k of n.
  const seen = await cycle(hall, "01-1920", pages);
  const order = seen.map((p) => p.sections.join());
  assert.deepEqual([...new Set(order)], ["sec-pairings", "sec-standings", "sec-cross"], order.join(" "));
  seen.forEach((p, i) => {
    assert.equal(p.line, `第 ${i + 1} 頁，共 ${seen.length} 頁`);
    assert.ok(p.fits, `page ${i + 1} fits the 1920×1080 screen`);
    assert.ok(!p.wide, `page ${i + 1} is no wider than the screen`);
    assert.ok(p.size >= 28, `page ${i + 1} is read from afar: ${p.size}px`);
  });
  assert.equal(rowsOf(seen, "sec-pairings").length, PLAYERS / 2, "every board of round 2, once");
  assert.equal(new Set(rowsOf(seen, "sec-standings")).size, PLAYERS, "every player in the standings, once");
  assert.equal(rowsOf(seen, "sec-standings").length, PLAYERS);
  assert.equal(rowsOf(seen, "sec-cross").length, PLAYERS, "every player in the crosstable, once");
  assert.ok(seen.length > 3, `${seen.length} pages`);
  assert.ok(await hall.evaluate(() => window.slides > 0), "a page slides in");

  // Paused, the page stays; resumed, it turns again.
  await hall.locator("#hall-pause").click();
  const held = await hall.locator("#hall-page").textContent();
  await hall.waitForTimeout(2500);
  assert.equal(await hall.locator("#hall-page").textContent(), held, "paused: the page stays");
  await waitText(hall, "#hall-pause", "繼續翻頁");
  await pages.state("02-paused", ["hall"]);
  await hall.locator("#hall-pause").click();
  await hall.waitForFunction((l) => document.querySelector("#hall-page").textContent !== l, held, { timeout: 4000 });

  // A tablet and a phone: the same pages, each on the screen, never wider than it.
  for (const [size, label] of [[TABLET, "03-1024"], [PHONE, "04-390"]]) {
    await resize(hall, size);
    const small = await stepped(hall, label, pages);
    small.forEach((p, i) => {
      assert.ok(p.fits, `${label} page ${i + 1} fits the screen`);
      assert.ok(!p.wide, `${label} page ${i + 1}: no sideways panning (${JSON.stringify(p)})`);
    });
    assert.equal(rowsOf(small, "sec-standings").length, PLAYERS);
  }

  // A reader who prefers no motion: nothing slides, the pages turn all the same.
  const still = pages.add("still", await open(chrome, `${server.base}/standings#event=1&view=hall&page=1`, HALL,
    null));
  await still.emulateMedia({ reducedMotion: "reduce" });
  await listenAnimations(still);
  const calm = await cycle(still, "05-still");
  assert.ok(calm.length > 3, "the pages turn");
  assert.equal(await still.evaluate(() => window.slides), 0, "no page slides in");
  await pages.close("still");

  // The last round over: the standings come first.
  await resize(hall, HALL);
  decide(PLAYERS / 2 + 1 + PLAYERS / 4, PLAYERS / 4);
  runCli("round", "pair", "--event", "1");
  decide(PLAYERS + 1, PLAYERS / 2);
  await hall.reload();
  await waitText(hall, "#standings caption", "名次（第3輪後）");
  const final = await stepped(hall, "06-final", pages);
  assert.deepEqual([...new Set(final.map((p) => p.sections.join()))], ["sec-standings", "sec-cross", "sec-pairings"]);
  assert.ok(final.every((p) => p.fits && !p.wide), "every page on the screen");
  // Three rounds in the crosstable still fit a phone.
  await resize(hall, PHONE);
  const phone = await stepped(hall, "07-final-390");
  assert.ok(phone.every((p) => p.fits && !p.wide), `every page on the phone: ${JSON.stringify(phone.filter((p) => !p.fits || p.wide))}`);
  await shot(hall, "screens-hall-final-390-last");
}

/** Gives the hall screen another size, and it the time to measure its pages again. */
async function resize(page, size) {
  await page.setViewportSize(size);
  await page.waitForTimeout(800);
}

/** Counts the pages that slide in (`window.slides`). */
async function listenAnimations(page) {
  await page.evaluate(() => {
    window.slides = 0;
    document.addEventListener("animationstart", () => { window.slides += 1; });
  });
}
