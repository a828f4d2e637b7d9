// A real screen reader for the browser tests: GNOME Orca driving a headful Chromium under
// Xvfb, with a 40-cell braille display emulated by BRLTTY (its XWindow driver, on a second
// Xvfb) in contracted Hong Kong braille (liblouis zh-hk), speech sent to speech-dispatcher
// on ALSA's null device. What the player hears and feels is read back from Orca's debug log:
// every `SPEECH OUTPUT`, `BRAILLE LINE` and `VISIBLE` (the 40 cells) line, as Orca's own
// regression tests read it. Keys go through xdotool and the accessibility bus to Orca, as a
// keyboard's would (its key echo, browse and focus modes and quick keys all act).
//
// Everything of a session lies in one scratch folder (HOME, the runtime folder, the profile,
// the logs, the D-Bus socket); every process it starts carries a marker in its environment,
// and `stop()` ends exactly those (the recorded ones, then any that carry the marker: the
// browser's helpers, the accessibility bus, the speech daemon Orca spawns), never by name.
//
// Debian: orca xvfb xdotool dbus-x11 python3-pyatspi x11-utils openbox brltty brltty-x11
// speech-dispatcher espeak-ng python3-louis (scripts/setup.sh test installs them).

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, statSync, chmodSync, openSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { scratchDir } from "./harness.js";

const ORCA = "/usr/bin/orca";
const TABLES = "/usr/share/liblouis/tables";

/** Whether this machine can run Orca (the packages above); the test command requires it. */
export function orcaAvailable() {
  const need = [ORCA, "/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/brltty", "/usr/bin/openbox", "/usr/bin/dbus-daemon",
    "/usr/libexec/at-spi-bus-launcher", "/usr/bin/chromium", `${TABLES}/zh-hk.ctb`];
  const missing = need.filter((p) => !existsSync(p));
  if (missing.length && process.env.BAOQI_REQUIRE_ORCA) {
    throw new Error(`BAOQI_REQUIRE_ORCA is set but missing: ${missing.join(", ")} (scripts/setup.sh test)`);
  }
  return missing.length === 0;
}

/** Orca's settings: speech on, braille on in contracted Hong Kong braille, live-region
 * messages flashed on the display for 5 s (Orca's default), nothing else changed. */
function orcaSettings() {
  const profile = ["Default", "default"];
  const general = {
    enableSpeech: true, enableBraille: true, enableContractedBraille: true,
    brailleContractionTable: `${TABLES}/zh-hk.ctb`, enableFlashMessages: true, brailleFlashTime: 5000,
    flashIsPersistent: false, profile, activeProfile: profile, startingProfile: profile,
  };
  return { general, profiles: { default: { profile, pronunciations: {}, keybindings: {}, ...general } }, pronunciations: {}, keybindings: {} };
}

/** speech-dispatcher with no sound card: ALSA's null device (with none, it hung Orca). */
const SPEECHD = 'AudioOutputMethod "alsa"\nAudioALSADevice "null"\nAddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\nDefaultModule espeak-ng\n';

/** One line of what Orca presented: `speech`, `braille` (the whole line) or `visible` (the
 * 40 cells shown), with its text and its place in the log. */
