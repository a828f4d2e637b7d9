// The referee monitor (監局): every table at a glance — boards (both side by side
// when mirrored, differences marked), the live announcement, clocks, tallies against limits,
// pending 走子檢查, repetition warnings due, offers, calls — and one confirmed, logged action
// per ruling, each with a keyboard shortcut; the scoresheet of each table. A hall of many
// tables shows one round at a time, the current one by default; a call in
// a round not shown is flagged above the tiles and in its banner, one tap from its table.

import {
  $, el, showWho, Connection, SIDE, KIND, fmtTime, clockNow, announcer, describe, answerText,
  checkOutcome, tableInfo, token, banner, words, word, move, result,
  call as callText, articles, finding, warning, errorCode,
 t, boardResult, timeline,
} from "./common.js";
import { Board, checked, differences } from "./board.js";
import { setRecording, recordingView, recordingBrief, seekHeader, seekCell, forgetMoveTimes } from "./recording.js";
import { renderDesk, recordAbsence } from "./round_desk.js";
import { CALL_KEYS, CALL_LABELS, rulings } from "./rulings.js";

// Every message is read once, by one live region; the rulings log and the banner are not live.
const say = announcer($("live-polite"), $("live"));
const tables = new Map(); // id -> { info, snap, words, checked, calls, callsOpen }
let order = [];
let current = null;
/** Whether the referee has chosen the selected table (until then it is the first shown). */
let chosen = false;
/** The round shown: a round, "all", or null for the latest round (it follows new rounds). */
let roundPick = null;
/** Whether the page has lost the server: its clocks show dashes, not frozen times. */
let unsynced = false;
/** The organiser's results, by table: they stand over the tables'. */
const entered = new Map();

const conn = new Connection("monitor", {
  status: (text) => { $("status").textContent = text; syncNotice(); },
  welcome: async (w) => {
    showWho(w.name);
    await follow(w.tables);
  },
  // A round paired or a board replayed while the monitor is open.
  tables: async (m) => {
    const added = m.tables.filter((id) => !tables.has(id));
    for (const id of m.set_aside || []) setAside(id);
    await follow(m.tables);
    if (added.length) say(t(`新增 ${added.length} 台：第 ${added.join("、")} 台`, `${added.length} new table(s): ${added.join(", ")}`));
  },
  // The organiser entered, corrected or cleared a board's result.
  recorded: (m) => {
    const now = new Map(m.results.map((r) => [r.table, r.result]));
    const changed = [...new Set([...entered.keys(), ...now.keys()])].filter((id) => entered.get(id) !== now.get(id));
    entered.clear();
    for (const [id, r] of now) entered.set(id, r);
    for (const id of changed) {
      if (!tables.has(id)) continue;
      const r = now.get(id);
      say(r ? t(`${name(id)}：裁判長登記成績 ${boardResult(r)}`, `${name(id)}: result entered by the organiser, ${boardResult(r)}`)
        : t(`${name(id)}：裁判長登記的成績已清除`, `${name(id)}: the organiser's result cleared`));
    }
    if (changed.length) renderAll();
  },
  state: (id, s) => {
    const tab = tables.get(id);
    if (!tab) return;
    tab.snap = s;
    // A settled call takes its banner with it, whichever table is selected.
    if (bannerFrom === id && !s.calls?.length) { $("banner").classList.remove("on"); bannerFrom = null; }
    renderTable(id);
    renderHallLines();
    desk();
  },
  recording: (id, seats) => {
    for (const news of setRecording(id, seats)) say(`${name(id)}${t("：錄音 ", ": recording, ")}${news}`);
    if (tables.get(id)?.snap) renderTable(id);
  },
  event: (id, ev, live, msg) => onEvent(id, ev, live, msg),
  error: (e) => { const line = `${t("錯誤：", "Error: ")}${errorCode(e.code)}`; logLine(line); say(line, true); },
});

/** A table set aside by a replay (108, 作廢): its tile and card go, its call with them. */
function setAside(id) {
  if (!tables.has(id)) return;
  const was = name(id);
  tables.delete(id);
  document.querySelector(`#tabs [data-table="${id}"]`)?.remove();
  $(`table-${id}`)?.remove();
  if (bannerFrom === id) { $("banner").classList.remove("on"); bannerFrom = null; }
  if (current === id) { current = null; chosen = false; }
  say(t(`${was}：作廢（第108條重賽，另開新台）`, `${was}: set aside (replayed at a new table, art. 108)`));
}

