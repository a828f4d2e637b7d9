// A real server for the focused browser tests: `baoqi event create` makes the event of
// tests/web/fixtures/web-event.toml in a fresh database (one table per test file, short
// clocks where a test needs them), then `baoqi serve` runs it on a free port. The seats'
// links are printed by `event create` for a placeholder address and pointed at the server.
// Shared helpers for the focused tests live here too, next to harness.js.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, axe, shot, waitText } from "./harness.js";

const PLACEHOLDER = "http://baoqi.invalid";

/** Parses the seat lines of `describe` (role, name, where, link). */
function parseSeats(out, base) {
  const seats = [];
  for (const m of out.matchAll(/^\s+(\w+)\s+(\S+(?: \d+)?)\s+(table [\d,]+|all tables)\s+(http\S+)$/gm)) {
    seats.push({ role: m[1], name: m[2], where: m[3], link: m[4].replace(PLACEHOLDER, base) });
  }
  return seats;
}

/** Creates the test event and serves it; resolves with `{ base, seats, stop }`. */
export async function startEvent(file = join(ROOT, "tests", "web", "fixtures", "web-event.toml")) {
  const bin = process.env.BAOQI_BIN || join(ROOT, "target", "debug", "baoqi");
  if (!existsSync(bin)) throw new Error(`no baoqi binary at ${bin}: run cargo build first`);
  const dir = mkdtempSync(join(tmpdir(), "baoqi-web-event-"));
  const db = join(dir, "web.db");
  const listing = execFileSync(bin, ["event", "create", "--config", file, "--db", db, "--url", PLACEHOLDER], { encoding: "utf8" });
  const child = spawn(bin, ["serve", "--db", db, "--listen", "127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUST_LOG: "warn" },
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => { err += d; });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      if (/tables running/.test(out)) { clearTimeout(timer); resolve(); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}:\n${out}\n${err}`)); });
  });
  const base = out.match(/listening on (http:\/\/\S+)/)[1];
  const stop = () => {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  return { base, seats: parseSeats(listing, base), stop, output: () => listing + out + err };
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
  await waitText(page, "#answer", `走子 ${mv}：已接受`);
}

/** Gives words one by one with the page's word keys, each acknowledged. */
export async function sayWords(page, words) {
  for (const w of words) {
    await page.locator(`#keys button[data-word="${w}"]`).click();
    await waitText(page, "#answer", `報「${w}」：已接受`);
  }
}

/** Runs a monitor ruling by its keyboard shortcut, optionally filling fields, and confirms. */
export async function rule(mon, key, fill = async () => {}) {
  await mon.locator("body").focus();
  await mon.keyboard.press(key);
  await mon.locator("#dlg[open]").waitFor();
  await fill(mon);
  await mon.locator("#dlg-yes").click();
  await mon.locator("#dlg:not([open])").waitFor({ state: "attached" });
}
