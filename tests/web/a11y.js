// What a keyboard or screen-reader user gets from a page, checked from the outside: where the
// focus is and whether it can be seen; which live regions read a message; whether a live
// region re-reads the same message; the screen-reader mode's commands (lichess nvui habit).

import assert from "node:assert/strict";

/** The focused element in words, and whether its focus is visible: it matches
 * `:focus-visible`, has an outline of at least 2 px, and takes room on the screen. */
export async function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return { what: "body", visible: false };
    const cs = getComputedStyle(a);
    const visible = a.matches(":focus-visible") && cs.outlineStyle !== "none"
      && parseFloat(cs.outlineWidth) >= 2 && a.getClientRects().length > 0;
    const what = `${a.tagName.toLowerCase()}${a.id ? "#" + a.id : ""} ${(a.getAttribute("aria-label") || a.textContent || "").trim().slice(0, 40)}`;
    return { what, visible };
  });
}

/** Asserts the focus is on an element matching `selector` and visibly so. */
export async function expectFocus(page, selector) {
  const f = await focused(page);
  assert.ok(await page.evaluate((s) => document.activeElement?.matches(s), selector), `focus on ${selector}, not on ${f.what}`);
  assert.ok(f.visible, `the focus on ${f.what} is visible`);
}

/** Presses Tab (Shift+Tab with `back`) until the focus is on an element matching `selector`,
 * at most `max` times; every stop on the way must show its focus (past the last one the
 * focus leaves the page, then starts again from the top). Resolves with the number of key
 * presses. */
export async function tabTo(page, selector, { max = 40, back = false } = {}) {
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const f = await focused(page);
    assert.ok(f.visible || f.what === "body", `tab stop ${n} (${f.what}) shows its focus`);
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return n;
  }
  throw new Error(`${selector} not reached in ${max} tab stops; focus on ${(await focused(page)).what}`);
}

/**
 * Records what every live region of the page reads from now on, in `window.heard`: after
 * each change, `{ region, live, text }` of the live region it happened in — an element with
 * aria-live polite or assertive, or role log, status or alert (unless aria-live="off"), as a
 * screen reader sees it. A history, so that a message replaced a moment later still counts.
 */
export async function listen(page) {
  await page.evaluate(() => {
    if (window.heard) return;
    window.heard = [];
    const implicit = { log: "polite", status: "polite", alert: "assertive" };
    const liveOf = (e) => (e.getAttribute("aria-live") || implicit[e.getAttribute("role")] || "off");
    new MutationObserver((changes) => {
      const regions = new Set();
      for (const c of changes) {
        const node = c.target.nodeType === 1 ? c.target : c.target.parentElement;
        for (let e = node; e; e = e.parentElement) if (e.nodeType === 1 && liveOf(e) !== "off") regions.add(e);
      }
      for (const r of regions) window.heard.push({ region: r.id || r.getAttribute("role"), live: liveOf(r), text: r.textContent });
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
  });
}

/** Waits until a live region has read `text` (since `listen`), then asserts that exactly one
 * did, with the `politeness` given ("assertive" for what is urgent, else "polite"). */
export async function heardOnce(page, text, politeness) {
  await page.waitForFunction((t) => window.heard.some((h) => h.text.includes(t)), text, { timeout: 8000 });
  const regions = await page.evaluate((t) => [...new Set(window.heard.filter((h) => h.text.includes(t))
    .map((h) => `${h.region}:${h.live}`))], text);
  assert.equal(regions.length, 1, `「${text}」 is read by exactly one live region, not ${JSON.stringify(regions)}`);
  assert.match(regions[0], new RegExp(`:${politeness}$`), `「${text}」 is read ${politeness}ly`);
}

/** Records every text a node shows (after each DOM change) in `window.liveTexts[selector]`. */
export async function recordTexts(page, selector) {
  await page.evaluate((s) => {
    window.liveTexts ??= {};
    const seen = (window.liveTexts[s] = []);
    const node = document.querySelector(s);
    new MutationObserver(() => seen.push(node.textContent))
      .observe(node, { childList: true, characterData: true, subtree: true });
  }, selector);
}

/** The texts recorded by `recordTexts`. */
export async function recordedTexts(page, selector) {
  return page.evaluate((s) => window.liveTexts[s], selector);
}

/** Runs a screen-reader command in the Commands box (typed, then Enter); resolves with its
 * answer as the page shows it. */
export async function command(page, text) {
  await page.locator("#cmd").fill(text);
  await page.locator("#cmd").press("Enter");
  return page.locator("#cmdout").textContent();
}
