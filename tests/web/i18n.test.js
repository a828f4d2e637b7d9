// The pages' language (issue 15, item 8): 繁體中文, 简体中文 or English, chosen on every page
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