const LINE = /^(\d\d:\d\d:\d\d\.\d+) - (?:SPEECH OUTPUT: '(.*?)' ?(?:\{.*)?$|BRAILLE LINE: {2}'(.*)'$|\s*VISIBLE: {2}'(.*)', cursor=\d+)/;

/**
 * A screen-reader session on `url`. Resolves once Orca speaks and Chromium has started;
 * `lang` is the browser's language list (the page follows it).
 */
export async function orcaSession(url, { lang = "zh-TW,zh" } = {}) {
  const dir = scratchDir("baoqi-orca-");
  const pids = [];
  for (const d of ["home/.config/speech-dispatcher", "runtime", "tmp", "brltty", "orca", "profile/Default"]) mkdirSync(join(dir, d), { recursive: true });
  chmodSync(join(dir, "runtime"), 0o700);
  const env = {
    PATH: process.env.PATH, HOME: join(dir, "home"), XDG_RUNTIME_DIR: join(dir, "runtime"), TMPDIR: join(dir, "tmp"),
    LANG: "C.UTF-8", BAOQI_ORCA_SESSION: dir, ACCESSIBILITY_ENABLED: "1", GTK_MODULES: "gail:atk-bridge", NO_AT_BRIDGE: "0",
  };
  const start = (name, cmd, args, extra = {}, cwd = dir) => {
    const out = openSync(join(dir, `${name}.log`), "a");
    const child = spawn(cmd, args, { cwd, env: { ...env, ...extra }, stdio: ["ignore", out, out], detached: true });
    pids.push(child.pid);
    return child;
  };
  const session = { dir, env, pids, log: join(dir, "orca-debug.log") };
  try {
    env.DISPLAY = `:${await xserver(dir, pids, "screen", "1280x800x24")}`;
    const brailleDisplay = `:${await xserver(dir, pids, "braille", "800x120x24")}`;
    env.DBUS_SESSION_BUS_ADDRESS = await sessionBus(start, dir);
    start("atspi", "/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"]);
    await sleep(1000);
    start("openbox", "/usr/bin/openbox", ["--sm-disable"]);
    const socket = freeBrlapiSocket();
    start("brltty", "/usr/bin/brltty", ["-n", "-e", "-q", "-b", "xw", "-B", "lines=1,columns=40,model=bare", "-x", "no", "-s", "no",
      "-A", `host=:${socket},auth=none`, "-P", join(dir, "brltty", "pid"), "-U", join(dir, "brltty"), "-W", join(dir, "brltty")],
    { DISPLAY: brailleDisplay }, join(dir, "brltty"));
    Object.assign(env, { BRLAPI_HOST: `:${socket}`, BRLAPI_AUTH: "none" });
    await until(() => existsSync(`/var/lib/BrlAPI/${socket}`), 5000, "BRLTTY's BrlAPI socket");
    writeFileSync(join(dir, "home/.config/speech-dispatcher/speechd.conf"), SPEECHD);
    writeFileSync(join(dir, "orca/user-settings.conf"), JSON.stringify(orcaSettings()));
    // Orca opens its debug file block-buffered: a copy of its launcher writes it line by line.
    const launcher = readFileSync(ORCA, "utf8").replace("open(args.debug_file, 'w')", "open(args.debug_file, 'w', buffering=1)");
    writeFileSync(join(dir, "orca-launcher.py"), launcher);
    start("orca", "/usr/bin/python3", [join(dir, "orca-launcher.py"), "-u", join(dir, "orca"), "--debug-file", session.log]);
    await until(() => existsSync(session.log) && readFileSync(session.log, "utf8").includes("SPEECH OUTPUT"), 40000, "Orca's first words");
    writeFileSync(join(dir, "profile/Default/Preferences"), JSON.stringify({ translate: { enabled: false }, intl: { accept_languages: lang, selected_languages: lang } }));
    // --test-type: no "unsupported command-line flag: --no-sandbox" infobar, which came
    // late on a loaded machine and took Orca's focus from the page as the player typed.
    start("chromium", "/usr/bin/chromium", ["--no-sandbox", "--test-type", `--user-data-dir=${join(dir, "profile")}`, "--no-first-run", "--no-default-browser-check",
      "--disable-gpu", "--disable-dev-shm-usage", "--force-renderer-accessibility", "--password-store=basic",
      "--disable-features=Translate,MediaRouter,OptimizationHints", "--disable-background-networking", "--disable-component-update",
      // An app window: the page alone, no toolbar to take the keyboard's focus (a Tab went
      // to the browser's own buttons once, the page never focused).
      "--disable-sync", "--disable-quic", "--window-position=0,0", "--window-size=1280,800", `--app=${url}`]);
  } catch (e) {
    await stop(session);
    throw e;
  }
  return new Session(session);
}

