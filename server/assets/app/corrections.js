// 第108條 on the organiser's page (app/organiser.js): the current round's boards, and a form
// to correct one — colours reversed (108(1)) or a wrong pairing, the red or black players of
// two boards exchanged (108(2)) — through POST /api/events/N/tables/T/override. The server
// decides the remedy (a replay at new tables within 5′ of a game of 15′ or more a side, else
// the game stands); a replay's new seats are listed once with their links, and a refusal is
// read out from the section's role=alert region.

import { $, confirmThen, el, t } from "./common.js";

const SIDES = { red: t("紅方", "red"), black: t("黑方", "black") };
const ROLES = {
  red: t("紅方", "red"), black: t("黑方", "black"),
  red_proxy: t("紅方代理", "red's proxy"), black_proxy: t("黑方代理", "black's proxy"),
};
const RESULTS = {
  red_wins: t("紅勝", "red wins"), black_wins: t("黑勝", "black wins"), draw: t("和局", "draw"),
  forced_draw: t("強制和", "forced draw"), both_lose: t("雙負", "both lose"),
  red_absent: t("紅方缺席", "red absent"), black_absent: t("黑方缺席", "black absent"),
  both_absent: t("雙方缺席", "both absent"),
};

/** The server's refusals of a correction, by code; `round` is the round the page showed. */
function refusal(code, round) {
  return {
    round_over: t(`第${round}輪已完結：只可更正本輪的對局（第108條）`,
      `Round ${round} is over: only the current round's boards can be corrected (108)`),
    wrong_round: t("此桌不屬於頁面所示的一輪", "That table is a board of another round"),
    no_board: t("此桌已不是任何一輪的對局（可能已改在新桌重賽）", "That table is no longer a board of a round (it may have been replayed at a new table)"),
    same_table: t("不能與同一台對調", "A board cannot be exchanged with itself"),
    outside_window: t("第108(2)條：只在每方用時15分鐘以上、開賽後5分鐘內才修正配對；此局照計，只改記錄",
      "108(2): a pairing is corrected only in a game of 15′ or more a side within 5′ of its start: the game stands"),
  }[code];
}

const boardName = (b) => t(`第${b.board}台`, `Board ${b.board}`);
const tableName = (id) => t(`第${id}桌`, `table ${id}`);

/** The page's state: the view drawn last and how to name a player. */
const state = { view: null, who: String };

