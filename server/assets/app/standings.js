// The standings page: `/standings#event=N` reads /api/events/N/standings.json and
// draws the pairings of a round (the current one, or any earlier one chosen in the menu),
// the standings, the best-placed players of each category (組別獎) and the crosstable
// (app/standings_views.js). The address says what to show:
// `&round=R` a round's pairings, `&view=text` lists a screen reader reads line by line,
// `&view=hall` the hall screen: the current round's pairings, the standings and the
// crosstable, large, a screenful at a time, turning the page by itself every `&page=S`
// seconds (the standings first once the last round is over), read again
// every 30 seconds. Printable on A4 (standings.css). Nothing is announced but the status
// line after a refresh.

import { $, el, t } from "./common.js";
import {
  categoryPrizes, crossTable, crossText, findTable, pairingsTable, pairingsText, scoresheets, standingsTable, standingsText,
  prizeLists, tableCards,
} from "./standings_views.js";

/** How often the hall screen asks whether the event has changed. */
const HALL_POLL_MS = 3000;
/** How long a page of the hall screen stays, in seconds, unless the address says (`&page=8`). */
const HALL_PAGE_S = 12;

const params = () => new URLSearchParams(location.hash.slice(1));
const view = () => params().get("view") || "tables";

/** The address of this page with `key` set (or removed when `value` is null). */
function withParam(key, value) {
  const p = params();
  if (value === null) p.delete(key);
  else p.set(key, value);
  return `#${p.toString()}`;
}

let last = null;

/** The round whose pairings are shown: the address's, else the last paired. */
function shownRound(s) {
  const asked = Number(params().get("round"));
  return s.rounds.find((r) => r.round === asked) ?? s.rounds[s.rounds.length - 1];
}

function roundMenu(s, shown) {
  const pick = $("round");
  pick.replaceChildren(...s.rounds.map((r) => el("option", { value: String(r.round), selected: r === shown },
    r === s.rounds[s.rounds.length - 1] ? t(`第${r.round}輪（本輪）`, `Round ${r.round} (current)`) : t(`第${r.round}輪`, `Round ${r.round}`))));
  pick.disabled = s.rounds.length < 2;
}

