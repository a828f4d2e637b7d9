// The pages' language: 繁體中文, 简体中文 or English, chosen on every page
// and remembered per device; in English every piece of Chinese left (notation, names) is
// marked lang="zh-Hant" so that a screen reader switches voice; in Simplified no Traditional
// character the map knows is left on the page.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT, open, waitText } from "./harness.js";
import { eventTest, seatAt } from "./event.js";

const TABLE = 7;
const ASSETS = join(ROOT, "server", "assets");

test("the Simplified map covers every character of the pages (else run scripts/hans_map.py)", async () => {
  const { COVERED } = await import(join(ASSETS, "app", "hans.js"));
  const files = [...readdirSync(ASSETS).map((f) => join(ASSETS, f)), ...readdirSync(join(ASSETS, "app")).map((f) => join(ASSETS, "app", f))]
    .filter((f) => /\.(html|js)$/.test(f) && !f.endsWith("hans.js"));
  const missing = new Set();
  for (const f of files) for (const c of readFileSync(f, "utf8").match(/[\u3400-\u9fff]/gu) || []) if (!COVERED.includes(c)) missing.add(c);
  assert.deepEqual([...missing], []);
});

eventTest("i18n", "the pages in English and in Simplified Chinese, the choice remembered", run);

/** Opens `link` with the device's language choice already made. */
function openIn(chrome, link, lang, viewport) {
  // Only the first time: a choice made on the page is the device's from then on.
  return open(chrome, link, viewport, `if (!localStorage.getItem("baoqi-lang")) localStorage.setItem("baoqi-lang", ${JSON.stringify(lang)})`);
}

/** Text nodes with Chinese in them that no `lang="zh-…"` ancestor covers. */
const unmarked = (page) => page.evaluate(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!/[\u3400-\u9fff]/u.test(n.data) || n.parentElement.closest("script, style, .visually-hidden[aria-live]")) continue;
    if (!n.parentElement.closest("[lang]")?.getAttribute("lang").startsWith("zh")) out.push(n.data.trim().slice(0, 40));
  }
  return out;
});

/** What is left in Chinese on an English page, once the names people gave (`names`) and the
 * notation (its words as either side writes them, and ＝) are taken out: it must be nothing. */
async function untranslated(page, names) {
  const { WORD_TEXT } = await import(join(ASSETS, "app", "protocol.js"));
  const notation = new Set(["＝", ...Object.values(WORD_TEXT).flatMap((side) => Object.values(side).flatMap((w) => [...w]))]);
  let text = await page.evaluate(() => document.body.innerText);
  for (const n of names) text = text.split(n).join(" ");
  return (text.match(/[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]+/gu) || [])
    .filter((run) => [...run].some((c) => !notation.has(c)));
}

/** Every name the event gives in Chinese (event, tables, players, proxies, referees),
 * longest first. */
async function namesOf(base) {
  const found = new Set(["繁體中文", "简体中文"]);
  const walk = (v) => {
    if (typeof v === "string") { if (/[\u3400-\u9fff]/u.test(v)) found.add(v); } else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(await (await fetch(`${base}/api/events`)).json());
  walk(await (await fetch(`${base}/api/tables/${TABLE}`)).json());
  return [...found].sort((a, b) => b.length - a.length);
}

async function run({ server, chrome, pages }) {
  const { seats } = server;
  const card = pages.add("card-en", await openIn(chrome, seatAt(seats, "black", TABLE).link, "en", { width: 1024, height: 768 }));
  const red = pages.add("red-hans", await openIn(chrome, seatAt(seats, "red", TABLE).link, "zh-Hans", { width: 390, height: 844 }));
  const mon = pages.add("monitor-en", await openIn(chrome, seatAt(seats, "referee", TABLE).link, "en", { width: 1920, height: 1080 }));
  await waitText(card, "#status", "connected");
  await waitText(mon, "#status", "connected");

  // English: the page says it is English, its controls speak English, and whatever Chinese
  // is left is marked as Chinese.
  for (const page of [card, mon]) {
    assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
    assert.deepEqual(await page.locator("#lang option").allTextContents(), ["繁體中文", "简体中文", "English"]);
  }
  assert.equal((await card.locator("#press").textContent()).trim(), "Press clock");
  assert.match(await card.locator("#h-heard").textContent(), /What is announced/);
  assert.doesNotMatch(await card.locator("#h-heard").textContent(), /報棋/);
  await card.locator("#press").click();
  await waitText(card, "#feed li", "");
  assert.deepEqual(await unmarked(card), [], "every Chinese text on the card UI is marked zh-Hant");
  assert.deepEqual(await unmarked(mon), [], "every Chinese text on the monitor is marked zh-Hant");
  // ... and nothing but names and notation is left in Chinese: on the monitor (its table card,
  // dialogs' summaries, the scoresheet), the player page, the announcing page, and in what the
  // text board answers.
  // The river's inscription is part of the board, and 和／負 the faces of the cards (a
  // picture of the physical card, hidden from readers), like the notation.
  const names = [...await namesOf(server.base), ...seats.map((x) => x.name), "楚 河", "漢 界", "和", "負"];
  const proxy = pages.add("proxy-en", await openIn(chrome, `${seatAt(seats, "referee", TABLE).link.replace("/monitor#", "/proxy#")}&table=${TABLE}`, "en", { width: 1280, height: 900 }));
  const player = pages.add("red-en", await openIn(chrome, seatAt(seats, "red", TABLE).link, "en", { width: 1280, height: 900 }));
  await waitText(proxy, "#status", "connected");
  await waitText(player, "#status", "connected");
  await mon.locator("#sheet-sec, button[data-key=sheet]").first().waitFor({ state: "attached" });
  await mon.keyboard.press("r");
  for (const [what, page] of [["monitor", mon], ["announcing page", proxy], ["player page", player], ["card UI", card]]) {
    assert.deepEqual(await untranslated(page, names), [], `${what} in English: Chinese left beyond names and notation`);
  }
  const answers = await player.evaluate(async (table) => {
    const { command } = await import("/assets/app/nvui.js");
    const { snapshot } = await (await fetch(`/api/tables/${table}`)).json();
    return ["c", "l", "m", "p", "f 5", "r 8", "s e0", "t", "a", "h", "zz"].map((c) => command(c, snapshot, "red"));
  }, TABLE);
  const { WORD_TEXT } = await import(join(ASSETS, "app", "protocol.js"));
  const notation = new Set(Object.values(WORD_TEXT).flatMap((side) => Object.values(side).flatMap((w) => [...w])));
  for (const a of answers) {
    const left = (a.match(/[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]/gu) || []).filter((c) => !notation.has(c));
    assert.deepEqual(left, [], `the text board answers in English: ${a}`);
  }

  // Simplified: characters the map knows are all converted, also in what arrives later.
  await waitText(red, "#turn", "轮到红方");
  const { HANS } = await import(join(ASSETS, "app", "hans.js"));
  const left = await red.evaluate((keys) => [...document.body.innerText].filter((c) => keys.includes(c)), Object.keys(HANS).join(""));
  assert.deepEqual(left, [], "no Traditional character left on the Simplified page");
  assert.equal(await red.evaluate(() => document.documentElement.lang), "zh-Hans");
  await pages.state("01-languages");

  // The choice is made on the page and remembered on the device (the same browser context).
  await red.locator("#lang").selectOption("zh-Hant");
  await waitText(red, "#turn", "輪到紅方");
  await red.reload();
  await waitText(red, "#turn", "輪到紅方");
  assert.equal(await red.evaluate(() => document.documentElement.lang), "zh-Hant");
}