/** Follows `ids` (the whole list, in order): a tile and a card for each new one. */
async function follow(ids) {
  order = ids;
  const added = ids.filter((id) => !tables.has(id));
  for (const id of added) tables.set(id, { info: null, snap: null, words: [], checked: null, calls: [] });
  await Promise.all(added.map(async (id) => { tables.get(id).info = await tableInfo(id); }));
  renderAll();
}

/** A table's round (its row says; 1 until it is read). */
const roundOf = (id) => tables.get(id)?.info?.round ?? 1;
/** The rounds present, the latest first. */
const rounds = () => [...new Set(order.map(roundOf))].sort((a, b) => b - a);
/** The round shown now: a round or "all". */
const shownRound = () => roundPick ?? rounds()[0] ?? "all";
const isShown = (id) => shownRound() === "all" || roundOf(id) === shownRound();
/** The tables whose tiles are shown, in order (the number keys choose among them). */
const shownTables = () => order.filter(isShown);

/** Where a table is, its round first: "第2輪 · 第 41 台 …" (a round the name says once);
 * `brief` leaves the players out (a banner, a button). */
function where(id, brief = false) {
  const r = roundOf(id);
  const i = tables.get(id)?.info;
  const named = new RegExp(`^第${r}輪`).test(i?.name || "");
  const round = rounds().length > 1 && !named ? t(`第${r}輪 · `, `Round ${r} · `) : "";
  return round + (brief ? t(`第 ${id} 台${i ? ` ${i.name}` : ""}`, `Table ${id}${i ? ` ${i.name}` : ""}`) : name(id));
}

function name(id) {
  const i = tables.get(id)?.info;
  return i ? t(`第 ${id} 台 ${i.name}：${i.red}（紅）對 ${i.black}（黑）`, `Table ${id} ${i.name}: ${i.red} (red) v ${i.black} (black)`)
    : t(`第 ${id} 台`, `Table ${id}`);
}

/** The table whose call the banner shows: it goes once that table has nothing open. */
let bannerFrom = null;

function onEvent(id, ev, live, msg) {
  const tab = tables.get(id);
  if (!tab) return;
  const time = new Date().toLocaleTimeString("zh-HK", { hour12: false });
  switch (ev.type) {
    case "turn": tab.words = []; break;
    case "word": if (ev.slot === 0) tab.words = []; tab.words.push(ev); break;
    case "checked": tab.checked = ev; break;
    case "moved": tab.calls = tab.calls.filter((c) => c.call === "repetition_warning"); forgetMoveTimes(id); break;
    case "referee_needed": tab.calls.unshift({ ...ev, time }); tab.calls.length = Math.min(tab.calls.length, 8); break;
    default: break;
  }
  if (live && ["referee_needed", "checked", "repetition_warning", "board_diverges", "violation", "game_over", "draw_offered", "signalled"].includes(ev.type)) {
    const text = `${where(id)}：${describe(ev)}`;
    // What needs the referee is read at once; the rest waits its turn.
    say(text, ["referee_needed", "board_diverges", "repetition_warning", "violation", "signalled"].includes(ev.type));
    if (ev.type === "referee_needed" || ev.type === "board_diverges") callBanner(id, `${where(id, true)}${t("：", ": ")}${describe(ev)}`);
  }
  void msg;
}

function logLine(text) {
  const time = new Date().toLocaleTimeString("zh-HK", { hour12: false });
  $("log").prepend(el("li", {}, `${time} ${text}`));
}

/** The banner of a call at table `id`, with a button that goes to the table: its round
 * shown, the table selected and brought into view. */
function callBanner(id, text) {
  banner(text);
  bannerFrom = id;
  const b = $("banner");
  if (!b.querySelector(".banner-go")) {
    b.insertBefore(el("button", { type: "button", class: "banner-go", onclick: () => { if (bannerFrom !== null) goTo(bannerFrom); } },
      t("前往該台", "Go to the table")), b.querySelector(".banner-close"));
  }
}

/** Shows the round of table `id`, selects the table and brings it into view. */
function goTo(id) {
  roundPick = roundOf(id) === rounds()[0] ? null : roundOf(id);
  select(id);
}

