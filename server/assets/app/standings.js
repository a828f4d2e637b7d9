// The standings page (issue 18): `/standings#event=N` reads /api/events/N/standings.json and
// draws two real tables, the standings and the current round's pairings, each with a
// caption, column headers and the player's name as the row header, so that a screen reader
// reads "第3名，李明，積分 26" cell by cell. Printable (the buttons and the language menu
// are not printed). Nothing is announced but the status line after a refresh.

import { $, el, t } from "./common.js";

const eventId = () => new URLSearchParams(location.hash.slice(1)).get("event") || "";

/** A result as shown ("1-0") and as read ("紅勝"). */
const RESULTS = {
  red_wins: ["1-0", t("紅勝", "red wins")],
  black_wins: ["0-1", t("黑勝", "black wins")],
  draw: ["½-½", t("和局", "draw")],
  forced_draw: ["½-½", t("強制和棋", "forced draw")],
  both_lose: ["0-0", t("雙負", "both lose")],
  red_absent: ["-/+", t("紅方缺席，黑方不戰而勝", "red absent, black wins without play")],
  black_absent: ["+/-", t("黑方缺席，紅方不戰而勝", "black absent, red wins without play")],
  both_absent: ["-/-", t("雙方缺席", "both absent")],
};

/** A label of the JSON ({zh, en}) in the page's language. */
const label = (l) => t(l.zh, l.en);

function player(p) {
  const club = p.club ? el("span", { class: "club" }, ` (${p.club})`) : null;
  return [p.name, club];
}

function standingsTable(s) {
  const round = s.rounds_complete;
  const caption = round
    ? t(`名次（第${round}輪後）`, `Standings after round ${round}`)
    : t("名次（未有完成的輪次）", "Standings (no round complete yet)");
  const head = [t("名次", "Place"), t("編號", "No."), t("姓名", "Name"), t("積分", "Score"),
    ...s.tiebreaks.map(label)];
  const rows = s.lines.map((l) => el("tr", {},
    el("td", {}, l.shared ? `${l.place}=` : String(l.place)),
    el("td", {}, String(l.player.id)),
    el("th", { scope: "row" }, ...player(l.player)),
    el("td", {}, l.score),
    ...s.tiebreaks.map((_, i) => el("td", {}, l.tiebreaks[i] ?? "")),
  ));
  return el("table", { class: "standings" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

function result(b) {
  if (!b.black) return t("輪空", "bye");
  const r = RESULTS[b.result];
  if (!r) return t("對局中", "in play");
  const status = b.verified ? "" : t("（未核實）", " (not yet verified)");
  return [el("span", { "aria-hidden": "true" }, r[0]), el("span", { class: "visually-hidden" }, r[1]), status];
}

function pairingsTable(round) {
  const head = [t("台", "Board"), t("紅方", "Red"), t("結果", "Result"), t("黑方", "Black")];
  const rows = round.boards.map((b) => el("tr", {},
    el("td", {}, String(b.board)),
    el("th", { scope: "row" }, ...player(b.red)),
    el("td", {}, result(b)),
    el("td", {}, ...(b.black ? player(b.black) : ["—"])),
  ));
  return el("table", { class: "standings pairings" },
    el("caption", {}, t(`第${round.round}輪配對`, `Pairings, round ${round.round}`)),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

async function load() {
  const id = eventId();
  const status = $("status");
  if (!id) {
    status.textContent = t("網址缺少賽事編號（#event=1）", "The address names no event (#event=1)");
    return;
  }
  $("csv").href = `/api/events/${id}/standings.csv`;
  const resp = await fetch(`/api/events/${id}/standings.json`);
  if (!resp.ok) {
    status.textContent = t("未能讀取成績", "The standings could not be read");
    return;
  }
  const s = await resp.json();
  $("event-name").textContent = s.name;
  $("standings").replaceChildren(standingsTable(s));
  const current = s.rounds[s.rounds.length - 1];
  $("pairings").replaceChildren(current
    ? pairingsTable(current)
    : el("p", {}, t("尚未配對", "No round paired yet")));
  status.textContent = t(`已更新，共${s.rounds.length}輪`, `Updated: ${s.rounds.length} round(s) paired`);
}

$("refresh").addEventListener("click", load);
$("print").addEventListener("click", () => window.print());
window.addEventListener("hashchange", load);
load();
