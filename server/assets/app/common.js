// Shared by every web client: the WebSocket connection (protocol v1, docs/protocol.md),
// the per-table state (the arbiter's snapshot, refreshed after each burst of events),
// the game timeline clock, the live region and the words used on every page; the feed,
// banner, answer line, word keys and clocks of the player, card and announcing pages.

export const PIECES = {
  K: "帥", A: "仕", B: "相", E: "相", N: "傌", H: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", e: "象", n: "馬", h: "馬", r: "車", c: "砲", p: "卒",
};
export const SIDE = { red: "紅方", black: "黑方" };
export const FILES = "abcdefghi";
const CHECK_TEXT = {
  agree: "報棋與走子吻合",
  a: "走子檢查 (a)：報棋合法，走子不同，以該方用時修正至跟報棋一致",
  b: "走子檢查 (b)：報棋非法，走子為所報子的合法着法，以走子為準，重新報棋，記錄違例",
  c: "走子檢查 (c)：報棋非法，還原棋盤，改走別子，技術犯規",
  board_governs: "裁判代報：以走子為準",
  board_only: "無須報棋：只核對走子",
  sealed_move_broken: "與續着記錄不同：還原，技術犯規",
  referee_ruling: "監局裁判裁定",
};
export const KIND = { technical: "技術犯規", recording: "違反記錄規則", clock: "違反按棋鐘規則" };
export const CARD = { draw: "提和卡", resign: "認負卡" };
/** The two boards of a mirrored game (7.4(2)(g)): the VI player's and the regular one. */
export const BOARD_NAME = { vi: "視障棋盤", regular: "正規棋盤" };

/** A board's name: `視障棋盤` for `vi`, else `正規棋盤`. */
export function boardName(id) {
  return id === "vi" ? BOARD_NAME.vi : BOARD_NAME.regular;
}

/** A word as the word keys write it: full-width digits (black's １…９) as ASCII. */
export function keyWord(w) {
  return String(w).replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

/** `$("id")`. */
export const $ = (id) => document.getElementById(id);

/** Creates an element with attributes and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** The seat's token, from the link's fragment (`#token=…`). */
export function token() {
  return new URLSearchParams(location.hash.slice(1)).get("token") || "";
}

/** Minutes and seconds of a time in ms: `12:05`. */
export function fmtTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** The same time in words for a screen reader: `12 分 5 秒`. */
export function sayTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m ? `${m} 分 ${s % 60} 秒` : `${s} 秒`;
}

/**
 * A live region that reads every message, even the same text twice (lichess nvui habit): the
 * region is emptied, then refilled a moment later, alternately with and without a trailing
 * no-break space, so the text always changes. Messages that come in one burst are read
 * together rather than each replacing the one before it unread.
 */
function liveRegion(node) {
  let flip = false;
  let queue = [];
  return (text) => {
    if (!text) return;
    if (!queue.length) {
      node.textContent = "";
      setTimeout(() => {
        flip = !flip;
        node.textContent = queue.join("。") + (flip ? "" : "\u00a0");
        queue = [];
      }, 30);
    }
    queue.push(text);
  };
}

/**
 * The page's voice for screen readers: `say(text, urgent)` reads a message once, in exactly
 * one live region — the assertive one when `urgent`, else the polite one. Feeds, banners and
 * status lines are not live regions, so nothing is read twice.
 */
export function announcer(polite, assertive) {
  const p = liveRegion(polite);
  const a = liveRegion(assertive);
  return (text, urgent = false) => (urgent ? a : p)(text);
}

/** The words of a typed announcement: `炮二平五`, `馬 8 進 7` → one word per character;
 * other tokens (`C2=5`) as typed. */
export function typedWords(text) {
  return String(text).trim().split(/\s+/).filter(Boolean)
    .flatMap((t) => (/^[\p{Script=Han}0-9０-９]+$/u.test(t) ? [...t] : [t]));
}

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

/** Adds a line at the top of the page's `#feed` (an `alert` line stands out), keeping the
 * newest 200. The feed is not a live region: what must be heard goes through `say`. */