function select(id) {
  if (!tables.has(id)) return;
  current = id;
  chosen = true;
  renderAll();
  say(`${t("已選 ", "Selected: ")}${where(id)}`);
  bringIntoView();
}

/** On a tablet or a phone the selected table is below the hall: a choice scrolls to its
 * rulings and card, unless they are in view already (a wide screen shows them beside it). */
function bringIntoView() {
  const head = $(`h-table-${current}`)?.getBoundingClientRect();
  if (head && head.top >= 0 && head.bottom <= innerHeight) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.querySelector("section.actions").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

/** The round menu (shown when the tables span rounds: the latest first, then all rounds;
 * a round with open calls says how many) and the line of calls in rounds not shown. */
function renderHallLines() {
  const list = rounds();
  const pick = $("round-filter");
  $("round-pick").hidden = list.length < 2;
  const values = [...list.map(String), "all"];
  if ([...pick.options].map((o) => o.value).join() !== values.join()) {
    pick.replaceChildren(...values.map((v) => el("option", { value: v })));
  }
  const open = (ids) => ids.filter((id) => tables.get(id)?.snap?.calls?.length).length;
  for (const o of pick.options) {
    const r = Number(o.value);
    const n = open(o.value === "all" ? order : order.filter((id) => roundOf(id) === r));
    const text = (o.value === "all" ? t("全部輪次", "All rounds") : r === list[0] ? t(`第${r}輪（本輪）`, `Round ${r} (current)`) : t(`第${r}輪`, `Round ${r}`))
      + (n ? t(` ⚠ ${n} 待處理`, ` ⚠ ${n} open`) : "");
    if (o.textContent !== text) o.textContent = text;
  }
  pick.value = String(shownRound());
  // Rebuilt only when its tables change, so that a focused button stays.
  const away = order.filter((id) => !isShown(id) && tables.get(id)?.snap?.calls?.length);
  const line = $("elsewhere");
  if (line.dataset.tables === away.join()) return;
  line.dataset.tables = away.join();
  line.hidden = !away.length;
  line.replaceChildren(t("其他輪次待處理：", "Open calls in other rounds: "),
    ...away.map((id) => el("button", { type: "button", class: "go", onclick: () => goTo(id) }, `⚠ ${where(id, true)}`)));
}

$("round-filter").addEventListener("change", (e) => {
  const v = e.target.value;
  roundPick = v === "all" ? "all" : Number(v) === rounds()[0] ? null : Number(v);
  renderAll();
});

/** Shows or takes away the lost connection's notice; the tiles' clocks follow. */
function syncNotice() {
  const off = document.body.classList.contains("offline");
  if (off === unsynced) return;
  unsynced = off;
  $("unsynced").textContent = t("未同步：與伺服器的連線中斷，各台棋鐘及狀態未能更新，重新連線中…",
    "Not synchronised: the connection to the server is lost; the tables' clocks and states are not up to date. Reconnecting…");
  $("unsynced").hidden = !off;
  renderAll();
}

function renderAll() {
  renderHallLines();
  const shown = shownTables();
  // Until the referee chooses, the selected table is the first one shown. A table he chose
  // in a round no longer shown (the next round has begun) gives way to the first of the
  // round shown: round 1's table stayed selected into round 5.
  if (chosen && !(tables.has(current) && isShown(current))) chosen = false;
  if (!chosen) current = shown[0] ?? order[0] ?? null;
  // The tiles and cards are updated in place, so that the focus stays where the referee is.
  const tabs = $("tabs");
  order.forEach((id) => {
    let b = tabs.querySelector(`[data-table="${id}"]`);
    if (!b) {
      b = el("button", { type: "button", class: "tile", "data-table": id, onclick: () => select(id) });
      tabs.append(b);
    }
    b.hidden = !isShown(id);
    renderTile(b, id, shown.indexOf(id));
  });
  $("current").textContent = current ? name(current) : "";
  desk();
  for (const id of order) {
    if (!$(`table-${id}`)) {
      $("tables").append(el("article", { class: "table-card", id: `table-${id}`, "aria-labelledby": `h-table-${id}` }));
    }
    // The hall shows every table in its tile; the selected one is shown whole.
    $(`table-${id}`).hidden = id !== current;
    renderTable(id);
  }
}

/** A table's tile in the hall view: number and name, players, clocks, whose turn, open
 * calls (⚠, in words too), violations, an offer, the recording; pressed when selected.
 * `i`: its place among the tiles shown (its number key), -1 when not shown. */
function renderTile(b, id, i) {
  const tab = tables.get(id);
  const s = tab?.snap;
  const calls = s?.calls?.length || 0;
  b.setAttribute("aria-pressed", String(id === current));
  if (i >= 0 && i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1));
  else b.removeAttribute("aria-keyshortcuts");
  b.classList.toggle("needs", calls > 0);
  const fouls = s ? ["red", "black"].map((side) => Object.values(s.tallies[side]).reduce((a, n) => a + n, 0)) : [0, 0];
  const own = !s ? t("等候狀態", "waiting") : s.phase === "over" ? t(`結束 ${result(s.result)}`, `over ${result(s.result)}`)
    : s.phase === "not_started" ? t("未開鐘", "not started") : toMove(s);
  // The organiser's result stands over the table's.
  const state = entered.has(id) ? t(`成績（裁判長登記）${boardResult(entered.get(id))}`, `result (entered by the organiser) ${boardResult(entered.get(id))}`) : own;
  b.replaceChildren(
    el("span", { class: "t-head" }, `${i >= 0 ? `${i + 1}. ` : ""}${tab?.info?.name || t(`第 ${id} 台`, `Table ${id}`)}`,
      calls ? el("strong", { class: "t-calls" }, t(` ⚠ ${calls} 待處理`, ` ⚠ ${calls} open`)) : ""),
    el("span", { class: "t-line" }, tab?.info ? [el("bdi", {}, tab.info.red), t(" 對 ", " v "), el("bdi", {}, tab.info.black)] : ""),
    // A board the organiser decided before its clocks started (an absence, 87) was not
    // played: its untouched clocks would say otherwise.
    el("span", { class: "t-line t-clock" }, !s ? "" : entered.has(id) && s.phase === "not_started" ? t("未對弈", "not played") : clockView(s)),
    el("span", { class: "t-line" }, state,
      fouls[0] + fouls[1] ? t(` · 違例 紅${fouls[0]} 黑${fouls[1]}`, ` · fouls red ${fouls[0]} black ${fouls[1]}`) : "",
      s?.offer ? t(` · ${SIDE[s.offer.side]}提和`, ` · ${SIDE[s.offer.side]} offers a draw`) : ""),
    el("span", { class: "t-line" }, recordingBrief(id)));
}