/** The current round's boards as a table. */
function boardsTable(view, who) {
  const rows = view.boards.map((b) => el("tr", {},
    el("th", { scope: "row" }, boardName(b)),
    el("td", {}, tableName(b.table)),
    el("td", {}, who(b.red)),
    el("td", {}, who(b.black))));
  return el("table", { class: "standings boards" },
    el("caption", {}, t(`第${view.rounds}輪對局`, `Round ${view.rounds}: boards`)),
    el("thead", {}, el("tr", {}, ...[t("台", "Board"), t("桌", "Table"), t("紅方", "Red"), t("黑方", "Black")]
      .map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

function option(b, who) {
  return new Option(t(`${boardName(b)}（${tableName(b.table)}）：${who(b.red)} 對 ${who(b.black)}`,
    `${boardName(b)} (${tableName(b.table)}): ${who(b.red)} v ${who(b.black)}`), String(b.table));
}

/** The boards other than the one chosen, to exchange players with. */
function fillOthers() {
  const chosen = $("o-board").value;
  const others = state.view.boards.filter((b) => String(b.table) !== chosen);
  $("o-with").replaceChildren(...others.map((b) => option(b, state.who)));
  $("o-exchange").disabled = !others.length;
}

/** Draws the section from the register's view; keeps the board chosen when it still is one. */
export function drawBoards(view, who) {
  Object.assign(state, { view, who });
  const section = $("override-section");
  section.hidden = false;
  if (!view.boards.length) {
    $("boards").replaceChildren(el("p", {}, t("未有配對的輪次", "No round has been paired yet")));
    $("override-form").hidden = true;
    return;
  }
  $("override-form").hidden = false;
  $("boards").replaceChildren(boardsTable(view, who));
  const was = $("o-board").value;
  $("o-board").replaceChildren(...view.boards.map((b) => option(b, who)));
  if (view.boards.some((b) => String(b.table) === was)) $("o-board").value = was;
  fillOthers();
}

/** A 108 entry of the change log in the page's language, or null for another kind. */
export function correctionText(kind, v, who) {
  if (kind === "colours_reversed") {
    const what = v.remedy === "replay" ? t("修正紅黑後重賽", "replayed with the right colours")
      : t("對局照計，只改記錄", "the game stands, recorded as played");
    return t(`第108(1)條：第${v.round}輪第${v.board}台紅黑顛倒，${what}`,
      `108(1): round ${v.round} board ${v.board}: colours reversed, ${what}`);
  }
  if (kind === "pairing_overridden") {
    const changed = v.after.games.map((g, i) => [g, v.before.games[i], i + 1])
      .filter(([g, old]) => !old || g.red !== old.red || g.black !== old.black)
      .map(([g, , n]) => t(`第${n}台 ${who(g.red)} 對 ${who(g.black)}`, `board ${n} ${who(g.red)} v ${who(g.black)}`));
    return t(`第108(2)條：第${v.round}輪配對更正：${changed.join("；")}`,
      `108(2): round ${v.round} pairing corrected: ${changed.join("; ")}`);
  }
  if (kind === "retabled") {
    const was = v.from == null ? "" : t(`（原${tableName(v.from)}）`, ` instead of ${tableName(v.from)}`);
    return t(`第${v.round}輪第${v.board}台改在${tableName(v.to)}重賽${was}`,
      `round ${v.round} board ${v.board}: replayed at ${tableName(v.to)}${was}`);
  }
  if (kind === "result") {
    return t(`第${v.round}輪第${v.board}台：記錄結果，${RESULTS[v.result] || v.result}`,
      `round ${v.round} board ${v.board}: result recorded, ${RESULTS[v.result] || v.result}`);
  }
  return null;
}

/** The new seats of a replay or a round, each link shown this once. */
export function newSeats(seats) {
  if (!seats.length) return [];
  const items = seats.map((s) => {
    const link = `${location.origin}${s.link}`;
    return el("li", {}, `${tableName(s.table)} ${ROLES[s.role] || s.role} ${s.name}${t("：", ": ")}`,
      el("a", { href: link }, link));
  });
  return [el("h3", {}, t("新座位連結（令牌只顯示一次，請即交給賽員）", "New seats' links (each token is shown this once: hand them over now)")),
    el("ul", { class: "seat-links" }, ...items)];
}

/** The board chosen in the select `id`. */
function chosen(id = "o-board") {
  return state.view?.boards.find((b) => String(b.table) === $(id).value) || null;
}

/** What a correction will do, asked before it is sent: it cannot be undone. */
function askColours(b) {
  const who = state.who;
  return t(`第${state.view.rounds}輪${boardName(b)}（${tableName(b.table)}）${who(b.red)} 對 ${who(b.black)}：紅黑顛倒（第108(1)條）。每方用時15分鐘以上且開賽後5分鐘內，此局在新桌重賽，此桌的賽員連結作廢；否則對局照計，只改記錄。不能收回。確定更正？`,
    `Round ${state.view.rounds} ${boardName(b)} (${tableName(b.table)}) ${who(b.red)} v ${who(b.black)}: colours reversed (108(1)). Within 5′ of the start of a game of 15′ or more a side it is replayed at a new table and this table's player links stop working; otherwise the game stands and the record is changed. This cannot be undone. Correct it?`);
}

function askExchange(b, other, side) {
  const s = SIDES[side];
  return t(`第${state.view.rounds}輪${boardName(b)}與${boardName(other)}：${s}賽員對調（第108(2)條），兩台在新桌重賽，兩桌的賽員連結作廢。不能收回。確定對調？`,
    `Round ${state.view.rounds} ${boardName(b)} and ${boardName(other)}: the ${s} players exchanged (108(2)); both boards are replayed at new tables and both tables' player links stop working. This cannot be undone. Exchange them?`);
}

/** What was done, in words. */
function doneText(done, correction) {
  const [first, second] = done.boards;
  const at = t(`第${done.round}輪${boardName(first)}`, `Round ${done.round} ${boardName(first)}`);
  if (correction.exchange) {
    const side = SIDES[correction.exchange.side];
    return t(`${at}與${boardName(second)}：${side}賽員已對調，兩台在新桌重賽（第108(2)條）`,
      `${at} and ${boardName(second)}: the ${side} players exchanged, both replayed at new tables (108(2))`);
  }
  // 108(1): 「無論如何雙方均記技術犯規 1 次」, whichever the remedy.
  return done.remedy === "replay"
    ? t(`${at}：紅黑顛倒，已在${tableName(first.table)}重賽（第108(1)條）。新局開始時雙方各記技術犯規 1 次，監局的屏幕可見，計入上限`,
      `${at}: colours reversed, replayed at ${tableName(first.table)} (108(1)). The replay starts with one technical foul a side, shown on the monitor and counted towards the limit`)
    : t(`${at}：紅黑顛倒，對局照計，記錄已更正（第108(1)條）。無論如何雙方均記技術犯規 1 次：請監局在${tableName(first.table)}為雙方各記一次（監察屏幕：記違規 → 技術犯規）`,
      `${at}: colours reversed; the game stands and the record is corrected (108(1)). Each side is given one technical foul all the same: the referee records it at ${tableName(first.table)}, one for each side (the monitor's record a violation → technical foul)`);
}

/** Wires the form: `api(method, path, body)` throws an Error with the refusal's `code`;
 * `reload()` draws the register again. */
export function initCorrections(api, reload) {
  const buttons = [$("o-colours"), $("o-exchange")];
  async function send(correction) {
    const table = $("o-board").value;
    if (!table) return;
    const round = state.view.rounds;
    $("o-error").replaceChildren();
    $("o-status").textContent = "";
    for (const b of buttons) b.disabled = true;
    try {
      const done = await api("POST", `/tables/${table}/override`, { round, correction });
      $("o-status").textContent = doneText(done, correction);
      $("new-seats").replaceChildren(...newSeats(done.seats));
      await reload();
    } catch (e) {
      $("o-error").replaceChildren(el("p", {}, refusal(e.code, round) || e.message));
      if (["round_over", "wrong_round", "no_board"].includes(e.code)) await reload();
    } finally {
      for (const b of buttons) b.disabled = false;
      fillOthers();
    }
  }
  $("o-board").addEventListener("change", fillOthers);
  $("o-colours").addEventListener("click", () => {
    const b = chosen();
    if (b) confirmThen(askColours(b), () => send("colours_reversed"));
  });
  $("o-exchange").addEventListener("click", () => {
    const [b, other] = [chosen(), chosen("o-with")];
    const side = $("o-side").value;
    if (b && other) confirmThen(askExchange(b, other, side), () => send({ exchange: { with: other.table, side } }));
  });
}