/** A running session: keys in, what Orca said and brailled out. */
class Session {
  constructor(s) { Object.assign(this, s); }

  /** Where the log stands now: what comes after it is `since(mark)`. */
  mark() { return existsSync(this.log) ? statSync(this.log).size : 0; }

  /** Every line Orca presented after `mark`, in order. */
  since(mark = 0) {
    const text = readFileSync(this.log).subarray(mark).toString("utf8");
    return text.split("\n").map((l) => l.match(LINE)).filter(Boolean)
      .map((m) => ({ at: m[1], kind: m[2] !== undefined ? "speech" : m[3] !== undefined ? "braille" : "visible", text: m[2] ?? m[3] ?? m[4] }));
  }

  /** What Orca spoke after `mark`. */
  spoken(mark = 0) { return this.since(mark).filter((l) => l.kind === "speech").map((l) => l.text); }

  /** Waits until Orca has spoken something matching `re` after `mark`; returns it. */
  async hears(re, mark = 0, timeout = 10000) {
    let found;
    await until(() => (found = this.spoken(mark).find((s) => re.test(s))), timeout, `Orca to speak ${re}`)
      .catch((e) => { throw new Error(`${e.message}; it spoke: ${JSON.stringify(this.spoken(mark).slice(-25))}`); });
    return found;
  }

  /** Presses keys (xdotool names: "Tab", "Return", "alt+Up"). */
  keys(...keys) { this.xdotool(["key", "--clearmodifiers", "--delay", "150", ...keys]); }

  /** Types ASCII text one key at a time, `delay` ms apart; resolves when the last key is
   * pressed (the test goes on meanwhile: an opponent may speak while he types). */
  type(text, delay = 120) {
    return new Promise((resolve, reject) => {
      const child = spawn("/usr/bin/xdotool", ["type", "--clearmodifiers", "--delay", String(delay), text], { env: this.env, stdio: "ignore" });
      child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`xdotool type exited ${code}`))));
    });
  }

  /** Whether Orca last said it is in browse mode (a key is then a quick key, not typing). */
  browsing() {
    const modes = this.spoken().filter((x) => x === "Browse mode" || x === "Focus mode");
    return modes.at(-1) === "Browse mode";
  }

  /** Types a command and presses Enter, then waits `settle` ms. Under the whole suite's
   * load Orca was seen to fall into browse mode as typing began (its window's focus events
   * arrived late), the rest of the keys then taken as quick keys: the player goes back to
   * the command field (the page's Alt+C, then Tab and Shift+Tab, which bring focus mode),
   * empties it and types again (at most three times; each time is in the transcript). */
  async command(text, settle = 600) {
    for (let attempt = 1; ; attempt++) {
      // The focus first goes to the command field, in focus mode, wherever it was: on a
      // loaded machine a focus left on a button once took the space of "b h2e2" as a press
      // (the resign button, then its dialog's 確定), and a Tab back to the field once left
      // Orca in browse mode without a word.
      await this.toCommandField();
      const mark = this.mark();
      this.keys("ctrl+a", "BackSpace");
      await this.type(text);
      await sleep(150);
      if (!this.spoken(mark).includes("Browse mode") && !this.browsing()) break;
      if (attempt === 3) throw new Error(`Orca took "${text}" in browse mode three times`);
    }
    this.keys("Return");
    await sleep(settle);
  }

  /** Brings the focus to the command field in focus mode: the page's Alt+C, Tab and
   * Shift+Tab; when Orca still says browse mode, its own key for focus mode (Orca+A). Until
   * Orca says the field is where the focus is (a fresh clone's run once ended the Tabs on
   * the 認負 button), at most three times. */
  async toCommandField() {
    for (let attempt = 0; attempt < 3; attempt++) {
      const mark = this.mark();
      await this.backToCommandField();
      // Orca+A toggles: pressed again if Orca was in focus mode after all.
      for (let press = 0; press < 2 && this.browsing(); press++) {
        const m = this.mark();
        this.keys("Insert+a");
        await this.hears(/^(Focus|Browse) mode$/, m, 2000).catch(() => {});
      }
      if (this.onCommandField(mark)) return;
    }
  }

  /** Whether the last place Orca named after `mark` is the command field. */
  onCommandField(mark) {
    const places = this.spoken(mark).filter((s) => / (entry|push button|panel|link|dialog|heading level \d)\.?$/.test(s));
    return /^指令（h 說明） entry/.test(places.at(-1) ?? "");
  }

  /** Alt+C (the page's key for its command field): Orca announces the field, in focus
   * mode (a page still loading can leave Orca in browse mode without a word). */
  async backToCommandField() {
    const mark = this.mark();
    this.keys("alt+c");
    // Announced when the focus was elsewhere; silent when it was there already.
    await this.hears(/^指令（h 說明） entry/, mark, 2000).catch(() => {});
    // Tab on and back: a focus that arrives by Tab brings Orca's focus mode.
    this.keys("Tab", "shift+Tab");
    await sleep(500);
  }

  xdotool(args) { execFileSync("/usr/bin/xdotool", args, { env: this.env, stdio: "ignore" }); }

  /** Ends every process of the session. */
  stop() { return stop(this); }
}