/** Whose turn it is at a table, and whether play is paused. */
function toMove(s) {
  const paused = s.phase === "paused";
  return t(`輪到${SIDE[s.to_move]}${paused ? "（暫停）" : ""}`, `${SIDE[s.to_move]} to move${paused ? " (paused)" : ""}`);
}

/** The clock line of a table: the only part of a card redrawn every second. */
function clockText(s) {
  // Lost: no time is known, none runs (the card UI and the player page say 未同步 too).
  if (unsynced) return `${SIDE.red} --:-- · ${SIDE.black} --:--`;
  const c = clockNow(s.clock);
  return `${SIDE.red} ${fmtTime(c.red)}${c.running === "red" ? " ◀" : ""} · ${SIDE.black} ${fmtTime(c.black)}${c.running === "black" ? " ◀" : ""}`;
}

/** Where the focus is inside a card, to put it back after the card is redrawn. */
function focusKey(node) {
  const a = document.activeElement;
  if (!node.contains(a)) return null;
  const pt = a.closest("[data-pt]");
  if (pt) return { board: [...node.querySelectorAll(".xboard")].indexOf(pt.closest(".xboard")), pt: pt.dataset.pt };
  return { key: a.closest("[data-key]")?.dataset.key ?? null };
}

function restoreFocus(node, id, was) {
  if (!was) return;
  const target = was.pt
    ? node.querySelectorAll(".xboard")[was.board]?.querySelector(`[data-pt="${was.pt}"]`)
    : was.key && node.querySelector(`[data-key="${was.key}"]`);
  (target || $(`h-table-${id}`)).focus();
}

// A click whose press and release straddle a redraw is lost (the button pressed is gone when
// the button is released), and a table card is redrawn on its table's events, every word
// included. So while a pointer is down the cards wait, and are drawn once it is released.
let pressedSince = 0;
const waiting = new Set();
const PRESS_LIMIT_MS = 3000; // a press held longer (or a release never seen) waits no more
document.addEventListener("pointerdown", () => { pressedSince = Date.now(); }, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    pressedSince = 0;
    // After the click that this release makes.
    setTimeout(() => { for (const id of waiting) renderTable(id); waiting.clear(); }, 0);
  }, true);
}