export function feed(text, alert = false) {
  if (!text) return;
  $("feed").prepend(el("li", { class: alert ? "alert" : "" }, text));
  while ($("feed").children.length > 200) $("feed").lastChild.remove();
}

let bannerTimer = null;
/** Shows `text` in the page's `#banner`; it goes after `ms` milliseconds, or (no `ms`) when
 * the page takes it away. Not a live region either. */
export function banner(text, ms = null) {
  const b = $("banner");
  b.textContent = text;
  b.classList.add("on");
  if (ms === null) return;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => b.classList.remove("on"), ms);
}

/** Flashes the screen and vibrates with `pattern` where the device can (SPEC §9: a time
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
export function commandSender(conn, table, say) {
  return async (command, what) => {
    $("answer").textContent = `${what}：傳送中…`;
    const a = await conn.command(command, table());
    const msg = answerText(a);
    $("answer").textContent = msg ? `${what}：${msg}` : `${what}：已接受`;
    if (msg) {
      feed(`${what}：${msg}`, true);
      say(`${what}：${msg}`, true);
    }
    return !msg;
  };
}

/** Words a player may announce: pieces, positions, numbers (red writes 一…九, black 1…9),
 * directions. */
export const WORD_KEYS = ["車", "馬", "炮", "相", "象", "仕", "士", "帥", "將", "兵", "卒", "前", "中", "後",
  "進", "退", "平", "一", "二", "三", "四", "五", "六", "七", "八", "九",
  "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/** A key held down on a button acts once: the repeats of Enter or Space would send a
 * binding word, a clock press or a ruling again. (A card's hold reads the key itself.) */
document.addEventListener("keydown", (e) => {
  if (e.repeat && (e.key === "Enter" || e.key === " ") && e.target instanceof HTMLButtonElement) e.preventDefault();
}, true);

/**
 * The word entry of an announcing page: a `#keys` button per word (one tab stop, the arrow
 * keys move between them) and the `#typed` form, whose `#typed-word` input goes word by word.
 * Each word is sent as `command(word)` through `send(command, what)` (`commandSender`), each
 * binding (每一字不得反悔, 6.3(6)); a refused typed word stops the rest.
 */
export function wordEntry(command, send) {
  $("keys").replaceChildren(...WORD_KEYS.map((k) => el("button", {
    type: "button", "data-word": k, onclick: () => send(command(k), `報「${k}」`),
  }, k)));
  roving($("keys"));
  $("typed").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("typed-word");
    const list = typedWords(input.value);
    input.value = "";
    for (const w of list) if (!(await send(command(w), `報「${w}」`))) break;
  });
}

/** Expands a FEN placement to a 10×9 array, row 0 = rank 9 (black's back rank). */
export function expand(placement) {
  const rows = (placement || "").split(" ")[0].split("/");
  return rows.map((r) => {
    const out = [];
    for (const ch of r) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) out.push("");
      else out.push(ch);
    }
    while (out.length < 9) out.push("");
    return out;
  });
}

/** The piece on an ICCS point (`e2`) of a placement, or "". */
export function pieceAt(grid, point) {
  const f = FILES.indexOf(point[0]);
  const r = Number(point.slice(1));
  return grid[9 - r]?.[f] ?? "";
}

/** `紅炮` for `C`. */
export function pieceName(ch) {
  if (!ch) return "空";
  return (ch === ch.toUpperCase() ? "紅" : "黑") + PIECES[ch];
}

/** The words of a check outcome. */
export function checkText(outcome) {
  return CHECK_TEXT[outcome] || outcome;
}

/** Server time (game timeline) from the last `at` seen, advanced locally. */
class Timeline {
  constructor() { this.offset = null; }
  seen(at) { if (typeof at === "number") this.offset = at - performance.now(); }
  now() { return this.offset === null ? null : performance.now() + this.offset; }
}
export const timeline = new Timeline();

