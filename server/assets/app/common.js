// Shared by every web client: the WebSocket connection (protocol v2, docs/protocol.md),
// the per-table state (the arbiter's snapshot, refreshed after each burst of events),
// the game timeline clock, the live region and the words used on every page; the feed,
// banner, answer line, word keys and clocks of the player, card and announcing pages.

import { KEY_WORDS, VERSION } from "./protocol.js";
import { localize, t } from "./i18n.js";
import { SIDE, fmtTime, sayTime, phrase, words } from "./text.js";
import { answer, answerFor } from "./refusals.js";

export { SIDE, fmtTime, sayTime };
export {
  CARD, KIND, BOARD_NAME, boardName, describe, cardText, checkOutcome, words, word, move,
  result, call, pieceOf, kindOf, article, articles, unspeakable, warning,
  finding, endCause, BOARD_RESULT, boardResult,
} from "./text.js";
export { rejection, errorCode } from "./refusals.js";
export { FILES, expand, pieceAt } from "./notation.js";
export { PIECES, pieceName } from "./text.js";
export { timeline, clockNow } from "./clock.js";
export { announcer, hushLiveRegions } from "./voice.js";
import { hushLiveRegions } from "./voice.js";
import { clockNow, timeline } from "./clock.js";
import { typedKeys, splitWords, designate } from "./notation.js";
export { t };

// Every page imports this module first: the page takes its language before it draws.
localize();

/** `$("id")`. */
export const $ = (id) => document.getElementById(id);

/**
 * Shows the page's `#who` line, `— name（role） · table`, with each name isolated in a
 * `<bdi>`: a right-to-left name never reorders the rest of the line.
 */
export function showWho(name, role = "", table = "") {
  $("who").replaceChildren("— ", el("bdi", {}, name), role, ...(table ? [" · ", el("bdi", {}, table)] : []));
}

/** Creates an element with attributes and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    // Through the CSSOM: the Content-Security-Policy refuses a style attribute.
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Where the tab keeps this page's token (session storage: this tab only, gone when it
 * closes; one key a page, so a tab that moves from a seat's page to the organiser's never
 * offers the one's token to the other). */
const TOKEN_KEY = `baoqi.token:${location.pathname}`;
/** The token when session storage cannot be written (a browser that refuses it). */
let keptToken = "";

/**
 * Takes the link's token (`#token=…`) into the tab's session storage and clears it from the
 * address (replaced, not pushed: no history entry keeps it); the rest of the fragment stays.
 * A token is a seat's credential, the monitor's the organiser's too: it should not sit in
 * view, nor in the browser's history, all session. Runs when this module loads; a page that
 * takes a new link in the same tab (`hashchange`) calls it again.
 */
export function adoptToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const given = params.get("token");
  if (given === null) return;
  keptToken = given;
  try { sessionStorage.setItem(TOKEN_KEY, given); } catch { /* kept in memory only */ }
  params.delete("token");
  const rest = params.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
}
adoptToken();

/** The seat's token: from its link, kept in the tab's session storage (a reload finds it). */
export function token() {
  try { return sessionStorage.getItem(TOKEN_KEY) || keptToken; } catch { return keptToken; }
}

/** A board move as a page echoes it, with its words as the board it is made on shows the
 * piece (not in ICCS only): 走子 h2e2（炮二平五）. */
export function moveLabel(mv, placement) {
  const d = designate(placement, mv);
  const said = d ? words(d.tokens, d.side) : "";
  return t(`走子 ${mv}${said ? `（${said}）` : ""}`, `Move ${mv}${said ? ` (${said})` : ""}`);
}

/** The words of a typed announcement, one per character (notation.js). */
export const typedWords = splitWords;

/**
 * One tab stop for a group of buttons (a toolbar): the arrow keys, Home and End move between
 * them, Tab leaves the group. `node`'s buttons may be replaced later; call again then.
 */