/** A clock line as shown: while unsynchronised, the dashes are read as words. */
function clockView(s) {
  return unsynced ? [el("span", { "aria-hidden": "true" }, clockText(s)), el("span", { class: "visually-hidden" }, t("棋鐘未同步", "clocks not synchronised"))]
    : clockText(s);
}

function renderTable(id) {
  if (pressedSince && Date.now() - pressedSince < PRESS_LIMIT_MS) {
    waiting.add(id);
    return;
  }
  const tile = document.querySelector(`#tabs [data-table="${id}"]`);
  if (tile) renderTile(tile, id, shownTables().indexOf(id));
  const node = $(`table-${id}`);
  const tab = tables.get(id);
  // Only the selected table is drawn whole; the others live in their tiles.
  if (!node || !tab || node.hidden) return;
  const s = tab.snap;
  const was = focusKey(node);
  const head = el("h3", { id: `h-table-${id}`, tabindex: "-1" }, name(id), id === current ? t("（目前）", " (selected)") : "");
  if (!s) { node.replaceChildren(head, el("p", {}, t("等候狀態", "waiting"))); return; }
  const needs = s.calls || [];
  node.className = "table-card" + (needs.length ? " needs" : "") + (id === current ? " current" : "");
  const game = s.fen.split(" ")[0];
  const boardsNode = el("div", { class: "row" });
  const last = s.moves.at(-1)?.mv.iccs || "";
  const shown = s.boards.length ? s.boards : [{ board: "game", placement: game, diverging: false }];
  for (const b of shown) {
    const holder = el("div", { class: "board-holder" });
    const label = b.board === "vi" ? t("視障棋盤", "VI board") : b.board === "regular" ? t("正規棋盤", "regular board") : t("對局", "game");
    const diff = b.board === "game" ? [] : differences(b.placement, game);
    const view = new Board(holder, { label: `${label}${diff.length ? t(`（與對局不同：${diff.join("、")}）`, ` (differs from the game: ${diff.join(", ")})`) : ""}` });
    if (was?.pt && was.board === boardsNode.children.length) view.focus = was.pt;
    view.draw(b.placement, { last, diff, check: checked(s.moves.at(-1)) });
    boardsNode.append(holder);
  }
  const limits = s.limits;
  const tally = el("table", { class: "tally" },
    el("caption", {}, t("違例（次數／上限）", "Violations (count / limit)")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("方", "Side")), ...Object.keys(KIND).map((k) => el("th", { scope: "col" }, KIND[k])))),
    el("tbody", {}, ["red", "black"].map((side) => el("tr", {}, el("th", { scope: "row" }, SIDE[side]),
      ...Object.keys(KIND).map((k) => {
        const n = s.tallies[side][k];
        const lim = limits[k];
        return el("td", { class: lim && n >= lim ? "over-limit" : "" }, `${n}${t("／", "/")}${lim || "—"}${lim && n >= lim ? t("（已達上限）", " (limit reached)") : ""}`);
      })))));
  const heard = tab.words.length ? tab.words.map((w) => el("span", { class: "word" + (w.possible ? "" : " bad") }, w.word ? word(w.word, w.side) : w.text))
    : s.attempt.map((w) => el("span", { class: "word" }, word(w, s.to_move)));
  const p = s.pending || {};
  node.replaceChildren(...[head,
    needs.length ? el("ul", { class: "calls", "aria-label": t("需要裁判", "Referee needed") }, needs.map((c) => callItem(id, c))) : el("p", {}, t("沒有待處理事項", "nothing pending")),
    el("p", {}, el("strong", {}, s.phase === "over" ? t("對局結束", "Game over") : s.phase === "not_started" ? t("未開鐘", "Not started") : toMove(s)),
      " · ", el("span", { class: "clockline" }, clockView(s))),
    el("div", { class: "words", role: "group", "aria-label": t("本輪報棋", "live announcement") }, heard),
    s.announced ? el("p", {}, `${t("已報：", "Announced: ")}${words(s.announced, s.to_move)}`) : null,
    boardsNode,
    el("p", {}, t("走子檢查：", "Check: "), tab.checked ? `${SIDE[tab.checked.side]} ${checkOutcome(tab.checked.outcome)}（${finding(tab.checked) || "—"}）` : "—",
      p.correction ? t(` · 待修正至 ${p.correction}`, ` · to be corrected to ${p.correction}`) : "",
      p.reannounce ? t(` · 待重新報棋 ${p.reannounce[0]}`, ` · to be announced again: ${p.reannounce[0]}`) : "",
      p.restore ? t(` · 待還原 ${p.restore}`, ` · to be restored: ${p.restore}`) : ""),
    tally,
    el("p", { class: "offer" }, t("提和：", "Draw offer: "), s.offer ? t(`${SIDE[s.offer.side]}提和${s.offer.stands ? "（已生效）" : "（本輪結束後生效）"}`,
      `${SIDE[s.offer.side]} offers${s.offer.stands ? " (standing)" : " (from the end of the turn)"}`) : t("沒有", "none")),
    s.warnings.length ? el("p", {}, t("循環警誡記錄：", "Repetition warnings: ") + `${s.warnings.map((w) => `（第 ${w.ply} 着）${warning(w.warning)}`).join("；")}`) : null,
    recordingView(id, name(id)),
    s.result ? el("p", {}, `${t("結果 ", "Result: ")}${result(s.result)}${s.verified !== null && s.verified !== undefined ? t(` · 已口頭核實 ${s.verified}`, ` · verified orally: ${s.verified}`) : t(" · 未核實", " · not verified")}`) : null,
    tab.calls.length ? el("details", { class: "recent", open: tab.callsOpen, ontoggle: (e) => { tab.callsOpen = e.target.open; } },
      el("summary", { "data-key": "recent" }, t(`最近呼叫 ${tab.calls.length}`, `Recent calls: ${tab.calls.length}`)),
      el("ul", {}, tab.calls.map((c) => el("li", {}, `${c.time} ${describe(c)}`)))) : null,
    el("p", {}, el("button", { type: "button", "data-key": "sheet", onclick: () => { select(id); showSheet(); } }, t("記錄表", "Scoresheet")), " ",
      el("a", { href: `/proxy#token=${encodeURIComponent(token())}&table=${id}`, target: "_blank", "data-proxy": id, "data-key": "proxy" }, t(`代為報棋頁（第 ${id} 台）`, `Announce page (table ${id})`)))].filter(Boolean));
  restoreFocus(node, id, was);
}


