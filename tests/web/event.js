// A real server for the focused browser tests: `baoqi event create` makes the event of
// tests/web/fixtures/web-event.toml in a fresh database (one table per test file, short
// clocks where a test needs them), then `baoqi serve` runs it on a free port. The seats'
// links are printed by `event create` for a placeholder address and pointed at the server.
// Shared helpers for the focused tests live here too, next to harness.js.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ROOT, axe, browser, shot, startServer, waitText } from "./harness.js";
import { expectFocus, tabTo } from "./a11y.js";

const PLACEHOLDER = "http://baoqi.invalid";

/** Creates the test event and serves it; resolves with `{ base, seats, stop, output }`. */
export function startEvent(file = join(ROOT, "tests", "web", "fixtures", "web-event.toml")) {
  return startServer({
    demo: false,
    prepare: (bin, db) => ({
      text: execFileSync(bin, ["event", "create", "--config", file, "--db", db, "--url", PLACEHOLDER], { encoding: "utf8" }),
      fix: (base) => (link) => link.replace(PLACEHOLDER, base),
    }),
  });
}

/** The seat of `role` at table `table` (tables are numbered in file order; each has its
 * own referee). */
export function seatAt(seats, role, table) {
  const covers = (where) => where === "all tables" || where.replace("table ", "").split(",").includes(String(table));
  const s = seats.find((x) => x.role === role && (table === undefined || covers(x.where)));
  if (!s) throw new Error(`no ${role} seat at table ${table} in ${JSON.stringify(seats)}`);
  return s;
}

/** Open pages of a test, axe-checked and photographed together in each state. */
export class Pages {
  constructor(prefix) { this.prefix = prefix; this.pages = {}; this.violations = []; }
  add(name, page) { this.pages[name] = page; return page; }
  /** Closes a page that is done with (its errors are checked first). */
  async close(name) {
    const page = this.pages[name];
    assert.deepEqual(page.errors, [], `${name}: page errors`);
    delete this.pages[name];
    await page.context().close();
  }
  /** axe-core on the pages (`only`: the names of those whose state is new; default all) in
   * the state they are in now, then a screenshot of each; checked side by side. */
  async state(label, only = null) {
    const t0 = Date.now();
    const chosen = Object.entries(this.pages).filter(([name]) => !only || only.includes(name));
    const found = await Promise.all(chosen.map(async ([name, page]) => {
      const v = await axe(page, `${this.prefix} ${name} / ${label}`);
      await shot(page, `${this.prefix}-${name}-${label}`);
      return v;
    }));
    this.violations.push(...found.flat());
    if (process.env.TIMING) console.error(`${this.prefix} ${label}: ${Date.now() - t0} ms`);
  }
  /** Screenshots and feeds of every page, for a failed run. */
  async failed() {
    for (const [name, page] of Object.entries(this.pages)) {
      await shot(page, `${this.prefix}-${name}-failed`).catch(() => {});
      const feed = await page.locator("#feed, #log").first().textContent({ timeout: 500 }).catch(() => "");
      console.error(`--- ${name}:\n${feed.slice(0, 1200)}`);
    }
  }
  /** No page error, no axe violation. */
  errors() {
    const errs = Object.entries(this.pages).flatMap(([n, p]) => p.errors.map((e) => `${n}: ${e}`));
    return { errs, violations: this.violations };
  }
}

/** Clicks the board points of an ICCS move (`h2e2`) on a page's visual board. */
export async function boardMove(page, mv, scope = "#board") {
  await page.locator(`${scope} button[data-pt="${mv.slice(0, 2)}"]`).click();
  await page.locator(`${scope} button[data-pt="${mv.slice(2, 4)}"]`).click();
  await waitText(page, "#answer", new RegExp(`走子 ${mv}（.+）：已接受`));
}

/** Mirrors the opponent's move `mv` on the page's own board and confirms it (7.4(2)(g)(ii)),
 * waiting for the answer: the card UI's 確認對手着法, the player page's 確認複讀. */
export async function mirror(page, mv) {
  // Owed once the opponent's turn is over: the page then asks for the confirmation.
  await page.locator("#confirm-repeat").waitFor({ state: "visible" });
  await boardMove(page, mv);
  await page.locator("#confirm-repeat").click();
  const what = new URL(page.url()).pathname === "/card" ? "確認對手着法" : "確認複讀";
  await waitText(page, "#answer", `${what}：已接受`);
}

/** The deaf black player's move at the 共融賽 table, on the card UI `cd` and the monitor
 * `mon` (its table 2 shown): he mirrors red's move `mirrorOf` on his board
 * (7.4(2)(g)(ii)), moves `mv`, signals, and the referee announces `words` from the monitor
 * by keyboard (7.4(2)(d)(i)). */
export async function deafMove(cd, mon, mirrorOf, mv, words) {
  await mirror(cd, mirrorOf);
  await boardMove(cd, mv);
  await cd.locator("#signal").click();
  await waitText(mon, "#table-2", "代為報棋");
  await mon.keyboard.press("a");
  await mon.locator("#dlg[open]").waitFor();
  await mon.keyboard.type(words);
  await mon.keyboard.press("Enter");
  await waitText(mon, "#answer", "已接受");
}

/** Gives words one by one with the page's word keys, each acknowledged. */
export async function sayWords(page, words) {
  for (const w of words) {
    await page.locator(`#keys button[data-word="${w}"]`).click();
    await waitText(page, "#answer", `報「${w}」：已接受`);
  }
}

/**
 * Runs a monitor ruling with the keyboard only, as a referee without a mouse would: its
 * shortcut opens the dialog (the focus on its first field), `fill(mon)` types into the fields
 * (arrow keys in a list, Tab to the next field), `state` (a label) has axe-core check the open
 * dialog, then Tab reaches 確定裁決 and Enter confirms. The focus must not be in a text field
 * when it starts (the shortcuts are letters).
 */
export async function rule(mon, key, fill = async () => {}, { pages = null, state = null } = {}) {
  await mon.keyboard.press(key);
  await mon.locator("#dlg[open]").waitFor();
  await expectFocus(mon, "#dlg-fields input, #dlg-fields select, #dlg-yes");
  await fill(mon);
  if (state) await pages.state(state, ["monitor"]);
  if (!(await mon.evaluate(() => document.activeElement.id === "dlg-yes"))) await tabTo(mon, "#dlg-yes", { max: 6 });
  await mon.keyboard.press("Enter");
  await mon.locator("#dlg:not([open])").waitFor({ state: "attached" });
}

/** One focused browser test against its own server (`start`: the test event by default) and
 * its own Chromium: `body({ server, chrome, pages })` runs the scenario; on failure every page
 * is photographed and its feed printed; at the end no page may have an error or an axe
 * violation. */
export function eventTest(prefix, title, body, start = startEvent) {
  let server;
  let chrome;
  const pages = new Pages(prefix);
  before(async () => {
    server = await start();
    chrome = await browser();
  });
  after(async () => {
    await chrome?.close();
    server?.stop();
  });
  test(title, async () => {
    try {
      await body({ server, chrome, pages });
    } catch (e) {
      await pages.failed();
      throw e;
    }
    const { errs, violations } = pages.errors();
    assert.deepEqual(errs, [], "page errors");
    assert.deepEqual(violations, [], `axe violations:\n${violations.join("\n")}`);
  });
}