/** Both clocks now, from a ClockView. */
export function clockNow(clock) {
  if (!clock) return { red: 0, black: 0, running: null };
  const t = { red: clock.red_ms, black: clock.black_ms, running: clock.running };
  const now = timeline.now();
  if (clock.running && now !== null) {
    const from = Math.max(clock.since, clock.delay_until || 0);
    t[clock.running] = Math.max(0, t[clock.running] - Math.max(0, now - from));
  }
  return t;
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
  const t = clockNow(snap.clock);
  if (clockSides.get(node) !== order.join() || node.children.length !== order.length) {
    clockSides.set(node, order.join());
    node.replaceChildren(...order.map(() => el("div", { class: "clock", role: "timer", "aria-live": "off" },
      el("span", { class: "who" }), document.createTextNode(""))));
  }
  order.forEach((s, i) => {
    const box = node.children[i];
    const on = t.running === s;
    box.classList.toggle("running", on);
    const label = `${SIDE[s]} ${sayTime(t[s])}${on ? running : ""}`;
    if (box.getAttribute("aria-label") !== label) box.setAttribute("aria-label", label);
    const who = SIDE[s] + mark(s);
    if (box.firstChild.textContent !== who) box.firstChild.textContent = who;
    const time = fmtTime(t[s]);
    if (box.lastChild.data !== time) box.lastChild.data = time;
  });
}

/**
 * One connection to an endpoint (`seat`, `monitor`, `watch`). `handlers.state(table, snap)`
 * after each snapshot; `handlers.event(table, ev, live)` for each event (`live` false while
 * replaying history); `handlers.welcome(msg)`; `handlers.status(text)`.
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
    this.open();
    setInterval(() => this.send({ type: "ping", id: "p" + ++this.n }), 15000);
  }

  open() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    this.ws = new WebSocket(proto + location.host + "/ws/" + this.endpoint);
    this.ws.onopen = () => {
      const since = this.seq.size ? Math.min(...this.seq.values()) : 0;
      this.send({ type: "hello", token: token(), since });
      document.body.classList.remove("offline");
      this.h.status?.("已連線 connected");
    };
    this.ws.onmessage = (m) => this.receive(JSON.parse(m.data));
    this.ws.onclose = () => {
      document.body.classList.add("offline");
      this.h.status?.("連線中斷，重新連線中… reconnecting");
      // What was on its way may or may not have reached the arbiter: the state after the
      // reconnection says.
      for (const [id, done] of this.pending) {
        this.pending.delete(id);
        done({ type: "error", code: "connection_lost", message: "連線中斷，不確定是否送達，請看重新連線後的狀態 connection lost: check the state" });
      }
      setTimeout(() => this.open(), 1500);
    };
  }

  send(msg) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify({ v: 1, ...msg }));
  }

  /** Sends an arbiter command; resolves with the `ack`, `rejected` or `error` answer. */
  command(command, table) {
    const id = "c" + ++this.n;
    if (this.ws?.readyState !== 1) {
      return Promise.resolve({ type: "error", code: "not_connected", message: "未送出：未連線 not sent: not connected" });
    }
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ type: "command", id, table, command });
    });
  }

  receive(msg) {
    if ("at" in msg) timeline.seen(msg.at);
    switch (msg.type) {
      case "welcome":
        this.welcome = msg;
        this.h.welcome?.(msg);
        break;
      case "state":
        if (msg.recording) this.h.recording?.(msg.table, msg.recording);
        this.tables.set(msg.table, msg.snapshot);
        this.seq.set(msg.table, Math.max(msg.seq, this.seq.get(msg.table) ?? 0));
        this.live.add(msg.table);
        this.h.state?.(msg.table, msg.snapshot);
        break;
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
    clearTimeout(this.timers.get(table));
    this.timers.set(table, setTimeout(() => {
      this.send({ type: "sync", table, since: this.seq.get(table) });
    }, 60));
  }
}

/** A refusal or error in words. */
export function answerText(a) {
  if (a.type === "ack") return "";
  if (a.type === "rejected") return a.rejection?.message || a.rejection?.code || "rejected";
  return a.message || a.code || "error";
}

/** Table rows of the event (names, configuration), from the HTTP API. */
export async function tableInfo(id) {
  try {
    const r = await fetch(`/api/tables/${id}`);
    if (!r.ok) return null;
    return (await r.json()).table;
  } catch {
    return null;
  }
}