function draw(s) {
  const text = view() === "text";
  const hall = view() === "hall";
  // "Find your board", the table cards and the scoresheets alone on their page (and
  // paper): the other sections wait.
  const find = view() === "find";
  const cards = view() === "cards";
  const sheets = view() === "sheets";
  const alone = find || cards || sheets;
  for (const id of ["sec-pairings", "sec-standings", "sec-cross"]) $(id).hidden = alone;
  $("sec-sheets").hidden = !sheets;
  document.body.classList.toggle("sheets-view", sheets);
  $("sec-find").hidden = !find;
  $("sec-cards").hidden = !cards;
  document.body.classList.toggle("find-view", find);
  document.body.classList.toggle("cards-view", cards);
  document.body.classList.toggle("hall", hall);
  document.documentElement.classList.toggle("hall-screen", hall);
  document.body.classList.toggle("text-mode", text);
  $("event-name").textContent = s.name;
  const shown = shownRound(s);
  roundMenu(s, shown);
  const current = shown === s.rounds[s.rounds.length - 1];
  $("pairings").replaceChildren(...(shown
    ? [text ? pairingsText(shown, current) : pairingsTable(shown, current)].flat()
    : [el("p", {}, t("尚未配對", "No round paired yet"))]));
  $("standings").replaceChildren(...[text ? standingsText(s) : standingsTable(s)].flat());
  // The category prizes: lists, read alike in every view but the hall's.
  $("sec-prizes").hidden = hall || alone;
  $("sheets").replaceChildren(...(sheets && shown ? scoresheets(shown, s.name) : []));
  $("cards").replaceChildren(...(cards && shown ? tableCards(shown) : []));
  // Drawn in its own view only: the text view draws no table.
  $("find").replaceChildren(...(!find ? [] : shown ? [findTable(shown)] : [el("p", {}, t("尚未配對", "No round paired yet"))]));
  // The organiser's prize lists when the event has them (printed for the prize-giving),
  // else the best-placed players of each category.
  const lists = s.prizes?.length > 0;
  $("prizes").replaceChildren(...(lists ? prizeLists(s) : categoryPrizes(s)));
  $("h-prizes").textContent = lists ? t("獎項", "Prizes") : t("組別獎", "Category prizes");
  $("sec-prizes").classList.toggle("noprint", !lists);
  $("cross").replaceChildren(...(s.rounds.length ? [text ? crossText(s) : crossTable(s)].flat()
    : [el("p", {}, t("尚未配對", "No round paired yet"))]));
  for (const [id, v] of [["view-tables", "tables"], ["view-text", "text"], ["view-hall", "hall"], ["view-find", "find"], ["view-cards", "cards"], ["view-sheets", "sheets"]]) {
    $(id).href = withParam("view", v === "tables" ? null : v);
    if (view() === v) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  if (hall) paginate(s);
  else stopPaging();
}

// ---- The hall screen: a screenful at a time ----

/** The hall's pages: `{ sec, from, to }`, rows [from, to) of a section's table. */
let pages = [];
let at = 0;
let paused = false;
let turn = null;

const SECTIONS = ["sec-pairings", "sec-standings", "sec-cross"];
const bodyRows = (sec) => [...$(sec).querySelectorAll("table tbody tr")];

/** The order of the hall's sections: the standings first once the last round is over. */
function hallOrder(s) {
  const over = s.rounds_total && s.rounds_complete >= s.rounds_total;
  return over ? ["sec-standings", "sec-cross", "sec-pairings"] : SECTIONS;
}

/** Shows rows [from, to) of section `sec` and nothing of the others. */
function showOnly(sec, from, to) {
  for (const id of SECTIONS) $(id).classList.toggle("hall-off", id !== sec);
  bodyRows(sec).forEach((r, i) => r.classList.toggle("hall-off", i < from || i >= to));
}

/** The foot of a section on the page, where the screen's foot is `innerHeight`. */
const foot = (sec) => $(sec).getBoundingClientRect().bottom + scrollY;

/** Splits the sections into pages that each fit the screen (rows added one at a time while
 * the section ends above the screen's foot; at least one a page), then shows the page the
 * screen was on. */
function paginate(s) {
  measured = `${innerWidth}×${innerHeight}`;
  $("hall-pager").hidden = false;
  pages = [];
  for (const sec of hallOrder(s)) pages.push(...sectionPages(sec));
  show(Math.min(at, pages.length - 1), false);
}

/** Whether rows [from, to) of a section fit the screen. */
function fits(sec, from, to) {
  showOnly(sec, from, to);
  return foot(sec) <= innerHeight - 4;
}

/** A section's pages: as many rows as fit a page, then shared out evenly (20 boards in pages
 * of 10 and 10, not 15 and 5) when the even share fits too. */
function sectionPages(sec) {
  const n = bodyRows(sec).length;
  const greedy = [];
  let from = 0;
  do {
    let to = from + 1;
    while (to < n && fits(sec, from, to + 1)) to += 1;
    greedy.push({ sec, from, to });
    from = to;
  } while (from < n);
  const size = Math.ceil(n / greedy.length);
  const even = greedy.map((_, k) => ({ sec, from: k * size, to: Math.min(n, (k + 1) * size) })).filter((p) => p.from < p.to);
  return even.length === greedy.length && even.every((p) => fits(sec, p.from, p.to)) ? even : greedy;
}

/** Shows page `i` (fading in, unless the reader prefers no motion) and sets the next turn. */
function show(i, moved = true) {
  at = i;
  const p = pages[i];
  showOnly(p.sec, p.from, p.to);
  $("hall-page").textContent = t(`第 ${i + 1} 頁，共 ${pages.length} 頁`, `Page ${i + 1} of ${pages.length}`);
  if (moved) {
    const main = document.querySelector("main");
    main.classList.remove("page-in");
    void main.offsetWidth;
    main.classList.add("page-in");
  }
  clearTimeout(turn);
  const secs = Math.max(1, Number(params().get("page")) || HALL_PAGE_S);
  if (!paused) turn = setTimeout(() => show((at + 1) % pages.length), secs * 1000);
}

/** Leaves the hall: every row of every section shown, no turning. */
function stopPaging() {
  clearTimeout(turn);
  $("hall-pager").hidden = true;
  for (const e of document.querySelectorAll(".hall-off")) e.classList.remove("hall-off");
}

$("hall-next").addEventListener("click", () => { if (pages.length) show((at + 1) % pages.length); });
$("hall-prev").addEventListener("click", () => { if (pages.length) show((at + pages.length - 1) % pages.length); });
$("hall-pause").addEventListener("click", (e) => {
  paused = !paused;
  e.currentTarget.textContent = paused ? t("繼續翻頁", "Resume paging") : t("暫停翻頁", "Pause paging");
  if (pages.length) show(at, false);
});
// A screen of another size has other pages (measured once it has settled at its new size).
let measured = "";
let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => {
    if (view() === "hall" && last && measured !== `${innerWidth}×${innerHeight}`) paginate(last);
  }, 200);
});

async function load() {
  const id = params().get("event") || "";
  const status = $("status");
  if (!id) {
    status.textContent = t("網址缺少賽事編號（#event=1）", "The address names no event (#event=1)");
    return;
  }
  $("csv").href = `/api/events/${id}/standings.csv`;
  $("csv-pairings").href = `/api/events/${id}/pairings.csv`;
  $("csv-cross").href = `/api/events/${id}/crosstable.csv`;
  $("games-zip").href = `/api/events/${id}/games.zip`;
  const resp = await fetch(`/api/events/${id}/standings.json`);
  if (!resp.ok) {
    status.textContent = t("未能讀取成績", "The standings could not be read");
    return;
  }
  last = await resp.json();
  // Said first: the hall's pages are measured with the status line in the header.
  status.textContent = t(`已更新，共${last.rounds.length}輪`, `Updated: ${last.rounds.length} round(s) paired`);
  draw(last);
}

$("refresh").addEventListener("click", load);
$("print").addEventListener("click", () => window.print());
$("round").addEventListener("change", (e) => { location.hash = withParam("round", e.target.value); });
// A new round or view redraws what was read; another event is read.
let event = params().get("event");
window.addEventListener("hashchange", () => {
  if (params().get("event") !== event || !last) {
    event = params().get("event");
    load();
  } else {
    draw(last);
  }
});
// The hall screen follows the day: it asks the event's version every few seconds (a tag
// that changes when a round is paired, a result entered, a game started or over) and reads
// the standings again when it changed, so that a round's pairings are up within seconds.
let seen = null;
setInterval(async () => {
  const id = params().get("event");
  if (view() !== "hall" || !id) return;
  const v = await fetch(`/api/events/${id}/standings.version`).then((r) => (r.ok ? r.json() : null), () => null);
  if (!v || v.version === seen) return;
  seen = v.version;
  load();
}, HALL_POLL_MS);
load();