/** One open call of the arbiter's snapshot (`calls`), with the button of its ruling. */
function callItem(id, c) {
  const key = CALL_KEYS[c.action];
  return el("li", { class: `call call-${c.kind}`, "data-call": c.kind },
    callText(c), c.articles?.length ? ` 〔${articles(c.articles)}〕` : "",
    key ? el("button", {
      type: "button", class: "call-act", "data-action": c.action, "data-key": `call-${c.action}`,
      onclick: () => { select(id); runCall(c); },
    }, CALL_LABELS[c.action], " ", el("kbd", {}, key.toUpperCase())) : null);
}


const snapOf = () => tables.get(current)?.snap;

const { actions: ACTIONS, runCall } = rulings({
  conn, say, name, log: logLine, showSheet,
  current: () => current,
  snap: () => snapOf(),
  checked: () => tables.get(current)?.checked,
});


$("action-buttons").replaceChildren(...ACTIONS.map((a) => el("button", {
  type: "button", "aria-keyshortcuts": a.key.toUpperCase(), onclick: a.run,
}, a.label, " ", el("kbd", {}, a.key.toUpperCase()))));
$("keys-list").replaceChildren(
  el("li", {}, el("kbd", {}, "1"), "–", el("kbd", {}, "9"), t(" 選棋台", "select a table")),
  ...ACTIONS.map((a) => el("li", {}, el("kbd", {}, a.key.toUpperCase()), " ", a.label)),
  el("li", {}, el("kbd", {}, "?"), t(" 快捷鍵", "this list")));

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || $("dlg").open) return;
  if (e.target.closest("input, select, textarea")) return;
  const key = /^[1-9]$/.test(e.key) ? shownTables()[Number(e.key) - 1] : undefined;
  if (key !== undefined) { e.preventDefault(); select(key); return; }
  if (e.key === "?") { $("keys-help").open = !$("keys-help").open; return; }
  const a = ACTIONS.find((x) => x.key === e.key.toLowerCase());
  if (a) { e.preventDefault(); a.run(); }
});