/** `text` in contracted Hong Kong braille as Orca's log writes it (liblouis's ASCII braille),
 * for comparing with what the display shows. */
export function brailled(text) {
  return execFileSync("/usr/bin/python3", ["-c", "import sys, louis; print(louis.translateString(['zh-hk.ctb'], sys.stdin.read()), end='')"],
    { input: text, encoding: "utf8" });
}

/** An X server on a free display number (it writes the number when ready). */
async function xserver(dir, pids, name, geometry) {
  const file = join(dir, `${name}.display`);
  writeFileSync(file, "");
  const fd = openSync(file, "w");
  const out = openSync(join(dir, `${name}.log`), "a");
  const child = spawn("/usr/bin/Xvfb", ["-displayfd", "3", "-screen", "0", geometry, "-nolisten", "tcp", "-ac"],
    { cwd: dir, env: { PATH: process.env.PATH, BAOQI_ORCA_SESSION: dir }, stdio: ["ignore", out, out, fd], detached: true });
  pids.push(child.pid);
  await until(() => readFileSync(file, "utf8").trim(), 10000, `Xvfb (${name})`);
  return readFileSync(file, "utf8").trim();
}

/** A private D-Bus session bus; resolves to its address. */
async function sessionBus(start, dir) {
  const socket = join(dir, "runtime", "bus");
  start("dbus", "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", `--address=unix:path=${socket}`]);
  await until(() => existsSync(socket), 5000, "the D-Bus session bus");
  return `unix:path=${socket}`;
}

/** A BrlAPI socket number nobody uses (`/var/lib/BrlAPI/N`). */
function freeBrlapiSocket() {
  for (let i = 0; i < 200; i++) {
    const n = 20 + Math.floor(Math.random() * 220);
    if (!existsSync(`/var/lib/BrlAPI/${n}`) && !existsSync(`/var/lib/BrlAPI/${n}.lock`)) return n;
  }
  throw new Error("no free BrlAPI socket number");
}

/** Ends the session's processes: TERM, then KILL what is left; the marker finds the ones
 * the recorded processes started. */
async function stop({ dir, pids }) {
  const ours = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/environ`, "latin1").split("\0").includes(`BAOQI_ORCA_SESSION=${dir}`);
    } catch {
      return false;
    }
  }).map(Number);
  const signal = (sig) => {
    for (const pid of new Set([...pids, ...ours()])) {
      try { process.kill(pid, sig); } catch { /* gone */ }
    }
  };
  signal("SIGTERM");
  for (let i = 0; i < 20 && ours().length; i++) await sleep(100);
  signal("SIGKILL");
}

/** Resolves when `check()` is truthy, polling; rejects after `ms` naming `what`. */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
