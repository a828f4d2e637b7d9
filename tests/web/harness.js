// Test harness: a real `baoqi serve --demo` on a free port with a temporary database, and
// Debian's Chromium driven by playwright-core (never a downloaded browser), axe-core
// injected into every page, screenshots under target/screenshots/.

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..", "..");
export const SHOTS = join(ROOT, "target", "screenshots");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** The `baoqi` binary under test (`BAOQI_BIN`, else the debug build). */
export function baoqiBin() {
  const bin = process.env.BAOQI_BIN || join(ROOT, "target", "debug", "baoqi");
  if (!existsSync(bin)) throw new Error(`no baoqi binary at ${bin}: run cargo build first`);
  return bin;
}

/** Reads the seat lines `baoqi` prints: `  red  王芳  table 2  http://…/seat#token=…`. */
export function parseSeats(text, fix = (link) => link) {
  const seats = [];
  for (const m of text.matchAll(/^\s+(\w+)\s+(\S+(?: \d+)?)\s+(table [\d,]+|all tables)\s+(http\S+)$/gm)) {
    seats.push({ role: m[1], name: m[2], where: m[3], link: fix(m[4]) });
  }
  return seats;
}

/** A fresh folder under the system's temporary one, removed when the test process ends. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts `baoqi serve` on a free port over a fresh database; resolves with
 * `{ base, seats, stop, freeze, crash, restart, output }` once its tables run. `prepare(bin, db)` may fill the
 * database first and return a listing of seats to read instead of the server's own
 * (`--demo` prints them); `demo` adds the demo event; `store` another store than a fresh
 * file (a PostgreSQL URL). */
export async function startServer({ demo = true, prepare = null, store = null } = {}) {
  const bin = baoqiBin();
  const dir = mkdtempSync(join(tmpdir(), "baoqi-web-"));
  const db = store ?? join(dir, "web.db");
  const listing = prepare ? prepare(bin, db) : null;
  let run = await launch(bin, ["serve", "--db", db, "--listen", "127.0.0.1:0", ...(demo ? ["--demo"] : [])]);
  const base = run.out().match(/listening on (http:\/\/\S+)/)[1];
  const stop = () => {
    run.child.kill("SIGCONT");
    run.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  // `freeze(true)` stops the server dead (SIGSTOP: sockets open, nothing answered), as a hung
  // server looks to its clients; `freeze(false)` lets it go on.
  const freeze = (on) => run.child.kill(on ? "SIGSTOP" : "SIGCONT");
  // `crash()` kills it at once (SIGKILL, as a power cut would); `restart()` starts it again
  // on the same database and address, where the pages reconnect by themselves.
  const crash = () => new Promise((resolve) => { run.child.once("exit", resolve); run.child.kill("SIGKILL"); });
  const restart = async () => {
    run = await launch(bin, ["serve", "--db", db, "--listen", new URL(base).host]);
  };
  const seats = listing === null ? parseSeats(run.out()) : parseSeats(listing.text, listing.fix(base));
  return { base, seats, stop, freeze, crash, restart, output: () => (listing?.text ?? "") + run.out() + run.err() };
}

/** Runs `baoqi` with `args` until it says its tables run; resolves with the child and its
 * output so far. */
async function launch(bin, args) {
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "warn" } });
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
  return { child, out: () => out, err: () => err };
}

/** Chromium as STYLE.md says: Debian's binary, headless, no network but loopback. */
export async function browser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** The viewport of the referee monitor's pages (a wide screen). */
export const MONITOR_VIEW = { width: 1400, height: 1000 };
/** The viewport of the card UI's pages (a tablet held upright). */
export const CARD_VIEW = { width: 1024, height: 1366 };

/** A page with its console errors collected; `init` (a function) runs in the page before its
 * own scripts, e.g. to record what `navigator.vibrate` or a WebSocket is given. */
export async function open(b, url, viewport = { width: 1280, height: 900 }, init = null) {
  const context = await b.newContext({ viewport, locale: "zh-HK" });
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error" && !/Failed to load resource/.test(m.text())) page.errors.push(m.text()); });
  page.on("response", (r) => { if (r.status() >= 400) page.errors.push(`${r.status()} ${r.url()}`); });
  await page.goto(url);
  return page;
}

/** Runs axe-core on the page; returns the violations (with their nodes) as text. */
export async function axe(page, label) {
  const has = await page.evaluate(() => typeof window.axe !== "undefined");
  // Evaluated, not added as a script element: the pages' Content-Security-Policy runs no
  // inline script (and must not be loosened for the tests).
  if (!has) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ") + " — " + n.failureSummary).join("\n    ")}`);
  });
  return violations.map((v) => `[${label}] ${v}`);
}

/** Saves a full-page screenshot as target/screenshots/<name>.png. */
export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Holds a card for 1.3 s with the pointer (the deliberate gesture of the card UI). */
export async function holdPointer(page, selector) {
  // The pointer only reaches what is on the screen.
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(1300);
  await page.mouse.up();
}

/** Holds a card with the keyboard: focus it, hold Space for 1.3 s. */
export async function holdKey(page, selector) {
  await page.locator(selector).focus();
  await page.keyboard.down(" ");
  await page.waitForTimeout(1300);
  await page.keyboard.up(" ");
}

/** Waits until `selector` contains `text`. */
export async function waitText(page, selector, text, timeout = 8000) {
  await page.locator(selector, { hasText: text }).first().waitFor({ timeout });
}