function showSheet() {
  const s = snapOf();
  if (!s) return;
  const id = current;
  $("sheet-sec").hidden = false;
  $("sheet").replaceChildren(...[
    el("p", {}, name(id)),
    el("table", { class: "sheet" }, el("caption", {}, t("裁判人員記譜", "Scoresheet")),
      el("thead", {}, el("tr", {}, [t("着", "Ply"), t("方", "Side"), t("着法", "Move"), "ICCS", t("提和", "Offer"), t("用時餘", "Clock")].map((h) => el("th", { scope: "col" }, h)), seekHeader(id))),
      el("tbody", {}, s.moves.map((m) => el("tr", {}, el("td", {}, m.ply), el("td", {}, SIDE[m.side]), el("td", {}, move(m.mv, m.side, m.draw_offer)),
        el("td", {}, m.mv.iccs), el("td", {}, m.draw_offer ? "＝" : ""), el("td", {}, fmtTime(m.clock_ms)), seekCell(id, m, say))))),
    s.result ? el("p", {}, `${t("結果 ", "Result: ")}${result(s.result)}`) : null,
    el("p", { class: "row noprint" },
      el("a", { href: `/api/tables/${id}/scoresheet.txt` }, t("匯出文字", "Export text")), " ",
      el("a", { href: `/api/tables/${id}/game.pgn` }, t("匯出 PGN", "Export PGN")), " ",
      el("a", { href: `/api/tables/${id}/game.xqf`, download: "" }, "XQF"), " ",
      el("a", { href: `/api/tables/${id}/game.cbf`, download: "" }, "CBF"), " ",
      el("a", { href: `/api/tables/${id}/game.dhtmlxq`, download: "" }, "DhtmlXQ"), " ",
      el("button", { type: "button", onclick: printSheet }, t("列印", "Print")))].filter(Boolean));
  $("h-sheet").focus();
}

/** Prints the scoresheet alone (the print stylesheet hides the rest of the monitor while the
 * body says so). */
function printSheet() {
  document.body.classList.add("print-sheet");
  window.addEventListener("afterprint", () => document.body.classList.remove("print-sheet"), { once: true });
  print();
}

/** The round shown's desk (round_desk.js): its games to start, its late arrivals. */
function desk() {
  const shown = shownTables().map((id) => ({ id, info: tables.get(id)?.info, snap: tables.get(id)?.snap, entered: entered.get(id) }));
  renderDesk(shown, timeline.now() ?? 0, { start: startAll, record: recordLate });
}

/** Starts the clocks of tables `ids` (95(3)-(4): the referee presses for black), each logged. */
async function startAll(ids) {
  const colon = t("：", ": ");
  for (const id of ids) {
    const m = answerText(await conn.command({ type: "start" }, id));
    logLine(`${name(id)}${colon}${t("開鐘", "clocks started")} — ${m ? `${t("被拒：", "refused: ")}${m}` : t("已接受", "accepted")}`);
  }
  say(t(`本輪 ${ids.length} 局已開鐘`, `${ids.length} game(s) of this round started`));
}

/** Records table `x`'s absence `r` (87, 109(2)), logged; the monitor shows it as the
 * organiser's result once the server says so. */
async function recordLate(x, r) {
  const colon = t("：", ": ");
  try {
    await recordAbsence(x, r);
    logLine(`${name(x.id)}${colon}${boardResult(r)}${t("（第109(2)條）— 已記錄", " (109(2)) — recorded")}`);
  } catch (e) {
    logLine(`${name(x.id)}${colon}${e.message}`);
    say(e.message, true);
  }
}

// Clocks move every second; only their text is redrawn (the card is redrawn on events), so an
// open 最近呼叫 list, the focus and a screen reader's place in the card survive.
setInterval(() => {
  if (unsynced) return;
  desk();
  for (const id of order) {
    const s = tables.get(id)?.snap;
    const line = s?.clock?.running && $(`table-${id}`)?.querySelector(".clockline");
    if (line) line.textContent = clockText(s);
    const tile = s?.clock?.running && document.querySelector(`#tabs [data-table="${id}"] .t-clock`);
    if (tile) tile.textContent = clockText(s);
  }
}, 1000);