export function roving(node) {
  const buttons = () => [...node.querySelectorAll("button")];
  const all = buttons();
  all.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; });
  if (node.dataset.roving) return;
  node.dataset.roving = "1";
  node.addEventListener("focusin", (e) => {
    for (const b of buttons()) b.tabIndex = b === e.target ? 0 : -1;
  });
  node.addEventListener("keydown", (e) => {
    const list = buttons();
    const i = list.indexOf(document.activeElement);
    if (i < 0) return;
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: list.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    list[(to + list.length) % list.length].focus();
  });
}

// ---- What the player pages share: the feed, the banner, the answer line, the word keys ----

/** Asks before what cannot be undone: the page's `<dialog id="confirm">` shows `text`,
 * Cancel focused (autofocus); `act` runs only when the danger button is chosen. */
export function confirmThen(text, act) {
  const d = $("confirm");
  $("confirm-text").textContent = text;
  d.returnValue = "";
  d.onclose = () => { if (d.returnValue === "yes") act(); };
  hushLiveRegions();
  d.showModal();
}

/** Adds a line at the top of the page's `#feed` (an `alert` line stands out), keeping the
 * newest 200. The feed is not a live region: what must be heard goes through `say`. */
/** The links to download table `table`'s game in each record format: PGN, XQF
 * for 象棋演播室, CBF for 象棋橋, DhtmlXQ for 東萍象棋網. */
export function downloadLinks(table) {
  const formats = [["game.pgn", "PGN"], ["game.xqf", t("XQF（象棋演播室）", "XQF (XQStudio)")],
    ["game.cbf", t("CBF（象棋橋）", "CBF (XiangQi Bridge)")], ["game.dhtmlxq", t("DhtmlXQ（東萍）", "DhtmlXQ (dpxq)")]];
  return [t("下載棋譜：", "Download the game: "),
    ...formats.flatMap(([f, label], i) => [i ? " · " : "", el("a", { href: `/api/tables/${table}/${f}`, download: "" }, label)])];
}

/** Shows `node` (the page's `#downloads`) once the game is over, filled for `table`. */
export function showDownloads(node, table, over) {
  if (!node) return;
  node.hidden = !over || table === null || table === undefined;
  if (!node.hidden && node.dataset.table !== String(table)) {
    node.replaceChildren(...downloadLinks(table));
    node.dataset.table = String(table);
  }
}

export function feed(text, alert = false) {
  if (!text) return;
  $("feed").prepend(el("li", { class: alert ? "alert" : "" }, text));
  while ($("feed").children.length > 200) $("feed").lastChild.remove();
}

let bannerTimer = null;
/** Shows `text` in the page's pinned `#banner` (`kind` "alert" or "foul", drawn apart); it
 * goes after `ms` milliseconds, or (no `ms`) when the page takes it away or the reader
 * dismisses it with ✕. Not a live region either. */
export function banner(text, ms = null, kind = "alert") {
  const b = $("banner");
  if (!b.querySelector(".banner-text")) {
    b.replaceChildren(el("span", { class: "banner-text" }),
      el("button", { type: "button", class: "banner-close", onclick: () => b.classList.remove("on") }, t("知道了 ✕", "OK ✕")));
  }
  b.querySelector(".banner-text").textContent = text;
  b.dataset.kind = kind;
  b.classList.add("on");
  clearTimeout(bannerTimer);
  if (ms === null) return;
  bannerTimer = setTimeout(() => b.classList.remove("on"), ms);
}

/** Flashes the screen and vibrates with `pattern` where the device can (a time
 * alert is seen and felt, never only heard). */
export function flash(pattern) {
  document.body.classList.remove("flash");
  void document.body.offsetWidth;
  document.body.classList.add("flash");
  navigator.vibrate?.(pattern);
}

/**
 * The `send(command, what)` of a page: the command goes to the arbiter for `table()`, the
 * page's `#answer` shows `what` on its way and then its answer; a refusal is read at once
 * (`say(…, true)`) and added to the feed, where it stays after the next answer replaces it
 * (a player who reads rather than hears must not miss it). What was accepted is read as the
 * event it brings. Resolves true when accepted.
 */