/** What an event says, in one line of text (for logs, the card UI's feed, the monitor). */
export function describe(ev) {
  const s = (side) => SIDE[side] || "";
  switch (ev.type) {
    case "started": return "棋鐘開始，紅方先行";
    case "turn": return `輪到${s(ev.side)}（第 ${ev.ply} 着）`;
    case "word": return `${s(ev.side)}報：${ev.word?.display || ev.text}${ev.possible ? "" : `（不可能的着法：${ev.why}）`}`;
    case "touched": return `${s(ev.side)}摸子：${ev.piece}（${ev.point}）`;
    case "impossible": return `${s(ev.side)}「${ev.words}」不可能是任何着法，可以修正：${ev.why}`;
    case "announced": return `${s(ev.side)}報棋完成：${ev.words}${ev.illegal ? `（非法：${ev.illegal}）` : ""}`;
    case "repeated": return `${s(ev.side)}複讀：${ev.text}${ev.mismatch ? "（不符，重來）" : ""}${ev.done ? "（完成）" : ""}`;
    case "repeat_due": return `${s(ev.side)}須複讀：${ev.words}`;
    case "signalled": return `${s(ev.side)}示意：請代為報棋`;
    case "board": return `棋盤 ${boardName(ev.board)}：${ev.step}`;
    case "board_diverges": return `${boardName(ev.board)}與對局不同：${ev.points.join("、")}`;
    case "board_agrees": return `${boardName(ev.board)}已與對局一致`;
    case "pressed": return `${s(ev.side)}按鐘`;
    case "checked": return [checkText(ev.outcome), ev.consequence].filter((x, i, a) => x && a.indexOf(x) === i).join("。");
    case "violation": return `${s(ev.side)}${KIND[ev.kind] || ev.kind}：${ev.count}${ev.limit ? "／" + ev.limit : ""}（${ev.reason}）`;
    case "violation_removed": return `${s(ev.side)}${KIND[ev.kind] || ev.kind}撤銷：${ev.count}（${ev.reason}）`;
    case "moved": return `${s(ev.side)}：${ev.mv.marked || ev.mv.traditional}`;
    case "restore_required": return `${s(ev.side)}須還原棋盤${ev.mv ? "（" + ev.mv + "）" : ""}`;
    case "correction_required": return `${s(ev.side)}須修正棋盤至 ${ev.mv}`;
    case "reannounce_required": return `${s(ev.side)}須重新報棋（${ev.mv}）`;
    case "time_alert": return `報時：${ev.times.map((t) => s(t.side) + " " + sayTime(t.ms)).join("，")}`;
    case "time_report": return `時間：${ev.times.map((t) => s(t.side) + " " + sayTime(t.ms)).join("，")}`;
    case "draw_offered": return `${s(ev.side)}提和${ev.card ? "（交出提和卡）" : ""}`;
    case "draw_offer_stands": return `${s(ev.side)}的提和生效`;
    case "draw_declined": return `${s(ev.side)}不接受提和（${ev.how}）`;
    case "card_moved": return cardText(ev);
    case "repetition_warning": return `重複局面警告（${ev.article}）：${ev.text}`;
    case "warning_issued": return `裁判警告${ev.side ? s(ev.side) : "雙方"}：${ev.text}`;
    case "referee_needed": return `請裁判：${ev.text}`;
    case "paused": return `暫停（續着方：${s(ev.side)}）`;
    case "sealed": return `續着記錄：${s(ev.side)} ${ev.mv}`;
    case "resumed": return "續賽";
    case "game_over": return `對局結束 ${ev.result}：${ev.reason}（第 ${ev.article} 條）`;
    case "result_verified": return `結果已口頭核實${ev.note ? "：" + ev.note : ""}`;
    case "clock": return "";
    default: return ev.type;
  }
}

/** A card movement in words. */
export function cardText(ev) {
  const how = { handed: "交給", returned: "交還", exchanged: "交換給" }[ev.how] || ev.how;
  return `${SIDE[ev.owner]}的${CARD[ev.card]}${how}${SIDE[ev.holder]}`;
}
