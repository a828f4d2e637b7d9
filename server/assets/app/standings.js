// The standings page (issue 18): `/standings#event=N` reads /api/events/N/standings.json and
// draws the pairings of a round (the current one, or any earlier one chosen in the menu),
// the standings, the best-placed players of each category (組別獎) and the crosstable
// (app/standings_views.js). The address says what to show:
// `&round=R` a round's pairings, `&view=text` lists a screen reader reads line by line,
// `&view=hall` the current round's pairings large for the hall screen, refreshed by itself.
// Printable on A4 (standings.css). Nothing is announced but the status line after a refresh.

import { $, el, t } from "./common.js";
import { categoryPrizes, crossTable, crossText, pairingsTable, pairingsText, standingsTable, standingsText } from "./standings_views.js";

/** How often the hall screen reads the standings again. */
const HALL_REFRESH_MS = 30000;

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
  document.body.classList.toggle("hall", view() === "hall");
  document.body.classList.toggle("text-mode", text);
  $("event-name").textContent = s.name;
  const shown = shownRound(s);
  roundMenu(s, shown);
  const current = shown === s.rounds[s.rounds.length - 1];
  $("pairings").replaceChildren(...(shown
    ? [text ? pairingsText(shown, current) : pairingsTable(shown, current)].flat()
    : [el("p", {}, t("尚未配對", "No round paired yet"))]));
  $("standings").replaceChildren(...[text ? standingsText(s) : standingsTable(s)].flat());
  // The category prizes (issue 30, item 12): lists, read alike in every view but the hall's.
  $("sec-prizes").hidden = view() === "hall";
  $("prizes").replaceChildren(...categoryPrizes(s));
  $("cross").replaceChildren(...(s.rounds.length ? [text ? crossText(s) : crossTable(s)].flat()
    : [el("p", {}, t("尚未配對", "No round paired yet"))]));
  for (const [id, v] of [["view-tables", "tables"], ["view-text", "text"], ["view-hall", "hall"]]) {
    $(id).href = withParam("view", v === "tables" ? null : v);
    if (view() === v) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
}

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
  const resp = await fetch(`/api/events/${id}/standings.json`);
  if (!resp.ok) {
    status.textContent = t("未能讀取成績", "The standings could not be read");
    return;
  }
  last = await resp.json();
  draw(last);
  status.textContent = t(`已更新，共${last.rounds.length}輪`, `Updated: ${last.rounds.length} round(s) paired`);
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
setInterval(() => { if (view() === "hall") load(); }, HALL_REFRESH_MS);
load();