export function commandSender(conn, table, say, me = () => null) {
  return async (command, what) => {
    $("answer").textContent = `${what}${t("：傳送中…", ": sending…")}`;
    const a = await conn.command(command, table());
    const msg = answerFor(a, me());
    const said = msg ? `${what}${t("：", ": ")}${msg}` : `${what}${t("：已接受", ": accepted")}`;
    $("answer").textContent = said;
    if (msg) {
      feed(said, true);
      say(said, true);
    }
    return !msg;
  };
}

/** Words a player may announce, each key with its word's token (protocol.js): pieces,
 * positions, directions, numbers (red writes 一…九, black 1…9). */
export const WORD_KEYS = KEY_WORDS;

/** A key held down on a button acts once: the repeats of Enter or Space would send a
 * binding word, a clock press or a ruling again. (A card's hold reads the key itself.) */
document.addEventListener("keydown", (e) => {
  if (e.repeat && (e.key === "Enter" || e.key === " ") && e.target instanceof HTMLButtonElement) e.preventDefault();
}, true);

/**
 * The word entry of an announcing page: a `#keys` button per word (one tab stop, the arrow
 * keys move between them, a typed letter, digit or sign goes to its word: type-ahead) and
 * the `#typed` form, whose `#typed-word` input goes word by word. Each word is sent as
 * `command(word)` through `send(command, what)` (`commandSender`), each binding
 * (每一字不得反悔, 6.3(6)); a refused typed word stops the rest. `context()` gives what
 * typed letters and ICCS are read against (notation.js `typedKeys`); `slip(text)` says what
 * could not be read, nothing being sent.
 */
export function wordEntry(command, send, context = () => ({}), slip = () => {}) {
  $("keys").replaceChildren(...WORD_KEYS.map(([k, token]) => el("button", {
    type: "button", "data-word": k, "data-token": token, onclick: () => send(command(k), `${t("報", "said ")}「${k}」`),
  }, k)));
  roving($("keys"));
  typeAhead($("keys"), context);
  $("typed").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("typed-word");
    const read = typedKeys(input.value, context());
    if (read.error) return slip(input.value);
    input.value = "";
    for (const w of read.keys) if (!(await send(command(w), `${t("報", "said ")}「${w}」`))) break;
  });
}

/** In the word keys, a typed letter, digit or sign moves to its word (`c` 炮, `2` 二 for red
 * and 2 for black, `+` 進 after the first two words): nothing is sent. */
function typeAhead(node, context) {
  node.addEventListener("keydown", (e) => {
    if (e.key.length !== 1 || e.ctrlKey || e.altKey || e.metaKey || e.key === " ") return;
    const read = typedKeys(e.key, context());
    const key = read.keys?.[0];
    const b = key && node.querySelector(`button[data-word="${key}"]`);
    if (!b) return;
    e.preventDefault();
    b.focus();
  });
}

const clockSides = new WeakMap(); // #clocks -> the sides its boxes show, in order

/**
 * Both clocks of `snap` in `node`, as two role=timer boxes built once; later calls only
 * change what changed (the time, the label, the running mark), as the monitor's clock line
 * does, so a screen reader's place survives. `order` the sides as shown; `mark(side)` words
 * after a side's name (`（我）`); `running` words added to the running clock's label.
 */
export function renderClocks(node, snap, { order = ["red", "black"], mark = () => "", running = "" } = {}) {
  if (!snap) return;
  const tm = clockNow(snap.clock);
  if (clockSides.get(node) !== order.join() || node.children.length !== order.length) {
    clockSides.set(node, order.join());
    node.replaceChildren(...order.map(() => el("div", { class: "clock", role: "timer", "aria-live": "off" },
      el("span", { class: "who" }), document.createTextNode(""))));
  }
  order.forEach((s, i) => {
    const box = node.children[i];
    const on = tm.running === s;
    box.classList.toggle("running", on);
    const label = `${SIDE[s]} ${sayTime(tm[s])}${on ? running : ""}`;
    if (box.getAttribute("aria-label") !== label) box.setAttribute("aria-label", label);
    const who = SIDE[s] + mark(s);
    if (box.firstChild.textContent !== who) box.firstChild.textContent = who;
    const time = fmtTime(tm[s]);
    if (box.lastChild.data !== time) box.lastChild.data = time;
  });
}

/** How often a page pings the server, and how long a silence means the connection is dead
 * (two pings unanswered and some). */
const PING_MS = 4000;
const STALE_MS = 10000;

/**
 * One connection to an endpoint (`seat`, `monitor`, `watch`): hello with the token, resync
 * from the last event seen, commands with their answers, pings, and reconnection whenever the
 * socket closes or the server stops answering. `handlers.state(table, snap)` after each
 * snapshot; `handlers.event(table, ev, live)` for each event (`live` false while replaying
 * history); `handlers.welcome(msg)`; `handlers.tables(msg)` when the tables followed
 * change; `handlers.status(text)`.
 */
export class Connection {
  constructor(endpoint, handlers) {
    this.endpoint = endpoint;
    this.h = handlers;
    this.seq = new Map();
    this.tables = new Map();
    this.pending = new Map();
    this.n = 0;
    this.live = new Set();
    this.timers = new Map();
    /** The tables whose state here is behind what this page has sent or seen (a command
     * acknowledged, a burst of events), and who waits for their next state. */
    this.stale = new Set();
    this.settling = new Map();
    /** The table of each command awaiting its answer. */
    this.tableOf = new Map();
    this.heard = performance.now();
    this.open();
    setInterval(() => this.watch(), PING_MS);
  }

  /** Pings the server; a connection that has answered nothing for STALE_MS is dead even if
   * the socket says open (a frozen server, a cut cable): the page says so, its clocks stop
   * where they are, and it connects again. */
  watch() {
    if (this.ws?.readyState !== 1) return;
    if (performance.now() - this.heard > STALE_MS) {
      this.lost(phrase("conn.no_answer"));
      this.ws.onclose = null;
      this.ws.close();
      this.dropPending();
      setTimeout(() => this.open(), 500);
      return;
    }
    this.send({ type: "ping", id: "p" + ++this.n });
  }

  /** Marks the page disconnected: the status line says `why`, the clocks freeze. */
  lost(why) {
    document.body.classList.add("offline");
    timeline.freeze();
    this.h.status?.(why);
  }

  /** What was on its way may or may not have reached the arbiter: the state after the
   * reconnection says. */
  dropPending() {
    this.tableOf.clear();
    for (const [id, done] of this.pending) {
      this.pending.delete(id);
      done({ type: "error", code: "connection_lost", message: "" });
    }
  }

  open() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    this.ws = new WebSocket(proto + location.host + "/ws/" + this.endpoint);
    this.ws.onopen = () => {
      this.heard = performance.now();
      const since = this.seq.size ? Math.min(...this.seq.values()) : 0;
      this.send({ type: "hello", token: token(), since });
    };
    this.ws.onmessage = (m) => { this.heard = performance.now(); this.receive(JSON.parse(m.data)); };
    this.ws.onclose = () => {
      this.lost(phrase("conn.lost"));
      this.dropPending();
      setTimeout(() => this.open(), 1500);
    };
  }

  send(msg) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify({ v: VERSION, ...msg }));
  }

  /** The page is in step with the server again: its clocks run, its status says so. */
  connected() {
    this.synced = true;
    timeline.thaw();
    document.body.classList.remove("offline");
    this.h.status?.(t("已連線", "connected"));
  }

  /** Sends an arbiter command; resolves with the `ack`, `rejected` or `error` answer. */
  command(command, table) {
    const id = "c" + ++this.n;
    if (this.ws?.readyState !== 1) {
      return Promise.resolve({ type: "error", code: "not_connected", message: "" });
    }
    return new Promise((resolve) => {
      // Its events, and a state after them, follow its answer.
      this.stale.add(table);
      this.tableOf.set(id, table);
      this.pending.set(id, resolve);
      this.send({ type: "command", id, table, command });
    });
  }

  /** Resolves once this page's state of `table` has caught up with the commands it sent and
   * the events it saw (a state after them; it asks for one 60 ms after a burst), or after
   * `within` ms: a question asked of the player (a press that would be a violation) is then
   * asked of the game as it stands, not as it stood a few commands ago. */
  settled(table, within = 1000) {
    if (!this.stale.has(table)) return Promise.resolve();
    return new Promise((resolve) => {
      this.settling.set(table, [...(this.settling.get(table) || []), resolve]);
      setTimeout(resolve, within);
    });
  }

  receive(msg) {
    if ("at" in msg) timeline.seen(msg.at);
    switch (msg.type) {
      case "welcome":
        this.welcome = msg;
        // A screen of an event whose rounds are not paired yet has no state to wait for.
        if (!msg.tables.length) this.connected();
        this.h.welcome?.(msg);
        break;
      case "tables":
        // The event's tables followed grew (a round paired, a replay): their states follow;
        // those set aside by a replay (108) are closed.
        if (this.welcome) this.welcome = { ...this.welcome, tables: msg.tables };
        this.h.tables?.(msg);
        break;
      case "recorded":
        // The organiser's results of the tables followed (an absence, a correction).
        this.h.recorded?.(msg);
        break;
      case "state": {
        // Connected again only once the state (and its clocks) is fresh.
        if (document.body.classList.contains("offline") || timeline.frozen !== null || !this.synced) {
          this.connected();
        }
        if (msg.recording) this.h.recording?.(msg.table, msg.recording);
        this.tables.set(msg.table, msg.snapshot);
        this.seq.set(msg.table, Math.max(msg.seq, this.seq.get(msg.table) ?? 0));
        this.live.add(msg.table);
        this.h.state?.(msg.table, msg.snapshot);
        const answered = ![...this.tableOf.values()].includes(msg.table);
        if (answered && !this.timers.get(msg.table)) this.caughtUp(msg.table);
        break;
      }
      case "event":
        // A resync may send again what a live feed already delivered.
        if (msg.seq <= (this.seq.get(msg.table) ?? 0)) break;
        this.seq.set(msg.table, msg.seq);
        this.h.event?.(msg.table, msg.event, this.live.has(msg.table), msg);
        if (this.live.has(msg.table)) this.refresh(msg.table);
        break;
      case "recording":
        this.h.recording?.(msg.table, msg.seats);
        break;
      case "ack": case "rejected": case "error": {
        const done = this.pending.get(msg.id);
        const of = this.tableOf.get(msg.id);
        this.tableOf.delete(msg.id);
        // A refusal brings no events, so no state: the page's state is as fresh as it was.
        const quiet = msg.type !== "ack" && of !== undefined && ![...this.tableOf.values()].includes(of) && !this.timers.get(of);
        if (quiet) this.caughtUp(of);
        if (done) { this.pending.delete(msg.id); done(msg); }
        else if (msg.type === "error") this.h.error?.(msg);
        break;
      }
      default:
        break;
    }
  }

  /** Asks for a fresh snapshot once a burst of events is over. */
  refresh(table) {
    this.stale.add(table);
    clearTimeout(this.timers.get(table));
    this.timers.set(table, setTimeout(() => {
      this.timers.set(table, null);
      this.send({ type: "sync", table, since: this.seq.get(table) });
    }, 60));
  }

  /** The state of `table` is as fresh as what this page has seen: its waiters go on. */
  caughtUp(table) {
    this.stale.delete(table);
    for (const resolve of this.settling.get(table) || []) resolve();
    this.settling.delete(table);
  }
}

/** A refusal or error in words ("" when accepted). */
export const answerText = answer;

/** A table's row (names; the configuration, only for a seat of the table: the players'
 *  categories are not public), from the HTTP API with this page's token. */
export async function tableInfo(id) {
  try {
    const r = await fetch(`/api/tables/${id}`, { headers: { Authorization: `Bearer ${token()}` } });
    if (!r.ok) return null;
    return (await r.json()).table;
  } catch {
    return null;
  }
}

